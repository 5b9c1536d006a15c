import { join } from 'node:path';
import { sweepExpired } from '../../shared/domains/deployments/retention';
import { tarOfDir } from '../fixtures/tar';
import type { TestPlatform } from '../helpers/platform';
import { type Deployments, deploy, edgeFetch, newProject, waitFinal, withDeployments } from './helpers';

/**
 * `expired`: deployments that are not their project's production deployment expire 30 days after
 * they were created (DEPLOYMENT_RETENTION_DAYS); the sweep finds them by their expiry markers.
 */
let p: TestPlatform;
let env: Deployments;
const staticArchive = tarOfDir(join(__dirname, '..', 'fixtures', 'static-site'));
const nodeArchive = tarOfDir(join(__dirname, '..', 'fixtures', 'node-server'));
const DAY = 86_400_000;

withDeployments((platform, deployments) => {
  p = platform;
  env = deployments;
});

const orgPath = () => `/v1/orgs/${p.org.orgId}`;

it('expires old previews, keeps production, and says so on every route', async () => {
  const { projectId, slug } = await newProject(p, 'node');
  const preview = await deploy(p, projectId, nodeArchive, 'preview');
  const production = await deploy(p, projectId, nodeArchive, 'production');
  const staticProject = await newProject(p, 'static');
  const staticPreview = await deploy(p, staticProject.projectId, staticArchive, 'preview');
  for (const d of [preview, production, staticPreview]) {
    expect((await waitFinal(p, d.deploymentId)).deployment.status).toBe('ready');
  }
  expect((await edgeFetch(env.edge, preview.host)).status).toBe(200);

  // Nothing is due today.
  const mine = { projectIds: [projectId, staticProject.projectId] };
  const today = await sweepExpired(Date.now(), mine);
  expect(today.expired).not.toContain(preview.deploymentId);

  const later = await sweepExpired(Date.now() + 31 * DAY, mine);
  expect(later.expired).toEqual(expect.arrayContaining([preview.deploymentId, staticPreview.deploymentId]));
  expect(later.expired).not.toContain(production.deploymentId);
  expect(later.postponed).toContain(production.deploymentId);

  const read = await p.get(`${orgPath()}/deployments/${preview.deploymentId}`);
  expect(read.body.deployment).toMatchObject({ status: 'expired', reason: 'Expired after 30 days.' });
  expect(read.body.function).toBeNull();
  expect((await edgeFetch(env.edge, preview.host)).status).toBe(410);
  expect((await edgeFetch(env.edge, staticPreview.host)).status).toBe(410);
  const promote = await p.post(`${orgPath()}/deployments/${preview.deploymentId}/promote`);
  expect(promote.status).toBe(409);
  expect(promote.body).toEqual({ error: 'This deployment has expired. Redeploy it instead.' });
  // The production deployment still answers at both of its hosts.
  expect((await edgeFetch(env.edge, production.host)).status).toBe(200);
  expect((await edgeFetch(env.edge, `${slug}.localhost:${env.edge.port}`)).status).toBe(200);
  const listed = await p.get(`${orgPath()}/deployments?projectId=${projectId}&status=expired`);
  expect(listed.body.deployments.map((d: { deploymentId: string }) => d.deploymentId)).toEqual([preview.deploymentId]);

  // Its archive is still kept: redeploying brings it back as a new deployment.
  const again = await p.post(`${orgPath()}/deployments/${preview.deploymentId}/redeploy`);
  expect(again.status).toBe(201);
  expect((await waitFinal(p, again.body.deployment.deploymentId)).deployment.status).toBe('ready');

  // A sweep run again finds nothing more to do for them.
  const rerun = await sweepExpired(Date.now() + 31 * DAY, mine);
  expect(rerun.expired).not.toContain(preview.deploymentId);
});
