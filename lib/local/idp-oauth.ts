import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { importJWK, type JWK, jwtVerify, SignJWT } from 'jose';
import type * as SigninClients from '../../shared/signin/clients';

/**
 * The local identity provider's sign-in for projects' own users: OpenID Connect's code flow with
 * PKCE (S256, required), for the sign-in clients made through the API (shared/signin/clients.ts,
 * read from the platform table when a request comes). `GET /authorize` shows an email sign-in
 * page (no password: this is one machine), `POST /authorize` answers the client's redirect with a
 * code (one use, 60 s), `POST /token` exchanges codes and refresh tokens (web clients authenticate
 * with a secret, basic or post; spa and native clients are public), `GET /userinfo` reads an access
 * token. Tokens are RS256 JWTs of the same key as the platform's, for the client's own audience, so
 * none of them is accepted by the platform's API. A deleted client gets no more tokens.
 */
interface Code {
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

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);

/** Handles the OAuth paths; answers false for any other path. */
export type ClientsModule = Pick<
  typeof SigninClients,
  'findClient' | 'secretHolds' | 'newRefreshToken' | 'takeRefreshToken'
>;

export async function handleOAuth(
  req: IncomingMessage,
  res: ServerResponse,
  key: OAuthKey,
  issuer: string,
  loadClients: () => Promise<ClientsModule>,
): Promise<boolean> {
  const url = new URL(req.url ?? '/', 'http://local');
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
  if (!['/authorize', '/token', '/userinfo'].includes(url.pathname)) return false;
  const clients = await loadClients();

  if (url.pathname === '/authorize' && (req.method === 'GET' || req.method === 'POST')) {
    const form = req.method === 'POST' ? await readForm(req) : url.searchParams;
    const clientId = form.get('client_id') ?? '';
    const redirectUri = form.get('redirect_uri') ?? '';
    const client = clientId ? await clients.findClient(clientId) : undefined;
    // Before the redirect URI is known good, errors stay here (RFC 6749 §4.1.2.1).
    if (!client) return text(400, 'Unknown client.');
    if (!client.redirectUris.includes(redirectUri)) return text(400, 'This redirect URI is not registered.');
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
    const client = clientId ? await clients.findClient(clientId) : undefined;
    const fail = (status: number, error: string, description?: string) =>
      json(status, { error, ...(description ? { error_description: description } : {}) });
    if (!client) return fail(401, 'invalid_client');
    if (client.type === 'web' && (!secret || !clients.secretHolds(client, secret))) return fail(401, 'invalid_client');
    const grant = form.get('grant_type');
    let subject: { sub: string; email: string; scope: string[]; nonce?: string };
    if (grant === 'authorization_code') {
      const code = codes.get(form.get('code') ?? '');
      codes.delete(form.get('code') ?? '');
      const verifier = form.get('code_verifier') ?? '';
      if (!code || code.expiresAt < Date.now() || code.clientId !== clientId) return fail(400, 'invalid_grant');
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
