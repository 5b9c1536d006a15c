import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { importJWK, type JWK, jwtVerify, SignJWT } from 'jose';
import type * as SigninClients from '../../shared/domains/signin-clients/clients';
import { audienceOf } from '../../shared/kernel/auth/audience';
import type * as Users from '../../shared/kernel/identity/users';
import { localMail } from '../../shared/ports/mail-transport/local';
import { originOf, WEB_BASE, WEB_CLIENT_ID } from '../web-app-policy';

/**
 * The local identity provider's sign-in for projects' own users: OpenID Connect's code flow with
 * PKCE (S256, required), for the sign-in clients made through the API (shared/domains/signin-clients/clients.ts,
 * read from the platform table when a request comes). `GET /authorize` shows an email sign-in
 * page (no password: this is one machine), `POST /authorize` answers the client's redirect with a
 * code (one use, 60 s), `POST /token` exchanges codes and refresh tokens (web clients authenticate
 * with a secret, basic or post; spa and native clients are public), `GET /userinfo` reads an access
 * token. Tokens are RS256 JWTs of the same key as the platform's, for the client's own audience, so
 * none of them is accepted by the platform's API. A deleted client gets no more tokens.
 *
 * One client is the platform's own: `platform` (PLATFORM_CLIENT_ID), the pages the local platform
 * serves beside the API (lib/local/device-page.ts), public, PKCE, redirected only to `/device/callback`
 * on a loopback address (any port, RFC 8252 §7.3). Its people are the platform's users, and since its
 * token is a platform access token, knowing an email is not enough (tenant code on this machine can
 * reach this server): a one-time sign-in code goes by mail to the outbox (`OUTBOX_DIR`, inside the
 * private DATA_DIR), 10 minutes, 5 tries. Its token is for the API's audience, 15 minutes, no refresh.
 *
 * Another is the platform's web app (`platform-web`, WEB_CLIENT_ID; lib/local/web.ts serves it):
 * public, PKCE (S256) required, redirected exactly to `<WEB_APP_URL>/app/callback` (the API's own
 * address, set by `npm start`) or to `/app/callback` on a loopback origin (any port, RFC 8252 §7.3:
 * a platform on this machine serving the app, as a test platform does). People sign in as for `platform`
 * (email, then the code mailed to the outbox), and the identity provider then keeps a session of
 * its own (cookie `platform_idp_session`, HttpOnly, SameSite=Lax, 12 hours), so `prompt=none`
 * re-authorizes without a page (`login_required` when there is no session). Its tokens: an access
 * token for the API's audience (15 minutes), an ID token (`aud` the client), and a refresh token
 * that works once (each use returns a new one). Sign-out: `POST /revoke` (RFC 7009) revokes a
 * refresh token; `GET /logout` (RP-initiated logout) ends the session and revokes the refresh
 * tokens it gave, then returns to the app (one of its origins). The app's origins (WEB_APP_URL's
 * and loopback ones, the same rule as the redirect) may call the token, revocation and discovery
 * endpoints (CORS).
 */
interface Code {
  /** The platform's own client: `sub` is a platform user, the token one of the API's. */
  platform?: { name?: string };
  /** The web app's: the identity provider's session the code was given in. */
  sid?: string;
  clientId: string;
  redirectUri: string;
  challenge: string;
  sub: string;
  email: string;
  scope: string[];
  nonce?: string;
  expiresAt: number;
}

const CODE_MS = 60_000;
const ACCESS_SECONDS = 3600;
const REFRESH_SECONDS = 30 * 86_400;
const codes = new Map<string, Code>();
const sha256 = (s: string) => createHash('sha256').update(s).digest();

/** The client id of the platform's own pages (the device page). */
export const PLATFORM_CLIENT_ID = 'platform';
const PLATFORM_REDIRECT = /^http:\/\/(localhost|127\.0\.0\.1|\[::1\]):\d{1,5}\/device\/callback$/;
const PLATFORM_TOKEN_SECONDS = 15 * 60;
const SIGN_IN_CODE_MS = 10 * 60_000;
const SIGN_IN_TRIES = 5;
/** Sign-in codes mailed to the platform's people, by email. */
const signInCodes = new Map<string, { code: string; expiresAt: number; tries: number }>();

