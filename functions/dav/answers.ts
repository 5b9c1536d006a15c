import type { Signed } from '../../shared/domains/dav/places';
import { roleAllows } from '../../shared/domains/dav/places';
import { el, NS, text, type XNode } from '../../shared/domains/dav/xml';
import { DomainError, forbidden } from '../../shared/kernel/ground/errors';
import type { DavNode } from './resources';

/** The DAV function's requests and answers, its messages, and the write gate every method uses. */
export interface DavRequest {
  method: string;
  /** The path as sent (percent-encoded). */
  path: string;
  headers: Record<string, string | undefined>;
  body: Buffer;
  ip: string;
}

export interface DavAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export const DAV_HEADER = '1, 3, calendar-access, addressbook';
export const ALLOW = 'OPTIONS, GET, HEAD, PUT, DELETE, PROPFIND, PROPPATCH, REPORT, MKCALENDAR';
const XML = 'application/xml; charset=utf-8';

export const DAV_MESSAGES = {
  signIn: 'Sign in with your email and an app password (platform dav password create).',
  notFound: 'Not found',
  noCalendars: 'This app password is not for calendars.',
  noContacts: 'This app password is not for contacts.',
  readOnly: 'This app password is read-only.',
  roleReadOnly: "Your role in this organization can't change its calendars or contacts.",
  badXml: (why: string) => `The request body is not the XML this method takes: ${why}`,
  method: (m: string) => `${m} is not allowed here.`,
} as const;

export const answer = (status: number, body = '', headers: Record<string, string> = {}): DavAnswer => ({
  status,
  headers: { ...(body ? { 'content-type': 'text/plain; charset=utf-8' } : {}), ...headers },
  body,
});

export const xmlAnswer = (status: number, body: string, headers: Record<string, string> = {}): DavAnswer => ({
  status,
  headers: { 'content-type': XML, ...headers },
  body,
});

/** A write's gate: a read-write password, and a role that may write there. */
export function requireWrite(s: Signed, r: DavNode): void {
  if (s.password.access !== 'readwrite')
    throw new DomainError('forbidden', DAV_MESSAGES.readOnly, { condition: `{DAV:}need-privileges` });
  if ('place' in r) {
    const kind = r.kind === 'calendar' || r.kind === 'event' ? 'calendars' : 'contacts';
    if (!roleAllows(r.place, kind, true)) throw forbidden(DAV_MESSAGES.roleReadOnly);
  }
}

export interface MethodInput {
  req: DavRequest;
  signed: Signed;
  segs: string[];
  resource: DavNode | undefined;
  body: () => XNode | undefined;
}

export const multistatus = (responses: string[], extra = '') =>
  xmlAnswer(
    207,
    `<?xml version="1.0" encoding="utf-8"?>\n<D:multistatus${Object.entries({
      D: NS.dav,
      C: NS.caldav,
      CR: NS.carddav,
      CS: NS.cs,
      A: NS.apple,
    })
      .map(([p, u]) => ` xmlns:${p}="${u}"`)
      .join('')}>${responses.join('')}${extra}</D:multistatus>`,
  );

export const statusResponse = (href: string, status: string) =>
  el(NS.dav, 'response', text(NS.dav, 'href', href) + text(NS.dav, 'status', status));
