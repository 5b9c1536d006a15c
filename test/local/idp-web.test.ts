import { createHash, randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import { decodeJwt } from 'jose';
import { listen } from '../../lib/local/gateway';
import { createIdpServer } from '../../lib/local/idp';
import { mailedCode } from '../helpers/outbox';
import { type Person, TestPlatform } from '../helpers/platform';

/**
 * The identity provider's client for the platform's web app (`platform-web`, lib/local/idp-oauth.ts),
 * as a browser meets it: the code flow with PKCE, sign-in by email and the code mailed to the
 * outbox, a session cookie at the identity provider that lets `prompt=none` through, refresh tokens
 * that work once, revocation and logout. This file runs its own identity provider (the key and the
 * issuer of this run's, so the API takes its tokens), told the app is at this test platform's
 * address, as `npm start` tells it (WEB_APP_URL).
 */
let p: TestPlatform;
let idp: Server;
let idpUrl: string;
let member: Person;
let callback: string;

beforeAll(async () => {
  p = await TestPlatform.start();
  member = await p.person('developer');
  process.env.WEB_APP_URL = p.baseUrl;
  callback = `${p.baseUrl}/app/callback`;
  idp = await createIdpServer(process.env.IDP_KEY_FILE as string, () => process.env.AUTH_URL as string);
  idpUrl = `http://127.0.0.1:${await listen(idp, 0)}`;
});
afterAll(async () => {
  idp.closeAllConnections();
  idp.close();
  await p.close();
});

const fromHtml = (s: string) =>
  s.replace(
    /&(amp|lt|gt|quot|#39);/g,
    (_m, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[e] as string,
  );
const hiddenFields = (html: string) =>
  Object.fromEntries(
    [...html.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)].map((m) => [
      fromHtml(m[1] as string),
      fromHtml(m[2] as string),
    ]),
  );

/** A browser: one cookie jar (with each cookie's attributes), redirects seen one by one. */
class Browser {
  cookies = new Map<string, { value: string; attributes: string }>();
  async go(url: string, form?: Record<string, string>, headers: Record<string, string> = {}) {
    const jar = [...this.cookies].filter(([, c]) => c.value !== '');
    const res = await fetch(url, {
      method: form ? 'POST' : 'GET',
      redirect: 'manual',
      headers: {
        ...headers,
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        ...(jar.length ? { cookie: jar.map(([k, c]) => `${k}=${c.value}`).join('; ') } : {}),
      },
      body: form ? new URLSearchParams(form).toString() : undefined,
    });
    for (const c of res.headers.getSetCookie()) {
      const [pair, ...attributes] = c.split(';');
      const [name, value] = (pair as string).split('=');
      this.cookies.set(name as string, { value: value as string, attributes: attributes.join(';').trim() });
    }
    return {
      status: res.status,
      location: res.headers.get('location') ?? '',
      text: await res.text(),
      headers: res.headers,
    };
  }
}

const pkce = () => {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};

function authorizeUrl(params: Record<string, string>): string {
  const url = new URL(`${idpUrl}/authorize`);
  for (const [k, v] of Object.entries({
    client_id: 'platform-web',
    response_type: 'code',
    redirect_uri: callback,
    scope: 'openid email profile',
    code_challenge_method: 'S256',
    state: 'st-1',
    ...params,
  }))
    url.searchParams.set(k, v);
  return url.toString();
}

/** Signs `person` in through the pages: the email, the mailed code, back at the app with a code. */
async function signIn(browser: Browser, person: Person, challenge: string, extra: Record<string, string> = {}) {
  const emailPage = await browser.go(authorizeUrl({ code_challenge: challenge, ...extra }));
  expect(emailPage.status).toBe(200);
  expect(emailPage.text).toContain('Sign in to the platform');
  // A browser holds the form's redirect to the app (another origin) to form-action too.
  expect(emailPage.headers.get('content-security-policy')).toBe(
    `default-src 'none'; form-action 'self' ${p.baseUrl}; frame-ancestors 'none'`,
  );
  expect(emailPage.text).toMatch(/^<!doctype html><html lang="en">/);
  const codePage = await browser.go(`${idpUrl}/authorize`, { ...hiddenFields(emailPage.text), email: person.email });
  expect(codePage.text).toContain(`A sign-in code was sent to ${person.email}.`);
  const back = await browser.go(`${idpUrl}/authorize`, {
    ...hiddenFields(codePage.text),
    sign_in_code: mailedCode(person.email),
  });
  expect(back.status).toBe(302);
  const to = new URL(back.location);
  expect(`${to.origin}${to.pathname}`).toBe(callback);
  expect(to.searchParams.get('state')).toBe('st-1');
  return to.searchParams.get('code') as string;
}

/** The token endpoint, called as the app does from its origin. */
async function token(form: Record<string, string>) {
  const res = await fetch(`${idpUrl}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: p.baseUrl },
    body: new URLSearchParams({ client_id: 'platform-web', ...form }).toString(),
  });
  return { status: res.status, body: (await res.json()) as any, headers: res.headers };
}

const exchange = (code: string, verifier: string, redirect = callback) =>
  token({ grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: redirect });

it('signs a person in with the code flow and PKCE: tokens for the API, an ID token, a session cookie', async () => {
  const browser = new Browser();
  const { verifier, challenge } = pkce();
  const code = await signIn(browser, member, challenge, { nonce: 'n-1' });
  const session = browser.cookies.get('platform_idp_session');
  expect(session?.value).toMatch(/^[\w-]{43}$/);
  expect(session?.attributes).toContain('HttpOnly');
  expect(session?.attributes).toContain('SameSite=Lax');

  const tokens = await exchange(code, verifier);
  expect(tokens.status).toBe(200);
  expect(tokens.headers.get('access-control-allow-origin')).toBe(p.baseUrl);
  expect(tokens.headers.get('cache-control')).toBe('no-store');
  expect(tokens.body).toEqual({
    token_type: 'Bearer',
    access_token: expect.any(String),
    expires_in: 900,
    refresh_token: expect.stringMatching(/^rt_/),
    scope: 'openid email profile',
    id_token: expect.any(String),
  });
  const me = await p.get('/v1/me', { token: tokens.body.access_token });
  expect(me.status).toBe(200);
  expect(me.body.me.userId).toBe(member.userId);
  const id = decodeJwt(tokens.body.id_token);
  expect(id).toMatchObject({ aud: 'platform-web', sub: member.userId, email: member.email, nonce: 'n-1' });
  expect(id.iss).toBe(process.env.AUTH_URL);
  // A code works once.
  expect((await exchange(code, verifier)).body).toEqual({ error: 'invalid_grant' });
});

it('refuses a wrong verifier, a missing PKCE, a redirect other than the app’s callback, and another client’s use of a code', async () => {
  const browser = new Browser();
  const { verifier, challenge } = pkce();
  const code = await signIn(browser, member, challenge);
  const wrong = await exchange(code, pkce().verifier);
  expect(wrong.status).toBe(400);
  expect(wrong.body).toEqual({ error: 'invalid_grant', error_description: 'PKCE failed.' });
  // The code is gone with the failed try.
  expect((await exchange(code, verifier)).status).toBe(400);

  for (const redirect of [
    `${p.baseUrl}/app/other`,
    'https://attacker.example/app/callback',
    `${p.baseUrl}/device/callback`,
  ]) {
    const res = await browser.go(authorizeUrl({ code_challenge: challenge, redirect_uri: redirect }));
    expect(res.status).toBe(400);
    expect(res.text).toBe('This redirect URI is not registered.');
  }
  const noPkce = await browser.go(authorizeUrl({ code_challenge_method: 'plain', code_challenge: verifier }));
  expect(noPkce.status).toBe(302);
  expect(new URL(noPkce.location).searchParams.get('error')).toBe('invalid_request');

  // A code given to the web app is not the device page's (client `platform`), nor another redirect's.
  const again = pkce();
  const silent = await browser.go(authorizeUrl({ code_challenge: again.challenge, prompt: 'none' }));
  const webCode = new URL(silent.location).searchParams.get('code') as string;
  const asPlatform = await fetch(`${idpUrl}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      client_id: 'platform',
      grant_type: 'authorization_code',
      code: webCode,
      code_verifier: again.verifier,
      redirect_uri: callback,
    }).toString(),
  });
  expect(asPlatform.status).toBe(400);
  expect(await asPlatform.json()).toEqual({ error: 'invalid_grant' });
  const third = pkce();
  const silent2 = await browser.go(authorizeUrl({ code_challenge: third.challenge, prompt: 'none' }));
  const otherRedirect = await exchange(
    new URL(silent2.location).searchParams.get('code') as string,
    third.verifier,
    `${p.baseUrl}/app/elsewhere`,
  );
  expect(otherRedirect.body).toEqual({ error: 'invalid_grant', error_description: 'redirect_uri differs.' });
});