/** The web app's session at the identity provider, and how long it and a refresh token last. */
const SESSION_COOKIE = 'platform_idp_session';
const SESSION_SECONDS = 12 * 3600;
const WEB_REFRESH_SECONDS = 12 * 3600;
interface Session {
  userId: string;
  email: string;
  expiresAt: number;
  /** The refresh tokens given in this session: revoked when it ends. */
  refreshTokens: Set<string>;
}
/** Sessions by their cookie's value; the refresh tokens' sessions by token. */
const sessions = new Map<string, Session>();
const sessionOfRefresh = new Map<string, string>();

/** Where the web app is (`WEB_APP_URL`, the API's own address on `npm start`); its callback, exactly. */
export const webCallbackOf = (appUrl: string | undefined) =>
  appUrl ? `${appUrl.replace(/\/+$/, '')}${WEB_BASE}callback` : undefined;

/** A loopback origin (any port, RFC 8252 §7.3): the web app served by a platform on this machine. */
const LOOPBACK_ORIGIN = /^http:\/\/(localhost|127\.0\.0\.1|\[::1\]):\d{1,5}$/;

/** Whether `origin` is the web app's: WEB_APP_URL's, or a loopback one. CORS and logout follow it. */
const isWebAppOrigin = (origin: string | undefined, appUrl: string | undefined) =>
  origin !== undefined && (origin === originOf(appUrl) || LOOPBACK_ORIGIN.test(origin));

/** The web app's redirect: exactly `<WEB_APP_URL>/app/callback`, or `/app/callback` on a loopback origin. */
export function isWebCallback(uri: string, appUrl: string | undefined): boolean {
  if (uri === webCallbackOf(appUrl)) return true;
  const origin = originOf(uri);
  return origin !== undefined && LOOPBACK_ORIGIN.test(origin) && uri === `${origin}${WEB_BASE}callback`;
}

export interface OAuthKey {
  kid: string;
  privateJwk: JWK;
  publicJwk: JWK;
}

/** What discovery adds for the code flow. */
export const oauthMetadata = (issuer: string) => ({
  authorization_endpoint: `${issuer}/authorize`,
  token_endpoint: `${issuer}/token`,
  userinfo_endpoint: `${issuer}/userinfo`,
  revocation_endpoint: `${issuer}/revoke`,
  revocation_endpoint_auth_methods_supported: ['none'],
  end_session_endpoint: `${issuer}/logout`,
  prompt_values_supported: ['none', 'login'],
  response_types_supported: ['code'],
  grant_types_supported: ['authorization_code', 'refresh_token'],
  code_challenge_methods_supported: ['S256'],
  scopes_supported: ['openid', 'profile', 'email'],
  subject_types_supported: ['pairwise'],
  token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
  claims_supported: ['sub', 'email', 'email_verified', 'name'],
});

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > 64 * 1024) break;
    chunks.push(chunk as Buffer);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

export const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);

/** What the identity provider reads of the platform: the sign-in clients and the platform's users. */
export type ClientsModule = Pick<
  typeof SigninClients,
  'findClient' | 'secretHolds' | 'newRefreshToken' | 'takeRefreshToken'
> &
  Pick<typeof Users, 'findUserByEmail'>;

/**
 * A page of the identity provider. `redirectTo`: the (registered) redirect URI its form ends at:
 * browsers hold `form-action` to the redirects a form's answer makes too, so its origin is allowed.
 */
