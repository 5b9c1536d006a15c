import { createReadStream, createWriteStream, existsSync, statSync } from 'node:fs';
import { cp, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { completeDeployment, failDeployment } from '../deployments/finish';
import { localPaths } from '../deployments/paths';
import { transition } from '../deployments/records';
import { firstLink, handOver, machineNetworkEnv, tenantDir } from '../deployments/sandbox';
import { runtime } from '../runtime';
import type { BuildMetrics, DeploymentRecord } from '../schemas/deployment';
import { IN_PROGRESS } from '../schemas/deployment';
import { storage } from '../storage';
import { db } from '../store/client';
import { TABLE } from '../store/table';
import { BuildLogWriter, readBuildLog } from './build-log';
import { depsCacheKey, restoreDeps, saveDeps } from './deps-cache';
import { ArchiveError, extractArchive } from './extract';
import type { BuildJob, BuildsPort } from './index';
import { toolBin } from './package-managers';
import { type BuildPlan, NEXT_START_ENTRY, PlanError, planBuild } from './plan';
import { runStep } from './steps';

/**
 * Builds on one machine. `start` queues the job and returns; a small scheduler runs at most
 * `BUILD_CONCURRENCY` builds (default 2) and one per project at a time (the project's dependency
 * cache is never written by two builds). A build:
 * 1. `queued → building` (a canceled deployment is skipped here);
 * 2. downloads the archive with a presigned GET and unpacks it safely (extract.ts);
 * 3. plans the build (plan.ts), restores or installs dependencies (cache keyed by the lock file),
 *    runs the build command, each a child process with what is left of the time limit;
 * 4. `building → deploying`: moves the static output or the server function into place;
 * 5. `deploying → ready` (finish.ts), or `error` with a message at the first failure.
 * Every line of output goes to the build log.
 */

export class BuildError extends Error {
  override name = 'BuildError';
}

interface Active {
  job: BuildJob;
  abort: AbortController;
}

interface State {
  queue: BuildJob[];
  active: Map<string, Active>;
  busyProjects: Set<string>;
  idle: (() => void)[];
}

const state: State = { queue: [], active: new Map(), busyProjects: new Set(), idle: [] };

const num = (v: string | undefined, d: number) => (v && Number(v) > 0 ? Number(v) : d);
const concurrency = () => num(process.env.BUILD_CONCURRENCY, 2);
/** The whole build (download, install, build, output) must finish within this. */
export const buildTimeoutMs = () => num(process.env.BUILD_TIMEOUT_MS, 15 * 60_000);

export const buildIdOf = (deploymentId: string) => `local-${deploymentId}`;
const deploymentOfBuild = (buildId: string) => buildId.replace(/^local-/, '');

function pump(): void {
  while (state.active.size < concurrency()) {
    const i = state.queue.findIndex((j) => !state.busyProjects.has(j.projectId));
    if (i < 0) break;
    const [job] = state.queue.splice(i, 1) as [BuildJob];
    const active: Active = { job, abort: new AbortController() };
    state.active.set(job.deploymentId, active);
    state.busyProjects.add(job.projectId);
    void runBuild(active)
      // A failure outside the build's own handling (its log can't be opened, say) still ends it.
      .catch((err: Error) =>
        failDeployment(job.orgId, job.deploymentId, `The build failed unexpectedly: ${err.message}`).catch(
          () => undefined,
        ),
      )
      .finally(() => {
        state.active.delete(job.deploymentId);
        state.busyProjects.delete(job.projectId);
        pump();
      });
  }
  if (state.queue.length === 0 && state.active.size === 0) for (const resolve of state.idle.splice(0)) resolve();
}

/** Resolves when no build is queued or running (tests and shutdown). */
export function buildsIdle(): Promise<void> {
  if (state.queue.length === 0 && state.active.size === 0) return Promise.resolve();
  return new Promise((resolve) => state.idle.push(resolve));
}

/** Stops every running build (the platform stops). */
export function abortAllBuilds(): void {
  state.queue.splice(0);
  for (const a of state.active.values()) a.abort.abort();
}

/** A path inside `root`, or undefined when `rel` leaves it. */
function inside(root: string, rel: string): string | undefined {
  const full = resolve(root, rel);
  const r = relative(root, full);
  if (r.startsWith('..') || isAbsolute(r)) return undefined;
  return full;
}

/**
 * The environment of install and build steps: an allow-list (the machine's proxies and trusted
 * certificate authorities, PATH, a HOME of the build's own, locale, npm's quiet settings), the
 * project's variables and the platform's few; never the platform's own environment.
 */
function stepEnv(job: BuildJob, home: string): Record<string, string> {
  const base: Record<string, string> = {
    ...machineNetworkEnv(),
    PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    HOME: home,
    LANG: process.env.LANG ?? 'C.UTF-8',
    TZ: 'UTC',
    CI: '1',
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
  };
  return { ...base, ...job.env, ...platformVars(job) };
}

/** What the platform tells builds and functions (names under the reserved `PLATFORM_` prefix). */
const platformVars = (job: BuildJob) => ({ PLATFORM_ENV: job.target, PLATFORM_DEPLOYMENT_ID: job.deploymentId });

async function runBuild({ job, abort }: Active): Promise<void> {
  const { orgId, deploymentId } = job;
  const log = await BuildLogWriter.open(deploymentId);
  const startedAt = Date.now();
  const deadline = startedAt + buildTimeoutMs();
  const metrics: BuildMetrics = { depsCache: 'off' };
  const work = localPaths.work(deploymentId);
  const building = await transition(orgId, deploymentId, ['queued'], 'building');
  if (!building) {
    log.line('The deployment was canceled before its build started.');
    await log.close();
    return;
  }
  try {
    await rm(work, { recursive: true, force: true });
    await tenantDir('builds', deploymentId, job.projectId);
    const src = join(work, 'src');
    await fetchSource(job, src, log, deadline, abort.signal);

    const appDir = inside(src, job.settings.rootDirectory ?? '.');
    if (!appDir || !existsSync(appDir) || !statSync(appDir).isDirectory()) {
      throw new BuildError(`The root directory "${job.settings.rootDirectory}" isn't in the source.`);
    }
    const plan = planBuild(appDir, job.settings);
    const manager = plan.tool ? `${plan.tool.manager} ${plan.tool.version}` : plan.packageManager;
    log.line(
      `Framework ${plan.framework}${manager ? `, package manager ${manager}` : ''}` +
        `${plan.lockFile ? ` (${plan.lockFile})` : ''}.`,
    );
    metrics.packageManager = plan.packageManager;
    if (plan.installCommand) metrics.installDir = job.settings.rootDirectory ?? '.';

    const env = stepEnv(job, work);
    if (plan.tool) {
      const from = plan.tool.source === 'packageManager' ? 'packageManager in package.json' : 'the default';
      log.line(`Using ${plan.tool.manager} ${plan.tool.version} (${from}) from the npm registry.`);
      const bin = await toolBin(plan.tool).catch((err: Error) => {
        throw new BuildError(err.message);
      });
      Object.assign(env, plan.tool.env, { PATH: `${bin}:${env.PATH}` });
    }
    // Restored dependencies and the unpacked source become the project's user's before its code runs.
    const handOverSource = () => handOver(work, job.projectId);
    const step = async (name: string, command: string) => {
      log.line(`Running "${command}"`);
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw new BuildError(timeLimitMessage());
      const result = await runStep({
        command,
        cwd: appDir,
        projectId: job.projectId,
        env,
        timeoutMs: remaining,
        signal: abort.signal,
        onLine: (line) => log.line(line),
      });
      if (result.canceled) throw new BuildError('The build was canceled.');
      if (result.timedOut) throw new BuildError(timeLimitMessage());
      if (result.code !== 0) {
        throw new BuildError(
          `The ${name} step "${command}" failed with ${result.signal ?? `exit code ${result.code}`}.`,
        );
      }
      return result.ms;
    };

    if (plan.installCommand) await install(job, plan, appDir, metrics, log, step, handOverSource);
    else await handOverSource();
    if (plan.buildCommand) metrics.buildMs = await step('build', plan.buildCommand);

    if (!(await transition(orgId, deploymentId, ['building'], 'deploying'))) return;
    log.line('Deploying the output.');
    const uploadStarted = Date.now();
    const fn = await publishOutput(job, plan, appDir);
    metrics.uploadMs = Date.now() - uploadStarted;
    log.line(`Build completed in ${((Date.now() - startedAt) / 1000).toFixed(1)} s. Going live.`);
    // Every line is written and the sources are gone before the status says the build is over.
    await log.close();
    await rm(work, { recursive: true, force: true });
    if (!(await completeDeployment({ ...job, startedAt, buildMetrics: metrics, fn }))) {
      await removeOutputs(deploymentId);
    }
  } catch (err) {
    const known = err instanceof BuildError || err instanceof ArchiveError || err instanceof PlanError;
    const message = known ? (err as Error).message : `The build failed unexpectedly: ${(err as Error).message}`;
    log.line(`Error: ${message}`);
    await log.close();
    await rm(work, { recursive: true, force: true }).catch(() => undefined);
    await removeOutputs(deploymentId);
    await failDeployment(orgId, deploymentId, message, {
      buildMetrics: metrics,
      buildDurationMs: Date.now() - startedAt,
    });
  } finally {
    await rm(work, { recursive: true, force: true }).catch(() => undefined);
    await log.close();
  }
}

const timeLimitMessage = () => `The build exceeded its time limit of ${Math.round(buildTimeoutMs() / 1000)} s.`;

async function fetchSource(job: BuildJob, dest: string, log: BuildLogWriter, deadline: number, signal: AbortSignal) {
  if (job.source.kind !== 'upload') {
    throw new BuildError("Building a commit isn't available on this platform yet: deploy an uploaded archive.");
  }
  log.line('Downloading the source archive.');
  const url = await storage.presignGet({ name: job.source.bucket }, job.source.key, { expiresIn: 300 });
  const res = await fetch(url, {
    signal: AbortSignal.any([signal, AbortSignal.timeout(Math.max(1, deadline - Date.now()))]),
  });
  if (res.status === 404) throw new BuildError("The source archive wasn't found. Upload it again.");
  if (!res.ok || !res.body) throw new BuildError(`Downloading the source archive failed (HTTP ${res.status}).`);
  // To a file first, then unpacked: a slow unpack (tens of thousands of files) must not hold the
  // download's connection open until the server gives up on it.
  const archive = join(dest, '..', 'source.tgz');
  await pipeline(Readable.fromWeb(res.body as never), createWriteStream(archive, { mode: 0o600 })).catch(
    (err: Error) => {
      throw new BuildError(`Downloading the source archive failed (${err.message}). Redeploy to try again.`);
    },
  );
  const started = Date.now();
  const { entries, bytes } = await extractArchive(createReadStream(archive), dest).finally(() =>
    rm(archive, { force: true }),
  );
  log.line(`Unpacked ${entries} files and folders (${Math.ceil(bytes / 1024)} KB) in ${Date.now() - started} ms.`);
}

async function install(
  job: BuildJob,
  plan: BuildPlan,
  appDir: string,
  metrics: BuildMetrics,
  log: BuildLogWriter,
  step: (name: string, command: string) => Promise<number>,
  handOverSource: () => Promise<void>,
): Promise<void> {
  const command = plan.installCommand as string;
  if (!plan.lockFile) {
    await handOverSource();
    log.line('No lock file: the dependency cache is off.');
    metrics.installMs = await step('install', command);
    return;
  }
  // The lock file actually used, the command and the manager's version (another version may lay
  // node_modules out differently).
  const key = await depsCacheKey(appDir, plan.lockFile, `${command}\0${plan.tool?.version ?? ''}`);
  const restoreStarted = Date.now();
  if (await restoreDeps(job.projectId, key, appDir)) {
    await handOverSource();
    metrics.restoreMs = Date.now() - restoreStarted;
    metrics.depsCache = 'hit';
    metrics.installMs = 0;
    log.line(
      `Restored dependencies from the cache (${plan.lockFile} unchanged) in ${metrics.restoreMs} ms; install skipped.`,
    );
    return;
  }
  metrics.depsCache = 'miss';
  await handOverSource();
  log.line(`No cached dependencies for this ${plan.lockFile}.`);
  metrics.installMs = await step('install', command);
  const saveStarted = Date.now();
  await saveDeps(job.projectId, key, appDir);
  metrics.saveMs = Date.now() - saveStarted;
  log.line(`Saved dependencies to the cache in ${metrics.saveMs} ms.`);
}

/** Static output → `static/`; a server → the local runtime (the app folder moves there). */
async function publishOutput(job: BuildJob, plan: BuildPlan, appDir: string) {
  const { deploymentId } = job;
  if (plan.output.kind === 'static') {
    const out = inside(appDir, plan.output.directory);
    if (!out || !existsSync(out) || !statSync(out).isDirectory()) {
      throw new BuildError(`The output directory "${plan.output.directory}" wasn't found after the build.`);
    }
    // The edge serves these files as the platform: a link would serve whatever it points to.
    const link = await firstLink(out);
    if (link) {
      throw new BuildError(
        `The output directory has a symbolic link (${join(plan.output.directory, link)}): links are not published. Copy the file instead.`,
      );
    }
    const target = localPaths.static(deploymentId);
    await rm(target, { recursive: true, force: true });
    await mkdir(join(target, '..'), { recursive: true });
    await moveFolder(out, target);
    return undefined;
  }
  let entry = plan.output.entry;
  if (plan.framework === 'nextjs') entry = await nextEntry(appDir, entry);
  const entryFile = inside(appDir, entry);
  if (!entryFile || !existsSync(entryFile))
    throw new BuildError(`The server entry "${entry}" wasn't found after the build.`);
  return (await runtime()).deploy({
    deploymentId,
    orgId: job.orgId,
    projectId: job.projectId,
    code: { dir: appDir },
    entry,
    env: { ...job.env, ...platformVars(job) },
  });
}

/**
 * Next.js: the standalone server when the app builds one (its static files copied beside it, as
 * Next's docs say), else `next start` through a small launcher.
 */
async function nextEntry(appDir: string, standalone: string): Promise<string> {
  if (existsSync(join(appDir, standalone))) {
    const root = join(appDir, '.next', 'standalone');
    if (existsSync(join(appDir, '.next', 'static'))) {
      await cp(join(appDir, '.next', 'static'), join(root, '.next', 'static'), { recursive: true });
    }
    if (existsSync(join(appDir, 'public'))) await cp(join(appDir, 'public'), join(root, 'public'), { recursive: true });
    return standalone;
  }
  if (!existsSync(join(appDir, NEXT_START_ENTRY))) {
    throw new BuildError('Next.js was not found in node_modules: add "next" to the dependencies.');
  }
  const launcher = '.platform-next-start.cjs';
  await writeFile(
    join(appDir, launcher),
    "process.argv.push('start', '-p', process.env.PORT, '-H', '127.0.0.1');\nrequire('./node_modules/next/dist/bin/next');\n",
  );
  return launcher;
}

/** Moves a folder, copying it where the tenant folder is on another file system than DATA_DIR. */
async function moveFolder(from: string, to: string): Promise<void> {
  try {
    await rename(from, to);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
    await cp(from, to, { recursive: true, verbatimSymlinks: true });
    await rm(from, { recursive: true, force: true });
  }
}

async function removeOutputs(deploymentId: string): Promise<void> {
  await rm(localPaths.static(deploymentId), { recursive: true, force: true });
  await (await runtime()).remove(deploymentId);
}

/**
 * Deployments left `queued`, `building` or `deploying` by a platform that stopped mid-build
 * (their build is gone with it) end in `error`, so the project can be deleted or built again.
 */
export async function recoverInterruptedBuilds(): Promise<number> {
  let start: Record<string, unknown> | undefined;
  let recovered = 0;
  do {
    const out = await db.send(
      new ScanCommand({
        TableName: TABLE(),
        FilterExpression: 'begins_with(sk, :d) AND #status IN (:a, :b, :c)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':d': 'DPL#', ':a': IN_PROGRESS[0], ':b': IN_PROGRESS[1], ':c': IN_PROGRESS[2] },
        ExclusiveStartKey: start,
      }),
    );
    for (const item of (out.Items ?? []) as DeploymentRecord[]) {
      if (state.active.has(item.deploymentId) || state.queue.some((j) => j.deploymentId === item.deploymentId))
        continue;
      if (
        await failDeployment(
          item.orgId,
          item.deploymentId,
          'The local platform stopped during this build. Redeploy it.',
        )
      ) {
        recovered++;
      }
    }
    start = out.LastEvaluatedKey;
  } while (start);
  return recovered;
}

export function localBuilds(): BuildsPort {
  return {
    async start(job) {
      // The build's folder must be writable now: a full disk or a broken data folder is a 502,
      // not a deployment stuck in `queued`.
      await mkdir(localPaths.deployment(job.deploymentId), { recursive: true });
      state.queue.push(job);
      // After the caller's own bookkeeping (it stores the build id), never inside it.
      setImmediate(pump);
      return { buildId: buildIdOf(job.deploymentId) };
    },
    async cancel(buildId) {
      const deploymentId = deploymentOfBuild(buildId);
      const i = state.queue.findIndex((j) => j.deploymentId === deploymentId);
      if (i >= 0) state.queue.splice(i, 1);
      state.active.get(deploymentId)?.abort.abort();
      if (state.queue.length === 0 && state.active.size === 0) pump();
    },
    async readLog(deployment, position, limit) {
      const offset = position ? Number(position) : 0;
      const { lines, next } = await readBuildLog(deployment.deploymentId, Number.isFinite(offset) ? offset : 0, limit);
      return { lines, position: String(next) };
    },
  };
}