it('rotates refresh tokens: each works once, and the one used is refused after', async () => {
  const { verifier, challenge } = pkce();
  const first = await exchange(await signIn(new Browser(), member, challenge), verifier);
  const second = await token({ grant_type: 'refresh_token', refresh_token: first.body.refresh_token });
  expect(second.status).toBe(200);
  expect(second.body.refresh_token).toMatch(/^rt_/);
  expect(second.body.refresh_token).not.toBe(first.body.refresh_token);
  expect((await p.get('/v1/me', { token: second.body.access_token })).body.me.userId).toBe(member.userId);
  const reused = await token({ grant_type: 'refresh_token', refresh_token: first.body.refresh_token });
  expect(reused.status).toBe(400);
  expect(reused.body).toEqual({ error: 'invalid_grant' });
  const third = await token({ grant_type: 'refresh_token', refresh_token: second.body.refresh_token });
  expect(third.status).toBe(200);
});

it('prompt=none: a code at once with the session, login_required without one', async () => {
  const browser = new Browser();
  await signIn(browser, member, pkce().challenge);
  const { verifier, challenge } = pkce();
  const silent = await browser.go(authorizeUrl({ code_challenge: challenge, prompt: 'none', state: 'st-2' }));
  expect(silent.status).toBe(302);
  const back = new URL(silent.location);
  expect(`${back.origin}${back.pathname}`).toBe(callback);
  expect(back.searchParams.get('state')).toBe('st-2');
  const tokens = await exchange(back.searchParams.get('code') as string, verifier);
  expect((await p.get('/v1/me', { token: tokens.body.access_token })).body.me.userId).toBe(member.userId);
  // With the session and no prompt, no page either; prompt=login asks again.
  expect((await browser.go(authorizeUrl({ code_challenge: challenge }))).status).toBe(302);
  const login = await browser.go(authorizeUrl({ code_challenge: challenge, prompt: 'login' }));
  expect(login.status).toBe(200);
  expect(login.text).toContain('Sign in to the platform');

  const stranger = new Browser();
  const refused = await stranger.go(authorizeUrl({ code_challenge: challenge, prompt: 'none', state: 'st-3' }));
  expect(refused.status).toBe(302);
  const error = new URL(refused.location);
  expect(`${error.origin}${error.pathname}`).toBe(callback);
  expect(Object.fromEntries(error.searchParams)).toEqual({ error: 'login_required', state: 'st-3' });
  // A made-up session is no session.
  stranger.cookies.set('platform_idp_session', { value: 'x'.repeat(43), attributes: '' });
  const forged = await stranger.go(authorizeUrl({ code_challenge: challenge, prompt: 'none' }));
  expect(new URL(forged.location).searchParams.get('error')).toBe('login_required');
});