const html = (res: ServerResponse, status: number, title: string, body: string, redirectTo?: string) => {
  const target = redirectTo ? ` ${originOf(redirectTo) ?? ''}` : '';
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'content-security-policy': `default-src 'none'; form-action 'self'${target.trimEnd()}; frame-ancestors 'none'`,
    'referrer-policy': 'no-referrer',
  });
  res.end(
    `<!doctype html><html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
      `<title>${escapeHtml(title)}</title>${body}`,
  );
  return true;
};

/**
 * `/authorize` for the platform's own clients: the email, then the sign-in code mailed to it, then
 * `grant` with the platform user (who gets an authorization code).
 */
async function platformAuthorize(
  req: IncomingMessage,
  res: ServerResponse,
  form: URLSearchParams,
  clients: ClientsModule,
  grant: (user: { userId: string; email: string; name?: string }) => boolean,
): Promise<boolean> {
  const hidden = (omit: string[]) =>
    [...form.entries()]
      .filter(([k]) => !omit.includes(k))
      .map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v)}">`)
      .join('');
  const note = (message?: string) => (message ? `<p role="alert">${escapeHtml(message)}</p>` : '');
  // Known good by now: the caller checked it against the client's registration.
  const redirectUri = form.get('redirect_uri') ?? undefined;
  const emailForm = (message?: string) =>
    html(
      res,
      200,
      'Sign in to the platform',
      `<form method="post" action="/authorize"><h1>Sign in to the platform</h1>${note(message)}${hidden(['email', 'sign_in_code'])}` +
        '<label>Email <input name="email" type="email" autocomplete="email" required></label><button>Continue</button></form>',
      redirectUri,
    );
  const codeForm = (email: string, message?: string) =>
    html(
      res,
      200,
      'Enter your sign-in code',
      `<form method="post" action="/authorize"><h1>Enter your sign-in code</h1>${note(message)}` +
        `<p>A sign-in code was sent to ${escapeHtml(email)}. On this machine mail lands in the outbox folder (DATA_DIR/outbox), one .eml file per message.</p>` +
        `${hidden(['sign_in_code'])}<label>Code <input name="sign_in_code" inputmode="numeric" autocomplete="one-time-code" required></label>` +
        '<button>Sign in</button></form>',
      redirectUri,
    );

  const email = (form.get('email') ?? '').trim().toLowerCase();
  if (req.method === 'GET' || !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) return emailForm();
  const user = await clients.findUserByEmail(email);
  if (!user) return emailForm('No one with this email is on this platform.');
  const typed = (form.get('sign_in_code') ?? '').replace(/\s/g, '');
  const held = signInCodes.get(email);
  if (!typed || !held || held.expiresAt < Date.now()) {
    const code = String(randomInt(100_000_000)).padStart(8, '0');
    signInCodes.set(email, { code, expiresAt: Date.now() + SIGN_IN_CODE_MS, tries: 0 });
    await localMail().send({
      to: [email],
      subject: `Your sign-in code: ${code}`,
      text: `Your code to sign in to the platform is ${code}. It works once, for 10 minutes.\n\nIf you did not ask for it, ignore this message.\n`,
    });
    return codeForm(email, typed ? 'That code expired: a new one was sent.' : undefined);
  }
  const right = typed.length === held.code.length && timingSafeEqual(Buffer.from(typed), Buffer.from(held.code));
  if (!right) {
    held.tries++;
    if (held.tries < SIGN_IN_TRIES) return codeForm(email, 'That code is not right.');
    signInCodes.delete(email);
    return emailForm('Too many wrong codes. Start again.');
  }
  signInCodes.delete(email);
  return grant(user);
}

/** An authorization code of a platform client for `user` (the platform's users are its subjects). */
function platformCode(
  form: URLSearchParams,
  clientId: string,
  user: { userId: string; email: string; name?: string },
  sid?: string,
): string {
  const code = randomBytes(32).toString('base64url');
  codes.set(code, {
    platform: { name: user.name },
    sid,
    clientId,
    redirectUri: form.get('redirect_uri') ?? '',
    challenge: form.get('code_challenge') ?? '',
    sub: user.userId,
    email: user.email,
    scope: ['openid', 'email', 'profile'],
    nonce: form.get('nonce') ?? undefined,
    expiresAt: Date.now() + CODE_MS,
  });
  return code;
}

const cookieOf = (req: IncomingMessage, name: string) =>
  (req.headers.cookie ?? '')
    .split(';')
    .map((c) => c.trim().split('='))
    .find(([k]) => k === name)?.[1];

/** The identity provider's session the request carries, if it holds and its person is still on the platform. */
async function sessionOf(req: IncomingMessage, clients: ClientsModule) {
  const sid = cookieOf(req, SESSION_COOKIE);
  const session = sid ? sessions.get(sid) : undefined;
  if (!sid || !session) return undefined;
  const user = session.expiresAt > Date.now() ? await clients.findUserByEmail(session.email) : undefined;
  if (!user || user.userId !== session.userId) {
    await endSession(sid, clients);
    return undefined;
  }
  return { sid, user };
}

async function endSession(sid: string, clients: ClientsModule): Promise<void> {
  const session = sessions.get(sid);
  sessions.delete(sid);
  for (const token of session?.refreshTokens ?? []) {
    sessionOfRefresh.delete(token);
    await clients.takeRefreshToken(token, WEB_CLIENT_ID);
  }
}

