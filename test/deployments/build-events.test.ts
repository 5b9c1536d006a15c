import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { handler as buildEvents } from '../../functions/workers/build-events';
import { artifactsBucket } from '../../shared/kernel/config';
import { onPlatformEvents, type PlatformEvent } from '../../shared/kernel/events/bus';
import { newId } from '../../shared/kernel/store/ids';
import { localPaths } from '../../shared/kernel/tenancy/paths';
import { localArtifacts } from '../../shared/ports/artifacts/local';
import { BuildLogWriter } from '../../shared/ports/builds/build-log';
import { type BuildStateChange, buildStateChange } from '../../shared/ports/builds/events';
import { buildsIdle } from '../../shared/ports/builds/local';
import { storage } from '../../shared/ports/object-storage';
import { tarOfDir } from '../fixtures/tar';
import { TestPlatform } from '../helpers/platform';
import { putRecord } from '../helpers/records';
import { type Deployments, deploy, edgeFetch, newProject, startDeployments, waitFinal } from './helpers';

/**
 * One state machine per deployment: the builder (CodeBuild, or the local one standing in for it)
 * only says how its build went, with CodeBuild's "Build State Change" event; the build-events
 * worker moves the record. Here the local builder runs without the worker: what it publishes is
 * caught, the record stays untouched, and the caught events, handed to the worker, finish it.
 */
let p: TestPlatform;
let env: Deployments;
let caught: PlatformEvent[] = [];
let stopCatching: () => void;

beforeAll(async () => {
  p = await TestPlatform.start();
  env = await startDeployments({ workers: false });
  stopCatching = onPlatformEvents(async (event) => {
    caught.push(event);
  });
});
afterAll(async () => {
  stopCatching?.();
  await env?.close();
  await p?.close();
});
beforeEach(() => {
  caught = [];
});

const statusOf = async (id: string) => (await p.get(`/v1/orgs/${p.org.orgId}/deployments/${id}`)).body.deployment;
const statuses = () => caught.map((e) => (e.detail as BuildStateChange['detail'])['build-status']);

describe('the local builder', () => {
  it('tells a build going well as CodeBuild does and moves no record; the worker makes it ready', async () => {
    const { projectId, slug } = await newProject(p, 'static');
    const archive = tarOfDir(join(__dirname, '..', 'fixtures', 'static-site'));
    const { deploymentId, host } = await deploy(p, projectId, archive, 'production');
    await buildsIdle();
    expect(statuses()).toEqual(['IN_PROGRESS', 'SUCCEEDED']);
    expect((await statusOf(deploymentId)).status).toBe('queued');
    const [first] = caught as [PlatformEvent];
    expect(first).toMatchObject({ source: 'aws.codebuild', 'detail-type': 'CodeBuild Build State Change' });
    const detail = first.detail as BuildStateChange['detail'];
    expect(detail['build-id']).toBe(`local-${deploymentId}`);
    const vars = Object.fromEntries(
      (detail['additional-information']?.environment?.['environment-variables'] ?? []).map((v) => [v.name, v.value]),
    );
    expect(vars).toEqual({
      DEPLOYMENT_ID: deploymentId,
      ORG_ID: p.org.orgId,
      PROJECT_ID: projectId,
      DEPLOYMENT_TARGET: 'production',
    });

    for (const event of caught) await buildEvents(event as BuildStateChange);
    const done = await waitFinal(p, deploymentId);
    expect(done.deployment).toMatchObject({ status: 'ready', buildMetrics: { depsCache: 'off' } });
    expect(done.deployment.buildDurationMs).toEqual(expect.any(Number));
    expect(done.project.productionDeploymentId).toBe(deploymentId);
    expect((await edgeFetch(env.edge, host)).status).toBe(200);
    expect((await edgeFetch(env.edge, `${slug}.localhost:${env.edge.port}`)).status).toBe(200);
  });

  it('tells a failed build as FAILED after its reason in the log; the worker takes the reason from there', async () => {
    const { projectId } = await newProject(p, 'static', { rootDirectory: 'web' });
    const archive = tarOfDir(join(__dirname, '..', 'fixtures', 'static-site'));
    const { deploymentId } = await deploy(p, projectId, archive);
    await buildsIdle();
    expect(statuses()).toEqual(['IN_PROGRESS', 'FAILED']);
    expect((await statusOf(deploymentId)).status).toBe('queued');
    for (const event of caught) await buildEvents(event as BuildStateChange);
    expect(await statusOf(deploymentId)).toMatchObject({
      status: 'error',
      error: 'The root directory "web" isn\'t in the source.',
      buildDurationMs: expect.any(Number),
    });
  });
});

