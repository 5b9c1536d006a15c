import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '../../shared/kernel/store/client';
import { TABLE } from '../../shared/kernel/store/table';
import { TestPlatform } from '../helpers/platform';
import { type Running, startEverything, startSdkServer } from './servers';

/**
 * `POST …/connectors/:id/test` against real MCP servers on loopback: server-everything over
 * Streamable HTTP (`http`) and the older HTTP+SSE (`sse`), an SDK server with a credential check
 * for `bearer` and `header`. Loopback `http` is what `npm start` allows connectors
 * (LOCAL_CONNECTORS_LOOPBACK, set here as `npm start` sets it); without it the guard refuses them.
 */
let p: TestPlatform;
let streamable: Running;
let sse: Running;
const base = () => `/v1/orgs/${p.org.orgId}/connectors`;
let n = 0;
const slug = (prefix = 'c') => `${prefix}${Date.now().toString(36).slice(-5)}${(n++).toString(36)}`;

const EVERYTHING_TOOLS = [
  'echo',
  'get-annotated-message',
  'get-env',
  'get-resource-links',
  'get-resource-reference',
  'get-structured-content',
  'get-sum',
  'get-tiny-image',
  'gzip-file-as-resource',
  'toggle-simulated-logging',
  'toggle-subscriber-updates',
  'trigger-long-running-operation',
  'simulate-research-query',
];

beforeAll(async () => {
  process.env.LOCAL_CONNECTORS_LOOPBACK = 'true';
  [p, streamable, sse] = await Promise.all([
    TestPlatform.start(),
    startEverything('streamableHttp'),
    startEverything('sse'),
  ]);
});
afterAll(async () => {
  delete process.env.LOCAL_CONNECTORS_LOOPBACK;
  await Promise.all([p.close(), streamable.stop(), sse.stop()]);
});
afterEach(() => {
  delete process.env.CONNECTOR_MAX_TOOLS;
  delete process.env.CONNECTOR_TIMEOUT_MS;
  process.env.LOCAL_CONNECTORS_LOOPBACK = 'true';
});

async function connector(fields: Record<string, unknown>) {
  const made = await p.post(base(), { name: 'Server', slug: slug(), ...fields });
  expect(made.status).toBe(201);
  return made.body.connector as { connectorId: string; slug: string };
}
const test_ = (id: string) => p.post(`${base()}/${id}/test`);