const sessionCookie = (sid: string, seconds: number) =>
  `${SESSION_COOKIE}=${sid}; Path=/; Max-Age=${seconds}; HttpOnly; SameSite=Lax`;

/**
 * `/authorize` for the web app: with a session (and no `prompt=login`) the code comes at once;
 * `prompt=none` without one is `login_required`; else the person signs in, which starts a session.
 */
async function webAuthorize(
  req: IncomingMessage,
  res: ServerResponse,
  form: URLSearchParams,
  clients: ClientsModule,
  back: (params: Record<string, string>) => boolean,
): Promise<boolean> {
  const prompt = (form.get('prompt') ?? '').split(' ').filter(Boolean);
  const session = prompt.includes('login') ? undefined : await sessionOf(req, clients);
  if (session && req.method === 'GET')
    return back({ code: platformCode(form, WEB_CLIENT_ID, session.user, session.sid) });
  if (prompt.includes('none')) return back({ error: 'login_required' });
  return platformAuthorize(req, res, form, clients, (user) => {
    const sid = randomBytes(32).toString('base64url');
    sessions.set(sid, {
      userId: user.userId,
      email: user.email,
      expiresAt: Date.now() + SESSION_SECONDS * 1000,
      refreshTokens: new Set(),
    });
    res.setHeader('set-cookie', sessionCookie(sid, SESSION_SECONDS));
    return back({ code: platformCode(form, WEB_CLIENT_ID, user, sid) });
  });
}

