import { randomBytes } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tarOfDir } from '../../test/fixtures/tar';
import { git } from './git';
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
 * - **push to preview ready**: the static fixture in a repository linked to a project, a branch
 *   with an open pull request; each run commits a change, `git push`es it through the gateway's
 *   git endpoint, and polls the pull request until its preview of that commit is `ready`, then
 *   gets the preview URL through the edge (the git-pushes worker, the build, the build-events
 *   worker and the preview host on the way). Wall time from the push's start.
 * Everything runs in this process on loopback: the gateway, the builds, the edge, and an S3
 * server (started here unless the environment already names one).
 */

export interface DeploymentBenchOptions {
  /** Upload-to-ready runs (default 5). */
  uploadRuns?: number;
  /** Push-to-preview-ready runs (default 5). */
  previewRuns?: number;
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
  pushToPreview: Series;
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
  /** An API key with every scope: git's credential. */
  apiKey: string;
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

/** Polls `found` every 10 ms until it answers something (bounded by DEADLINE_MS). */
async function until<T>(what: string, found: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + DEADLINE_MS;
  for (;;) {
    const value = await found();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${DEADLINE_MS / 1000} s`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Push to preview ready of the static fixture on the branch of an open pull request, `runs` times. */
export async function benchPushToPreview(ctx: Ctx, dir: string, runs: number): Promise<Series> {
  const home = join(dir, 'home');
  mkdirSync(home, { recursive: true });
  const name = `bench-${randomBytes(4).toString('hex')}`;
  const repo = await call(ctx, 'POST', `/v1/orgs/${ctx.orgId}/repos`, { name });
  const repoId = repo.repo.resourceId as string;
  const project = await call(ctx, 'POST', `/v1/orgs/${ctx.orgId}/projects`, {
    name,
    slug: name,
    framework: 'static',
    repoId,
  });
  const projectId = project.project.projectId as string;
  const work = join(dir, 'work');
  await git(dir, home, ['clone', '-q', (repo.repo.cloneUrl as string).replace('://', `://git:${ctx.apiKey}@`), work]);
  cpSync(join(FIXTURES, 'static-site'), work, { recursive: true });
  const commitAndPush = async (branch: string, message: string) => {
    await git(work, home, ['add', '-A']);
    await git(work, home, ['commit', '-q', '-m', message]);
    await git(work, home, ['push', '-q', 'origin', branch]);
  };
  const page = (text: string) => writeFileSync(join(work, 'index.html'), `<h1>${text}</h1>`);
  await git(work, home, ['symbolic-ref', 'HEAD', 'refs/heads/main']);
  page('production');
  await commitAndPush('main', 'Site');
  const deployments = `/v1/orgs/${ctx.orgId}/deployments?projectId=${projectId}`;
  // The production build of main first: it holds the project's build slot while it runs.
  await until('the production deployment', async () => {
    const list = (await call(ctx, 'GET', deployments)).deployments as { status: string }[];
    return list.some((d) => d.status === 'ready') ? true : undefined;
  });
  await git(work, home, ['checkout', '-q', '-b', 'feature']);
  page('feature');
  await commitAndPush('feature', 'Feature');
  const pull = await call(ctx, 'POST', `/v1/orgs/${ctx.orgId}/repos/${name}/pulls`, {
    title: 'Bench',
    source: 'feature',
    target: 'main',
  });
  const pullPath = `/v1/orgs/${ctx.orgId}/repos/${name}/pulls/${pull.pull.number}`;
  const readyPreview = async (head: string) =>
    until(`the preview of ${head}`, async () => {
      const preview = (await call(ctx, 'GET', pullPath)).pull.preview;
      if (preview?.commit === head && preview.state === 'error') throw new Error(`the preview of ${head} failed`);
      return preview?.commit === head && preview.state === 'ready' ? (preview.url as string) : undefined;
    });
  const head = async () => {
    const out = await call(ctx, 'GET', `/v1/orgs/${ctx.orgId}/repos/${name}/branches`);
    return (out.branches as { name: string; commit: string }[]).find((b) => b.name === 'feature')?.commit as string;
  };
  await readyPreview(await head());
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    page(`change ${i}`);
    await git(work, home, ['add', '-A']);
    await git(work, home, ['commit', '-q', '-m', `Change ${i}`]);
    const started = performance.now();
    await git(work, home, ['push', '-q', 'origin', 'feature']);
    const url = await readyPreview(await head());
    const status = await edgeGet(ctx.edgePort, new URL(url).host);
    if (status !== 200) throw new Error(`the edge answered ${status} for ${url}`);
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
    await storage().createBucket(env.ARTIFACTS_BUCKET);
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
      apiKey: platform.apiKey,
      orgId: platform.orgId,
      edgePort: edge.port,
    };
    const uploadToReady = await benchUploadToReady(ctx, options.uploadRuns ?? 5);
    const install = await benchInstallCache(ctx, options.installRuns ?? 3);
    const pushToPreview = await benchPushToPreview(ctx, dataDir, options.previewRuns ?? 5);
    return { uploadToReady, install, pushToPreview };
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
    row('push to preview ready, static fixture (git push to the URL of the open pull request)', f.pushToPreview),
    '',
    `Cached install is ${f.install.ratio.toFixed(1)}× faster than uncached (median ÷ median).`,
  ].join('\n');
}
