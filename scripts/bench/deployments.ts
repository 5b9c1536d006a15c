import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tarOfDir } from '../../test/fixtures/tar';
import type { BenchPlatform } from './platform';
import { median, ms, percentile } from './stats';

/**
 * Deployment figures on the local platform, the way a person meets them:
 * - **upload to ready**: the static fixture (test/fixtures/static-site) as a gzipped tar — create
 *   the upload, PUT the archive to the presigned link, create the deployment, poll it until
 *   `ready`, then its first page through the local edge. Wall time of the whole sequence.
 * - **cached vs uncached install**: the node fixture (a lock file with a local `file:`
 *   dependency: no registry needed). Each run is a fresh project (an empty dependency cache):
 *   its first build installs (`depsCache: miss`, `installMs`), the second restores the cache
 *   (`hit`, `restoreMs + installMs`). The ratio is uncached ÷ cached, at the median.
 * Everything runs in this process on loopback: the gateway, the builds, the edge, and an S3
 * server (started here unless the environment already names one).
 */

export interface DeploymentBenchOptions {
  /** Upload-to-ready runs (default 5). */
  uploadRuns?: number;
  /** Uncached/cached install pairs (default 3). */
  installRuns?: number;
}

export interface Series {
  runs: number;
  median: number;
  p95: number;
  min: number;
  max: number;
}

export interface DeploymentFigures {
  uploadToReady: Series;
  install: {
    /** `installMs` of first builds (depsCache: miss). */
    uncached: Series;
    /** `restoreMs + installMs` of second builds of the same lock file (depsCache: hit). */
    cached: Series;
    /** uncached.median ÷ cached.median. */
    ratio: number;
  };
}

const series = (values: number[]): Series => ({
  runs: values.length,
  median: median(values),
  p95: percentile(values, 95),
  min: Math.min(...values),
  max: Math.max(...values),
});

const FIXTURES = join(__dirname, '..', '..', 'test', 'fixtures');
const DEADLINE_MS = 60_000;

interface Ctx {
  api: string;
  token: string;
  orgId: string;
  edgePort: number;
}