export async function handleOAuth(
  req: IncomingMessage,
  res: ServerResponse,
  key: OAuthKey,
  issuer: string,
  loadClients: () => Promise<ClientsModule>,
  webAppUrl: () => string | undefined = () => process.env.WEB_APP_URL,
): Promise<boolean> {
  const url = new URL(req.url ?? '/', 'http://local');
  // The web app's origin calls the token, revocation and discovery endpoints from the browser.
  const appUrl = webAppUrl();
  const requestOrigin = req.headers.origin;
  const corsAllowed = isWebAppOrigin(requestOrigin, appUrl);
  if (corsAllowed) {
    res.setHeader('access-control-allow-origin', requestOrigin as string);
    res.setHeader('vary', 'Origin');
  }
  if (req.method === 'OPTIONS' && corsAllowed) {
    res.writeHead(204, {
      'access-control-allow-methods': 'GET, POST',
      'access-control-allow-headers': 'authorization, content-type',
      'access-control-max-age': '600',
    });
    res.end();
    return true;
  }
  const json = (status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers });
    res.end(JSON.stringify(body));
    return true;
  };
  const text = (status: number, body: string) => {
    res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
    res.end(body);
    return true;
  };
  if (!['/authorize', '/token', '/userinfo', '/revoke', '/logout'].includes(url.pathname)) return false;
  const clients = await loadClients();

  if (url.pathname === '/authorize' && (req.method === 'GET' || req.method === 'POST')) {
    const form = req.method === 'POST' ? await readForm(req) : url.searchParams;
    const clientId = form.get('client_id') ?? '';
    const redirectUri = form.get('redirect_uri') ?? '';
    const platform = clientId === PLATFORM_CLIENT_ID;
    const web = clientId === WEB_CLIENT_ID;
    const client = clientId && !platform && !web ? await clients.findClient(clientId) : undefined;
    // Before the redirect URI is known good, errors stay here (RFC 6749 §4.1.2.1).
    if (!client && !platform && !web) return text(400, 'Unknown client.');
    const registered = platform
      ? PLATFORM_REDIRECT.test(redirectUri)
      : web
        ? isWebCallback(redirectUri, appUrl)
        : client?.redirectUris.includes(redirectUri);
    if (!registered) return text(400, 'This redirect URI is not registered.');
    const back = (params: Record<string, string>) => {
      const target = new URL(redirectUri);
      for (const [k, v] of Object.entries(params)) target.searchParams.set(k, v);
      const state = form.get('state');
      if (state) target.searchParams.set('state', state);
      res.writeHead(302, { location: target.toString(), 'cache-control': 'no-store' });
      res.end();
      return true;
    };
    if (form.get('response_type') !== 'code') return back({ error: 'unsupported_response_type' });
    const challenge = form.get('code_challenge') ?? '';
    if (form.get('code_challenge_method') !== 'S256' || !/^[A-Za-z0-9_-]{43}$/.test(challenge)) {
      return back({ error: 'invalid_request', error_description: 'PKCE with S256 is required.' });
    }
    if (web) return webAuthorize(req, res, form, clients, back);
    if (!client) {
      return platformAuthorize(req, res, form, clients, (user) => back({ code: platformCode(form, clientId, user) }));
    }
    const scope = (form.get('scope') ?? 'openid').split(' ').filter(Boolean);
    if (!scope.every((s) => client.scopes.includes(s))) return back({ error: 'invalid_scope' });
    const email = (form.get('email') ?? '').trim().toLowerCase();
    if (req.method === 'GET' || !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) {
      const hidden = [...form.entries()]
        .filter(([k]) => k !== 'email')
        .map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v)}">`)
        .join('');
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.end(
        `<!doctype html><title>Sign in to ${escapeHtml(client.name)}</title><form method="post" action="/authorize">` +
          `<h1>Sign in to ${escapeHtml(client.name)}</h1>${hidden}<label>Email <input name="email" type="email" required></label>` +
          '<button>Continue</button></form>',
      );
      return true;
    }
    const code = randomBytes(32).toString('base64url');
    codes.set(code, {
      clientId,
      redirectUri,
      challenge,
      sub: `pu_${sha256(`${client.projectId}:${email}`).toString('hex').slice(0, 24)}`,
      email,
      scope,
      nonce: form.get('nonce') ?? undefined,
      expiresAt: Date.now() + CODE_MS,
    });
    return back({ code });
  }

  if (url.pathname === '/token' && req.method === 'POST') {
    const form = await readForm(req);
    // Client authentication: basic, or the client id (and secret) in the body.
    let clientId = form.get('client_id') ?? '';
    let secret = form.get('client_secret') ?? undefined;
    const basic = /^Basic (.+)$/i.exec(req.headers.authorization ?? '')?.[1];
    if (basic) {
      const [id, pass] = Buffer.from(basic, 'base64').toString('utf8').split(':');
      clientId = decodeURIComponent(id ?? '');
      secret = decodeURIComponent(pass ?? '');
    }
    const fail = (status: number, error: string, description?: string) =>
      json(status, { error, ...(description ? { error_description: description } : {}) });
    if (clientId === PLATFORM_CLIENT_ID) return platformToken(form, key, issuer, fail, json);
    if (clientId === WEB_CLIENT_ID) return webToken(form, key, issuer, clients, fail, json);
    const client = clientId ? await clients.findClient(clientId) : undefined;
    if (!client) return fail(401, 'invalid_client');
    if (client.type === 'web' && (!secret || !clients.secretHolds(client, secret))) return fail(401, 'invalid_client');
    const grant = form.get('grant_type');
    let subject: { sub: string; email: string; scope: string[]; nonce?: string };
    if (grant === 'authorization_code') {
      const code = codes.get(form.get('code') ?? '');
      codes.delete(form.get('code') ?? '');
      const verifier = form.get('code_verifier') ?? '';
      if (!code || code.expiresAt < Date.now() || code.clientId !== clientId || code.platform) {
        return fail(400, 'invalid_grant');
      }
      if (code.redirectUri !== form.get('redirect_uri')) return fail(400, 'invalid_grant', 'redirect_uri differs.');
      if (sha256(verifier).toString('base64url') !== code.challenge) return fail(400, 'invalid_grant', 'PKCE failed.');
      subject = code;
    } else if (grant === 'refresh_token') {
      const stored = await clients.takeRefreshToken(form.get('refresh_token') ?? '', clientId);
      if (!stored) return fail(400, 'invalid_grant');
      subject = stored;
    } else return fail(400, 'unsupported_grant_type');

    const privateKey = await importJWK(key.privateJwk, 'RS256');
    const now = Math.floor(Date.now() / 1000);
    const sign = (claims: Record<string, unknown>, typ: string) =>
      new SignJWT(claims)
        .setProtectedHeader({ alg: 'RS256', kid: key.kid, typ })
        .setIssuer(issuer)
        .setSubject(subject.sub)
        .setAudience(clientId)
        .setIssuedAt(now)
        .setExpirationTime(now + ACCESS_SECONDS)
        .sign(privateKey);
    const profile = {
      ...(subject.scope.includes('email') ? { email: subject.email, email_verified: true } : {}),
      ...(subject.scope.includes('profile') ? { name: subject.email.split('@')[0] } : {}),
    };
    const refresh = await clients.newRefreshToken({ clientId, ...subject }, REFRESH_SECONDS);
    return json(200, {
      token_type: 'Bearer',
      access_token: await sign({ scope: subject.scope.join(' '), client_id: clientId, ...profile }, 'at+jwt'),
      expires_in: ACCESS_SECONDS,
      scope: subject.scope.join(' '),
      refresh_token: refresh,
      ...(subject.scope.includes('openid')
        ? { id_token: await sign({ ...profile, ...(subject.nonce ? { nonce: subject.nonce } : {}) }, 'JWT') }
        : {}),
    });
  }

  // RFC 7009: the web app's refresh token revoked (an unknown or used one too: 200 either way).
  if (url.pathname === '/revoke' && req.method === 'POST') {
    const form = await readForm(req);
    if (form.get('client_id') !== WEB_CLIENT_ID) return json(401, { error: 'invalid_client' });
    const token = form.get('token') ?? '';
    if (!token) return json(400, { error: 'invalid_request', error_description: 'token is required.' });
    if (token.startsWith('rt_')) {
      await clients.takeRefreshToken(token, WEB_CLIENT_ID);
      const sid = sessionOfRefresh.get(token);
      sessionOfRefresh.delete(token);
      if (sid) sessions.get(sid)?.refreshTokens.delete(token);
    }
    res.writeHead(200, { 'cache-control': 'no-store', 'content-length': 0 });
    res.end();
    return true;
  }

  // RP-initiated logout: the session ends with its refresh tokens; back to the app if asked.
  if (url.pathname === '/logout' && (req.method === 'GET' || req.method === 'POST')) {
    const form = req.method === 'POST' ? await readForm(req) : url.searchParams;
    const to = form.get('post_logout_redirect_uri');
    const allowed = (() => {
      if (!to) return false;
      const target = isWebAppOrigin(originOf(to), appUrl) ? new URL(to) : undefined;
      return target?.pathname.startsWith(WEB_BASE) ?? false;
    })();
    if (to && !allowed) return text(400, 'This post-logout redirect URI is not registered.');
    const sid = cookieOf(req, SESSION_COOKIE);
    if (sid) await endSession(sid, clients);
    res.setHeader('set-cookie', sessionCookie('', 0));
    if (to) {
      const target = new URL(to);
      const state = form.get('state');
      if (state) target.searchParams.set('state', state);
      res.writeHead(302, { location: target.toString(), 'cache-control': 'no-store' });
      res.end();
      return true;
    }
    return html(res, 200, 'Signed out', '<h1>Signed out</h1><p>You are signed out of the platform.</p>');
  }

  if (url.pathname === '/userinfo') {
    const token = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1] ?? '';
    try {
      const { payload } = await jwtVerify(token, await importJWK(key.publicJwk, 'RS256'), {
        issuer,
        typ: 'at+jwt',
      });
      const client = await clients.findClient(String(payload.client_id ?? ''));
      if (!client) throw new Error('client gone');
      return json(200, {
        sub: payload.sub,
        email: payload.email,
        email_verified: payload.email_verified,
        name: payload.name,
      });
    } catch {
      return json(401, { error: 'invalid_token' }, { 'www-authenticate': 'Bearer error="invalid_token"' });
    }
  }
  return false;
}