it('revokes a refresh token; logout ends the session and the refresh tokens it gave', async () => {
  const browser = new Browser();
  const { verifier, challenge } = pkce();
  const tokens = await exchange(await signIn(browser, member, challenge), verifier);
  const revoke = (form: Record<string, string>) =>
    fetch(`${idpUrl}/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: p.baseUrl },
      body: new URLSearchParams(form).toString(),
    });
  const revoked = await revoke({ client_id: 'platform-web', token: tokens.body.refresh_token });
  expect(revoked.status).toBe(200);
  expect(revoked.headers.get('access-control-allow-origin')).toBe(p.baseUrl);
  // Revoking again (or an unknown token) still answers 200, as RFC 7009 says.
  expect((await revoke({ client_id: 'platform-web', token: tokens.body.refresh_token })).status).toBe(200);
  expect((await revoke({ client_id: 'someone', token: 'rt_x' })).status).toBe(401);
  expect((await token({ grant_type: 'refresh_token', refresh_token: tokens.body.refresh_token })).status).toBe(400);

  // A second refresh token of the same session, then logout.
  const again = pkce();
  const silent = await browser.go(authorizeUrl({ code_challenge: again.challenge, prompt: 'none' }));
  const more = await exchange(new URL(silent.location).searchParams.get('code') as string, again.verifier);
  expect(more.status).toBe(200);
  const refused = await browser.go(
    `${idpUrl}/logout?post_logout_redirect_uri=${encodeURIComponent('https://attacker.example/')}`,
  );
  expect(refused.status).toBe(400);
  const sid = browser.cookies.get('platform_idp_session')?.value as string;
  const out = await browser.go(
    `${idpUrl}/logout?post_logout_redirect_uri=${encodeURIComponent(`${p.baseUrl}/app/`)}&state=bye`,
  );
  expect(out.status).toBe(302);
  expect(out.location).toBe(`${p.baseUrl}/app/?state=bye`);
  expect(browser.cookies.get('platform_idp_session')?.value).toBe('');
  expect((await token({ grant_type: 'refresh_token', refresh_token: more.body.refresh_token })).status).toBe(400);
  // The old cookie, sent again, opens nothing.
  browser.cookies.set('platform_idp_session', { value: sid, attributes: '' });
  const after = await browser.go(authorizeUrl({ code_challenge: again.challenge, prompt: 'none' }));
  expect(new URL(after.location).searchParams.get('error')).toBe('login_required');
});

it('lets only the app’s origin call it from a browser, and lists the endpoints in its discovery', async () => {
  const preflight = await fetch(`${idpUrl}/token`, {
    method: 'OPTIONS',
    headers: { origin: p.baseUrl, 'access-control-request-method': 'POST' },
  });
  expect(preflight.status).toBe(204);
  expect(preflight.headers.get('access-control-allow-origin')).toBe(p.baseUrl);
  const foreign = await fetch(`${idpUrl}/.well-known/openid-configuration`, {
    headers: { origin: 'https://attacker.example' },
  });
  expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
  const discovery = await fetch(`${idpUrl}/.well-known/openid-configuration`, { headers: { origin: p.baseUrl } });
  expect(discovery.headers.get('access-control-allow-origin')).toBe(p.baseUrl);
  const issuer = process.env.AUTH_URL;
  expect(await discovery.json()).toMatchObject({
    issuer,
    authorization_endpoint: `${issuer}/authorize`,
    token_endpoint: `${issuer}/token`,
    revocation_endpoint: `${issuer}/revoke`,
    end_session_endpoint: `${issuer}/logout`,
    code_challenge_methods_supported: ['S256'],
  });
});

it('takes the app’s callback on any loopback origin (RFC 8252 §7.3), with CORS and logout for that origin, and refuses other hosts', async () => {
  // Another platform on this machine, serving the app at another port than WEB_APP_URL's.
  const other = 'http://localhost:4173';
  const otherCallback = `${other}/app/callback`;
  const browser = new Browser();
  const { verifier, challenge } = pkce();
  const emailPage = await browser.go(authorizeUrl({ code_challenge: challenge, redirect_uri: otherCallback }));
  expect(emailPage.status).toBe(200);
  expect(emailPage.headers.get('content-security-policy')).toBe(
    `default-src 'none'; form-action 'self' ${other}; frame-ancestors 'none'`,
  );
  const codePage = await browser.go(`${idpUrl}/authorize`, { ...hiddenFields(emailPage.text), email: member.email });
  const back = await browser.go(`${idpUrl}/authorize`, {
    ...hiddenFields(codePage.text),
    sign_in_code: mailedCode(member.email),
  });
  expect(back.status).toBe(302);
  const to = new URL(back.location);
  expect(`${to.origin}${to.pathname}`).toBe(otherCallback);
  const res = await fetch(`${idpUrl}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: other },
    body: new URLSearchParams({
      client_id: 'platform-web',
      grant_type: 'authorization_code',
      code: to.searchParams.get('code') as string,
      code_verifier: verifier,
      redirect_uri: otherCallback,
    }).toString(),
  });
  expect(res.status).toBe(200);
  expect(res.headers.get('access-control-allow-origin')).toBe(other);
  const tokens = (await res.json()) as any;
  expect((await p.get('/v1/me', { token: tokens.access_token })).body.me.userId).toBe(member.userId);
  for (const loopback of ['http://127.0.0.1:9', 'http://[::1]:65000']) {
    const preflight = await fetch(`${idpUrl}/token`, {
      method: 'OPTIONS',
      headers: { origin: loopback, 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(loopback);
  }

  // Not a loopback host, not http, not the callback path: refused before any page, and no CORS.
  for (const redirect of [
    'http://example.com:4173/app/callback',
    'http://localhost.attacker.example:4173/app/callback',
    'http://127.0.0.2:4173/app/callback',
    'https://localhost:4173/app/callback',
    'http://localhost/app/callback',
    `${other}/app/callback/x`,
    `${other}/app/callback?next=x`,
    `${other}/device/callback`,
  ]) {
    const refused = await browser.go(authorizeUrl({ code_challenge: challenge, redirect_uri: redirect }));
    expect([redirect, refused.status, refused.text]).toEqual([redirect, 400, 'This redirect URI is not registered.']);
  }
  for (const foreign of [
    'http://example.com:4173',
    'http://localhost.attacker.example:4173',
    'https://localhost:4173',
  ]) {
    const preflight = await fetch(`${idpUrl}/token`, {
      method: 'OPTIONS',
      headers: { origin: foreign, 'access-control-request-method': 'POST' },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
  }

  // Logout returns to the app on that origin, and to no other host.
  expect(
    (
      await browser.go(
        `${idpUrl}/logout?post_logout_redirect_uri=${encodeURIComponent('http://example.com:4173/app/')}`,
      )
    ).status,
  ).toBe(400);
  const out = await browser.go(`${idpUrl}/logout?post_logout_redirect_uri=${encodeURIComponent(`${other}/app/`)}`);
  expect(out.status).toBe(302);
  expect(out.location).toBe(`${other}/app/`);
});
