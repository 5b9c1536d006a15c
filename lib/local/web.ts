import { createReadStream, existsSync, readFileSync, type Stats, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { resolve, sep } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { contentTypeOf } from '../../shared/ports/artifacts/content-types';
import { IMMUTABLE, originOf, REVALIDATE, WEB_ASSETS, WEB_BASE, type WebConfig, webAppCsp } from '../web-app-policy';
import type { LocalRoute } from './gateway';

/**
 * The platform's own web app, served by the local gateway beside the API (as /docs is), from the
 * folder `vite build -c web/vite.config.mts` writes (`web/dist`, or `WEB_DIST`):
 * - `/app/…`: a file of the folder, else `index.html` (the app routes in the browser), except under
 *   `/app/assets/`, where a missing file is a 404 (a stale chunk fails as itself, not as HTML);
 *   hashed assets kept a year, everything else revalidated; gzip or brotli when asked for;
 * - `/app/config.json`: where the app finds the API (its own origin) and how it signs in;
 * - `/`: a browser (Accept: text/html) is sent to `/app/`; any other request to `/` reaches the API
 *   as before, and no other path changes: an unknown API path is still the API's JSON 404.
 * The folder is read per request, so a rebuild shows without a restart.
 */
export interface WebOptions {
  /** The built app; default `WEB_DIST` or `web/dist` of the project. */
  dist?: string;
  /** What `/app/config.json` answers (read per request: the address may be known only later). */
  config: () => WebConfig;
}

export const defaultWebDist = () => resolve(process.env.WEB_DIST ?? resolve(__dirname, '..', '..', 'web', 'dist'));

const COMPRESSIBLE = /^(text\/|application\/(json|manifest\+json|wasm)|image\/svg\+xml)/;
/** Below this, compressing saves less than its headers. */
const MIN_COMPRESS = 1024;

/** Compressed copies, by file, its version and the encoding (a file is compressed once). */
const compressed = new Map<string, Buffer>();

function encodingFor(req: IncomingMessage): 'br' | 'gzip' | undefined {
  const accepted = String(req.headers['accept-encoding'] ?? '')
    .split(',')
    .map((part) => part.trim().split(';'))
    .filter(([, q]) => !q || Number(q.trim().replace(/^q=/, '')) > 0)
    .map(([name]) => name?.trim().toLowerCase());
  if (accepted.includes('br')) return 'br';
  if (accepted.includes('gzip')) return 'gzip';
  return undefined;
}

function sendJson(res: ServerResponse, status: number, body: unknown, extra: Record<string, string> = {}): true {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'x-content-type-options': 'nosniff',
    ...extra,
  });
  res.end(text);
  return true;
}

/** The file `rest` (the path under /app/, decoded) names inside `dist`; undefined if it leaves it. */
function fileIn(dist: string, rest: string): string | undefined {
  // Hidden files (vite's `.vite/manifest.json`) are the build's, not the app's.
  if (rest.includes('\0') || rest.split('/').some((s) => s.startsWith('.'))) return undefined;
  const file = resolve(dist, `.${sep}${rest}`);
  return file === dist || file.startsWith(dist + sep) ? file : undefined;
}

function statOf(file: string | undefined): Stats | undefined {
  if (!file) return undefined;
  try {
    const s = statSync(file);
    return s.isFile() ? s : undefined;
  } catch {
    return undefined;
  }
}

const NOT_BUILT = `<!doctype html>
<html lang="en"><meta charset="utf-8"><title>The web app is not built</title>
<h1>The web app is not built</h1>
<p><code>npm ci</code> builds it (or <code>npm run build:web</code>); the API, <a href="/docs">/docs</a> and <code>/openapi.json</code> answer meanwhile.</p>
</html>
`;

