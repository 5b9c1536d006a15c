import { type ChildProcess, spawn } from 'node:child_process';
import { createReadStream, createWriteStream, existsSync, statSync } from 'node:fs';
import { cp, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { pathToFileURL } from 'node:url';
import type { BuildMetrics, DeploymentRecord } from '../../domains/deployments/schema';
import { publishEvent } from '../../kernel/events/bus';
import { processEnv, readEnv } from '../../kernel/ground/env';
import { describeError, log as platformLog } from '../../kernel/ground/log';
import { localPaths } from '../../kernel/tenancy/paths';
import { firstLink, handOver, machineNetworkEnv, tenantDir } from '../../kernel/tenancy/sandbox';
import type { BuildManifest } from '../artifacts/port';
import { git } from '../git';
import { withFaults } from '../local-faults';
import { storage } from '../object-storage';
import { BuildLogWriter, lastErrorLine, readBuildLog } from './build-log';
import { depsCacheKey, restoreDeps, saveDeps } from './deps-cache';
import { NO_BUILT_SITE, NOT_SERVED, noBuildStep } from './detect';
import { type BuildOf, type BuildStatus, buildStateChange } from './events';
import { ArchiveError, extractArchive } from './extract';
import { LfsSourceError, replaceLfsPointers } from './lfs';
import { toolBin } from './package-managers';
import { type BuildPlan, builtSiteDirectory, NEXT_START_ENTRY, PlanError, planBuild } from './plan';
import type { BuildJob, BuildsPort, ImportJob } from './port';
import { runStep } from './steps';

/**
 * Builds on one machine, standing in for CodeBuild. `start` queues the job and returns; a small
 * scheduler runs at most `BUILD_CONCURRENCY` builds (default 2) and one per project at a time (the
 * project's dependency cache is never written by two builds). A build:
 * 1. says `IN_PROGRESS`;
 * 2. downloads the archive with a presigned GET and unpacks it safely (extract.ts);
 * 3. plans the build (plan.ts), restores or installs dependencies (cache keyed by the lock file),
 *    runs the build command, each a child process with what is left of the time limit;
 * 4. puts its output where the artifacts port finds it (the static files, or the server's folder
 *    staged for the runtime) with its `manifest.json`;
 * 5. says `SUCCEEDED`, or `FAILED`/`TIMED_OUT`/`STOPPED` after an `Error: …` line in its log.
 * It says so as CodeBuild does, with a "Build State Change" event (shared/ports/builds/events.ts) that
 * the `build-events` worker handles: the builder never moves a deployment record itself.
 * Every line of output goes to the build log.
 */

export class BuildError extends Error {
  override name = 'BuildError';
}
/** The build ran out of time (CodeBuild's TIMED_OUT). */
class TimedOut extends BuildError {}
/** The build was stopped: canceled, superseded or the platform stopping (CodeBuild's STOPPED). */
class Stopped extends BuildError {}

interface Active {
  job: BuildJob;
  abort: AbortController;
}

interface Runner {
  queue: BuildJob[];
  active: Map<string, Active>;
  busyProjects: Set<string>;
  idle: (() => void)[];
}

const state: Runner = { queue: [], active: new Map(), busyProjects: new Set(), idle: [] };

const num = (v: string | undefined, d: number) => (v && Number(v) > 0 ? Number(v) : d);
const concurrency = () => num(readEnv('BUILD_CONCURRENCY'), 2);
/** The whole build (download, install, build, output) must finish within this. */
export const buildTimeoutMs = () => num(readEnv('BUILD_TIMEOUT_MS'), 15 * 60_000);

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
      .catch((err: Error) => endWithError(job, `The build failed unexpectedly: ${err.message}`, Date.now()))
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
    PATH: readEnv('PATH') ?? '/usr/local/bin:/usr/bin:/bin',
    HOME: home,
    LANG: readEnv('LANG') ?? 'C.UTF-8',
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

/** Tells the worker what became of the build, as CodeBuild's event would; a failure to is logged. */
async function report(of: BuildOf, status: BuildStatus, startedAt: number): Promise<void> {
  await publishEvent(buildStateChange(of, buildIdOf(of.deploymentId), status, startedAt)).catch((err: unknown) =>
    platformLog.error('a build event was not handled', {
      deploymentId: of.deploymentId,
      status,
      error: describeError(err),
    }),
  );
}

/** Ends a build that failed outside its own handling: the reason as its log's last line, then FAILED. */
async function endWithError(of: BuildOf, message: string, startedAt: number): Promise<void> {
  try {
    const log = await BuildLogWriter.open(of.deploymentId);
    log.error(message);
    await log.close();
  } catch {
    // The worker then gives the generic reason.
  }
  await report(of, 'FAILED', startedAt);
}

async function writeManifest(deploymentId: string, manifest: BuildManifest): Promise<void> {
  await writeFile(localPaths.manifest(deploymentId), JSON.stringify(manifest), { mode: 0o600 });
}

async function runBuild({ job, abort }: Active): Promise<void> {
  const { deploymentId } = job;
  const log = await BuildLogWriter.open(deploymentId);
  const startedAt = Date.now();
  const deadline = startedAt + buildTimeoutMs();
  const metrics: BuildMetrics = { depsCache: 'off' };
  const work = localPaths.work(deploymentId);
  let status: BuildStatus = 'FAILED';
  await report(job, 'IN_PROGRESS', startedAt);
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
    if (plan.output.kind === 'static' && !plan.buildCommand) log.line(noBuildStep(plan.output.directory));
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
    // A cancel that came between steps (the signal only reaches a running step) ends the build here.
    const stopIfCanceled = () => {
      if (abort.signal.aborted) throw new Stopped('The build was canceled.');
    };
    const step = async (name: string, command: string) => {
      stopIfCanceled();
      log.line(`Running "${command}"`);
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw new TimedOut(timeLimitMessage());
      const result = await runStep({
        command,
        cwd: appDir,
        projectId: job.projectId,
        env,
        timeoutMs: remaining,
        signal: abort.signal,
        onLine: (line) => log.line(line),
      });
      if (result.canceled) throw new Stopped('The build was canceled.');
      if (result.timedOut) throw new TimedOut(timeLimitMessage());
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

    stopIfCanceled();
    log.line('Uploading the output.');
    const uploadStarted = Date.now();
    const output = await publishOutput(job, plan, appDir, log);
    metrics.uploadMs = Date.now() - uploadStarted;
    await writeManifest(deploymentId, { ...output, metrics });
    log.line(`Build completed in ${((Date.now() - startedAt) / 1000).toFixed(1)} s. Going live.`);
    status = 'SUCCEEDED';
  } catch (err) {
    const known = err instanceof BuildError || err instanceof ArchiveError || err instanceof PlanError;
    const message = known ? (err as Error).message : `The build failed unexpectedly: ${(err as Error).message}`;
    status = err instanceof Stopped ? 'STOPPED' : err instanceof TimedOut ? 'TIMED_OUT' : 'FAILED';
    log.error(message);
    await removeOutputs(deploymentId).catch(() => undefined);
    // What was measured before the failure, for the deployment's record.
    await writeManifest(deploymentId, { metrics }).catch(() => undefined);
  } finally {
    // Every line is written before the status says the build is over.
    await log.close();
  }
  // A failed build leaves the worker nothing to take: its work goes before the status says it is
  // over, so whoever sees the end sees it gone (the worker's end event now raises a notification
  // before it returns, which had left the folder a moment longer than a test's look).
  if (status !== 'SUCCEEDED') await rm(work, { recursive: true, force: true }).catch(() => undefined);
  await report(job, status, startedAt);
  // After the worker took the staged server folder (or gave up on it).
  if (status === 'SUCCEEDED') await rm(work, { recursive: true, force: true }).catch(() => undefined);
}

const timeLimitMessage = () => `The build exceeded its time limit of ${Math.round(buildTimeoutMs() / 1000)} s.`;

async function fetchSource(job: BuildJob, dest: string, log: BuildLogWriter, deadline: number, signal: AbortSignal) {
  if (job.source.kind === 'git') {
    // The commit's tree as git archives it, unpacked by the same careful extractor as uploads.
    log.line(`Checking out ${job.source.commitSha.slice(0, 12)} (${job.source.branch}).`);
    const stream = await git().archive(job.source.repoId, job.source.commitSha, 'tar.gz');
    const { entries, bytes } = await extractArchive(stream, dest);
    log.line(`Unpacked ${entries} files and folders (${Math.ceil(bytes / 1024)} KB).`);
    // Git LFS pointers become their files, as on AWS (the build script does it there).
    if (job.source.lfs) {
      const got = await replaceLfsPointers(dest, job.source.lfs).catch((err: Error) => {
        throw err instanceof LfsSourceError ? new BuildError(err.message) : err;
      });
      if (got.objects > 0) log.line(`Fetched ${got.objects} Git LFS files (${Math.ceil(got.bytes / 1024)} KB).`);
    }
    return;
  }
  log.line('Downloading the source archive.');
  const url = await storage().presignGet({ name: job.source.bucket }, job.source.key, { expiresIn: 300 });
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

/**
 * Static output → `static/`; a server → its app folder staged for the runtime (the worker hands it
 * over, as it hands CodeBuild's `function.zip` to Lambda). Answers the manifest's kind and entry.
 */
async function publishOutput(
  job: BuildJob,
  plan: BuildPlan,
  appDir: string,
  log: BuildLogWriter,
): Promise<BuildManifest> {
  const { deploymentId } = job;
  if (plan.output.kind === 'static') {
    let directory = plan.output.directory ?? builtSiteDirectory(appDir);
    if (!directory) {
      log.line(NO_BUILT_SITE);
      directory = '.';
    }
    const out = inside(appDir, directory);
    if (!out || !existsSync(out) || !statSync(out).isDirectory()) {
      throw new BuildError(`The output directory "${directory}" wasn't found after the build.`);
    }
    // The folder itself: its package.json, lock files and dependencies are the source's, not the site's.
    if (out === appDir) for (const name of NOT_SERVED) await rm(join(out, name), { recursive: true, force: true });
    // The edge serves these files as the platform: a link would serve whatever it points to.
    const link = await firstLink(out);
    if (link) {
      throw new BuildError(
        `The output directory has a symbolic link (${join(directory, link)}): links are not published. Copy the file instead.`,
      );
    }
    const target = localPaths.static(deploymentId);
    await rm(target, { recursive: true, force: true });
    await mkdir(join(target, '..'), { recursive: true });
    await moveFolder(out, target);
    return { kind: 'static' };
  }
  let entry = plan.output.entry;
  if (plan.framework === 'nextjs') entry = await nextEntry(appDir, entry);
  const entryFile = inside(appDir, entry);
  if (!entryFile || !existsSync(entryFile))
    throw new BuildError(`The server entry "${entry}" wasn't found after the build.`);
  await moveFolder(appDir, localPaths.stagedFunction(deploymentId));
  return { kind: 'server', entry };
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
  await rm(localPaths.stagedFunction(deploymentId), { recursive: true, force: true });
}

/**
 * Deployments left `queued`, `building` or `deploying` by a platform that stopped mid-build
 * (their build is gone with it) are told FAILED, with the reason in their log, so the worker ends
 * them in `error` and the project can be deleted or built again. The records come from the caller
 * (a scan of the platform's table, lib/local/edge.ts): an adapter reads no platform record itself.
 */
export async function recoverInterruptedBuilds(pages: AsyncIterable<{ items: DeploymentRecord[] }>): Promise<number> {
  let recovered = 0;
  for await (const page of pages) {
    for (const item of page.items) {
      if (state.active.has(item.deploymentId) || state.queue.some((j) => j.deploymentId === item.deploymentId))
        continue;
      await endWithError(
        item,
        'The local platform stopped during this build. Redeploy it.',
        item.createdAt ?? Date.now(),
      );
      recovered++;
    }
  }
  return recovered;
}

/**
 * Import jobs on one machine: each a child process running the job's program
 * (shared/domains/repos/imports/main.ts, as the import's CodeBuild project runs its bundle), with
 * the platform's own environment (it is the platform's code, not a tenant's). Not queued behind
 * deployments: an import is mostly waiting on the network.
 */
const imports = new Map<string, ChildProcess>();
const IMPORT_ENTRY = join(__dirname, '..', '..', 'domains', 'repos', 'imports', 'main.ts');
const importBuildId = (importId: string) => `local-import-${importId}`;

function startImportProcess(job: ImportJob): string {
  const buildId = importBuildId(job.importId);
  const tsx = pathToFileURL(createRequire(__filename).resolve('tsx')).href;
  const child = spawn(process.execPath, ['--import', tsx, IMPORT_ENTRY], {
    env: { ...processEnv(), IMPORT_ID: job.importId, ORG_ID: job.orgId },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Its log lines are the platform's own: written where this process writes its own.
  child.stdout?.on('data', (d: Buffer) => process.stdout.write(d));
  child.stderr?.on('data', (d: Buffer) => process.stderr.write(d));
  imports.set(buildId, child);
  child.on('exit', () => imports.delete(buildId));
  return buildId;
}

/** Stops an import's process and waits for it to end (its own handling then cleans up). */
async function stopImport(buildId: string): Promise<void> {
  const child = imports.get(buildId);
  if (!child || child.exitCode !== null) return;
  const ended = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await ended;
}

/** Stops every import process (the platform stops). */
export function abortAllImports(): Promise<void> {
  return Promise.all([...imports.keys()].map(stopImport)).then(() => undefined);
}

export function localBuilds(): BuildsPort {
  // The local platform's fault injector may fail a call as CodeBuild would (shared/ports/local-faults.ts).
  return withFaults('builds', localBuildsPort, { start: 'StartBuild', startImport: 'StartBuild', cancel: 'StopBuild' });
}

const localBuildsPort: BuildsPort = {
  async start(job) {
    // The build's folder must be writable now: a full disk or a broken data folder is a 502,
    // not a deployment stuck in `queued`.
    await mkdir(localPaths.deployment(job.deploymentId), { recursive: true });
    state.queue.push(job);
    // After the caller's own bookkeeping (it stores the build id), never inside it.
    setImmediate(pump);
    return { buildId: buildIdOf(job.deploymentId) };
  },
  startImport: async (job) => ({ buildId: startImportProcess(job) }),
  async cancel(buildId) {
    if (buildId.startsWith('local-import-')) return stopImport(buildId);
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
  failureReason: async (buildId) => lastErrorLine(deploymentOfBuild(buildId)),
};
