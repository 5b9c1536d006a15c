import { recordEdgeRequest } from '../../ports/analytics';
import { artifacts } from '../../ports/artifacts';
import type { BuildManifest, StaticFile } from '../../ports/artifacts/port';
import { runtime } from '../../ports/runtime';
import { type HostTarget, resolveHostTarget } from '../hosts/resolve';
import { pageHtml, STATUS_PAGES, shownHost } from './pages';

/** A visitor's request to a deployed site, as the router on AWS gets it (CloudFront → function URL). */
export interface EdgeRequest {
  method: string;
  /** The host the visitor asked for. */
  host: string;
  path: string;
  query: string;
  headers: Record<string, string>;
  body: Buffer;
  sourceIp: string;
  requestId: string;
}

export interface EdgeResponse {
  status: number;
  headers: Record<string, string>;
  cookies?: string[];
  body: Buffer | StaticFile['body'];
}

/** How long a host's route is kept: a promote is seen everywhere within it. */
export const ROUTE_TTL_MS = 5_000;
const routes = new Map<string, { at: number; target: HostTarget }>();
/** A deployment's build manifest never changes: kept for the life of the function (a bounded set). */
const manifests = new Map<string, BuildManifest | undefined>();

async function targetOf(host: string, now: number): Promise<HostTarget> {
  const hit = routes.get(host);
  if (hit && now - hit.at < ROUTE_TTL_MS) return hit.target;
  const target = await resolveHostTarget(host);
  if (routes.size > 10_000) routes.clear();
  routes.set(host, { at: now, target });
  return target;
}

async function manifestOf(deploymentId: string): Promise<BuildManifest | undefined> {
  if (manifests.has(deploymentId)) return manifests.get(deploymentId);
  const manifest = await artifacts().readManifest(deploymentId);
  if (manifests.size > 1_000) manifests.clear();
  manifests.set(deploymentId, manifest);
  return manifest;
}

const page = (status: number, title: string, detail: string, requestId: string): EdgeResponse => ({
  status,
  headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'x-request-id': requestId },
  body: Buffer.from(pageHtml(title, detail)),
});

/**
 * Static files are kept at the edge for seconds (a promote shows at once), build-hashed assets a
 * year; a server function's answer keeps its own `cache-control`.
 */
const cacheControlOf = (path: string) =>
  path.startsWith('/_next/static/') ? 'public, max-age=31536000, immutable' : 'public, max-age=0, s-maxage=5';

/**
 * The router: what the local edge does, for the functions on AWS. The host registry names the
 * deployment (shared/domains/hosts/resolve.ts, kept `ROUTE_TTL_MS`); a custom domain with `redirectTo`
 * answers 308; a deployment not ready its status page; a static output its file (the artifacts
 * port); a server deployment its function's answer (the runtime port).
 */
export async function routeRequest(r: EdgeRequest, now = Date.now()): Promise<EdgeResponse> {
  const answer = await answerOf(r, now);
  if (answer.deployment) await recordEdgeRequest(answer.deployment, answer.response.status, now);
  return answer.response;
}

async function answerOf(
  r: EdgeRequest,
  now: number,
): Promise<{ response: EdgeResponse; deployment?: { orgId: string; projectId: string } }> {
  const target = await targetOf(r.host.toLowerCase(), now);
  if (target && 'redirect' in target) {
    const location = `https://${target.redirect}${r.path}${r.query ? `?${r.query}` : ''}`;
    return { response: { status: 308, headers: { location, 'x-request-id': r.requestId }, body: Buffer.alloc(0) } };
  }
  const d = target?.deployment;
  if (!d) {
    return { response: page(404, 'Deployment not found', `Nothing is deployed at ${shownHost(r.host)}.`, r.requestId) };
  }
  const served = (response: EdgeResponse) => ({ response, deployment: d });
  const status = STATUS_PAGES[d.status ?? 'queued'];
  if (status) return served(page(status[0], status[1], status[2], r.requestId));
  const manifest = await manifestOf(d.deploymentId);
  if (manifest?.kind === 'server') {
    // As the local edge tells the function: the request's id and the visitor's address.
    const headers = { ...r.headers, 'x-request-id': r.requestId, 'x-forwarded-for': r.sourceIp };
    const answer = await runtime().invoke(d.deploymentId, { ...r, headers });
    return served({
      status: answer.status,
      headers: { ...answer.headers, 'x-request-id': r.requestId },
      cookies: answer.cookies,
      body: answer.body,
    });
  }
  if (r.method !== 'GET' && r.method !== 'HEAD') {
    return served({ status: 405, headers: { allow: 'GET, HEAD', 'x-request-id': r.requestId }, body: Buffer.alloc(0) });
  }
  const file = await artifacts().readStatic(d.deploymentId, r.path);
  if (!file) return served(page(404, 'Not found', 'There is no file at this path.', r.requestId));
  if (r.method === 'HEAD') close(file.body);
  return served({
    status: file.status,
    headers: {
      'content-type': file.contentType,
      ...(file.size > 0 ? { 'content-length': String(file.size) } : {}),
      'cache-control': cacheControlOf(r.path),
      'x-request-id': r.requestId,
    },
    body: r.method === 'HEAD' ? Buffer.alloc(0) : file.body,
  });
}

/** A body not sent (HEAD): its file or connection let go. */
function close(body: StaticFile['body']): void {
  if ('cancel' in body) void body.cancel().catch(() => undefined);
  else (body as NodeJS.ReadableStream & { destroy?: () => void }).destroy?.();
}
