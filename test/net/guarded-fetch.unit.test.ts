import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import {
  checkPublicUrl,
  checkUrlSyntax,
  guardedFetch,
  isPublicAddress,
  type Resolver,
  UnresolvableHostError,
  UnsafeUrlError,
} from '../../shared/kernel/net/guarded-fetch';

/**
 * The one guarded fetch of tenant URLs: names and addresses refused by rule, the address checked
 * again at connect time (a name that re-resolves to loopback is never called), no redirects, a
 * capped body, a timeout. The receiver is a real HTTPS server on loopback with a test certificate
 * (test/fixtures/tls, made for these tests), reached only through the test allowlist.
 */
const tls = join(__dirname, '..', 'fixtures', 'tls');
const ca = readFileSync(join(tls, 'receiver.crt'));
let server: Server;
let port: number;
let calls = 0;

beforeAll(async () => {
  server = createServer({ key: readFileSync(join(tls, 'receiver.key')), cert: ca }, (req, res) => {
    calls++;
    if (req.url === '/redirect') {
      res.writeHead(302, { location: 'https://169.254.169.254/latest/meta-data/' });
      res.end();
    } else if (req.url === '/big') {
      res.end(Buffer.alloc(200_000, 'x'));
    } else if (req.url === '/slow') {
      setTimeout(() => res.end('late'), 2_000).unref();
    } else {
      let body = '';
      req.on('data', (d) => {
        body += d;
      });
      req.on('end', () => res.end(JSON.stringify({ method: req.method, body, host: req.headers.host })));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});
afterEach(() => {
  delete process.env.UNSAFE_TEST_ALLOW_HOSTS;
});

/** A resolver answering from a table, counting its calls. */
const table = (answers: Record<string, string[]>): Resolver & { asked: number } => {
  const r = Object.assign(
    async (host: string) => {
      r.asked++;
      const list = answers[host];
      if (!list) throw new Error('ENOTFOUND');
      return list.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    },
    { asked: 0 },
  );
  return r;
};

test('addresses: public unicast only; IPv4 inside IPv6 judged as itself', () => {
  for (const ok of ['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', '::ffff:808:808']) {
    expect([ok, isPublicAddress(ok)]).toEqual([ok, true]);
  }
  for (const refused of [
    '127.0.0.1',
    '127.1.2.3',
    '0.0.0.0',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '100.64.0.1',
    '169.254.169.254',
    '192.0.2.1',
    '198.18.0.1',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:169.254.169.254',
    '::127.0.0.1',
    'fd00:ec2::254',
    'fc00::1',
    'fe80::1',
    'ff02::1',
    '64:ff9b::7f00:1',
    '2002:7f00:1::',
    '2001:db8::1',
    'not an address',
  ]) {
    expect([refused, isPublicAddress(refused)]).toEqual([refused, false]);
  }
});

test('every IPv6 form that carries an IPv4 address is judged by that address', () => {
  const forms: [string, string, string][] = [
    // [form, carrying 8.8.8.8 (public), carrying a refused address]
    ['mapped', '::ffff:808:808', '::ffff:a9fe:a9fe'],
    ['compatible', '::808:808', '::7f00:1'],
    ['compatible, dotted', '::8.8.8.8', '::169.254.169.254'],
    ['translated (RFC 6145)', '::ffff:0:808:808', '::ffff:0:a00:1'],
    ['NAT64 (64:ff9b::/96)', '64:ff9b::808:808', '64:ff9b::a9fe:a9fe'],
    ['6to4 (2002::/16)', '2002:808:808::1', '2002:a9fe:a9fe::1'],
    // Teredo: the server 65.54.227.120, the client stored inverted (f7f7:f7f7 is 8.8.8.8, 80ff:fffe 127.0.0.1).
    ['Teredo client', '2001:0:4136:e378:8000:63bf:f7f7:f7f7', '2001:0:4136:e378:8000:63bf:80ff:fffe'],
    ['Teredo server', '2001:0:4136:e378:8000:63bf:f7f7:f7f7', '2001:0:a00:1:8000:63bf:f7f7:f7f7'],
  ];
  for (const [form, ok, refused] of forms) {
    expect([form, ok, isPublicAddress(ok)]).toEqual([form, ok, true]);
    expect([form, refused, isPublicAddress(refused)]).toEqual([form, refused, false]);
  }
  // Local-use NAT64 embeds where its network chose: refused; the discard prefix too.
  for (const refused of ['64:ff9b:1::808:808', '100::1'])
    expect([refused, isPublicAddress(refused)]).toEqual([refused, false]);
  // As URL literals (the URL parser writes `::127.0.0.1` as `::7f00:1`).
  for (const url of [
    'https://[::127.0.0.1]/',
    'https://[::a9fe:a9fe]/',
    'https://[::ffff:0:127.0.0.1]/',
    'https://[64:ff9b::169.254.169.254]/',
    'https://[2002:7f00:1::1]/',
    'https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/',
  ]) {
    expect(() => checkUrlSyntax(url, 'callbackUrl')).toThrow('not a public address');
  }
  expect(checkUrlSyntax('https://[64:ff9b::8.8.8.8]/').hostname).toBe('[64:ff9b::808:808]');
});

test('URLs: https on 443, no credentials, no private names or addresses, each with its reason', () => {
  expect(checkUrlSyntax('https://hooks.example.com/x?y=1').hostname).toBe('hooks.example.com');
  expect(checkUrlSyntax('https://hooks.example.com:443/').port).toBe('');
  const refusals: [string, string][] = [
    ['http://hooks.example.com/', 'must use https'],
    ['https://hooks.example.com:8443/', 'must use port 443'],
    ['https://user:pw@hooks.example.com/', 'must not hold a user name or password'],
    ['https://localhost/', 'names this machine'],
    ['https://app.localhost/', 'names this machine'],
    ['https://intranet/', 'single-label'],
    ['https://printer.local/', 'private network'],
    ['https://db.corp.internal./', 'private network'],
    ['https://127.0.0.1/', 'not a public address'],
    ['https://2130706433/', 'not a public address'],
    ['https://0x7f.1/', 'not a public address'],
    ['https://[::1]/', 'not a public address'],
    ['https://[::ffff:169.254.169.254]/', 'not a public address'],
    ['https://169.254.169.254/latest/meta-data/', 'not a public address'],
    ['not a url', 'not a valid URL'],
  ];
  for (const [url, reason] of refusals) {
    expect(() => checkUrlSyntax(url, 'callbackUrl')).toThrow(UnsafeUrlError);
    expect(() => checkUrlSyntax(url, 'callbackUrl')).toThrow(reason);
  }
});

test('when saved, every DNS answer must be public', async () => {
  const resolver = table({ 'ok.example.com': ['93.184.215.14'], 'mixed.example.com': ['93.184.215.14', '10.0.0.5'] });
  await expect(checkPublicUrl('https://ok.example.com/', { resolver })).resolves.toBeInstanceOf(URL);
  await expect(checkPublicUrl('https://mixed.example.com/', { resolver })).rejects.toThrow(
    'mixed.example.com resolves to an address the platform does not reach.',
  );
  const gone = checkPublicUrl('https://gone.example.com/', { resolver, what: 'callbackUrl' });
  await expect(gone).rejects.toThrow(UnresolvableHostError);
  await expect(gone).rejects.toThrow("callbackUrl's host gone.example.com does not resolve.");
  const empty = checkPublicUrl('https://empty.example.com/', { resolver: async () => [] });
  await expect(empty).rejects.toThrow("The URL's host empty.example.com does not resolve.");
});

test('at connect time: a name that now resolves to loopback is never called (DNS rebinding)', async () => {
  // Public when the URL was saved, loopback when it is fetched.
  const answers: Record<string, string[]> = { 'public.test.example': ['93.184.215.14'] };
  const resolver = table(answers);
  await checkPublicUrl('https://public.test.example/', { resolver });
  answers['public.test.example'] = ['127.0.0.1'];
  const before = calls;
  await expect(guardedFetch(`https://public.test.example/`, {}, { resolver, ca })).rejects.toThrow(UnsafeUrlError);
  expect(calls).toBe(before);
  expect(resolver.asked).toBe(2);
});

test('through the test allowlist: a real exchange, redirects answered not followed, the body capped', async () => {
  process.env.UNSAFE_TEST_ALLOW_HOSTS = 'receiver.test.example';
  const resolver = table({ 'receiver.test.example': ['127.0.0.1'] });
  const base = `https://receiver.test.example:${port}`;
  const echoed = await guardedFetch(`${base}/hook`, { method: 'POST', body: '{"a":1}' }, { resolver, ca });
  expect(echoed.status).toBe(200);
  expect(JSON.parse(echoed.body.toString())).toEqual({
    method: 'POST',
    body: '{"a":1}',
    host: `receiver.test.example:${port}`,
  });
  const redirect = await guardedFetch(`${base}/redirect`, {}, { resolver, ca });
  expect(redirect.status).toBe(302);
  expect(redirect.headers.location).toBe('https://169.254.169.254/latest/meta-data/');
  const big = await guardedFetch(`${base}/big`, { maxBytes: 1000 }, { resolver, ca });
  expect(big).toMatchObject({ status: 200, truncated: true });
  expect(big.body.length).toBe(1000);
  await expect(guardedFetch(`${base}/slow`, { timeoutMs: 200 }, { resolver, ca })).rejects.toThrow(
    'No answer within 200 ms.',
  );
  // Without the allowlist the same receiver is refused before any connection.
  delete process.env.UNSAFE_TEST_ALLOW_HOSTS;
  const before = calls;
  await expect(guardedFetch(`${base}/hook`, {}, { resolver, ca })).rejects.toThrow(UnsafeUrlError);
  expect(calls).toBe(before);
});

test('TLS is checked: a certificate the client does not trust is refused', async () => {
  process.env.UNSAFE_TEST_ALLOW_HOSTS = 'receiver.test.example';
  const resolver = table({ 'receiver.test.example': ['127.0.0.1'] });
  await expect(guardedFetch(`https://receiver.test.example:${port}/`, {}, { resolver })).rejects.toThrow(/certificate/);
});