describe('server-everything', () => {
  it.each([
    ['http', () => streamable.url],
    ['sse', () => sse.url],
  ])('over %s: its tools cached with stable exposed names', async (transport, url) => {
    const c = await connector({ url: url(), transport });
    const tested = await test_(c.connectorId);
    expect(tested.status).toBe(200);
    expect(tested.body.connector).toMatchObject({
      status: 'ok',
      toolCount: EVERYTHING_TOOLS.length,
      omittedTools: 0,
      lastCheckedAt: expect.any(Number),
    });
    expect(tested.body.connector.lastError).toBeUndefined();
    const got = await p.get(`${base()}/${c.connectorId}`);
    expect(got.body.tools.map((t: { name: string }) => t.name)).toEqual(EVERYTHING_TOOLS);
    expect(got.body.tools.map((t: { exposedName: string }) => t.exposedName)).toEqual(
      EVERYTHING_TOOLS.map((name) => `${c.slug}__${name}`),
    );
    const echo = got.body.tools.find((t: { name: string }) => t.name === 'echo');
    expect(echo).toEqual({
      name: 'echo',
      exposedName: `${c.slug}__echo`,
      title: expect.any(String),
      description: expect.any(String),
      inputSchema: expect.objectContaining({ type: 'object', properties: { message: expect.any(Object) } }),
    });
    // Again: the same names.
    await test_(c.connectorId);
    expect((await p.get(`${base()}/${c.connectorId}`)).body.tools).toEqual(got.body.tools);
  });

  it('a lowered cap keeps the first tools and counts the rest in omittedTools', async () => {
    process.env.CONNECTOR_MAX_TOOLS = '5';
    const c = await connector({ url: streamable.url });
    const tested = await test_(c.connectorId);
    expect(tested.body.connector).toMatchObject({ status: 'ok', toolCount: 5, omittedTools: 8 });
    const got = await p.get(`${base()}/${c.connectorId}`);
    expect(got.body.tools.map((t: { name: string }) => t.name)).toEqual(EVERYTHING_TOOLS.slice(0, 5));
  });

  it('the wrong transport records the answer with a hint to choose sse', async () => {
    const c = await connector({ url: sse.url, transport: 'http' });
    const tested = await test_(c.connectorId);
    expect(tested.status).toBe(200);
    expect(tested.body.connector).toMatchObject({
      status: 'error',
      toolCount: 0,
      lastError:
        'The server answered 404 to Streamable HTTP. If it speaks the older HTTP+SSE transport, choose transport sse.',
    });
    const other = await connector({ url: streamable.url, transport: 'sse' });
    expect((await test_(other.connectorId)).body.connector).toMatchObject({
      status: 'error',
      lastError: expect.stringContaining('400'),
    });
  });

  it('a stopped server, then one speaking the other transport: the last good tools stay, with lastError', async () => {
    const own = await startEverything('streamableHttp');
    const c = await connector({ url: own.url });
    expect((await test_(c.connectorId)).body.connector).toMatchObject({ status: 'ok', toolCount: 13 });
    const before = await p.get(`${base()}/${c.connectorId}`);
    await own.stop();
    const stopped = await test_(c.connectorId);
    expect(stopped.body.connector).toMatchObject({
      status: 'error',
      lastError: 'Could not connect: the connection was refused.',
      toolCount: 13,
    });
    expect((await p.get(`${base()}/${c.connectorId}`)).body.tools).toEqual(before.body.tools);
    // The SSE server on the same port: POST /mcp is 404 there.
    const other = await startEverything('sse', own.port);
    try {
      const wrong = await test_(c.connectorId);
      expect(wrong.body.connector).toMatchObject({ status: 'error', toolCount: 13 });
      expect(wrong.body.connector.lastError).toContain('choose transport sse');
      expect((await p.get(`${base()}/${c.connectorId}`)).body.tools).toEqual(before.body.tools);
    } finally {
      await other.stop();
    }
  });

  it('without the npm start allowance the guard refuses loopback at connect time', async () => {
    const c = await connector({ url: streamable.url });
    delete process.env.LOCAL_CONNECTORS_LOOPBACK;
    const tested = await test_(c.connectorId);
    expect(tested.body.connector).toMatchObject({
      status: 'error',
      lastError: 'The platform does not reach this server: The URL must use https.',
    });
  });

  it('a server that never answers ends in the time limit', async () => {
    const silent: Server = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      process.env.CONNECTOR_TIMEOUT_MS = '500';
      const c = await connector({ url: `http://127.0.0.1:${(silent.address() as AddressInfo).port}/mcp` });
      const started = Date.now();
      const tested = await test_(c.connectorId);
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(tested.body.connector).toMatchObject({ status: 'error', lastError: 'No answer within 1 s.' });
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  });
});

