import { mkdirSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { type Edge, startEdge } from '../../lib/local/edge';
import { startWorkers } from '../../lib/local/workers';
import { workers } from '../../lib/workers';
import { buildsIdle } from '../../shared/ports/builds/local';
import { storage } from '../../shared/ports/object-storage';
import { TestPlatform } from '../helpers/platform';
import { startQueueWorker } from '../helpers/sqs';

let counter = 0;

/**
 * What a deployments test file needs beside its TestPlatform: its own artifacts bucket and data
 * folder (builds and functions of this file only), and the local edge on a free port, with the
 * apps domain pointing at it so hosts read `<name>.localhost:<edge port>` as on `npm start`.
 * Environment is read at call time by the builds and the edge, so setting it here is enough.
 * The event workers run as on `npm start` (a build's end reaches `build-events`); the scheduled
 * ones don't: their sweeps would reach other test files' records in the shared table.
 * `queueWorkers` names queue workers that read their queues too (`notify`: notices are delivered).
 */
export async function startDeployments(
  options: { workers?: boolean; queueWorkers?: string[] } = {},
): Promise<{ edge: Edge; dataDir: string; close: () => Promise<void> }> {
  const tag = `${process.pid.toString(36)}-${Date.now().toString(36)}-${counter++}`;
  const dataDir = join(process.env.TEST_DATA_DIR as string, `deployments-${tag}`);
  mkdirSync(dataDir, { recursive: true });
  process.env.DATA_DIR = dataDir;
  process.env.ARTIFACTS_BUCKET = `artifacts-${tag}`;
  await storage().createBucket(process.env.ARTIFACTS_BUCKET);
  const edge = await startEdge({ port: 0 });
  process.env.APPS_DOMAIN = `localhost:${edge.port}`;
  // The workers' queues (none of their readers): build-events raises deployment events to notify's.
  const queues = options.workers === false ? undefined : await startQueueWorker(...(options.queueWorkers ?? []));
  const running = await startWorkers({
    workers: options.workers === false ? [] : workers.filter((w) => w.trigger.kind === 'event'),
  });
  return {
    edge,
    dataDir,
    close: async () => {
      await buildsIdle();
      await running.stop();
      await queues?.stop();
      await edge.close();
    },
  };
}

export type Deployments = Awaited<ReturnType<typeof startDeployments>>;

/**
 * A test file's platform and deployments environment: started before its tests (handed to
 * `ready`), closed after them.
 */
export function withDeployments(
  ready: (p: TestPlatform, env: Deployments) => void,
  options: { queueWorkers?: string[] } = {},
): void {
  let p: TestPlatform | undefined;
  let env: Deployments | undefined;
  beforeAll(async () => {
    p = await TestPlatform.start();
    env = await startDeployments(options);
    ready(p, env);
  });
  afterAll(async () => {
    await env?.close();
    await p?.close();
  });
}

/** A project through the projects routes; `settings` are PATCHed after creation. */
export async function newProject(
  p: TestPlatform,
  framework: 'static' | 'node' | 'nextjs',
  settings: Record<string, unknown> = {},
): Promise<{ projectId: string; slug: string }> {
  const slug = `app-${Date.now().toString(36)}-${counter++}`;
  const res = await p.post(`/v1/orgs/${p.org.orgId}/projects`, { name: slug, slug, framework });
  if (res.status !== 201) throw new Error(`project create: ${res.status} ${res.text}`);
  const projectId = res.body.project.projectId as string;
  if (Object.keys(settings).length > 0) {
    const patched = await p.patch(`/v1/orgs/${p.org.orgId}/projects/${projectId}`, settings);
    if (patched.status !== 200) throw new Error(`project patch: ${patched.status} ${patched.text}`);
  }
  return { projectId, slug };
}

/** Creates an upload and PUTs the archive to its presigned link with exactly the given headers. */
export async function upload(p: TestPlatform, projectId: string, archive: Buffer): Promise<string> {
  const res = await p.post(`/v1/orgs/${p.org.orgId}/projects/${projectId}/uploads`, { size: archive.length });
  if (res.status !== 201) throw new Error(`upload: ${res.status} ${res.text}`);
  const put = await fetch(res.body.url, { method: 'PUT', headers: res.body.headers, body: archive });
  if (!put.ok) throw new Error(`PUT to the upload link: ${put.status} ${await put.text()}`);
  return res.body.uploadId as string;
}

/** Uploads and deploys an archive; answers the create response's deployment. */
export async function deploy(
  p: TestPlatform,
  projectId: string,
  archive: Buffer,
  target: 'production' | 'preview' = 'preview',
  extra: Record<string, unknown> = {},
): Promise<{ deploymentId: string; host: string; target: string }> {
  const uploadId = await upload(p, projectId, archive);
  const res = await p.post(`/v1/orgs/${p.org.orgId}/projects/${projectId}/deployments`, {
    source: 'upload',
    uploadId,
    target,
    ...extra,
  });
  if (res.status !== 201) throw new Error(`deploy: ${res.status} ${res.text}`);
  return res.body.deployment;
}

const FINAL = ['ready', 'error', 'canceled', 'expired', 'skipped'];

/** Polls the deployment until it reaches a final status (bounded: fails after `timeoutMs`). */
export async function waitFinal(p: TestPlatform, deploymentId: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (let delay = 20; ; delay = Math.min(200, delay * 2)) {
    const res = await p.get(`/v1/orgs/${p.org.orgId}/deployments/${deploymentId}`);
    if (res.status !== 200) throw new Error(`get deployment: ${res.status} ${res.text}`);
    if (FINAL.includes(res.body.deployment.status)) return res.body;
    if (Date.now() > deadline) throw new Error(`deployment ${deploymentId} still ${res.body.deployment.status}`);
    await new Promise((r) => setTimeout(r, delay));
  }
}

export interface EdgeResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** A request to the edge as a browser would send it to `http://<host>/path` (Node can't resolve `*.localhost`). */
export function edgeFetch(edge: Edge, host: string, path = '/', method = 'GET'): Promise<EdgeResponse> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: edge.port, path, method, headers: { host } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

/** Reads the whole build log through the build-log route, following the cursor until done. */
export async function followBuildLog(p: TestPlatform, deploymentId: string, timeoutMs = 30_000) {
  const lines: { t: number; m: string }[] = [];
  let cursor: string | null | undefined;
  let pages = 0;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const q = cursor ? `?cursor=${encodeURIComponent(cursor)}` : '';
    const res = await p.get(`/v1/orgs/${p.org.orgId}/deployments/${deploymentId}/build-log${q}`);
    if (res.status !== 200) throw new Error(`build-log: ${res.status} ${res.text}`);
    lines.push(...res.body.lines);
    pages++;
    if (res.body.done) return { lines, pages, last: res.body };
    if (Date.now() > deadline) throw new Error('build log not done in time');
    cursor = res.body.cursor;
    if (res.body.lines.length === 0) await new Promise((r) => setTimeout(r, 50));
  }
}
