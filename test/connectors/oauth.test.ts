import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '../../shared/kernel/store/client';
import { TABLE } from '../../shared/kernel/store/table';
import { type Person, TestPlatform } from '../helpers/platform';
import { type OAuthOptions, type OAuthServer, startOAuthServer } from './oauth-server';

/**
 * OAuth sign-in to a connector (MCP authorization): each test plays the browser through the API
 * (create, `oauth/start`, the authorization server's redirect to the code, `oauth/callback`, then
 * the tools), against an MCP server protected by an authorization server on loopback
 * (./oauth-server.ts) in each discovery, registration and client authentication variant.
 */
let p: TestPlatform;
let admin: Person;
const servers: OAuthServer[] = [];
const base = () => `/v1/orgs/${p.org.orgId}/connectors`;
let n = 0;
const slug = () => `o${Date.now().toString(36).slice(-5)}${(n++).toString(36)}`;

beforeAll(async () => {
  process.env.LOCAL_CONNECTORS_LOOPBACK = 'true';
  p = await TestPlatform.start();
  admin = await p.person('admin');
});
afterAll(async () => {
  delete process.env.LOCAL_CONNECTORS_LOOPBACK;
  await Promise.all([p.close(), ...servers.map((s) => s.stop())]);
});

async function serve(options: OAuthOptions) {
  const s = await startOAuthServer(options);
  servers.push(s);
  return s;
}

async function oauthConnector(server: OAuthServer, extra: Record<string, unknown> = {}) {
  const made = await p.post(base(), { name: 'Private', slug: slug(), url: server.url, authType: 'oauth', ...extra });
  expect(made.status).toBe(201);
  return made.body.connector.connectorId as string;
}

/** `oauth/start`, then the browser at the authorization server: the code and state it sends back. */
async function authorize(connectorId: string, who: Person = p.owner, returnTo?: string) {
  const started = await p.post(`${base()}/${connectorId}/oauth/start`, returnTo ? { returnTo } : {}, {
    token: who.token,
  });
  expect(started.status).toBe(200);
  const url = new URL(started.body.url);
  const res = await fetch(url, { redirect: 'manual' });
  expect(res.status).toBe(302);
  const back = new URL(res.headers.get('location') as string);
  return { url, code: back.searchParams.get('code') as string, state: back.searchParams.get('state') as string, back };
}

/** An item of the organization's partition as stored. */
const raw = async (sk: string) =>
  (await db.send(new GetCommand({ TableName: TABLE(), Key: { pk: `ORG#${p.org.orgId}`, sk } }))).Item;

const callback = (body: Record<string, unknown>, who: Person = p.owner, orgId = p.org.orgId) =>
  p.post(`/v1/orgs/${orgId}/connectors/oauth/callback`, body, { token: who.token });

