import { envContext, envHash, resolveEnv } from '../../shared/domains/projects/env';
import { addMember } from '../../shared/kernel/identity/orgs';
import { SecretDecryptError, secrets } from '../../shared/ports/secrets';
import { TestPlatform } from '../helpers/platform';
import { putRecord, someId } from '../helpers/records';
import { failNthCall } from './faults';
import { addDeployment, addDomain, addRepo, addStorage, createProject, readRecord, setProduction } from './fixtures';

let p: TestPlatform;
beforeAll(async () => {
  p = await TestPlatform.start();
});
afterAll(() => p.close());

const projects = (orgId = p.org.orgId) => `/v1/orgs/${orgId}/projects`;
const WAIT = 'Wait for the deployment in progress to finish.';
const NOT_ALL = "Couldn't remove all of the project's resources. Try again.";
const DELETING = 'This project is being deleted. Delete it again to finish.';
const TRANSFERRING = 'This project is being transferred. Run the transfer again to finish it.';

/** A project with one of everything that belongs to it. */
async function fullProject(orgId = p.org.orgId, token = p.owner.token) {
  const repoId = await addRepo(orgId, 'kept');
  const prj = await createProject(p, { repoId }, orgId, token);
  const { projectId } = prj;
  const production = await addDeployment(orgId, projectId, { target: 'production' });
  const preview = await addDeployment(orgId, projectId, { target: 'preview', status: 'error' });
  await setProduction(orgId, projectId, production.deploymentId);
  await addDomain(orgId, projectId, `${prj.slug}.example.com`);
  await addDomain(orgId, projectId, `www.${prj.slug}.example.com`, { redirectTo: `${prj.slug}.example.com` });
  await putRecord(orgId, `CRON#${projectId}#nightly`, { projectId, schedule: '0 3 * * *', path: '/api/cron' });
  // A server function record in the deployments group's layout (shared/domains/deployments/records.ts).
  await putRecord(orgId, `FN#${projectId}#${production.deploymentId}`, {
    orgId,
    projectId,
    deploymentId: production.deploymentId,
    name: `fn-${production.deploymentId}`,
    region: 'eu-central-1',
    createdAt: Date.now(),
  });
  await putRecord(orgId, `ROUTE#${projectId}#${prj.slug}.localhost`, {
    projectId,
    deploymentId: production.deploymentId,
  });
  const env = await p.post(
    `${projects(orgId)}/${projectId}/env`,
    {
      vars: [
        { key: 'VISIBLE', value: 'shown' },
        { key: 'SHARED', value: 'both' },
      ],
      targets: ['production', 'preview'],
      sensitive: false,
    },
    { token },
  );
  expect(env.status).toBe(200);
  const secret = await p.put(
    `${projects(orgId)}/${projectId}/env/API_TOKEN`,
    { value: 'hidden-token', targets: ['production'] },
    { token },
  );
  expect(secret.status).toBe(200);
  return { ...prj, repoId, production, preview };
}

const ownSk = (projectId: string, deployments: string[], hosts: string[]) => [
  `PRJ#${projectId}`,
  `CRON#${projectId}#nightly`,
  `ENV#${projectId}#VISIBLE`,
  `ENV#${projectId}#SHARED`,
  `ENV#${projectId}#API_TOKEN`,
  ...deployments.map((d) => `DPL#${d}`),
  `FN#${projectId}#${deployments[0]}`,
  ...hosts.map((h) => `DOM#${h}`),
];

