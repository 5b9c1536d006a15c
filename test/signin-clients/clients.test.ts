import * as oidc from 'openid-client';
import { TestPlatform } from '../helpers/platform';
import { createProject } from '../projects/fixtures';

/**
 * Sign-in clients (spec part A route index; payloads designed as Auth0 and Cognito app clients):
 * CRUD with its checks, secrets shown once and rotated, and openid-client running the code flow
 * with PKCE against the local identity provider for a client made through the API.
 */
let p: TestPlatform;
let project: { projectId: string };
const base = () => `/v1/orgs/${p.org.orgId}/projects/${project.projectId}/oauth-clients`;
const REDIRECT = 'http://localhost:5173/callback';

beforeAll(async () => {
  p = await TestPlatform.start();
  project = await createProject(p);
});
afterAll(() => p.close());

const webClient = (extra: Record<string, unknown> = {}) => ({
  name: 'Shop',
  type: 'web',
  redirectUris: [REDIRECT, 'https://shop.example.com/auth/callback'],
  ...extra,
});

/** Plays the person in the browser: the sign-in page, then the email posted; answers the redirect with the code. */
async function signIn(authorizeUrl: URL, email: string): Promise<URL> {
  const page = await fetch(authorizeUrl, { redirect: 'manual' });
  expect(page.status).toBe(200);
  expect(await page.text()).toContain('<form method="post" action="/authorize">');
  const form = new URLSearchParams(authorizeUrl.searchParams);
  form.set('email', email);
  const posted = await fetch(new URL('/authorize', authorizeUrl), {
    method: 'POST',
    body: form,
    redirect: 'manual',
  });
  expect(posted.status).toBe(302);
  return new URL(posted.headers.get('location') as string);
}

async function configFor(clientId: string, secret?: string) {
  return oidc.discovery(
    new URL(process.env.AUTH_URL as string),
    clientId,
    secret,
    secret ? oidc.ClientSecretBasic(secret) : oidc.None(),
    { execute: [oidc.allowInsecureRequests] },
  );
}

async function codeFlow(config: oidc.Configuration, email = 'ada@example.com') {
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: REDIRECT,
    scope: 'openid email profile',
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
  });
  const back = await signIn(url, email);
  return oidc.authorizationCodeGrant(config, back, { pkceCodeVerifier: verifier, expectedState: state });
}

describe('clients', () => {
  it('creates a web client with its secret once; lists and patches it; the type stays', async () => {
    const made = await p.post(base(), webClient());
    expect(made.status).toBe(201);
    expect(made.body.client).toMatchObject({
      clientId: expect.stringMatching(/^cli_/),
      projectId: project.projectId,
      name: 'Shop',
      type: 'web',
      scopes: ['openid', 'profile', 'email'],
      allowedOrigins: [],
      secrets: [{ secretId: expect.any(String), createdAt: expect.any(Number) }],
      version: 1,
    });
    expect(made.body.clientSecret).toMatch(/^app_cs_/);
    expect(made.text).not.toContain('hash');
    const list = await p.get(base());
    const listed = list.body.clients.find((c: { clientId: string }) => c.clientId === made.body.client.clientId);
    expect(listed).toEqual(made.body.client);
    expect(JSON.stringify(list.body)).not.toContain(made.body.clientSecret);

    const id = made.body.client.clientId;
    const patched = await p.patch(`${base()}/${id}`, { name: 'Shop 2', scopes: ['openid'], ifVersion: 1 });
    expect(patched.status).toBe(200);
    expect(patched.body.client).toMatchObject({ name: 'Shop 2', scopes: ['openid'], version: 2 });
    const stale = await p.patch(`${base()}/${id}`, { name: 'Shop 3', ifVersion: 1 });
    expect(stale.status).toBe(409);
    expect(stale.body).toEqual({ error: 'The client changed. Reload and try again.' });
    const retype = await p.patch(`${base()}/${id}`, { type: 'spa' });
    expect(retype.status).toBe(400);
    expect(retype.body).toEqual({ error: "A client's type can't be changed." });
  });

  it.each([
    ['http on a public host', { redirectUris: ['http://shop.example.com/cb'] }],
    ['a fragment', { redirectUris: ['https://shop.example.com/cb#x'] }],
    ['a custom scheme for a web client', { redirectUris: ['com.example.shop:/cb'] }],
    ['no redirect URI', { redirectUris: [] }],
    ['21 redirect URIs', { redirectUris: Array.from({ length: 21 }, (_, i) => `https://a.example.com/${i}`) }],
    ['an origin with a path', { allowedOrigins: ['https://shop.example.com/app'] }],
    ['an unknown scope', { scopes: ['openid', 'admin'] }],
    ['an unknown type', { type: 'daemon' }],
  ])('refuses %s with 400', async (_what, extra) => {
    const res = await p.post(base(), webClient(extra));
    expect(res.status).toBe(400);
    expect(typeof res.body.error).toBe('string');
  });

  it('takes custom schemes and loopback for native clients; no secret for public clients', async () => {
    const res = await p.post(base(), {
      name: 'App',
      type: 'native',
      redirectUris: ['com.example.shop:/oauth', 'http://127.0.0.1:8123/cb'],
    });
    expect(res.status).toBe(201);
    expect(res.body.clientSecret).toBeUndefined();
    expect(res.body.client.secrets).toEqual([]);
    const rotate = await p.post(`${base()}/${res.body.client.clientId}/secret`, {});
    expect(rotate.status).toBe(400);
    expect(rotate.body).toEqual({ error: 'Only web clients have a secret.' });
  });

  it('404s: unknown project, unknown client, another project’s client', async () => {
    const other = await createProject(p);
    const made = await p.post(base(), webClient());
    const id = made.body.client.clientId;
    const otherBase = `/v1/orgs/${p.org.orgId}/projects/${other.projectId}/oauth-clients`;
    expect((await p.patch(`${otherBase}/${id}`, { name: 'x' })).body).toEqual({ error: 'Client not found' });
    expect((await p.delete(`${base()}/cli_nothing`)).status).toBe(404);
    expect((await p.post(`${base()}/cli_nothing/secret`, {})).status).toBe(404);
    const noProject = await p.get(`/v1/orgs/${p.org.orgId}/projects/prj_nothing/oauth-clients`);
    expect(noProject.status).toBe(404);
    expect(noProject.body).toEqual({ error: 'Project not found' });
  });

  it('holds 20 clients per project; the 21st is 400, and a delete makes room', async () => {
    const own = await createProject(p);
    const at = `/v1/orgs/${p.org.orgId}/projects/${own.projectId}/oauth-clients`;
    const made = await Promise.all(Array.from({ length: 20 }, () => p.post(at, webClient({ type: 'spa' }))));
    expect(made.map((r) => r.status)).toEqual(Array(20).fill(201));
    const over = await p.post(at, webClient({ type: 'spa' }));
    expect(over.status).toBe(400);
    expect(over.body).toEqual({ error: 'A project can have up to 20 sign-in clients.' });
    expect((await p.delete(`${at}/${made[0]?.body.client.clientId}`)).status).toBe(204);
    expect((await p.post(at, webClient({ type: 'spa' }))).status).toBe(201);
  });
});