describe('the build-events worker', () => {
  let projectId: string;
  beforeAll(async () => {
    ({ projectId } = await newProject(p, 'static'));
  });

  async function queued(target: 'preview' | 'production' = 'preview'): Promise<string> {
    const deploymentId = newId('dpl_');
    await putRecord(p.org.orgId, `DPL#${deploymentId}`, {
      deploymentId,
      orgId: p.org.orgId,
      projectId,
      location: 'fra',
      target,
      status: 'queued',
      createdAt: Date.now(),
      gsi1pk: `PRJ#${projectId}`,
      gsi1sk: `DPL#${deploymentId}`,
      version: 1,
    });
    return deploymentId;
  }
  const event = (deploymentId: string, status: string, target: 'preview' | 'production' = 'preview') =>
    buildStateChange(
      { deploymentId, orgId: p.org.orgId, projectId, target },
      `local-${deploymentId}`,
      status as 'SUCCEEDED',
      Date.now() - 1000,
    );
  const manifest = async (id: string, body: object) => {
    await mkdir(localPaths.deployment(id), { recursive: true });
    await writeFile(localPaths.manifest(id), JSON.stringify(body));
  };

  it('IN_PROGRESS → building; SUCCEEDED (static) → ready with the build metrics; repeats change nothing', async () => {
    const id = await queued('production');
    await buildEvents(event(id, 'IN_PROGRESS', 'production'));
    expect((await statusOf(id)).status).toBe('building');
    const metrics = { depsCache: 'off', uploadMs: 12 };
    await manifest(id, { kind: 'static', metrics });
    await buildEvents(event(id, 'SUCCEEDED', 'production'));
    const d = await statusOf(id);
    expect(d.error).toBeUndefined();
    expect(d).toMatchObject({ status: 'ready', buildMetrics: metrics, readyAt: expect.any(Number) });
    const read = await p.get(`/v1/orgs/${p.org.orgId}/deployments/${id}`);
    expect(read.body.project.productionDeploymentId).toBe(id);
    await buildEvents(event(id, 'IN_PROGRESS', 'production'));
    await buildEvents(event(id, 'FAILED', 'production'));
    expect((await statusOf(id)).status).toBe('ready');
  });

  it("FAILED → error with the build's own reason; TIMED_OUT → the time limit; STOPPED → canceled", async () => {
    const failed = await queued();
    const log = await BuildLogWriter.open(failed);
    log.line('npm ERR! something');
    log.error('The build step "npm run build" failed with exit code 1.');
    log.line('a line after it');
    await log.close();
    await buildEvents(event(failed, 'FAILED'));
    expect(await statusOf(failed)).toMatchObject({
      status: 'error',
      error: 'The build step "npm run build" failed with exit code 1.',
    });
    const slow = await queued();
    await buildEvents(event(slow, 'TIMED_OUT'));
    expect(await statusOf(slow)).toMatchObject({
      status: 'error',
      error: 'The build exceeded its time limit of 15 minutes.',
    });
    const stopped = await queued();
    await buildEvents(event(stopped, 'STOPPED'));
    expect(await statusOf(stopped)).toMatchObject({ status: 'canceled', reason: 'The build was stopped.' });
  });

  it('a build whose log passed its size limit still gives its reason', async () => {
    const id = await queued();
    const log = await BuildLogWriter.open(id);
    const big = 'x'.repeat(3900);
    for (let i = 0; i < 2800; i++) log.line(big);
    log.error('The build step "npm run build" failed with exit code 2.');
    await log.close();
    await buildEvents(event(id, 'FAILED'));
    expect((await statusOf(id)).error).toBe('The build step "npm run build" failed with exit code 2.');
  });

  it('SUCCEEDED without a manifest → error, said plainly', async () => {
    const id = await queued();
    await buildEvents(event(id, 'SUCCEEDED'));
    expect((await statusOf(id)).error).toMatch(/^The deployment failed to go live: The build left no manifest/);
  });

  it('an event naming no deployment is dropped', async () => {
    await expect(
      buildEvents({ detail: { 'build-status': 'SUCCEEDED', 'build-id': 'x', 'additional-information': {} } }),
    ).resolves.toBeUndefined();
  });
});

describe('the artifacts port', () => {
  it('AWS adapter: the manifest is read from the artifacts bucket; none is undefined', async () => {
    const { awsArtifacts } = await import('../../shared/ports/artifacts/aws');
    const id = newId('dpl_');
    const body = JSON.stringify({ kind: 'server', entry: 'server.js' });
    const url = await storage().presignPut({ name: artifactsBucket() }, `artifacts/${id}/manifest.json`, {
      contentType: 'application/json',
      size: body.length,
      expiresIn: 60,
    });
    expect((await fetch(url, { method: 'PUT', headers: { 'content-type': 'application/json' }, body })).status).toBe(
      200,
    );
    expect(await awsArtifacts().readManifest(id)).toEqual({ kind: 'server', entry: 'server.js' });
    expect(await awsArtifacts().readManifest(newId('dpl_'))).toBeUndefined();
    expect(await awsArtifacts().functionCode(id)).toEqual({
      bucket: artifactsBucket(),
      key: `artifacts/${id}/function.zip`,
    });
  });

  it('local adapter: the manifest beside the output; the server staged in the build folder', async () => {
    const id = newId('dpl_');
    expect(await localArtifacts().readManifest(id)).toBeUndefined();
    await mkdir(localPaths.deployment(id), { recursive: true });
    await writeFile(localPaths.manifest(id), JSON.stringify({ kind: 'static' }));
    expect(await localArtifacts().readManifest(id)).toEqual({ kind: 'static' });
    expect(await localArtifacts().functionCode(id)).toEqual({ dir: localPaths.stagedFunction(id) });
  });
});
