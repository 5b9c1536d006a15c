import type { Signed } from '../../shared/domains/dav/places';
import { el, escapeXml, NS, parseXml, XmlError, type XNode } from '../../shared/domains/dav/xml';
import { DomainError, forbidden, isDomainError } from '../../shared/kernel/ground/errors';
import { describeError, log } from '../../shared/kernel/ground/log';
import { STATUS_OF_KIND } from '../../shared/kernel/http/http-error';
import { ALLOW, answer, DAV_HEADER, DAV_MESSAGES, type DavAnswer, type DavRequest, xmlAnswer } from './answers';
import { REALM, signIn } from './auth';
import { methods } from './methods';
import { type DavNode, resolve, segmentsOf } from './resources';

/** An error as WebDAV answers it: `<D:error>` with the precondition, if any, and the message. */
function errorAnswer(err: unknown): DavAnswer {
  if (err instanceof XmlError) return errorAnswer(new DomainError('invalid', DAV_MESSAGES.badXml(err.message)));
  if (isDomainError(err)) {
    const status = typeof err.extra.status === 'number' ? err.extra.status : STATUS_OF_KIND[err.kind];
    const condition = typeof err.extra.condition === 'string' ? /^\{([^}]*)\}(.+)$/.exec(err.extra.condition) : null;
    const inner =
      (condition ? el(condition[1] as string, condition[2] as string) : '') +
      `<P:message xmlns:P="urn:platform:dav">${escapeXml(err.message)}</P:message>`;
    return xmlAnswer(
      status,
      `<?xml version="1.0" encoding="utf-8"?>\n<D:error xmlns:D="DAV:" xmlns:C="${NS.caldav}" xmlns:CR="${NS.carddav}">${inner}</D:error>`,
    );
  }
  log.error('dav_failure', { error: describeError(err) });
  return answer(500, 'Internal error');
}

const isWellKnown = (path: string) => /^\/\.well-known\/(caldav|carddav)\/?$/.test(path);

/**
 * CalDAV (RFC 4791) and CardDAV (RFC 6352) over the calendars and address books of a person's
 * mailboxes, the API's own records: one function, behind its own URL on AWS (API Gateway's HTTP
 * APIs don't pass PROPFIND, REPORT or MKCALENDAR), under `/dav/` of the local gateway. Programs
 * start at `/.well-known/caldav` or `/.well-known/carddav` (RFC 6764), which lead to `/dav/`, and
 * sign in with an app password (./auth.ts). Requests and answers are whole, within Lambda's 6 MB.
 */
export async function serveDav(req: DavRequest): Promise<DavAnswer> {
  try {
    return await route(req);
  } catch (err) {
    return errorAnswer(err);
  }
}

async function route(req: DavRequest): Promise<DavAnswer> {
  const method = req.method.toUpperCase();
  // RFC 6764: the well-known addresses lead to the root, before any sign-in.
  if (isWellKnown(req.path)) return answer(301, '', { location: '/dav/' });
  if (req.path === '/dav') return answer(301, '', { location: '/dav/' });
  if (method === 'OPTIONS') return answer(200, '', { dav: DAV_HEADER, allow: ALLOW, 'content-length': '0' });
  const signed = await signIn(req.headers.authorization, req.ip);
  if ('status' in signed) {
    if (signed.status === 429) {
      return answer(429, `Too many wrong sign-ins. Try again in ${signed.retryAfter} seconds.`, {
        'retry-after': String(signed.retryAfter),
      });
    }
    return answer(401, DAV_MESSAGES.signIn, { 'www-authenticate': REALM });
  }
  const segs = segmentsOf(req.path);
  if (!segs) return answer(400, 'The path is not valid percent-encoding.');
  const s = signed.signed;
  const r = await resolve(s, segs);
  const handler = methods[method];
  if (!handler) return answer(405, DAV_MESSAGES.method(method), { allow: ALLOW });
  if (r) checkScope(s, r);
  else if (method === 'MKCALENDAR') return handler({ req, signed: s, segs, resource: undefined, body: bodyXml(req) });
  if (!r) return answer(404, DAV_MESSAGES.notFound);
  return handler({ req, signed: s, segs, resource: r, body: bodyXml(req) });
}

function checkScope(s: Signed, r: DavNode): void {
  const need = r.kind === 'home' ? (r.of === 'calendars' ? 'calendars' : 'contacts') : undefined;
  const scope =
    need ??
    (r.kind === 'calendar' || r.kind === 'event'
      ? 'calendars'
      : r.kind === 'book' || r.kind === 'card'
        ? 'contacts'
        : undefined);
  if (scope && !s.password.scopes.includes(scope))
    throw forbidden(scope === 'calendars' ? DAV_MESSAGES.noCalendars : DAV_MESSAGES.noContacts);
}

/** The request's XML body, read on first use: undefined when empty. */
function bodyXml(req: DavRequest): () => XNode | undefined {
  let parsed: XNode | undefined | null = null;
  return () => {
    if (parsed !== null) return parsed;
    const raw = req.body.toString('utf8').trim();
    const type = (req.headers['content-type'] ?? '').toLowerCase();
    if (raw && type && !/(^|\/|\+)xml\b/.test(type)) {
      throw new DomainError('invalid', DAV_MESSAGES.badXml(`its type is ${type}, not XML`), { status: 415 });
    }
    parsed = raw ? parseXml(raw) : undefined;
    return parsed;
  };
}
