import { randomUUID } from 'node:crypto';
import { createReadStream, existsSync, realpathSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, request, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, isAbsolute, join, relative, resolve } from 'node:path';
import { abortAllBuilds, recoverInterruptedBuilds } from '../../shared/builds/local';
import { localPaths } from '../../shared/deployments/paths';
import { resolveHostTarget } from '../../shared/hosts/resolve';
import { acquireFunction, appendRuntimeLog, hasFunction, stopAllFunctions } from '../../shared/runtime/local';
import type { DeploymentRecord } from '../../shared/schemas/deployment';
import { FUNCTION_CONFIG } from '../../shared/schemas/deployment';

/**
 * The local edge: what a CDN and the functions' URLs are on AWS, on one port of this machine.
 * It routes by `Host` (`<name>.localhost:<port>`; browsers and curl resolve `*.localhost` to
 * loopback, Node clients connect to 127.0.0.1 and send the header): a deployment host serves
 * that deployment, the production host serves the project's current production deployment.
 * Static output is served from its folder; a `node` or `nextjs` deployment's server function is
 * started on the first request and proxied, with the function's 30-second limit.
 */

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.htm': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.wasm': 'application/wasm',
  '.map': 'application/json; charset=utf-8',
  '.pdf': 'application/pdf',
  '.webmanifest': 'application/manifest+json',
};

function page(res: ServerResponse, status: number, title: string, detail: string, requestId: string): void {
  const body = `<!doctype html><meta charset="utf-8"><title>${title}</title><h1>${title}</h1><p>${detail}</p>\n`;
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
    'x-request-id': requestId,
  });
  res.end(body);
}

/**
 * The deployment that answers `host`, read from the host registry (shared/hosts/resolve.ts), or a
 * redirect (a custom domain with `redirectTo`).
 */
export async function resolveHost(host: string): Promise<DeploymentRecord | undefined> {
  const target = await resolveHostTarget(host);
  return target && 'deployment' in target ? target.deployment : undefined;
}

/** True when `path`, links resolved, is inside `root` (links resolved too). */
function resolvesInside(root: string, path: string): boolean {
  try {
    const rel = relative(realpathSync(root), realpathSync(path));
    return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
  } catch {
    return false;
  }
}

/**
 * A file of the static output for a URL path: exact, folder index, `.html`; or undefined. A file
 * reached through a symbolic link that leaves the output is not there (publishing refuses links;
 * this holds for output written any other way).
 */
function staticFile(root: string, urlPath: string): string | undefined {
  let path: string;
  try {
    path = decodeURIComponent(urlPath);
  } catch {
    return undefined;
  }
  if (path.includes('\0')) return undefined;
  const full = resolve(root, `.${path}`);
  const rel = relative(root, full);
  if (rel.startsWith('..') || rel.includes(':')) return undefined;
  const candidates = [full, join(full, 'index.html')];
  if (!extname(full)) candidates.push(`${full}.html`);
  for (const c of candidates) {
    if (existsSync(c) && statSync(c).isFile() && resolvesInside(root, c)) return c;
  }
  return undefined;
}

function serveStatic(req: IncomingMessage, res: ServerResponse, root: string, requestId: string): void {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { allow: 'GET, HEAD', 'x-request-id': requestId });
    res.end();
    return;
  }
  const url = new URL(req.url ?? '/', 'http://edge');
  let file = staticFile(root, url.pathname);
  let status = 200;
  if (!file) {
    const notFoundPage = join(root, '404.html');
    if (!existsSync(notFoundPage)) {
      page(res, 404, 'Not found', 'There is no file at this path.', requestId);
      return;
    }
    file = notFoundPage;
    status = 404;
  }
  const size = statSync(file).size;
  res.writeHead(status, {
    'content-type': TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream',
    'content-length': size,
    'cache-control': 'public, max-age=0, must-revalidate',
    'x-request-id': requestId,
  });
  if (req.method === 'HEAD') return void res.end();
  createReadStream(file).pipe(res);
}

