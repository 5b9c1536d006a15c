import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { handler as buildEvents } from '../../functions/workers/build-events';
import { newId } from '../../shared/kernel/store/ids';
import { buildStateChange } from '../../shared/ports/builds/events';
import { buildsIdle } from '../../shared/ports/builds/local';
import { makeTar } from '../fixtures/tar';
import type { TestPlatform } from '../helpers/platform';
import { putRecord } from '../helpers/records';
import { deploy, followBuildLog, newProject, waitFinal, withDeployments } from './helpers';

/**
 * `POST /v1/orgs/:orgId/deployments/:deploymentId/cancel` through the gateway: a running build's
 * process is killed, the deployment ends `canceled` and no build event moves it again; finished
 * deployments answer 409, unknown ones 404, keys without `deployments:write` 403, another
 * organization's key 404.
 */
let p: TestPlatform;

withDeployments((platform) => {
  p = platform;
});

const orgPath = () => `/v1/orgs/${p.org.orgId}`;
const cancel = (id: string, token?: string) =>
  p.post(`${orgPath()}/deployments/${id}/cancel`, undefined, token === undefined ? {} : { token });
const read = async (id: string) => (await p.get(`${orgPath()}/deployments/${id}`)).body.deployment;

/** A deployment record written directly, in a state a test can't wait for. */
async function fakeDeployment(projectId: string, status: string): Promise<string> {
  const deploymentId = newId('dpl_');
  await putRecord(p.org.orgId, `DPL#${deploymentId}`, {
    deploymentId,
    orgId: p.org.orgId,
    projectId,
    location: 'fra',
    target: 'preview',
    status,
    createdAt: Date.now(),
    updatedAt: Date.now(),
    gsi1pk: `PRJ#${projectId}`,
    gsi1sk: `DPL#${deploymentId}`,
    version: 1,
  });
  return deploymentId;
}

/** A server that holds every request until the test ends: a build step asking it never finishes. */
async function gate(): Promise<{ url: string; waiting: ServerResponse[]; close: () => void }> {
  const waiting: ServerResponse[] = [];
  const server: Server = createServer((_req, res) => waiting.push(res));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    waiting,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

describe('POST .../deployments/:deploymentId/cancel', () => {
  let projectId: string;
  beforeAll(async () => {
    ({ projectId } = await newProject(p, 'static'));
  });

  it('stops a running build: its step is killed, the deployment is canceled, later build events move nothing', async () => {
    const g = await gate();
    try {
      const { projectId: gated } = await newProject(p, 'static', { buildCommand: 'node gate.js' });
      await p.post(`${orgPath()}/projects/${gated}/env`, {
        vars: [{ key: 'GATE_URL', value: g.url }],
        targets: ['preview'],
        sensitive: false,
      });
      const archive = makeTar([
        { path: 'index.html', content: '<h1>site</h1>' },
        // Never answered: without the cancel this build would run to its time limit.
        { path: 'gate.js', content: 'fetch(process.env.GATE_URL).then((r) => r.text());' },
      ]);
      const d = await deploy(p, gated, archive);
      for (let i = 0; g.waiting.length === 0; i++) {
        if (i > 400) throw new Error('the build never reached its gate');
        await new Promise((r) => setTimeout(r, 25));
      }
      expect((await read(d.deploymentId)).status).toBe('building');

      const res = await cancel(d.deploymentId);
      expect(res.status).toBe(200);
      expect(res.body.deployment).toMatchObject({
        deploymentId: d.deploymentId,
        status: 'canceled',
        reason: `Canceled by ${p.owner.userId}.`,
      });
      // The build's process was killed: the builder is idle again, with the gate still closed.
      await buildsIdle();
      expect(g.waiting.length).toBe(1);
      const log = await followBuildLog(p, d.deploymentId);
      expect(log.last).toMatchObject({ done: true, status: 'canceled' });
      expect(log.lines.at(-1)?.m).toBe('Error: The build was canceled.');

      // Events that were on their way when it was canceled (at least once, in any order).
      const of = { deploymentId: d.deploymentId, orgId: p.org.orgId, projectId: gated, target: 'preview' as const };
      for (const status of ['IN_PROGRESS', 'SUCCEEDED', 'FAILED', 'TIMED_OUT', 'STOPPED'] as const) {
        await buildEvents(buildStateChange(of, `local-${d.deploymentId}`, status, Date.now()));
      }
      expect(await read(d.deploymentId)).toMatchObject({
        status: 'canceled',
        reason: `Canceled by ${p.owner.userId}.`,
      });
      expect((await waitFinal(p, d.deploymentId)).deployment.status).toBe('canceled');

      const again = await cancel(d.deploymentId);
      expect(again.status).toBe(409);
      expect(again.body).toEqual({ error: 'This deployment was already canceled.' });
    } finally {
      g.close();
    }
  });

  it('cancels a deployment queued, building or deploying (with no build to stop yet)', async () => {
    for (const status of ['queued', 'building', 'deploying']) {
      const id = await fakeDeployment(projectId, status);
      const res = await cancel(id);
      expect(res.status).toBe(200);
      expect(res.body.deployment).toMatchObject({ deploymentId: id, status: 'canceled' });
      expect((await read(id)).status).toBe('canceled');
    }
  });

  it('409 This deployment has already finished. (ready, error, expired, skipped)', async () => {
    for (const status of ['ready', 'error', 'expired', 'skipped']) {
      const id = await fakeDeployment(projectId, status);
      const res = await cancel(id);
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ error: 'This deployment has already finished.' });
      expect((await read(id)).status).toBe(status);
    }
  });

  it('409 This deployment was already canceled.', async () => {
    const res = await cancel(await fakeDeployment(projectId, 'canceled'));
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: 'This deployment was already canceled.' });
  });

  it('404 Deployment not found, for an unknown id or one of another shape', async () => {
    for (const id of [newId('dpl_'), 'not-a-deployment']) {
      const res = await cancel(id);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'Deployment not found' });
    }
  });

  it('needs deployments:write; another organization reaches none of ours', async () => {
    const id = await fakeDeployment(projectId, 'queued');
    const reader = await p.apiKey(['deployments:read']);
    expect((await cancel(id, reader)).status).toBe(403);
    const other = await p.newOrg();
    const otherKey = await p.apiKey(['deployments:write'], other.org.orgId);
    expect((await cancel(id, otherKey)).status).toBe(404);
    const theirs = await p.post(`/v1/orgs/${other.org.orgId}/deployments/${id}/cancel`, undefined, {
      token: otherKey,
    });
    expect(theirs.status).toBe(404);
    expect(theirs.body).toEqual({ error: 'Deployment not found' });
    expect((await read(id)).status).toBe('queued');
    const writer = await p.apiKey(['deployments:write']);
    const res = await cancel(id, writer);
    expect(res.status).toBe(200);
    expect(res.body.deployment.reason).toMatch(/^Canceled by key_\w+\.$/);
  });
});