describe('DELETE /v1/orgs/:orgId/projects/:projectId', () => {
  it('removes the project and what belongs to it, unlinks storage, keeps the repository', async () => {
    const prj = await fullProject();
    const other = await createProject(p);
    await addDomain(p.org.orgId, other.projectId, `${other.slug}.example.com`);
    const database = await addStorage(p.org.orgId, 'database', prj.projectId);
    const bucket = await addStorage(p.org.orgId, 'bucket', prj.projectId, 'error');
    const othersBucket = await addStorage(p.org.orgId, 'bucket', other.projectId);

    const res = await p.delete(`${projects()}/${prj.projectId}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');

    expect((await p.get(`${projects()}/${prj.projectId}`)).status).toBe(404);
    const gone = [
      ...ownSk(
        prj.projectId,
        [prj.production.deploymentId, prj.preview.deploymentId],
        [`${prj.slug}.example.com`, `www.${prj.slug}.example.com`],
      ),
      `ROUTE#${prj.projectId}#${prj.slug}.localhost`,
      `PRJSLUG#${prj.slug}`,
    ];
    for (const sk of gone) expect([sk, await readRecord(p.org.orgId, sk)]).toEqual([sk, undefined]);

    for (const id of [database, bucket]) {
      const type = id === database ? 'database' : 'bucket';
      const record = await readRecord(p.org.orgId, `RES#${type}#${id}`);
      expect(record).toBeDefined();
      expect(record).not.toHaveProperty('projectId');
      expect(record?.version).toBe(2);
    }
    expect((await readRecord(p.org.orgId, `RES#bucket#${othersBucket}`))?.projectId).toBe(other.projectId);
    expect(await readRecord(p.org.orgId, `DOM#${other.slug}.example.com`)).toBeDefined();
    expect(await readRecord(p.org.orgId, `RES#repository#${prj.repoId}`)).toBeDefined();
    // The slug is free again.
    expect((await p.post(projects(), { name: 'Again', slug: prj.slug })).status).toBe(201);
  });

  it('deletes a project that has nothing else', async () => {
    const prj = await createProject(p);
    expect((await p.delete(`${projects()}/${prj.projectId}`)).status).toBe(204);
    expect((await p.get(`${projects()}/${prj.projectId}`)).status).toBe(404);
  });

  it.each(['queued', 'building', 'deploying'] as const)(
    'refuses with 409 while a deployment is %s, and leaves the project as it was',
    async (status) => {
      const prj = await createProject(p);
      await addDeployment(p.org.orgId, prj.projectId, { status: 'ready' });
      await addDeployment(p.org.orgId, prj.projectId, { status });
      const res = await p.delete(`${projects()}/${prj.projectId}`);
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ error: WAIT });
      const after = await p.get(`${projects()}/${prj.projectId}`);
      expect(after.body.project).not.toHaveProperty('status');
      expect(after.body.deployments).toHaveLength(2);
      expect((await p.patch(`${projects()}/${prj.projectId}`, { name: 'Still usable' })).status).toBe(200);
    },
  );

  it('answers 502 when a part fails, stays "deleting", and the retry finishes the job', async () => {
    const prj = await fullProject();
    // A bucket still being created can't be unlinked yet: its provisioner writes the record next.
    const bucket = await addStorage(p.org.orgId, 'bucket', prj.projectId, 'creating');
    const url = `${projects()}/${prj.projectId}`;

    const failed = await p.delete(url);
    expect(failed.status).toBe(502);
    expect(failed.body).toEqual({ error: NOT_ALL });

    // Everything else went; the project is still there, marked, for the retry.
    const left = await p.get(url);
    expect(left.status).toBe(200);
    expect(left.body.project.status).toBe('deleting');
    expect(left.body.deployments).toEqual([]);
    expect(left.body.domains).toEqual([]);
    expect((await p.get(`${url}/env`)).body.vars).toEqual([]);
    expect(await readRecord(p.org.orgId, `CRON#${prj.projectId}#nightly`)).toBeUndefined();
    expect((await readRecord(p.org.orgId, `RES#bucket#${bucket}`))?.projectId).toBe(prj.projectId);
    const listed = (await p.get(projects())).body.projects.find((x: any) => x.projectId === prj.projectId);
    expect(listed.status).toBe('deleting');

    // Nothing new may be added to it meanwhile.
    const patch = await p.patch(url, { name: 'No' });
    expect(patch.status).toBe(409);
    expect(patch.body).toEqual({ error: DELETING });
    const env = await p.put(`${url}/env/LATE`, { value: 'x', targets: ['preview'] });
    expect(env.status).toBe(409);
    expect(env.body).toEqual({ error: DELETING });
    const other = await p.newOrg();
    await addMember(other.org.orgId, p.owner.email, 'admin');
    const transfer = await p.post(`${url}/transfer`, { orgId: other.org.orgId });
    expect(transfer.status).toBe(409);
    expect(transfer.body).toEqual({ error: DELETING });

    // The bucket's creation finishes; deleting again completes.
    await putRecord(p.org.orgId, `RES#bucket#${bucket}`, {
      ...(await readRecord(p.org.orgId, `RES#bucket#${bucket}`)),
      status: 'active',
    });
    const retried = await p.delete(url);
    expect(retried.status).toBe(204);
    expect((await p.get(url)).status).toBe(404);
    expect(await readRecord(p.org.orgId, `RES#bucket#${bucket}`)).not.toHaveProperty('projectId');
    expect(await readRecord(p.org.orgId, `PRJSLUG#${prj.slug}`)).toBeUndefined();
  });

  it('answers 502 when the table fails part-way, and the retry finishes the job', async () => {
    const prj = await fullProject();
    const undo = failNthCall('BatchWriteItemCommand', 2);
    let failed: Awaited<ReturnType<typeof p.delete>>;
    try {
      failed = await p.delete(`${projects()}/${prj.projectId}`);
    } finally {
      undo();
    }
    expect(failed.status).toBe(502);
    expect(failed.body).toEqual({ error: NOT_ALL });
    expect((await p.delete(`${projects()}/${prj.projectId}`)).status).toBe(204);
    for (const sk of ownSk(prj.projectId, [prj.production.deploymentId], [])) {
      expect([sk, await readRecord(p.org.orgId, sk)]).toEqual([sk, undefined]);
    }
  });

  it('lets two deletes at once both succeed', async () => {
    const prj = await fullProject();
    const both = await Promise.all([
      p.delete(`${projects()}/${prj.projectId}`),
      p.delete(`${projects()}/${prj.projectId}`),
    ]);
    expect(both.map((r) => r.status).sort()).toEqual([204, 204]);
  });

  it('refuses a project whose transfer is unfinished with 409', async () => {
    const prj = await createProject(p);
    await putRecord(p.org.orgId, `PRJ#${prj.projectId}`, {
      ...(await readRecord(p.org.orgId, `PRJ#${prj.projectId}`)),
      status: 'transferring',
      transferTo: someId('org_'),
    });
    const res = await p.delete(`${projects()}/${prj.projectId}`);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: TRANSFERRING });
  });

  it('answers 404 Project not found for an unknown project', async () => {
    const res = await p.delete(`${projects()}/${someId('prj_')}`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Project not found' });
  });

  it('answers 404 Organization not found for an unknown organization', async () => {
    const res = await p.delete(`${projects(someId('org_'))}/${someId('prj_')}`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Organization not found' });
  });
});

