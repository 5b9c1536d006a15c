import { type MailWorld, mailboxFor, startMailWorld } from '../mail/helpers';

/**
 * A DAV test file's world: the platform through the local gateway (which serves `/dav/`), a
 * mailbox of the owner's, and an app password for the owner (calendars and contacts, read-write).
 */
export interface DavWorld {
  w: MailWorld;
  box: { domain: string; address: string; mailboxId: string };
  api: string;
  password: string;
  email: string;
  dav(method: string, path: string, options?: DavCall): Promise<DavResponse>;
  close(): Promise<void>;
}

export interface DavCall {
  body?: string;
  headers?: Record<string, string>;
  /** user:password; default the owner's app password; null: none. */
  auth?: string | null;
}

export interface DavResponse {
  status: number;
  text: string;
  headers: Headers;
}

export const basic = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

export async function startDavWorld(): Promise<DavWorld> {
  const w = await startMailWorld({ smtp: true });
  const box = await mailboxFor(w.p, [w.p.owner.userId]);
  const made = await w.p.post('/v1/me/app-passwords', { name: 'tests', scopes: ['calendars', 'contacts'] });
  if (made.status !== 201) throw new Error(`app password: ${made.status} ${made.text}`);
  const password = made.body.password as string;
  const email = w.p.owner.email;
  return {
    w,
    box,
    api: `/v1/orgs/${w.p.org.orgId}/mail/mailboxes/${box.mailboxId}`,
    password,
    email,
    async dav(method, path, options = {}) {
      const headers: Record<string, string> = { ...options.headers };
      if (options.auth !== null) {
        const [user, pass] = options.auth
          ? [options.auth.slice(0, options.auth.indexOf(':')), options.auth.slice(options.auth.indexOf(':') + 1)]
          : [email, password];
        headers.authorization = basic(user as string, pass as string);
      }
      const res = await fetch(`${w.p.baseUrl}${path}`, { method, headers, body: options.body, redirect: 'manual' });
      return { status: res.status, text: await res.text(), headers: res.headers };
    },
    close: () => w.close(),
  };
}

/** The hrefs of a multistatus answer's responses. */
export const hrefsOf = (xml: string) => [...xml.matchAll(/<D:href>([^<]*)<\/D:href>/g)].map((m) => m[1] as string);

export const PROPFIND = (props: string) =>
  `<?xml version="1.0" encoding="utf-8"?><d:propfind xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav" xmlns:cs="http://calendarserver.org/ns/" xmlns:card="urn:ietf:params:xml:ns:carddav"><d:prop>${props}</d:prop></d:propfind>`;

export const XML = { 'content-type': 'application/xml; charset=utf-8' };