describe('signing in with the local identity provider', () => {
  it('runs the code flow with PKCE for a web client: tokens for its audience, userinfo, refresh', async () => {
    const made = await p.post(base(), webClient());
    const config = await configFor(made.body.client.clientId, made.body.clientSecret);
    const tokens = await codeFlow(config, 'ada@example.com');
    const claims = tokens.claims();
    expect(claims).toMatchObject({
      iss: process.env.AUTH_URL,
      aud: made.body.client.clientId,
      email: 'ada@example.com',
      sub: expect.stringMatching(/^pu_/),
    });
    const info = await oidc.fetchUserInfo(config, tokens.access_token, claims?.sub as string);
    expect(info.email).toBe('ada@example.com');
    // A project user's token is not a token of the platform's API.
    expect((await p.get('/v1/me', { token: tokens.access_token })).status).toBe(401);
    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token as string);
    expect(refreshed.access_token).toBeTruthy();
    // A refresh token is used once.
    await expect(oidc.refreshTokenGrant(config, tokens.refresh_token as string)).rejects.toThrow();
  });

  it('refuses an unlisted redirect URI on the page itself, never redirecting', async () => {
    const made = await p.post(base(), webClient({ type: 'spa' }));
    const config = await configFor(made.body.client.clientId);
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: 'https://evil.example.com/cb',
      scope: 'openid',
      code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
      code_challenge_method: 'S256',
    });
    const res = await fetch(url, { redirect: 'manual' });
    expect(res.status).toBe(400);
    expect(await res.text()).toBe('This redirect URI is not registered.');
    // Without PKCE: back to the client with an error.
    const plain = new URL(url);
    plain.searchParams.set('redirect_uri', REDIRECT);
    plain.searchParams.delete('code_challenge');
    const back = await fetch(plain, { redirect: 'manual' });
    expect(back.status).toBe(302);
    expect(new URL(back.headers.get('location') as string).searchParams.get('error')).toBe('invalid_request');
  });

  it('after a rotation both secrets work until revokePrevious; a deleted client gets no tokens', async () => {
    const made = await p.post(base(), webClient());
    const id = made.body.client.clientId;
    const first = made.body.clientSecret as string;
    const rotated = await p.post(`${base()}/${id}/secret`, {});
    expect(rotated.status).toBe(201);
    const second = rotated.body.clientSecret as string;
    expect(second).not.toBe(first);
    expect(rotated.body.client.secrets).toHaveLength(2);
    expect(rotated.body.client.secrets[1].expiresAt).toBeGreaterThan(Date.now() + 6 * 86_400_000);
    await codeFlow(await configFor(id, first));
    const withSecond = await codeFlow(await configFor(id, second));

    const revoked = await p.post(`${base()}/${id}/secret`, { revokePrevious: true });
    expect(revoked.status).toBe(200);
    expect(revoked.body.client.secrets).toHaveLength(1);
    await expect(codeFlow(await configFor(id, first))).rejects.toThrow();
    await codeFlow(await configFor(id, second));

    expect((await p.delete(`${base()}/${id}`)).status).toBe(204);
    await expect(
      oidc.refreshTokenGrant(await configFor(id, second), withSecond.refresh_token as string),
    ).rejects.toThrow();
    expect((await p.get(base())).body.clients.map((c: { clientId: string }) => c.clientId)).not.toContain(id);
  });

  it('a project delete removes its clients', async () => {
    const own = await createProject(p);
    const at = `/v1/orgs/${p.org.orgId}/projects/${own.projectId}/oauth-clients`;
    const made = await p.post(at, webClient({ type: 'spa' }));
    expect((await p.delete(`/v1/orgs/${p.org.orgId}/projects/${own.projectId}`)).status).toBeLessThan(300);
    const config = await configFor(made.body.client.clientId).catch(() => undefined);
    const url = config
      ? oidc.buildAuthorizationUrl(config, {
          redirect_uri: REDIRECT,
          scope: 'openid',
          code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
          code_challenge_method: 'S256',
        })
      : undefined;
    expect(url).toBeDefined();
    const res = await fetch(url as URL, { redirect: 'manual' });
    expect(res.status).toBe(400);
    expect(await res.text()).toBe('Unknown client.');
  });
});