describe('sign-in variants', () => {
  it('challenge metadata, RFC 8414, dynamic registration, client_secret_basic: signed in, tools listed', async () => {
    const server = await serve({
      prm: 'challenge',
      asMeta: 'oauth',
      authMethod: 'client_secret_basic',
      registration: true,
      challengeScope: 'mcp:read',
      scopesSupported: ['other'],
    });
    const id = await oauthConnector(server);
    const { url, code, state, back } = await authorize(id, p.owner, '/settings/connectors');
    const origin = new URL(server.url).origin;
    expect(url.origin + url.pathname).toBe(`${origin}/authorize`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: 'code',
      client_id: expect.stringMatching(/^dyn-/),
      code_challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      code_challenge_method: 'S256',
      redirect_uri: expect.stringMatching(/\/connectors\/oauth\/callback$/),
      state: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      scope: 'mcp:read',
      resource: `${origin}/mcp`,
    });
    expect(back.origin + back.pathname).toBe(`${p.baseUrl}/connectors/oauth/callback`);
    expect(server.registrations).toEqual([
      expect.objectContaining({ token_endpoint_auth_method: 'client_secret_basic', grant_types: expect.any(Array) }),
    ]);
    const done = await callback({ state, code });
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ connected: true, returnTo: '/settings/connectors', connectorId: id });
    const token = server.tokenRequests.at(-1);
    expect(token?.basic).toMatch(/^Basic /);
    expect(token?.params.get('client_secret')).toBeNull();
    expect(token?.params.get('resource')).toBe(`${origin}/mcp`);
    const got = await p.get(`${base()}/${id}`);
    expect(got.body.connector).toMatchObject({
      status: 'ok',
      toolCount: 2,
      accessExpiresAt: expect.any(Number),
      oauth: { connected: true, server: origin, registered: true },
    });
    expect(got.body.tools.map((t: { exposedName: string }) => t.exposedName.split('__')[1])).toEqual([
      'private-search',
      'private-read',
    ]);
    expect(got.text).not.toContain(server.tokens.keys().next().value as string);
    // The tokens are kept encrypted, with the issuer and the access token's expiry.
    const held = await raw(`CONTOKEN#${id}`);
    expect(held).toMatchObject({
      issuer: origin,
      access: expect.stringMatching(/^v1\./),
      accessExpiresAt: expect.any(Number),
    });
    for (const token of server.tokens.keys()) expect(JSON.stringify(held)).not.toContain(token);
    // A second connector to the same issuer uses the client registered for the organization.
    const second = await oauthConnector(server);
    await authorize(second);
    expect(server.registrations).toHaveLength(1);
    // Delete takes the tokens and the cached tools along.
    expect(await raw(`CONTOOLS#${id}#0`)).toBeDefined();
    expect((await p.delete(`${base()}/${id}`)).status).toBe(204);
    expect([await raw(`CONTOKEN#${id}`), await raw(`CONTOOLS#${id}#0`)]).toEqual([undefined, undefined]);
  });

  it.each([
    ['path', 'openid', 'client_secret_post'],
    ['root', 'oauth', 'none'],
    ['none', 'openid', 'client_secret_basic'],
  ] as const)('metadata at %s, %s discovery, %s at the token endpoint', async (prm, asMeta, authMethod) => {
    const server = await serve({ prm, asMeta, authMethod, registration: true, scopesSupported: ['a', 'b'] });
    const id = await oauthConnector(server);
    const { url, code, state } = await authorize(id);
    // No scope in a challenge: the resource's scopes_supported (when its metadata was found).
    expect(url.searchParams.get('scope')).toBe(prm === 'none' ? null : 'a b');
    expect(url.searchParams.get('resource')).toBe(prm === 'none' ? null : `${new URL(server.url).origin}/mcp`);
    if (prm === 'none') {
      // Without protected resource metadata there is no resource to name; this server wants one.
      const done = await callback({ state, code });
      expect(done.body.connected).toBe(false);
      expect((await p.get(`${base()}/${id}`)).body.connector.lastError).toMatch(/^The sign-in failed: /);
      return;
    }
    expect((await callback({ state, code })).body.connected).toBe(true);
    const token = server.tokenRequests.at(-1);
    if (authMethod === 'client_secret_post') {
      expect([token?.basic, token?.params.get('client_secret')]).toEqual([null, expect.any(String)]);
    } else {
      expect([token?.basic, token?.params.get('client_secret'), token?.params.get('client_id')]).toEqual([
        null,
        null,
        expect.stringMatching(/^dyn-/),
      ]);
    }
    expect((await p.get(`${base()}/${id}`)).body.connector).toMatchObject({ status: 'ok', toolCount: 2 });
  });

  it('a pre-registered client: no registration, registered false; a server that registers none needs one', async () => {
    const server = await serve({
      prm: 'path',
      asMeta: 'oauth',
      authMethod: 'client_secret_basic',
      clients: { 'pre-1': 'pre-secret' },
    });
    const without = await oauthConnector(server);
    const refused = await p.post(`${base()}/${without}/oauth/start`, {});
    expect([refused.status, refused.body]).toEqual([
      400,
      { error: "This server doesn't register clients itself: enter an OAuth client id (oauthClientId)." },
    ]);
    const id = await oauthConnector(server, { oauthClientId: 'pre-1', oauthClientSecret: 'pre-secret' });
    const { url, code, state } = await authorize(id);
    expect(url.searchParams.get('client_id')).toBe('pre-1');
    expect((await callback({ state, code })).body.connected).toBe(true);
    expect(
      Buffer.from((server.tokenRequests.at(-1)?.basic ?? '').slice(6), 'base64')
        .toString()
        .split(':'),
    ).toEqual(['pre-1', 'pre-secret']);
    expect((await p.get(`${base()}/${id}`)).body.connector.oauth).toEqual({
      connected: true,
      server: new URL(server.url).origin,
      registered: false,
    });
  });

  it.each<[string[] | null, string]>([
    [null, 'no PKCE methods listed'],
    [['plain'], 'only plain'],
  ])('PKCE S256 is required: %j (%s) is refused', async (pkce) => {
    const server = await serve({ prm: 'root', asMeta: 'oauth', authMethod: 'none', registration: true, pkce });
    const id = await oauthConnector(server);
    const res = await p.post(`${base()}/${id}/oauth/start`, {});
    expect([res.status, res.body]).toEqual([
      400,
      { error: "Could not start the sign-in: the server's authorization server does not offer PKCE with S256." },
    ]);
    expect(server.registrations).toHaveLength(0);
  });
});