async function call(ctx: Ctx, method: string, path: string, body?: unknown) {
  const res = await fetch(`${ctx.api}${path}`, {
    method,
    headers: { authorization: `Bearer ${ctx.token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = (await res.json()) as Record<string, any>;
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

function edgeGet(port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/', headers: { host } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

async function newProject(ctx: Ctx, framework: 'static' | 'node'): Promise<string> {
  const slug = `bench-${randomBytes(4).toString('hex')}`;
  const out = await call(ctx, 'POST', `/v1/orgs/${ctx.orgId}/projects`, { name: slug, slug, framework });
  return out.project.projectId as string;
}

/** Upload, deploy, wait for a final status (polling every 10 ms); the deployment as read last. */
async function deployArchive(ctx: Ctx, projectId: string, archive: Buffer) {
  const up = await call(ctx, 'POST', `/v1/orgs/${ctx.orgId}/projects/${projectId}/uploads`, { size: archive.length });
  const put = await fetch(up.url, { method: 'PUT', headers: up.headers, body: archive });
  if (!put.ok) throw new Error(`PUT to the upload link: ${put.status}`);
  const created = await call(ctx, 'POST', `/v1/orgs/${ctx.orgId}/projects/${projectId}/deployments`, {
    source: 'upload',
    uploadId: up.uploadId,
    target: 'preview',
    // The same archive each run: without force it would be `skipped` (nothing changed), not built.
    force: true,
  });
  const id = created.deployment.deploymentId as string;
  const deadline = Date.now() + DEADLINE_MS;
  for (;;) {
    const read = await call(ctx, 'GET', `/v1/orgs/${ctx.orgId}/deployments/${id}`);
    const status = read.deployment.status as string;
    if (status === 'ready') return read.deployment as Record<string, any>;
    if (!['queued', 'building', 'deploying'].includes(status)) {
      throw new Error(`deployment ${id} ended ${status}: ${read.deployment.error}`);
    }
    if (Date.now() > deadline) throw new Error(`deployment ${id} not ready within ${DEADLINE_MS / 1000} s`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Upload-to-ready of the static fixture, `runs` times. */
export async function benchUploadToReady(ctx: Ctx, runs: number): Promise<Series> {
  const archive = tarOfDir(join(FIXTURES, 'static-site'));
  const projectId = await newProject(ctx, 'static');
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    const d = await deployArchive(ctx, projectId, archive);
    const status = await edgeGet(ctx.edgePort, d.host as string);
    if (status !== 200) throw new Error(`the edge answered ${status} for ${d.host}`);
    times.push(performance.now() - started);
  }
  return series(times);
}

/** Uncached vs cached install of the node fixture, `runs` pairs. */
export async function benchInstallCache(ctx: Ctx, runs: number): Promise<DeploymentFigures['install']> {
  const archive = tarOfDir(join(FIXTURES, 'node-server'));
  const uncached: number[] = [];
  const cached: number[] = [];
  for (let i = 0; i < runs; i++) {
    const projectId = await newProject(ctx, 'node');
    const first = await deployArchive(ctx, projectId, archive);
    const second = await deployArchive(ctx, projectId, archive);
    const m1 = first.buildMetrics ?? {};
    const m2 = second.buildMetrics ?? {};
    if (m1.depsCache !== 'miss' || m2.depsCache !== 'hit') {
      throw new Error(`expected a cache miss then a hit, got ${m1.depsCache} then ${m2.depsCache}`);
    }
    uncached.push(m1.installMs as number);
    cached.push((m2.restoreMs ?? 0) + (m2.installMs ?? 0));
  }
  const u = series(uncached);
  const c = series(cached);
  return { uncached: u, cached: c, ratio: u.median / Math.max(c.median, 0.001) };
}

/**
 * Both figures on the bench platform (DynamoDB Local, identity provider, seeded organization):
 * starts what it needs beside it (S3 server unless `AWS_ENDPOINT_URL_S3` is set, the gateway, the
 * edge, a data folder) and stops it again.
 */
export async function benchDeployments(
  platform: BenchPlatform,
  options: DeploymentBenchOptions = {},
): Promise<DeploymentFigures> {
  const dataDir = mkdtempSync(join(tmpdir(), 'platform-bench-deployments-'));
  const stops: (() => Promise<void> | void)[] = [() => rmSync(dataDir, { recursive: true, force: true })];
  try {
    const env = process.env;
    env.LOCAL_SECRETS_KEY ??= randomBytes(32).toString('base64');
    env.DATA_DIR = join(dataDir, 'data');
    env.ARTIFACTS_BUCKET = `bench-artifacts-${randomBytes(4).toString('hex')}`;
    const [{ storage }, { startEdge }, { createGateway, listen }, { buildsIdle }, { startWorkers }, { workers }] =
      await Promise.all([
        import('../../shared/ports/object-storage'),
        import('../../lib/local/edge'),
        import('../../lib/local/gateway'),
        import('../../shared/ports/builds/local'),
        import('../../lib/local/workers'),
        import('../../lib/workers'),
      ]);
    await storage.createBucket(env.ARTIFACTS_BUCKET);
    const edge = await startEdge({ port: 0 });
    // A build's end reaches the build-events worker, as on `npm start`.
    const running = await startWorkers({ workers: workers.filter((w) => w.trigger.kind === 'event') });
    stops.push(async () => {
      await buildsIdle();
      await running.stop();
      await edge.close();
    });
    env.APPS_DOMAIN = `localhost:${edge.port}`;
    const gateway = createGateway();
    const apiPort = await listen(gateway, 0);
    stops.push(() => {
      gateway.closeAllConnections();
      gateway.close();
    });
    const ctx: Ctx = {
      api: `http://127.0.0.1:${apiPort}`,
      token: platform.jwt,
      orgId: platform.orgId,
      edgePort: edge.port,
    };
    const uploadToReady = await benchUploadToReady(ctx, options.uploadRuns ?? 5);
    const install = await benchInstallCache(ctx, options.installRuns ?? 3);
    return { uploadToReady, install };
  } finally {
    for (const stop of stops.reverse()) await stop();
  }
}

/** The figures as a markdown table, for the bench report. */
export function renderDeployments(f: DeploymentFigures): string {
  const row = (name: string, s: Series) =>
    `| ${name} | ${s.runs} | ${ms(s.median, 0)} | ${ms(s.p95, 0)} | ${ms(s.min, 0)} | ${ms(s.max, 0)} |`;
  return [
    '| measure | runs | median | p95 | min | max |',
    '|---|---|---|---|---|---|',
    row('upload to ready, static fixture (through the edge)', f.uploadToReady),
    row('install, uncached (depsCache miss)', f.install.uncached),
    row('install, cached (depsCache hit: restore)', f.install.cached),
    '',
    `Cached install is ${f.install.ratio.toFixed(1)}× faster than uncached (median ÷ median).`,
  ].join('\n');
}
