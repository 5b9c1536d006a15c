import { mkdirSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { onPlatformEvents, type PlatformEvent } from '../../shared/kernel/events/bus';
import { newId } from '../../shared/kernel/store/ids';
import { localArtifacts } from '../../shared/ports/artifacts/local';
import type { BuildStateChange } from '../../shared/ports/builds/events';
import { buildsIdle, localBuilds } from '../../shared/ports/builds/local';
import type { BuildJob } from '../../shared/ports/builds/port';
import { storage } from '../../shared/ports/object-storage';
import { tarOfDir } from '../fixtures/tar';

/**
 * The builds port's contract, held by the local builder on its real engine (child processes, the
 * local S3 server for the source): `start` answers at once with a build id; the build's progress
 * is told only by CodeBuild's "Build State Change" events; `readLog` pages the log from an opaque
 * position; `failureReason` is the last `Error:` line; `cancel` of a queued build starts nothing,
 * of a running one ends it `STOPPED`. (The AWS adapter's calls: test/deployments/aws.test.ts.)
 */
const bucket = `builds-contract-${Date.now().toString(36)}`;
let events: PlatformEvent[] = [];
let stop: () => void;

beforeAll(async () => {
  const dir = mkdtempSync(join(process.env.TEST_DATA_DIR as string, 'builds-'));
  mkdirSync(dir, { recursive: true });
  process.env.DATA_DIR = dir;
  process.env.ARTIFACTS_BUCKET = bucket;
  await storage().createBucket(bucket);
  stop = onPlatformEvents(async (event) => {
    events.push(event);
  });
});
afterAll(() => stop?.());
beforeEach(() => {
  events = [];
});

async function job(settings: BuildJob['settings'], files = 'static-site'): Promise<BuildJob> {
  const key = `sources/prj_contract/${newId('up_')}.tar.gz`;
  const body = tarOfDir(join(__dirname, '..', 'fixtures', files));
  const url = await storage().presignPut({ name: bucket }, key, {
    contentType: 'application/gzip',
    size: body.length,
    expiresIn: 60,
  });
  const put = await fetch(url, { method: 'PUT', body, headers: { 'content-type': 'application/gzip' } });
  expect(put.status).toBe(200);
  return {
    deploymentId: newId('dpl_'),
    orgId: 'org_contract',
    projectId: newId('prj_'),
    target: 'preview',
    settings,
    source: { kind: 'upload', bucket, key },
    env: {},
  };
}

const told = (deploymentId: string) =>
  events
    .map((e) => e.detail as BuildStateChange['detail'])
    .filter((d) => d['build-id'] === `local-${deploymentId}`)
    .map((d) => d['build-status']);

async function logOf(deploymentId: string): Promise<string[]> {
  const port = localBuilds();
  const lines: string[] = [];
  let position: string | undefined;
  for (let page = 0; page < 100; page++) {
    const read = await port.readLog({ deploymentId }, position, 2);
    lines.push(...read.lines.map((l) => l.m));
    if (read.lines.length === 0) break;
    position = read.position;
  }
  return lines;
}

it('a good build: IN_PROGRESS then SUCCEEDED, its output and manifest left for the worker', async () => {
  const j = await job({ framework: 'static' });
  const { buildId } = await localBuilds().start(j);
  expect(buildId).toBe(`local-${j.deploymentId}`);
  await buildsIdle();
  expect(told(j.deploymentId)).toEqual(['IN_PROGRESS', 'SUCCEEDED']);
  expect(await localArtifacts().readManifest(j.deploymentId)).toMatchObject({ kind: 'static' });
  const log = await logOf(j.deploymentId);
  expect(log[0]).toBe('Downloading the source archive.');
  expect(log.at(-1)).toMatch(/^Build completed in /);
  expect(await localBuilds().failureReason(buildId)).toBeUndefined();
});

it('a failed build: FAILED, after the reason as its last Error: line', async () => {
  const j = await job(
    { framework: 'node', installCommand: 'true', buildCommand: 'node -e "process.exit(3)"' },
    'node-server',
  );
  const { buildId } = await localBuilds().start(j);
  await buildsIdle();
  expect(told(j.deploymentId)).toEqual(['IN_PROGRESS', 'FAILED']);
  expect(await localBuilds().failureReason(buildId)).toBe(
    'The build step "node -e "process.exit(3)"" failed with exit code 3.',
  );
  expect(await localArtifacts().readManifest(j.deploymentId)).not.toHaveProperty('kind');
});

it('cancel: a queued build never starts; a running one ends STOPPED', async () => {
  const slow = await job(
    {
      framework: 'node',
      installCommand: 'true',
      buildCommand: 'node -e "setTimeout(() => {}, 60000)"',
    },
    'node-server',
  );
  // The same project: the second waits for the first (one build per project at a time).
  const waiting = { ...(await job({ framework: 'static' })), projectId: slow.projectId };
  const port = localBuilds();
  const running = await port.start(slow);
  const queued = await port.start(waiting);
  for (let i = 0; i < 200 && !(await logOf(slow.deploymentId)).some((l) => l.startsWith('Running')); i++) {
    await new Promise((r) => setTimeout(r, 50));
  }
  await port.cancel(queued.buildId);
  await port.cancel(running.buildId);
  await buildsIdle();
  expect(told(slow.deploymentId)).toEqual(['IN_PROGRESS', 'STOPPED']);
  expect(told(waiting.deploymentId)).toEqual([]);
  expect(await port.failureReason(running.buildId)).toBe('The build was canceled.');
  // Unknown ids are ignored.
  await expect(port.cancel('local-dpl_unknown00000')).resolves.toBeUndefined();
});