async function proxy(req: IncomingMessage, res: ServerResponse, d: DeploymentRecord, host: string, requestId: string) {
  const started = Date.now();
  let fn: Awaited<ReturnType<typeof acquireFunction>>;
  try {
    fn = await acquireFunction(d.deploymentId, requestId);
  } catch (err) {
    return page(res, 502, 'Server function failed', (err as Error).message, requestId);
  }
  const path = req.url ?? '/';
  const finish = (status: number) => {
    appendRuntimeLog(d.deploymentId, {
      level: 'platform',
      requestId,
      message: `${req.method} ${path.split('?')[0]} ${status} in ${Date.now() - started} ms`,
    });
    fn.done();
  };
  const headers = { ...req.headers };
  headers['x-forwarded-host'] = host;
  headers['x-forwarded-proto'] = 'http';
  headers['x-forwarded-for'] = req.socket.remoteAddress?.replace(/^::ffff:/, '') ?? '127.0.0.1';
  headers['x-request-id'] = requestId;
  const upstream = request({ host: '127.0.0.1', port: fn.port, method: req.method, path, headers }, (up) => {
    res.writeHead(up.statusCode ?? 502, { ...up.headers, 'x-request-id': requestId });
    up.pipe(res);
    up.on('end', () => {
      clearTimeout(timer);
      finish(up.statusCode ?? 502);
    });
  });
  // The function's time limit, as on AWS.
  const timer = setTimeout(() => {
    upstream.destroy(new Error('timeout'));
    appendRuntimeLog(d.deploymentId, {
      level: 'platform',
      requestId,
      message: `Task timed out after ${FUNCTION_CONFIG.timeoutSeconds} seconds.`,
    });
    if (!res.headersSent) page(res, 504, 'Gateway timeout', 'The server function took too long.', requestId);
    else res.destroy();
  }, FUNCTION_CONFIG.timeoutSeconds * 1000);
  upstream.on('error', (err) => {
    clearTimeout(timer);
    if (err.message === 'timeout') return fn.done();
    if (!res.headersSent)
      page(res, 502, 'Server function failed', 'The server function closed the connection.', requestId);
    else res.destroy();
    finish(502);
  });
  req.pipe(upstream);
}

const STATUS_PAGES: Partial<Record<NonNullable<DeploymentRecord['status']>, [number, string, string]>> = {
  queued: [503, 'Deployment queued', 'This deployment is waiting for its build. Try again shortly.'],
  building: [503, 'Deployment building', 'This deployment is still building. Try again shortly.'],
  deploying: [503, 'Deployment building', 'This deployment is going live. Try again shortly.'],
  error: [502, 'Deployment failed', 'This deployment failed to build. Its build log says why.'],
  canceled: [410, 'Deployment canceled', 'This deployment was canceled.'],
  expired: [410, 'Deployment expired', 'This deployment has expired. Redeploy it to bring it back.'],
};

/** `:<port>` of a Host header (the local edge's port), or nothing. */
const portOf = (host: string) => /:\d+$/.exec(host)?.[0] ?? '';

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const requestId = randomUUID();
  const host = req.headers.host ?? '';
  const target = await resolveHostTarget(host);
  if (target && 'redirect' in target) {
    // A custom domain that redirects: 308 keeps the method and body, the path and query kept.
    res.writeHead(308, {
      location: `http://${target.redirect}${portOf(host)}${req.url ?? '/'}`,
      'x-request-id': requestId,
    });
    return void res.end();
  }
  const d = target?.deployment;
  if (!d)
    return page(res, 404, 'Deployment not found', `Nothing is deployed at ${host.replace(/[<>&"]/g, '')}.`, requestId);
  const status = STATUS_PAGES[d.status ?? 'queued'];
  if (status) return page(res, status[0], status[1], status[2], requestId);
  const root = localPaths.static(d.deploymentId);
  if (existsSync(root)) return serveStatic(req, res, root, requestId);
  if (hasFunction(d.deploymentId)) return proxy(req, res, d, host, requestId);
  return page(res, 404, 'Deployment not found', 'This deployment has no output on this machine.', requestId);
}

export interface Edge {
  server: Server;
  port: number;
  /** Stops the edge and every server function it started. */
  close(): Promise<void>;
}

/**
 * Starts the edge on `port` (0: any free port) of loopback. With `maintenance` (the local
 * platform, not tests: they share one table), it also ends the builds a previous run left
 * unfinished and stops running builds when it closes (the retention sweep is a worker: lib/workers.ts).
 */
export async function startEdge(options: { port: number; host?: string; maintenance?: boolean }): Promise<Edge> {
  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      process.stderr.write(`${JSON.stringify({ level: 'error', message: 'edge failure', error: String(err) })}\n`);
      if (!res.headersSent) page(res, 500, 'Edge error', 'The local edge failed on this request.', randomUUID());
      else res.destroy();
    });
  });
  await new Promise<void>((resolvePromise, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '127.0.0.1', () => resolvePromise());
  });
  const port = (server.address() as AddressInfo).port;
  if (options.maintenance) {
    const report = (what: string) => (err: unknown) =>
      process.stderr.write(`${JSON.stringify({ level: 'warn', message: what, error: String(err) })}\n`);
    await recoverInterruptedBuilds().catch(report('recovering interrupted builds failed'));
  }
  return {
    server,
    port,
    close: () =>
      new Promise<void>((resolveClose) => {
        if (options.maintenance) abortAllBuilds();
        stopAllFunctions();
        server.closeAllConnections();
        server.close(() => resolveClose());
      }),
  };
}