/** The code of the platform's own client exchanged for a platform access token (no refresh token). */
async function platformToken(
  form: URLSearchParams,
  key: OAuthKey,
  issuer: string,
  fail: (status: number, error: string, description?: string) => boolean,
  json: (status: number, body: unknown) => boolean,
): Promise<boolean> {
  if (form.get('grant_type') !== 'authorization_code') return fail(400, 'unsupported_grant_type');
  const code = codes.get(form.get('code') ?? '');
  codes.delete(form.get('code') ?? '');
  if (!code?.platform || code.clientId !== PLATFORM_CLIENT_ID || code.expiresAt < Date.now()) {
    return fail(400, 'invalid_grant');
  }
  if (code.redirectUri !== form.get('redirect_uri')) return fail(400, 'invalid_grant', 'redirect_uri differs.');
  if (sha256(form.get('code_verifier') ?? '').toString('base64url') !== code.challenge) {
    return fail(400, 'invalid_grant', 'PKCE failed.');
  }
  const now = Math.floor(Date.now() / 1000);
  const token = await new SignJWT({ email: code.email, name: code.platform.name })
    .setProtectedHeader({ alg: 'RS256', kid: key.kid, typ: 'JWT' })
    .setSubject(code.sub)
    .setIssuer(issuer)
    .setAudience(audienceOf(process.env))
    .setIssuedAt(now)
    .setExpirationTime(now + PLATFORM_TOKEN_SECONDS)
    .sign(await importJWK(key.privateJwk, 'RS256'));
  return json(200, { token_type: 'Bearer', access_token: token, expires_in: PLATFORM_TOKEN_SECONDS });
}