describe('the guard', () => {
  it('a URL the metadata names is fetched through the guard: private and metadata addresses are refused', async () => {
    let port = 0;
    // A server on this machine (npm start's allowance) whose challenge or metadata names other addresses.
    const named = { metadata: '', authorizationServer: '' };
    const server = createServer((req, res) => {
      if (req.url?.startsWith('/.well-known/oauth-protected-resource')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            resource: `http://127.0.0.1:${port}/mcp`,
            authorization_servers: [named.authorizationServer],
          }),
        );
        return;
      }
      res.writeHead(401, {
        'www-authenticate': named.metadata ? `Bearer resource_metadata="${named.metadata}"` : 'Bearer',
      });
      res.end();
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    port = (server.address() as AddressInfo).port;
    try {
      const made = await p.post(base(), {
        name: 'Pointer',
        slug: slug(),
        url: `http://127.0.0.1:${port}/mcp`,
        authType: 'oauth',
      });
      const id = made.body.connector.connectorId as string;
      for (const [metadata, authorizationServer] of [
        ['https://169.254.169.254/latest/meta-data/', 'https://93.184.215.14/'],
        ['', 'https://10.0.0.5/'],
      ]) {
        Object.assign(named, { metadata, authorizationServer });
        const res = await p.post(`${base()}/${id}/oauth/start`, {});
        expect([metadata, res.status, res.body.error]).toEqual([
          metadata,
          400,
          expect.stringMatching(/^Could not start the sign-in: .*not a public address/),
        ]);
      }
    } finally {
      server.close();
    }
  });
});

describe('tokens', () => {
  it('an expired access token is refreshed before test; a 401 refreshes and tries again', async () => {
    const server = await serve({
      prm: 'root',
      asMeta: 'oauth',
      authMethod: 'client_secret_post',
      registration: true,
      expiresIn: 10,
    });
    const id = await oauthConnector(server);
    const { code, state } = await authorize(id);
    expect((await callback({ state, code })).body.connected).toBe(true);
    // Within 30 s of its end: refreshed first (the sign-in's own test already did once).
    const grants = () => server.tokenRequests.map((t) => t.params.get('grant_type'));
    expect(grants()).toEqual(['authorization_code', 'refresh_token']);
    const tested = await p.post(`${base()}/${id}/test`);
    expect(tested.body.connector).toMatchObject({ status: 'ok', toolCount: 2 });
    expect(grants()).toEqual(['authorization_code', 'refresh_token', 'refresh_token']);

    const longer = await serve({ prm: 'root', asMeta: 'oauth', authMethod: 'none', registration: true });
    const other = await oauthConnector(longer);
    const signed = await authorize(other);
    await callback({ state: signed.state, code: signed.code });
    longer.revokeAll();
    const after = await p.post(`${base()}/${other}/test`);
    expect(after.body.connector).toMatchObject({ status: 'ok' });
    expect(longer.tokenRequests.map((t) => t.params.get('grant_type'))).toEqual([
      'authorization_code',
      'refresh_token',
    ]);
    // Not signed in at all: test says so.
    const fresh = await oauthConnector(longer);
    expect((await p.post(`${base()}/${fresh}/test`)).body.connector).toMatchObject({
      status: 'error',
      lastError: 'Sign in first: this connector uses OAuth (oauth/start).',
    });
  });
});

describe('step-up', () => {
  it('a 403 asking for more scope: test says to sign in again, and the next sign-in asks for that scope', async () => {
    const server = await serve({
      prm: 'root',
      asMeta: 'oauth',
      authMethod: 'none',
      registration: true,
      challengeScope: 'read',
      requiredScope: 'read write',
    });
    const id = await oauthConnector(server);
    const first = await authorize(id);
    expect(first.url.searchParams.get('scope')).toBe('read');
    expect((await callback({ state: first.state, code: first.code })).body.connected).toBe(true);
    expect((await p.get(`${base()}/${id}`)).body.connector).toMatchObject({
      status: 'error',
      lastError: 'The server needs more access (scope "read write"): sign in again (oauth/start).',
    });
    const second = await authorize(id);
    expect(second.url.searchParams.get('scope')).toBe('read write');
    expect((await callback({ state: second.state, code: second.code })).body.connected).toBe(true);
    expect((await p.get(`${base()}/${id}`)).body.connector).toMatchObject({ status: 'ok', toolCount: 2 });
  });
});

