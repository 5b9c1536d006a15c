import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import {
  checkPublicUrlFor,
  checkUrlSyntaxFor,
  type Resolver,
  UnsafeUrlError,
} from '../../shared/kernel/net/guarded-fetch';
import { streamingGuardedFetch } from '../../shared/kernel/net/streaming-fetch';

/**
 * The streaming, fetch-compatible form of the guarded fetch (what MCP's transports take): the same
 * URL rules and connect-time address check as guardedFetch, a body that streams (Server-Sent
 * Events), no redirect followed, `signal` honored, a cap on the body; loopback `http` only with
 * the allowance `npm start` alone gives connectors.
 */
const tls = join(__dirname, '..', 'fixtures', 'tls');
const ca = readFileSync(join(tls, 'receiver.crt'));
let server: Server;
let plain: HttpServer;
let port: number;
let plainPort: number;
let calls = 0;

function answer(req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) {
  calls++;
  if (req.url === '/events') {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write('data: one\n\n');
    const timer = setInterval(() => res.write('data: tick\n\n'), 50);
    res.on('close', () => clearInterval(timer));
  } else if (req.url === '/redirect') {
    res.writeHead(302, { location: 'https://169.254.169.254/' });
    res.end();
  } else if (req.url === '/big') {
    res.end(Buffer.alloc(50_000, 'x'));
  } else if (req.url === '/empty') {
    res.writeHead(204);
    res.end();
  } else {
    let body = '';
    req.on('data', (d) => {
      body += d;
    });
    req.on('end', () => {
      res.setHeader('set-cookie', ['a=1', 'b=2']);
      res.end(
        JSON.stringify({ method: req.method, body, type: req.headers['content-type'], x: req.headers['x-test'] }),
      );
    });
  }
}

beforeAll(async () => {
  server = createServer({ key: readFileSync(join(tls, 'receiver.key')), cert: ca }, answer);
  plain = createHttpServer(answer);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  plainPort = (plain.address() as AddressInfo).port;
});
afterAll(() => {
  for (const s of [server, plain]) {
    s.closeAllConnections();
    s.close();
  }
});
afterEach(() => {
  delete process.env.UNSAFE_TEST_ALLOW_HOSTS;
});

const table =
  (answers: Record<string, string[]>): Resolver =>
  async (host) => {
    const list = answers[host];
    if (!list) throw new Error('ENOTFOUND');
    return list.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };

test('a real exchange through the test allowlist: a fetch Response, bodies of each kind, headers both ways', async () => {
  process.env.UNSAFE_TEST_ALLOW_HOSTS = 'receiver.test.example';
  const fetch = streamingGuardedFetch({ resolver: table({ 'receiver.test.example': ['127.0.0.1'] }), ca });
  const base = `https://receiver.test.example:${port}`;
  const json = await fetch(`${base}/echo`, { method: 'POST', body: '{"a":1}', headers: { 'x-test': 'yes' } });
  expect(json).toBeInstanceOf(Response);
  expect(json.status).toBe(200);
  expect(await json.json()).toEqual({ method: 'POST', body: '{"a":1}', x: 'yes' });
  const form = await fetch(new URL(`${base}/echo`), { method: 'POST', body: new URLSearchParams({ a: 'b c' }) });
  expect(await form.json()).toMatchObject({ body: 'a=b+c', type: 'application/x-www-form-urlencoded;charset=UTF-8' });
  const bytes = await fetch(`${base}/echo`, { method: 'PUT', body: new TextEncoder().encode('hi') });
  expect(((await bytes.json()) as { body: string }).body).toBe('hi');
  expect(json.headers.get('set-cookie')).toBe('a=1, b=2');
  const empty = await fetch(`${base}/empty`);
  expect([empty.status, empty.body]).toEqual([204, null]);
});

test('the body streams (Server-Sent Events) until the caller aborts', async () => {
  process.env.UNSAFE_TEST_ALLOW_HOSTS = 'receiver.test.example';
  const fetch = streamingGuardedFetch({ resolver: table({ 'receiver.test.example': ['127.0.0.1'] }), ca });
  const controller = new AbortController();
  const res = await fetch(`https://receiver.test.example:${port}/events`, { signal: controller.signal });
  expect(res.headers.get('content-type')).toBe('text/event-stream');
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  let text = '';
  while (!text.includes('tick')) text += new TextDecoder().decode((await reader.read()).value);
  expect(text.startsWith('data: one\n\n')).toBe(true);
  controller.abort();
  await expect(
    (async () => {
      for (;;) if ((await reader.read()).done) return 'ended';
    })(),
  ).rejects.toThrow();
  // Aborted before it starts: nothing is sent.
  const before = calls;
  await expect(fetch(`https://receiver.test.example:${port}/x`, { signal: AbortSignal.abort() })).rejects.toThrow();
  expect(calls).toBe(before);
});

test('the same refusals as guardedFetch: names, rebinding at connect time, redirects answered, the body capped', async () => {
  const answers: Record<string, string[]> = { 'public.test.example': ['93.184.215.14'] };
  const fetch = streamingGuardedFetch({ resolver: table(answers), ca, maxBytes: 1000 });
  await expect(fetch('https://localhost/')).rejects.toThrow(
    "can't be reached from the platform: it names this machine",
  );
  await expect(fetch(`http://127.0.0.1:${plainPort}/`)).rejects.toThrow('must use https');
  answers['public.test.example'] = ['127.0.0.1'];
  const before = calls;
  await expect(fetch(`https://public.test.example/`)).rejects.toThrow(UnsafeUrlError);
  expect(calls).toBe(before);
  process.env.UNSAFE_TEST_ALLOW_HOSTS = 'receiver.test.example';
  answers['receiver.test.example'] = ['127.0.0.1'];
  const redirect = await fetch(`https://receiver.test.example:${port}/redirect`);
  expect([redirect.status, redirect.headers.get('location')]).toEqual([302, 'https://169.254.169.254/']);
  const big = await fetch(`https://receiver.test.example:${port}/big`);
  await expect(big.text()).rejects.toThrow();
});

test('loopback http only with the allowance (npm start), and a loopback name must resolve to loopback only', async () => {
  const url = `http://127.0.0.1:${plainPort}/echo`;
  await expect(streamingGuardedFetch()(url)).rejects.toThrow('must use https');
  const local = streamingGuardedFetch({
    loopback: true,
    resolver: table({ localhost: ['127.0.0.1'], 'evil.localhost': ['127.0.0.1', '10.0.0.1'] }),
  });
  expect((await local(url)).status).toBe(200);
  expect((await local(`http://localhost:${plainPort}/echo`)).status).toBe(200);
  await expect(local(`http://evil.localhost:${plainPort}/echo`)).rejects.toThrow(
    'evil.localhost resolves to an address the platform does not reach.',
  );
  // The allowance is for loopback only: other hosts keep every rule.
  await expect(local('http://93.184.215.14/')).rejects.toThrow('must use https');
  await expect(local('https://10.0.0.1/')).rejects.toThrow('not a public address');
  expect(() => checkUrlSyntaxFor('http://user:pw@127.0.0.1:1/', 'url', true)).toThrow(
    'url must not hold a user name or password.',
  );
  expect(checkUrlSyntaxFor('http://[::1]:8080/mcp', 'url', true).port).toBe('8080');
  await expect(checkPublicUrlFor('http://127.0.0.1:9/', { what: 'url' })).rejects.toThrow('url must use https.');
  await expect(checkPublicUrlFor('http://127.0.0.1:9/', { what: 'url', loopback: true })).resolves.toBeInstanceOf(URL);
});
