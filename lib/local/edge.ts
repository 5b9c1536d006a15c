import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createServer, type IncomingMessage, request, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type DeploymentRecord, IN_PROGRESS } from '../../shared/domains/deployments/schema';
import { resolveHostTarget } from '../../shared/domains/hosts/resolve';
import { pageHtml, STATUS_PAGES, shownHost } from '../../shared/domains/serving/pages';
import { PREFIXES } from '../../shared/kernel/store/keys';
import { scanPages } from '../../shared/kernel/store/ops';
import { localPaths } from '../../shared/kernel/tenancy/paths';
import { recordEdgeRequest } from '../../shared/ports/analytics';
import { artifacts } from '../../shared/ports/artifacts';
import { abortAllBuilds, recoverInterruptedBuilds } from '../../shared/ports/builds/local';
import { acquireFunction, appendRuntimeLog, hasFunction, stopAllFunctions } from '../../shared/ports/runtime/local';
import { FUNCTION_CONFIG } from '../../shared/ports/runtime/port';

/**
 * The local edge: what a CDN and the functions' URLs are on AWS, on one port of this machine.
 * It routes by `Host` (`<name>.localhost:<port>`; browsers and curl resolve `*.localhost` to
 * loopback, Node clients connect to 127.0.0.1 and send the header): a deployment host serves
 * that deployment, the production host serves the project's current production deployment.
 * Static output is served from its folder; a `node` or `nextjs` deployment's server function is
 * started on the first request and proxied, with the function's 30-second limit.
 */

function page(res: ServerResponse, status: number, title: string, detail: string, requestId: string): void {
  const body = pageHtml(title, detail);
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
    'x-request-id': requestId,
  });
  res.end(body);
}

/**
 * The deployment that answers `host`, read from the host registry (shared/domains/hosts/resolve.ts), or a
 * redirect (a custom domain with `redirectTo`).
 */
export async function resolveHost(host: string): Promise<DeploymentRecord | undefined> {
  const target = await resolveHostTarget(host);
  return target && 'deployment' in target ? target.deployment : undefined;
}

/** A file of the deployment's static output (the artifacts port: exact, folder index, `.html`, `404.html`). */
async function serveStatic(req: IncomingMessage, res: ServerResponse, deploymentId: string, requestId: string) {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { allow: 'GET, HEAD', 'x-request-id': requestId });
    res.end();
    return;
  }
  const url = new URL(req.url ?? '/', 'http://edge');
  const file = await artifacts().readStatic(deploymentId, url.pathname);
  if (!file) return page(res, 404, 'Not found', 'There is no file at this path.', requestId);
  res.writeHead(file.status, {
    'content-type': file.contentType,
    'content-length': file.size,
    'cache-control': 'public, max-age=0, must-revalidate',
    'x-request-id': requestId,
  });
  const body = file.body as NodeJS.ReadableStream & { destroy(): void };
  if (req.method === 'HEAD') {
    body.destroy();
    return void res.end();
  }
  body.pipe(res);
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
  if (d) {
    const started = Date.now();
    res.once('finish', () => void recordEdgeRequest(d, res.statusCode, started));
  }
  if (!d) return page(res, 404, 'Deployment not found', `Nothing is deployed at ${shownHost(host)}.`, requestId);
  const status = STATUS_PAGES[d.status ?? 'queued'];
  if (status) return page(res, status[0], status[1], status[2], requestId);
  if (existsSync(localPaths.static(d.deploymentId))) return serveStatic(req, res, d.deploymentId, requestId);
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
  // Idle connections are left to the clients (see lib/local/gateway.ts): no keep-alive timer here.
  server.keepAliveTimeout = 0;
  await new Promise<void>((resolvePromise, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '127.0.0.1', () => resolvePromise());
  });
  const port = (server.address() as AddressInfo).port;
  if (options.maintenance) {
    const report = (what: string) => (err: unknown) =>
      process.stderr.write(`${JSON.stringify({ level: 'warn', message: what, error: String(err) })}\n`);
    await recoverInterruptedBuilds(
      scanPages<DeploymentRecord>({
        FilterExpression: 'begins_with(sk, :d) AND #status IN (:a, :b, :c)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':d': PREFIXES.deployments.deployment,
          ':a': IN_PROGRESS[0],
          ':b': IN_PROGRESS[1],
          ':c': IN_PROGRESS[2],
        },
      }),
    ).catch(report('recovering interrupted builds failed'));
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