describe('the state', () => {
  let server: OAuthServer;
  beforeAll(async () => {
    server = await serve({ prm: 'challenge', asMeta: 'oauth', authMethod: 'client_secret_basic', registration: true });
  });

  it('is used once: replayed, unknown, expired, another person’s or another organization’s is 409', async () => {
    const id = await oauthConnector(server);
    const first = await authorize(id);
    expect((await callback({ state: first.state, code: first.code })).status).toBe(200);
    const again = await callback({ state: first.state, code: first.code });
    expect([again.status, again.body]).toEqual([409, { error: 'Start the sign-in again.' }]);
    expect((await callback({ state: 'x'.repeat(43), code: 'c' })).status).toBe(409);

    const admins = await authorize(id, admin);
    const byOwner = await callback({ state: admins.state, code: admins.code });
    expect([byOwner.status, byOwner.body]).toEqual([409, { error: 'Start the sign-in again.' }]);
    const other = await p.newOrg();
    const elsewhere = await callback({ state: admins.state, code: admins.code }, other.owner, other.org.orgId);
    expect(elsewhere.status).toBe(409);
    // Still the admin's, here: it works once.
    expect((await callback({ state: admins.state, code: admins.code }, admin)).body.connected).toBe(true);

    const late = await authorize(id);
    await db.send(
      new UpdateCommand({
        TableName: TABLE(),
        Key: { pk: `CONSTATE#${createHash('sha256').update(late.state).digest('hex')}`, sk: 'STATE' },
        UpdateExpression: 'SET expiresAt = :past',
        ExpressionAttributeValues: { ':past': Date.now() - 1 },
      }),
    );
    const expired = await callback({ state: late.state, code: late.code });
    expect([expired.status, expired.body]).toEqual([409, { error: 'Start the sign-in again.' }]);
  });

  it('10 parallel callbacks with one state: one 200, nine 409', async () => {
    const id = await oauthConnector(server);
    const { state, code } = await authorize(id);
    const exchanges = () => server.tokenRequests.filter((t) => t.params.get('code') === code).length;
    const answers = await Promise.all(Array.from({ length: 10 }, () => callback({ state, code })));
    expect(answers.map((a) => a.status).sort()).toEqual([200, ...Array(9).fill(409)]);
    expect(answers.find((a) => a.status === 200)?.body.connected).toBe(true);
    expect(exchanges()).toBe(1);
  });

  it('an error from the server answers connected: false and uses the state', async () => {
    const id = await oauthConnector(server);
    const { state } = await authorize(id, p.owner, '/back');
    const denied = await callback({ state, error: 'access_denied' });
    expect(denied.body).toEqual({ connected: false, returnTo: '/back', connectorId: id });
    expect((await callback({ state, code: 'c' })).status).toBe(409);
    expect((await p.get(`${base()}/${id}`)).body.connector.oauth).toEqual({
      connected: false,
      server: null,
      registered: null,
    });
  });

  it('people only (403 for keys); OAuth connectors only (400); returnTo a relative path; a deleted connector 404', async () => {
    const id = await oauthConnector(server);
    const key = await p.apiKey(['connectors:read', 'connectors:write']);
    for (const res of [
      await p.post(`${base()}/${id}/oauth/start`, {}, { token: key }),
      await p.post(`${base()}/oauth/callback`, { state: 'x'.repeat(43), code: 'c' }, { token: key }),
    ]) {
      expect([res.status, res.body]).toEqual([403, { error: 'Signing in to a connector needs a signed-in user.' }]);
    }
    const plain = await p.post(base(), { name: 'Plain', slug: slug(), url: server.url });
    const notOauth = await p.post(`${base()}/${plain.body.connector.connectorId}/oauth/start`, {});
    expect([notOauth.status, notOauth.body]).toEqual([400, { error: "This connector doesn't use OAuth." }]);
    for (const returnTo of ['https://evil.example/', '//evil.example/', 'settings', '/\\evil.example']) {
      const res = await p.post(`${base()}/${id}/oauth/start`, { returnTo });
      expect([returnTo, res.status]).toEqual([returnTo, 400]);
    }
    const { state, code } = await authorize(id);
    expect((await p.delete(`${base()}/${id}`)).status).toBe(204);
    const gone = await callback({ state, code });
    expect([gone.status, gone.body]).toEqual([404, { error: 'Connector not found' }]);
  });
});