export function webRoutes(options: WebOptions): LocalRoute[] {
  const dist = resolve(options.dist ?? defaultWebDist());

  const serveFile = (
    req: IncomingMessage,
    res: ServerResponse,
    file: string,
    stats: Stats,
    cache: string,
    extra: Record<string, string> = {},
  ): true => {
    const type = contentTypeOf(file);
    const etag = `W/"${stats.size.toString(16)}-${Math.floor(stats.mtimeMs).toString(16)}"`;
    const headers: Record<string, string | number> = {
      'content-type': type,
      'cache-control': cache,
      etag,
      'x-content-type-options': 'nosniff',
      ...extra,
    };
    const compressible = COMPRESSIBLE.test(type) && stats.size >= MIN_COMPRESS;
    if (compressible) headers.vary = 'Accept-Encoding';
    if (req.headers['if-none-match'] === etag) {
      res.writeHead(304, headers);
      res.end();
      return true;
    }
    const encoding = compressible ? encodingFor(req) : undefined;
    if (encoding) {
      const key = `${file}\0${etag}\0${encoding}`;
      let body = compressed.get(key);
      if (!body) {
        const raw = readFileSync(file);
        body =
          encoding === 'br'
            ? brotliCompressSync(raw, {
                params: { [constants.BROTLI_PARAM_QUALITY]: 9, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length },
              })
            : gzipSync(raw, { level: 9 });
        compressed.set(key, body);
      }
      res.writeHead(200, { ...headers, 'content-encoding': encoding, 'content-length': body.length });
      res.end(req.method === 'HEAD' ? undefined : body);
      return true;
    }
    res.writeHead(200, { ...headers, 'content-length': stats.size });
    if (req.method === 'HEAD') res.end();
    else createReadStream(file).pipe(res);
    return true;
  };

  const route: LocalRoute = (req, res) => {
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://local');
    } catch {
      return false;
    }
    const path = url.pathname;
    const reading = req.method === 'GET' || req.method === 'HEAD';
    // A browser at the root is sent to the app; nothing else about `/` changes.
    if (path === '/') {
      if (!reading || !String(req.headers.accept ?? '').includes('text/html')) return false;
      res.writeHead(302, { location: WEB_BASE, 'cache-control': 'no-cache', vary: 'Accept' });
      res.end();
      return true;
    }
    if (path === WEB_BASE.slice(0, -1)) {
      res.writeHead(301, { location: `${WEB_BASE}${url.search}` });
      res.end();
      return true;
    }
    if (!path.startsWith(WEB_BASE)) return false;
    if (!reading) return sendJson(res, 405, { error: 'Method not allowed' }, { allow: 'GET, HEAD' });
    const config = options.config();
    if (path === `${WEB_BASE}config.json`) {
      return sendJson(res, 200, config, { 'cache-control': REVALIDATE });
    }
    const auth = originOf(config.authUrl);
    const page = {
      // The local object store's presigned links (mail attachments uploaded, `cid:` images shown).
      'content-security-policy': webAppCsp(
        [originOf(config.apiUrl) ?? '', auth ?? ''],
        [originOf(config.apiUrl) ?? '', auth ?? ''],
        [originOf(process.env.AWS_ENDPOINT_URL_S3) ?? ''],
      ),
      'referrer-policy': 'strict-origin-when-cross-origin',
      'x-frame-options': 'SAMEORIGIN',
    };
    const index = resolve(dist, 'index.html');
    if (!existsSync(index)) {
      res.writeHead(503, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', ...page });
      res.end(req.method === 'HEAD' ? undefined : NOT_BUILT);
      return true;
    }
    let rest: string;
    try {
      rest = decodeURIComponent(path.slice(WEB_BASE.length));
    } catch {
      return sendJson(res, 400, { error: 'Bad request' });
    }
    const file = rest === '' ? undefined : fileIn(dist, rest);
    const stats = statOf(file);
    if (file && stats && file !== index) {
      const hashed = path.startsWith(WEB_ASSETS);
      return serveFile(req, res, file, stats, hashed ? IMMUTABLE : REVALIDATE, file.endsWith('.html') ? page : {});
    }
    // A stale or mistyped chunk is missing as itself (a module script answered with HTML fails obscurely).
    if (path.startsWith(WEB_ASSETS)) return sendJson(res, 404, { error: 'Not found' });
    const indexStats = statOf(index) as Stats;
    return serveFile(req, res, index, indexStats, REVALIDATE, page);
  };
  return [route];
}