describe('credentials and tool rules (an SDK server)', () => {
  it('bearer: the secret as a bearer token; a wrong one is 401, PATCH fixes it', async () => {
    const server = await startSdkServer({
      tools: ['search'],
      allow: (req) => req.headers.authorization === 'Bearer right',
    });
    try {
      const c = await connector({ url: server.url, authType: 'bearer', secret: 'wrong' });
      expect((await test_(c.connectorId)).body.connector).toMatchObject({
        status: 'error',
        lastError: 'The server refused the credentials (401).',
      });
      await p.patch(`${base()}/${c.connectorId}`, { secret: 'right' });
      expect((await test_(c.connectorId)).body.connector).toMatchObject({ status: 'ok', toolCount: 1 });
    } finally {
      await server.stop();
    }
  });

  it('header: the secret in the named header', async () => {
    const server = await startSdkServer({ tools: ['search'], allow: (req) => req.headers['x-api-key'] === 'k-1' });
    try {
      const c = await connector({ url: server.url, authType: 'header', headerName: 'X-Api-Key', secret: 'k-1' });
      expect((await test_(c.connectorId)).body.connector).toMatchObject({ status: 'ok', toolCount: 1 });
      expect(server.requests.every((r) => r.headers.authorization === undefined)).toBe(true);
    } finally {
      await server.stop();
    }
  });

  it('pages of tools up to 200, the rest counted; exposed names unique, ≤ 64, hashed on collision', async () => {
    const many = Array.from({ length: 250 }, (_, i) => `tool-${String(i).padStart(3, '0')}`);
    const odd = ['a.b', 'a_b', 'a b', 'x'.repeat(80), `${'x'.repeat(80)}y`, 'ünï'];
    const server = await startSdkServer({ tools: [...odd, ...many], pageSize: 60 });
    try {
      const c = await connector({ url: server.url, slug: slug('s') });
      const tested = await test_(c.connectorId);
      expect(tested.body.connector).toMatchObject({ status: 'ok', toolCount: 200, omittedTools: 56 });
      const tools = (await p.get(`${base()}/${c.connectorId}`)).body.tools as { name: string; exposedName: string }[];
      const names = tools.map((t) => t.exposedName);
      expect(new Set(names).size).toBe(200);
      for (const e of names) expect(e).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
      const byName = Object.fromEntries(tools.map((t) => [t.name, t.exposedName]));
      // `a_b` kept its name; `a.b` and `a b` met it and took hashes; the two long names too.
      expect(byName.a_b).toBe(`${c.slug}__a_b`);
      expect(byName['a.b']).toMatch(new RegExp(`^${c.slug}__a_b_[0-9a-f]{8}$`));
      expect(byName['a b']).toMatch(new RegExp(`^${c.slug}__a_b_[0-9a-f]{8}$`));
      expect(byName['a.b']).not.toBe(byName['a b']);
      expect(byName['x'.repeat(80)]).toHaveLength(64);
      expect(byName['x'.repeat(80)]).not.toBe(byName[`${'x'.repeat(80)}y`]);
      expect(byName.ünï).toBe(`${c.slug}___n_`);
      expect(byName['tool-000']).toBe(`${c.slug}__tool-000`);
    } finally {
      await server.stop();
    }
    // Listed in another order by another server: the same names.
    const reordered = await startSdkServer({ tools: [...many.slice(0, 10), ...odd.reverse()] });
    try {
      const again = await connector({ url: reordered.url, slug: slug('s') });
      await test_(again.connectorId);
      const tools = (await p.get(`${base()}/${again.connectorId}`)).body.tools as {
        name: string;
        exposedName: string;
      }[];
      const byName = Object.fromEntries(tools.map((t) => [t.name, t.exposedName.slice(again.slug.length)]));
      expect(byName['a.b']).toMatch(/^__a_b_[0-9a-f]{8}$/);
      expect(byName.a_b).toBe('__a_b');
    } finally {
      await reordered.stop();
    }
  });

  it('a long list is kept in parts and read back whole; one too large to keep fails and keeps the last; fewer parts later', async () => {
    // Hex descriptions compress to about half: 120 tools of 10 KB take two parts of 350 KB.
    const sizes = { now: 10_000 };
    const text = new Map<string, string>();
    const describe = (name: string) => {
      const key = `${name}:${sizes.now}`;
      if (!text.has(key)) text.set(key, randomBytes(sizes.now / 2).toString('hex'));
      return text.get(key) as string;
    };
    const options = { tools: Array.from({ length: 120 }, (_, i) => `t${i}`), describe };
    const server = await startSdkServer(options);
    const part = async (orgId: string, id: string, i: number) =>
      (await db.send(new GetCommand({ TableName: TABLE(), Key: { pk: `ORG#${orgId}`, sk: `CONTOOLS#${id}#${i}` } })))
        .Item;
    try {
      const c = await connector({ url: server.url });
      expect((await test_(c.connectorId)).body.connector).toMatchObject({ status: 'ok', toolCount: 120 });
      expect(await part(p.org.orgId, c.connectorId, 1)).toBeDefined();
      const read = (await p.get(`${base()}/${c.connectorId}`)).body.tools as { name: string; description: string }[];
      expect(read.map((t) => t.description)).toEqual(options.tools.map(describe));
      // 200 tools of 40 KB: about 4 MB compressed, over what one transaction takes.
      sizes.now = 40_000;
      options.tools = Array.from({ length: 200 }, (_, i) => `t${i}`);
      const tooLarge = await test_(c.connectorId);
      expect(tooLarge.body.connector).toMatchObject({
        status: 'error',
        toolCount: 120,
        lastError: 'The tool list is too large to keep (over 3 MB compressed). The last good tools stay.',
      });
      expect((await p.get(`${base()}/${c.connectorId}`)).body.tools).toEqual(read);
      // A short list again: one part, the second one gone.
      options.tools = ['only'];
      expect((await test_(c.connectorId)).body.connector).toMatchObject({ status: 'ok', toolCount: 1 });
      expect(await part(p.org.orgId, c.connectorId, 1)).toBeUndefined();
      expect((await p.get(`${base()}/${c.connectorId}`)).body.tools).toHaveLength(1);
    } finally {
      await server.stop();
    }
  });
});
