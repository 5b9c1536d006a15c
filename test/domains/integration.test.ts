import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '../../shared/kernel/store/client';
import { TABLE } from '../../shared/kernel/store/table';
import { createProject } from '../projects/fixtures';
import { type DomainsWorld, startWorld, unique } from './helpers';

/**
 * The DNS provider integration (issue: DNS integration): owners and admins connect a provider,
 * checked by listing its zones and stored encrypted; `dns-provider` writes a domain's records
 * through it. Cloudflare is a stand-in of its API on loopback (only `npm start` and tests allow
 * loopback); its OAuth sign-in runs against oauth2-mock-server (PKCE checked by the server).
 */
let w: DomainsWorld;
let cloudflare: {
  server: Server;
  url: string;
  token: string;
  zones: string[];
  records: Map<string, Record<string, unknown>>;
  failWrites: boolean;
};
let oauth: { issuer: string; stop: () => Promise<void> };
const integration = (orgId = w.p.org.orgId) => `/v1/orgs/${orgId}/integrations/dns-provider`;
const domains = () => `/v1/orgs/${w.p.org.orgId}/domains`;

/** Cloudflare's v4 API, the calls the adapter makes: zones, and records listed, created, replaced, deleted. */
function startCloudflare(): Promise<typeof cloudflare> {
  const state = {
    server: undefined as unknown as Server,
    url: '',
    token: 'cf-good-token',
    zones: [] as string[],
    records: new Map<string, Record<string, unknown>>(),
    failWrites: false,
  };
  let next = 1;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      const url = new URL(req.url ?? '/', 'http://cf');
      const auth = req.headers.authorization;
      if (auth !== `Bearer ${state.token}` && !auth?.startsWith('Bearer ey')) {
        return send(403, { success: false, errors: [{ message: 'Invalid API Token' }], result: null });
      }
      const path = url.pathname.replace(/^\/client\/v4/, '');
      if (path === '/zones')
        return send(200, { success: true, result: state.zones.map((name) => ({ id: `z-${name}`, name })) });
      const m = /^\/zones\/z-([^/]+)\/dns_records(?:\/(\d+))?$/.exec(path);
      if (!m) return send(404, { success: false, errors: [{ message: 'not found' }], result: null });
      if (req.method === 'GET') {
        const found = [...state.records.entries()]
          .filter(([, r]) => r.type === url.searchParams.get('type') && r.name === url.searchParams.get('name'))
          .map(([id]) => ({ id }));
        return send(200, { success: true, result: found });
      }
      if (state.failWrites) return send(400, { success: false, errors: [{ message: 'zone locked' }], result: null });
      if (req.method === 'DELETE') {
        state.records.delete(m[2] as string);
        return send(200, { success: true, result: { id: m[2] } });
      }
      const id = m[2] ?? String(next++);
      state.records.set(id, { ...JSON.parse(Buffer.concat(chunks).toString()), zone: m[1] });
      return send(200, { success: true, result: { id } });
    });
  });
  state.server = server;
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/client/v4`;
      resolve(state);
    }),
  );
}

async function startOAuthServer() {
  const child = spawn(process.execPath, [join(__dirname, 'oauth-server.mjs')], { stdio: ['pipe', 'pipe', 'inherit'] });
  const [line] = (await once(createInterface({ input: child.stdout as Readable }), 'line')) as [string];
  return {
    issuer: (JSON.parse(line) as { issuer: string }).issuer,
    stop: async () => {
      const exited = once(child, 'exit');
      child.stdin?.end();
      await exited;
    },
  };
}

beforeAll(async () => {
  w = await startWorld([]);
  cloudflare = await startCloudflare();
  process.env.CLOUDFLARE_API_URL = cloudflare.url;
  oauth = await startOAuthServer();
});
afterAll(async () => {
  await w.close();
  cloudflare.server.close();
  await oauth.stop();
});

describe('connecting a provider', () => {
  it('GET answers null until one is connected; PUT local; DELETE disconnects', async () => {
    expect((await w.p.get(integration())).body).toEqual({ provider: null });
    const put = await w.p.put(integration(), { kind: 'local', credentials: {} });
    expect(put.status).toBe(200);
    const read = await w.p.get(integration());
    expect(read.body.provider).toMatchObject({ kind: 'local', connected: true, connectedBy: w.p.owner.userId });
    expect((await w.p.delete(integration())).status).toBe(204);
    expect((await w.p.get(integration())).body).toEqual({ provider: null });
  });

  it('is read by owners and admins only: a developer, a viewer and a key with domains:read get 403', async () => {
    await w.p.put(integration(), { kind: 'local', credentials: {} });
    const admin = await w.p.person('admin');
    expect((await w.p.get(integration(), { token: admin.token })).body.provider).toMatchObject({ kind: 'local' });
    const key = await w.p.apiKey(['domains:read']);
    for (const token of [(await w.p.person('developer')).token, (await w.p.person('viewer')).token, key]) {
      const res = await w.p.get(integration(), { token });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: 'Only owners and admins can see the DNS provider.' });
    }
    expect((await w.p.delete(integration())).status).toBe(204);
  });

  it('Cloudflare: the token is checked by listing zones (400 when refused), stored encrypted, never shown', async () => {
    const zone = `${unique('cf')}.test`;
    cloudflare.zones.push(zone);
    // Another kind's credentials: 400 before any call to the provider.
    const mixed = await w.p.put(integration(), {
      kind: 'cloudflare',
      credentials: { roleArn: 'arn:aws:iam::123456789012:role/dns', externalId: 'ext-1' },
    });
    expect(mixed.status).toBe(400);
    expect(mixed.body).toEqual({ error: 'Cloudflare takes { apiToken }.' });
    const noRole = await w.p.put(integration(), { kind: 'route53', credentials: { apiToken: 'x' } });
    expect(noRole.body).toEqual({ error: 'Route 53 takes { roleArn, externalId }: a role the platform may assume.' });
    // A provider that does not answer: 502, nothing stored.
    process.env.CLOUDFLARE_API_URL = 'https://localhost:9/client/v4';
    try {
      const silent = await w.p.put(integration(), { kind: 'cloudflare', credentials: { apiToken: 'any' } });
      expect(silent.status).toBe(502);
      expect(silent.body).toEqual({ error: "The DNS provider couldn't be reached. Try again." });
    } finally {
      process.env.CLOUDFLARE_API_URL = cloudflare.url;
    }
    const refused = await w.p.put(integration(), { kind: 'cloudflare', credentials: { apiToken: 'wrong' } });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ error: 'The DNS provider refused these credentials.' });
    const res = await w.p.put(integration(), { kind: 'cloudflare', credentials: { apiToken: cloudflare.token } });
    expect(res.status).toBe(200);
    expect(res.body.provider.zones).toContain(zone);
    expect(JSON.stringify(res.body)).not.toContain(cloudflare.token);
    const { getProviderRecord } = await import('../../shared/domains/custom-domains/provider');
    expect(JSON.stringify(await getProviderRecord(w.p.org.orgId))).not.toContain(cloudflare.token);
  });

  it("writes a domain's records through Cloudflare; refuses a zone it doesn't hold (409) and a refused write (502)", async () => {
    const zone = cloudflare.zones[0] as string;
    const { projectId } = await createProject(w.p);
    const added = await w.p.post(domains(), { hostname: `app.${zone}`, projectId });
    expect(added.body.domain.dnsProvider).toBe('cloudflare');
    const res = await w.p.post(`${domains()}/app.${zone}/dns-provider`);
    expect(res.status).toBe(200);
    const written = [...cloudflare.records.values()];
    expect(written).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: 'CNAME', name: `app.${zone}`, content: 'cname.localhost', zone }),
        expect.objectContaining({ type: 'TXT', name: `_platform-verify.app.${zone}` }),
      ]),
    );
    // Written again: replaced, not doubled.
    await w.p.post(`${domains()}/app.${zone}/dns-provider`);
    expect(cloudflare.records.size).toBe(2);

    const elsewhere = `www.${unique('no')}.test`;
    await w.p.post(domains(), { hostname: elsewhere, projectId });
    const lacks = await w.p.post(`${domains()}/${elsewhere}/dns-provider`);
    expect(lacks.status).toBe(409);
    expect(lacks.body).toEqual({ error: `The connected DNS provider does not hold the zone ${elsewhere.slice(4)}.` });

    cloudflare.failWrites = true;
    const failed = await w.p.post(`${domains()}/app.${zone}/dns-provider`);
    cloudflare.failWrites = false;
    expect(failed.status).toBe(502);
    expect(failed.body).toEqual({
      error: "The DNS provider refused the change. Check the provider's access and try again.",
    });

    // The domain's delete removes what was written.
    expect((await w.p.delete(`${domains()}/app.${zone}`)).status).toBe(204);
    expect(cloudflare.records.size).toBe(0);
  });
});

describe('OAuth sign-in', () => {
  const configure = () =>
    Object.assign(process.env, {
      DNS_OAUTH_ISSUER: oauth.issuer,
      DNS_OAUTH_CLIENT_ID: 'platform-dns',
      DNS_OAUTH_REDIRECT_URI: 'http://localhost:3000/dns/callback',
    });

  /** The browser's part: the authorize URL followed to the redirect, its code and state. */
  async function signIn(url: string) {
    const res = await fetch(url, { redirect: 'manual' });
    expect(res.status).toBe(302);
    const back = new URL(res.headers.get('location') as string);
    expect(back.origin + back.pathname).toBe('http://localhost:3000/dns/callback');
    return { code: back.searchParams.get('code') as string, state: back.searchParams.get('state') as string };
  }

  it('400 without an OAuth client configured, or for a provider without OAuth', async () => {
    delete process.env.DNS_OAUTH_ISSUER;
    const res = await w.p.post(`${integration()}/authorize`, { kind: 'cloudflare' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: 'This DNS provider has no OAuth sign-in on this platform. Connect it with credentials.',
    });
    configure();
    const route53 = await w.p.post(`${integration()}/authorize`, { kind: 'route53' });
    expect(route53.status).toBe(400);
  });

  it('authorize → the provider → oauth connects Cloudflare with the token it gave (PKCE S256)', async () => {
    configure();
    const start = await w.p.post(`${integration()}/authorize`, { kind: 'cloudflare' });
    expect(start.status).toBe(200);
    const url = new URL(start.body.url);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('client_id')).toBe('platform-dns');
    const { code, state } = await signIn(start.body.url);
    const res = await w.p.post(`${integration()}/oauth`, { code, state });
    expect(res.status).toBe(200);
    expect(res.body.provider).toMatchObject({ kind: 'cloudflare', connected: true, connectedBy: w.p.owner.userId });
    // A state is good once.
    const again = await w.p.post(`${integration()}/oauth`, { code, state });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ error: 'This sign-in expired or was already used. Start it again.' });
  });

  it("409 for an unknown state or another person's; 400 when the provider refuses the code", async () => {
    configure();
    const admin = await w.p.person('admin');
    const start = await w.p.post(`${integration()}/authorize`, { kind: 'cloudflare' });
    const { code, state } = await signIn(start.body.url);
    const theirs = await w.p.post(`${integration()}/oauth`, { code, state }, { token: admin.token });
    expect(theirs.status).toBe(409);
    const unknown = await w.p.post(`${integration()}/oauth`, { code, state: 'made-up' });
    expect(unknown.status).toBe(409);
    // A state past its 10 minutes.
    const late = await w.p.post(`${integration()}/authorize`, { kind: 'cloudflare' });
    const lateState = new URL(late.body.url).searchParams.get('state') as string;
    await db.send(
      new UpdateCommand({
        TableName: TABLE(),
        Key: { pk: `DNSOAUTH#${lateState}`, sk: 'STATE' },
        UpdateExpression: 'SET expiresAt = :past',
        ExpressionAttributeValues: { ':past': Date.now() - 1 },
      }),
    );
    expect((await w.p.post(`${integration()}/oauth`, { code, state: lateState })).status).toBe(409);
    const refused = await w.p.post(`${integration()}/oauth`, { code: 'refused', state });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ error: 'The DNS provider refused these credentials.' });
  });
});
