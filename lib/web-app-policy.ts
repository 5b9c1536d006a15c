/**
 * What the platform's own web app (web/, built into web/dist by `vite build -c web/vite.config.mts`)
 * is served with, the same on one machine (lib/local/web.ts) and on AWS (lib/aws/web-app.ts): its
 * base path, where its hashed files are, how long each is cached, and its Content-Security-Policy.
 * No imports: the local platform reads it without the CDK, the stack without the local servers.
 */

/** The app's base path (vite's `base`). */
export const WEB_BASE = '/app/';

/** Vite's `assetsDir` under the base: content-hashed file names, kept a year. */
export const WEB_ASSETS = `${WEB_BASE}assets/`;

/** The client id of the web app at the platform's identity provider (local: lib/local/idp-oauth.ts). */
export const WEB_CLIENT_ID = 'platform-web';

/** Hashed assets never change under their name. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Everything else (index.html, config.json, files of `public/`) is checked on every load. */
export const REVALIDATE = 'no-cache';

/** What `/app/config.json` answers: where the app finds the API and how it signs in. */
export interface WebConfig {
  /** The API's base URL; empty: the app's own origin. */
  apiUrl: string;
  /** The OpenID Connect issuer (its `/.well-known/openid-configuration` lists the endpoints). */
  authUrl: string;
  clientId: string;
  /** Where the identity provider sends the browser back with a code (exactly as registered). */
  redirectUri: string;
}

/** An origin (scheme, host, port) of a URL; `undefined` when `url` is empty or not a URL. */
export function originOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

/**
 * The app's Content-Security-Policy. `connect`: the origins it calls besides its own (the API's
 * and the identity provider's); `frames`: the identity provider's, for a silent re-authorization
 * in a hidden frame (whose callback page is the app's own: `frame-ancestors 'self'`).
 * Inline styles are allowed: the accessible primitives position popovers with style attributes.
 * `storage`: the object store's origins, whose presigned links the app uploads to (mail
 * attachments) and shows images from (a message's `cid:` parts). Images are also allowed from any
 * `https:` host: a mail's remote images, shown only when the person asks (sandboxed frames inherit
 * this policy, so it is the one that lets them load).
 */
export function webAppCsp(connect: string[], frames: string[] = connect, storage: string[] = []): string {
  const list = (extra: string[]) => ["'self'", ...new Set(extra.filter(Boolean))].join(' ');
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data: blob: https: ${[...new Set(storage.filter(Boolean))].join(' ')}`.trim(),
    "font-src 'self' data:",
    `connect-src ${list([...connect, ...storage])}`,
    `frame-src ${list(frames)}`,
    "frame-ancestors 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    `form-action ${list(frames)}`,
  ].join('; ');
}