/**
 * The web app's token endpoint: a code (PKCE) or a refresh token (one use) for an access token of
 * the API's audience, an ID token and the next refresh token. A person no longer on the platform
 * gets nothing.
 */
async function webToken(
  form: URLSearchParams,
  key: OAuthKey,
  issuer: string,
  clients: ClientsModule,
  fail: (status: number, error: string, description?: string) => boolean,
  json: (status: number, body: unknown) => boolean,
): Promise<boolean> {
  const grant = form.get('grant_type');
  let subject: { sub: string; email: string; nonce?: string; sid?: string };
  if (grant === 'authorization_code') {
    const code = codes.get(form.get('code') ?? '');
    codes.delete(form.get('code') ?? '');
    if (!code?.platform || code.clientId !== WEB_CLIENT_ID || code.expiresAt < Date.now()) {
      return fail(400, 'invalid_grant');
    }
    if (code.redirectUri !== form.get('redirect_uri')) return fail(400, 'invalid_grant', 'redirect_uri differs.');
    if (sha256(form.get('code_verifier') ?? '').toString('base64url') !== code.challenge) {
      return fail(400, 'invalid_grant', 'PKCE failed.');
    }
    subject = code;
  } else if (grant === 'refresh_token') {
    const token = form.get('refresh_token') ?? '';
    const stored = await clients.takeRefreshToken(token, WEB_CLIENT_ID);
    const sid = sessionOfRefresh.get(token);
    sessionOfRefresh.delete(token);
    if (sid) sessions.get(sid)?.refreshTokens.delete(token);
    if (!stored) return fail(400, 'invalid_grant');
    subject = { sub: stored.sub, email: stored.email, sid };
  } else return fail(400, 'unsupported_grant_type');
  const user = await clients.findUserByEmail(subject.email);
  if (!user || user.userId !== subject.sub) return fail(400, 'invalid_grant');

  const privateKey = await importJWK(key.privateJwk, 'RS256');
  const now = Math.floor(Date.now() / 1000);
  const sign = (claims: Record<string, unknown>, audience: string, seconds: number) =>
    new SignJWT({ email: user.email, name: user.name, ...claims })
      .setProtectedHeader({ alg: 'RS256', kid: key.kid, typ: 'JWT' })
      .setSubject(user.userId)
      .setIssuer(issuer)
      .setAudience(audience)
      .setIssuedAt(now)
      .setExpirationTime(now + seconds)
      .sign(privateKey);
  const scope = ['openid', 'email', 'profile'];
  const refresh = await clients.newRefreshToken(
    { clientId: WEB_CLIENT_ID, sub: user.userId, email: user.email, scope },
    WEB_REFRESH_SECONDS,
  );
  const session = subject.sid ? sessions.get(subject.sid) : undefined;
  if (session && subject.sid) {
    session.refreshTokens.add(refresh);
    sessionOfRefresh.set(refresh, subject.sid);
  }
  return json(200, {
    token_type: 'Bearer',
    access_token: await sign({}, audienceOf(process.env), PLATFORM_TOKEN_SECONDS),
    expires_in: PLATFORM_TOKEN_SECONDS,
    refresh_token: refresh,
    scope: scope.join(' '),
    id_token: await sign(
      { email_verified: true, ...(subject.nonce ? { nonce: subject.nonce } : {}) },
      WEB_CLIENT_ID,
      PLATFORM_TOKEN_SECONDS,
    ),
  });
}