describe('POST /v1/orgs/:orgId/projects/:projectId/transfer', () => {
  /** Another organization the owner of this file's organization administers. */
  async function target(role: 'admin' | 'owner' | 'developer' = 'admin') {
    const other = await p.newOrg();
    await addMember(other.org.orgId, p.owner.email, role);
    return other.org;
  }

  it('moves deployments, domains, variables (re-encrypted) and crons; disconnects the repository', async () => {
    const prj = await fullProject();
    const to = await target();
    const before = {
      production: envHash(await resolveEnv(p.org.orgId, prj.projectId, 'production')),
      preview: envHash(await resolveEnv(p.org.orgId, prj.projectId, 'preview')),
    };
    const oldSecret = (await readRecord(p.org.orgId, `ENV#${prj.projectId}#API_TOKEN`))?.secret;

    const res = await p.post(`${projects()}/${prj.projectId}/transfer`, { orgId: to.orgId });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      project: expect.objectContaining({ projectId: prj.projectId, orgId: to.orgId, slug: prj.slug }),
      org: { orgId: to.orgId, slug: to.slug },
    });
    expect(res.body.project).not.toHaveProperty('repoId');
    expect(res.body.project).not.toHaveProperty('status');

    // Gone from here; the repository stays here.
    expect((await p.get(`${projects()}/${prj.projectId}`)).status).toBe(404);
    const hosts = [`${prj.slug}.example.com`, `www.${prj.slug}.example.com`];
    const deployments = [prj.production.deploymentId, prj.preview.deploymentId];
    for (const sk of [...ownSk(prj.projectId, deployments, hosts), `PRJSLUG#${prj.slug}`]) {
      expect([sk, await readRecord(p.org.orgId, sk)]).toEqual([sk, undefined]);
    }
    expect(await readRecord(p.org.orgId, `RES#repository#${prj.repoId}`)).toBeDefined();

    // There, with everything.
    const there = await p.get(`${projects(to.orgId)}/${prj.projectId}`);
    expect(there.status).toBe(200);
    expect(there.body.deployments.map((d: any) => d.deploymentId).sort()).toEqual([...deployments].sort());
    for (const d of there.body.deployments) expect(d.orgId).toBe(to.orgId);
    expect(there.body.production.deploymentId).toBe(prj.production.deploymentId);
    expect(there.body.domains.map((d: any) => d.hostname).sort()).toEqual([...hosts].sort());
    expect(there.body).not.toHaveProperty('repo');
    for (const sk of ownSk(prj.projectId, deployments, hosts)) {
      expect([sk, (await readRecord(to.orgId, sk))?.orgId]).toEqual([sk, to.orgId]);
    }
    expect(await readRecord(to.orgId, `ROUTE#${prj.projectId}#${prj.slug}.localhost`)).toBeDefined();

    const env = await p.get(`${projects(to.orgId)}/${prj.projectId}/env`);
    expect(env.body.vars.map((v: any) => [v.key, v.value, v.orgId])).toEqual([
      ['API_TOKEN', null, to.orgId],
      ['SHARED', 'both', to.orgId],
      ['VISIBLE', 'shown', to.orgId],
    ]);
    // Same variables, new ciphertexts bound to the new organization.
    expect(envHash(await resolveEnv(to.orgId, prj.projectId, 'production'))).toBe(before.production);
    expect(envHash(await resolveEnv(to.orgId, prj.projectId, 'preview'))).toBe(before.preview);
    const newSecret = (await readRecord(to.orgId, `ENV#${prj.projectId}#API_TOKEN`))?.secret;
    expect(newSecret).not.toBe(oldSecret);
    await expect(secrets().decrypt(envContext(to.orgId, prj.projectId), [oldSecret])).rejects.toBeInstanceOf(
      SecretDecryptError,
    );

    // The slug is free here and taken there.
    expect((await p.post(projects(), { name: 'Reuse', slug: prj.slug })).status).toBe(201);
    expect((await p.post(projects(to.orgId), { name: 'Clash', slug: prj.slug })).status).toBe(409);
  });

  it('finishes a transfer that stopped part-way when it is run again', async () => {
    const prj = await fullProject();
    const to = await target();
    const url = `${projects()}/${prj.projectId}/transfer`;
    // The table fails on the third transaction: the reservation and the variables have moved.
    const undo = failNthCall('TransactWriteItemsCommand', 3);
    let first: Awaited<ReturnType<typeof p.post>>;
    try {
      first = await p.post(url, { orgId: to.orgId });
    } finally {
      undo();
    }
    expect(first.status).toBe(502);
    expect(first.body).toEqual({ error: 'The backend request failed. Try again.' });
    const stuck = await p.get(`${projects()}/${prj.projectId}`);
    expect(stuck.body.project.status).toBe('transferring');
    expect((await p.get(`${projects(to.orgId)}/${prj.projectId}/env`)).status).toBe(404);

    // Meanwhile it can't go elsewhere, nor be changed.
    const elsewhere = await p.post(url, { orgId: (await target()).orgId });
    expect(elsewhere.status).toBe(409);
    expect(elsewhere.body).toEqual({ error: TRANSFERRING });
    const patch = await p.patch(`${projects()}/${prj.projectId}`, { name: 'No' });
    expect(patch.body).toEqual({ error: TRANSFERRING });

    const again = await p.post(url, { orgId: to.orgId });
    expect(again.status).toBe(200);
    const there = await p.get(`${projects(to.orgId)}/${prj.projectId}`);
    expect(there.body.deployments).toHaveLength(2);
    const env = await p.get(`${projects(to.orgId)}/${prj.projectId}/env`);
    expect(env.body.vars.map((v: any) => [v.key, v.value])).toEqual([
      ['API_TOKEN', null],
      ['SHARED', 'both'],
      ['VISIBLE', 'shown'],
    ]);
    expect((await p.get(`${projects()}/${prj.projectId}`)).status).toBe(404);
  });

  it('refuses the same organization with 400 The project is already in this organization.', async () => {
    const prj = await createProject(p);
    const res = await p.post(`${projects()}/${prj.projectId}/transfer`, { orgId: p.org.orgId });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'The project is already in this organization.' });
  });

  it('refuses with 409 while databases or buckets are linked, and changes nothing', async () => {
    for (const type of ['database', 'bucket'] as const) {
      const prj = await createProject(p);
      await addStorage(p.org.orgId, type, prj.projectId);
      const to = await target();
      const res = await p.post(`${projects()}/${prj.projectId}/transfer`, { orgId: to.orgId });
      expect(res.status).toBe(409);
      expect(res.body).toEqual({
        error: "Unlink this project's databases and buckets first. They stay in this organization.",
      });
      expect((await p.get(`${projects()}/${prj.projectId}`)).body.project).not.toHaveProperty('status');
      expect(await readRecord(to.orgId, `PRJSLUG#${prj.slug}`)).toBeUndefined();
    }
  });

  it('refuses with 409 while a deployment is in progress', async () => {
    const prj = await createProject(p);
    await addDeployment(p.org.orgId, prj.projectId, { status: 'building' });
    const res = await p.post(`${projects()}/${prj.projectId}/transfer`, { orgId: (await target()).orgId });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: WAIT });
  });

  it('refuses with 409 when the target has a project with the slug, and works once renamed', async () => {
    const prj = await createProject(p);
    const to = await target();
    await p.post(projects(to.orgId), { name: 'Theirs', slug: prj.slug });
    const url = `${projects()}/${prj.projectId}/transfer`;
    const res = await p.post(url, { orgId: to.orgId });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: 'Test organization already has a project with this slug. Rename it first.' });
    expect((await p.get(`${projects()}/${prj.projectId}`)).body.project).not.toHaveProperty('status');

    const slug = `${prj.slug}-2`;
    expect((await p.patch(`${projects()}/${prj.projectId}`, { slug })).status).toBe(200);
    const moved = await p.post(url, { orgId: to.orgId });
    expect(moved.status).toBe(200);
    expect(moved.body.project.slug).toBe(slug);
  });

  it('needs org:write in the target too: a developer there gets 403 Missing scope org:write', async () => {
    const prj = await createProject(p);
    const to = await target('developer');
    const res = await p.post(`${projects()}/${prj.projectId}/transfer`, { orgId: to.orgId });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: 'Missing scope org:write' });
  });

  it('is refused to a developer of the source with 403 Missing scope org:write', async () => {
    const prj = await createProject(p);
    const developer = await p.person('developer');
    const res = await p.post(
      `${projects()}/${prj.projectId}/transfer`,
      { orgId: (await target()).orgId },
      { token: developer.token },
    );
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: 'Missing scope org:write' });
  });

  it.each([
    ['an unknown organization', async () => someId('org_')],
    ['an organization the caller does not belong to', async () => (await p.newOrg()).org.orgId],
    ['a malformed organization id', async () => 'acme'],
  ])('answers 404 Organization not found for %s as the target', async (_what, orgId) => {
    const prj = await createProject(p);
    const res = await p.post(`${projects()}/${prj.projectId}/transfer`, { orgId: await orgId() });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Organization not found' });
  });

  it('answers 404 Organization not found when the target is being deleted', async () => {
    const prj = await createProject(p);
    const to = await target();
    await putRecord(to.orgId, 'ORG', { ...to, status: 'deleting' });
    const res = await p.post(`${projects()}/${prj.projectId}/transfer`, { orgId: to.orgId });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Organization not found' });
    expect((await p.get(`${projects()}/${prj.projectId}`)).body.project).not.toHaveProperty('status');
  });

  it('answers 404 Project not found for an unknown project', async () => {
    const res = await p.post(`${projects()}/${someId('prj_')}/transfer`, { orgId: (await target()).orgId });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Project not found' });
  });

  it.each([[{}], [{ orgId: '' }], [{ orgId: 5 }]])('refuses %j with 400 Invalid request', async (body) => {
    const prj = await createProject(p);
    const res = await p.post(`${projects()}/${prj.projectId}/transfer`, body);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('Invalid request');
  });
});
