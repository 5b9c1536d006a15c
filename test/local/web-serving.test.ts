import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { docsRoutes } from '../../lib/local/docs';
import { TestPlatform } from '../helpers/platform';

/**
 * The web app as `npm start` serves it beside the API (lib/local/web.ts), from a built folder of
 * this test's own making (an index.html and hashed assets, as vite writes them): files, the
 * single-page fallback, caching, compression, its config, the root's redirect for browsers, and
 * every other path answering exactly as it does without the app.
 */
let p: TestPlatform;
let bare: TestPlatform;
let dist: string;
const INDEX =
  '<!doctype html><html lang="en"><title>Platform</title><script type="module" src="/app/assets/index-Ab12Cd34.js"></script></html>';
const SCRIPT = `export const big = ${JSON.stringify('x'.repeat(4000))};\nconsole.log(big.length);\n`;

beforeAll(async () => {
  dist = mkdtempSync(join(tmpdir(), 'web-dist-'));
  mkdirSync(join(dist, 'assets'));
  writeFileSync(join(dist, 'index.html'), INDEX);
  writeFileSync(join(dist, 'assets', 'index-Ab12Cd34.js'), SCRIPT);
  writeFileSync(join(dist, 'assets', 'index-Ef56Gh78.css'), 'body{margin:0}');
  writeFileSync(join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  mkdirSync(join(dist, '.vite'));
  writeFileSync(join(dist, '.vite', 'manifest.json'), '{}');
  p = await TestPlatform.start({ extra: docsRoutes(), web: { dist } });
  bare = await TestPlatform.start({ extra: docsRoutes() });
});
afterAll(async () => {
  await Promise.all([p.close(), bare.close()]);
  rmSync(dist, { recursive: true, force: true });
});

const get = (base: string, path: string, headers: Record<string, string> = {}, method = 'GET') =>
  fetch(`${base}${path}`, { method, headers, redirect: 'manual' });

/** A request sent with its path exactly as written (fetch would normalize `..`). */
function raw(path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${p.baseUrl}${path}`, { method: 'GET' }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end();
  });
}

it('serves index.html at /app/ and for every path of the app, revalidated, with its security headers', async () => {
  for (const path of ['/app/', '/app/acme/projects', '/app/acme/repos/web.site/pulls/3', '/app/callback?code=x']) {
    const res = await get(p.baseUrl, path);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(await res.text()).toBe(INDEX);
  }
  const res = await get(p.baseUrl, '/app/');
  const csp = res.headers.get('content-security-policy') ?? '';
  const idp = new URL(process.env.AUTH_URL as string).origin;
  const storage = new URL(process.env.AWS_ENDPOINT_URL_S3 as string).origin;
  // Presigned links: the browser sends files to storage and reads them from it directly.
  expect(csp).toContain(`connect-src 'self' ${idp} ${storage};`);
  expect(csp).toContain(`frame-src 'self' ${idp};`);
  expect(csp).toContain("script-src 'self';");
  expect(csp).toContain("frame-ancestors 'self'");
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  expect((await get(p.baseUrl, '/app')).headers.get('location')).toBe('/app/');
  const head = await get(p.baseUrl, '/app/acme', {}, 'HEAD');
  expect(head.status).toBe(200);
  expect(await head.text()).toBe('');
});

it('serves hashed assets for a year and other files revalidated, with their types, compressed when asked', async () => {
  const js = await get(p.baseUrl, '/app/assets/index-Ab12Cd34.js', { 'accept-encoding': 'identity' });
  expect(js.status).toBe(200);
  expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
  expect(js.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  expect(js.headers.get('content-encoding')).toBeNull();
  expect(await js.text()).toBe(SCRIPT);
  const css = await get(p.baseUrl, '/app/assets/index-Ef56Gh78.css');
  expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
  const icon = await get(p.baseUrl, '/app/favicon.svg');
  expect(icon.headers.get('content-type')).toBe('image/svg+xml');
  expect(icon.headers.get('cache-control')).toBe('no-cache');

  // Bodies read as sent (node's http, not fetch, which would decode them).
  const encoded = (encoding: string) =>
    new Promise<{ encoding?: string; vary?: string; body: Buffer }>((resolve, reject) => {
      request(`${p.baseUrl}/app/assets/index-Ab12Cd34.js`, { headers: { 'accept-encoding': encoding } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            encoding: res.headers['content-encoding'],
            vary: res.headers.vary,
            body: Buffer.concat(chunks),
          }),
        );
      })
        .on('error', reject)
        .end();
    });
  const br = await encoded('gzip, deflate, br');
  expect(br.encoding).toBe('br');
  expect(br.vary).toBe('Accept-Encoding');
  expect(br.body.length).toBeLessThan(SCRIPT.length / 4);
  expect(brotliDecompressSync(br.body).toString('utf8')).toBe(SCRIPT);
  const gz = await encoded('gzip');
  expect(gz.encoding).toBe('gzip');
  expect(gunzipSync(gz.body).toString('utf8')).toBe(SCRIPT);
  expect((await encoded('br;q=0, gzip')).encoding).toBe('gzip');

  const etag = js.headers.get('etag') as string;
  expect((await get(p.baseUrl, '/app/assets/index-Ab12Cd34.js', { 'if-none-match': etag })).status).toBe(304);
});

it('answers a missing hashed asset with a 404, never with the page; a path out of the folder finds nothing', async () => {
  const missing = await get(p.baseUrl, '/app/assets/index-Gone0000.js');
  expect(missing.status).toBe(404);
  expect(await missing.json()).toEqual({ error: 'Not found' });
  // `..` encoded reaches the server as written: it never leaves the built folder.
  // The build's own hidden files are not the app's.
  expect(await (await get(p.baseUrl, '/app/.vite/manifest.json')).text()).toBe(INDEX);
  const escaped = await raw('/app/x/%2e%2e%2f%2e%2e%2fpackage.json');
  expect(escaped.body).toBe(INDEX);
  // Dot segments, even encoded, are resolved before the app's folder is looked at: outside /app/.
  const above = await raw('/app/%2e%2e/package.json');
  expect(above.status).toBe(404);
  expect(above.body).not.toContain('"name"');
  expect((await raw('/app/%E0%A4%A')).status).toBe(400);
  const post = await get(p.baseUrl, '/app/acme', {}, 'POST');
  expect(post.status).toBe(405);
  expect(post.headers.get('allow')).toBe('GET, HEAD');
});

it('answers /app/config.json with where the app finds the API and how it signs in', async () => {
  const res = await get(p.baseUrl, '/app/config.json');
  expect(res.status).toBe(200);
  expect(res.headers.get('cache-control')).toBe('no-cache');
  expect(await res.json()).toEqual({
    apiUrl: '',
    authUrl: process.env.AUTH_URL,
    clientId: 'platform-web',
    redirectUri: `${p.baseUrl}/app/callback`,
  });
});

it('sends a browser at / to /app/; every other request answers as it does without the app', async () => {
  const browser = await get(p.baseUrl, '/', { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' });
  expect(browser.status).toBe(302);
  expect(browser.headers.get('location')).toBe('/app/');

  const same = async (path: string, headers: Record<string, string> = {}, method = 'GET') => {
    const [withApp, without] = await Promise.all([
      get(p.baseUrl, path, headers, method),
      get(bare.baseUrl, path, headers, method),
    ]);
    expect({ path, status: withApp.status, type: withApp.headers.get('content-type') }).toEqual({
      path,
      status: without.status,
      type: without.headers.get('content-type'),
    });
    return { withApp, text: await withApp.text(), other: await without.text() };
  };
  const root = await same('/', { accept: 'application/json' });
  expect(root.text).toBe(root.other);
  await same('/', { accept: 'text/html' }, 'POST');
  // An unknown API path is still the API's JSON 404, for a browser too.
  for (const path of ['/v1/nothing-here', '/nothing-here']) {
    const unknown = await same(path, { accept: 'text/html' });
    expect(unknown.withApp.status).toBe(404);
    expect(unknown.withApp.headers.get('content-type')).toContain('application/json');
    expect(JSON.parse(unknown.text)).toEqual(JSON.parse(unknown.other));
  }
  expect((await same('/health')).withApp.status).toBe(200);
  expect((await same('/docs', { accept: 'text/html' })).withApp.status).toBe(200);
  expect((await same('/openapi.json')).withApp.status).toBe(200);
  const me = await p.get('/v1/me');
  expect(me.status).toBe(200);
  await same('/git/nobody/nothing.git/info/refs?service=git-upload-pack');
});

it('says the app is not built when its folder is missing, and still answers its config', async () => {
  const empty = mkdtempSync(join(tmpdir(), 'web-none-'));
  const q = await TestPlatform.start({ web: { dist: join(empty, 'dist') } });
  try {
    const res = await get(q.baseUrl, '/app/acme/projects');
    expect(res.status).toBe(503);
    expect(await res.text()).toContain('The web app is not built');
    expect((await get(q.baseUrl, '/app/config.json')).status).toBe(200);
    expect((await get(q.baseUrl, '/health')).status).toBe(200);
  } finally {
    await q.close();
    rmSync(empty, { recursive: true, force: true });
  }
});
