import { FUNCTION_CONFIG } from '../../shared/ports/runtime/port';
import { TestPlatform } from '../helpers/platform';
import { putRecord, someId } from '../helpers/records';
import {
  addDeployment,
  addDomain,
  addRepo,
  countDynamoCalls,
  createProject,
  readRecord,
  setProduction,
} from './fixtures';

let p: TestPlatform;
beforeAll(async () => {
  p = await TestPlatform.start();
});
afterAll(() => p.close());

const base = () => `/v1/orgs/${p.org.orgId}/projects`;
const uniqueSlug = (prefix = 's') => `${prefix}-${someId('').slice(-14)}`;

describe('POST /v1/orgs/:orgId/projects', () => {
  it('creates a project with the defaults: nextjs, root ".", the registry default location', async () => {
    const slug = uniqueSlug();
    const res = await p.post(base(), { name: '  My App  ', slug });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      project: {
        projectId: expect.stringMatching(/^prj_[0-9a-z]{26}$/),
        orgId: p.org.orgId,
        name: 'My App',
        slug,
        createdBy: p.owner.userId,
        createdAt: expect.any(Number),
        updatedAt: expect.any(Number),
        productionBranch: 'main',
        framework: 'nextjs',
        rootDirectory: '.',
        location: 'fra',
        version: 1,
      },
      deployment: null,
    });
  });

  it('takes framework, rootDirectory (trimmed), location and a repository of the organization', async () => {
    const repoId = await addRepo(p.org.orgId, 'web');
    const res = await p.post(base(), {
      name: 'Linked',
      slug: uniqueSlug(),
      repoId,
      framework: 'static',
      rootDirectory: '  apps/web ',
      location: 'dub',
    });
    expect(res.status).toBe(201);
    expect(res.body.project).toMatchObject({ repoId, framework: 'static', rootDirectory: 'apps/web', location: 'dub' });
    expect(res.body.deployment).toBeNull();
  });

  it('names the API key that created it in createdBy', async () => {
    const key = await p.apiKey(['projects:write']);
    const res = await p.post(base(), { name: 'By key', slug: uniqueSlug() }, { token: key });
    expect(res.status).toBe(201);
    expect(res.body.project.createdBy).toMatch(/^key_[0-9a-z]{26}$/);
  });

  it.each([
    ['an unknown id', () => someId('res_')],
    ['an id that is not a resource id', () => 'nope'],
    ['an empty id', () => ''],
  ])('refuses %s as repoId with 400 Repository not found in this organization.', async (_what, id) => {
    const res = await p.post(base(), { name: 'X', slug: uniqueSlug(), repoId: id() });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'Repository not found in this organization.' });
  });

  it("refuses another organization's repository with 400", async () => {
    const other = await p.newOrg();
    const repoId = await addRepo(other.org.orgId);
    const res = await p.post(base(), { name: 'X', slug: uniqueSlug(), repoId });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'Repository not found in this organization.' });
  });

  it('refuses a repository that is being deleted with 400', async () => {
    const repoId = await addRepo(p.org.orgId);
    await putRecord(p.org.orgId, `RES#repository#${repoId}`, { resourceId: repoId, name: 'x', status: 'deleting' });
    const res = await p.post(base(), { name: 'X', slug: uniqueSlug(), repoId });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'Repository not found in this organization.' });
  });

  it('refuses an unknown location with 400 Unknown location: X', async () => {
    const res = await p.post(base(), { name: 'X', slug: uniqueSlug(), location: 'mars-1' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'Unknown location: mars-1' });
  });

  it('refuses a slug in use with 409 A project with this slug exists.', async () => {
    const slug = uniqueSlug();
    expect((await p.post(base(), { name: 'One', slug })).status).toBe(201);
    const res = await p.post(base(), { name: 'Two', slug });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: 'A project with this slug exists.' });
  });

  it('lets another organization use the same slug', async () => {
    const slug = uniqueSlug();
    const other = await p.newOrg();
    expect((await p.post(base(), { name: 'One', slug })).status).toBe(201);
    const res = await p.post(
      `/v1/orgs/${other.org.orgId}/projects`,
      { name: 'One', slug },
      { token: other.owner.token },
    );
    expect(res.status).toBe(201);
  });

  it('gives 50 parallel creates of one slug exactly one 201; the others 409', async () => {
    const slug = uniqueSlug('race');
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => p.post(base(), { name: `Racer ${i}`, slug })),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(49);
    for (const r of results.filter((x) => x.status === 409)) {
      expect(r.body).toEqual({ error: 'A project with this slug exists.' });
    }
    const list = await p.get(base());
    expect(list.body.projects.filter((x: { slug: string }) => x.slug === slug)).toHaveLength(1);
  });

  it('answers 404 Organization not found while the organization is being deleted', async () => {
    const { org, owner } = await p.newOrg();
    await putRecord(org.orgId, 'ORG', { ...org, status: 'deleting' });
    const res = await p.post(
      `/v1/orgs/${org.orgId}/projects`,
      { name: 'X', slug: uniqueSlug() },
      { token: owner.token },
    );
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Organization not found' });
  });

  it('answers 404 Organization not found for an unknown organization', async () => {
    const res = await p.post(`/v1/orgs/${someId('org_')}/projects`, { name: 'X', slug: uniqueSlug() });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Organization not found' });
  });

  it.each([
    [{ slug: 'ok-slug' }, 'name'],
    [{ name: '', slug: 'ok-slug' }, 'name'],
    [{ name: '   ', slug: 'ok-slug' }, 'name'],
    [{ name: 'x'.repeat(65), slug: 'ok-slug' }, 'name'],
    [{ name: 'X' }, 'slug'],
    [{ name: 'X', slug: 'a' }, 'slug'],
    [{ name: 'X', slug: 'a'.repeat(41) }, 'slug'],
    [{ name: 'X', slug: 'Upper' }, 'slug'],
    [{ name: 'X', slug: '-lead' }, 'slug'],
    [{ name: 'X', slug: 'trail-' }, 'slug'],
    [{ name: 'X', slug: 'under_score' }, 'slug'],
    [{ name: 'X', slug: 'ok-slug', framework: 'rails' }, 'framework'],
    [{ name: 'X', slug: 'ok-slug', rootDirectory: 'd'.repeat(257) }, 'rootDirectory'],
    [{ name: 'X', slug: 'ok-slug', repoId: 42 }, 'repoId'],
  ])('refuses %j with 400 Invalid request naming %s', async (body, path) => {
    const res = await p.post(base(), body);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('Invalid request');
    expect(res.body.issues).toEqual(expect.arrayContaining([expect.objectContaining({ path })]));
  });

  it('accepts the slug limits: 2 and 40 characters, digits at the ends', async () => {
    for (const slug of ['a9', `0${'x'.repeat(38)}1`]) {
      const res = await p.post(base(), { name: 'Edge', slug });
      expect(res.status).toBe(201);
      expect(res.body.project.slug).toBe(slug);
    }
  });
});

describe('GET /v1/orgs/:orgId/projects', () => {
  it('lists the projects by name', async () => {
    const { org, owner } = await p.newOrg();
    for (const name of ['beta', 'Alpha', 'gamma']) await createProject(p, { name }, org.orgId, owner.token);
    const res = await p.get(`/v1/orgs/${org.orgId}/projects`, { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.body.projects.map((x: { name: string }) => x.name)).toEqual(['Alpha', 'beta', 'gamma']);
    expect(res.body.projects[0]).not.toHaveProperty('latest');
    expect(res.body.projects[0]).not.toHaveProperty('pk');
  });

  it('answers an empty list for an organization without projects', async () => {
    const { org, owner } = await p.newOrg();
    const res = await p.get(`/v1/orgs/${org.orgId}/projects`, { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ projects: [] });
  });

  it('with include=summary adds latest, production, productionHost, repo and domains', async () => {
    const { org, owner } = await p.newOrg();
    const repoId = await addRepo(org.orgId, 'site');
    const full = await createProject(p, { name: 'A full', repoId }, org.orgId, owner.token);
    const bare = await createProject(p, { name: 'B bare' }, org.orgId, owner.token);
    const prod = await addDeployment(org.orgId, full.projectId, { target: 'production' });
    const latest = await addDeployment(org.orgId, full.projectId, { target: 'preview', status: 'building' });
    await setProduction(org.orgId, full.projectId, prod.deploymentId);
    await addDomain(org.orgId, full.projectId, 'www.example.com', { status: 'active' });
    await addDomain(org.orgId, full.projectId, 'example.com', { status: 'pending', redirectTo: 'www.example.com' });

    const res = await p.get(`/v1/orgs/${org.orgId}/projects?include=summary`, { token: owner.token });
    expect(res.status).toBe(200);
    const [a, b] = res.body.projects;
    expect(a).toMatchObject({
      projectId: full.projectId,
      productionDeploymentId: prod.deploymentId,
      latest: { deploymentId: latest.deploymentId, status: 'building', projectId: full.projectId },
      production: { deploymentId: prod.deploymentId, target: 'production' },
      productionHost: `${full.slug}.localhost`,
      repo: { resourceId: repoId, name: 'site' },
    });
    expect(a.latest).not.toHaveProperty('gsi1pk');
    expect(a.domains).toEqual(
      expect.arrayContaining([
        { hostname: 'www.example.com', status: 'active' },
        { hostname: 'example.com', status: 'pending', redirectTo: 'www.example.com' },
      ]),
    );
    expect(a.domains).toHaveLength(2);
    expect(b).toMatchObject({ projectId: bare.projectId, domains: [] });
    for (const field of ['latest', 'production', 'productionHost', 'repo']) expect(b).not.toHaveProperty(field);
  });

  it('reads summaries in a bounded number of DynamoDB calls, whatever the number of projects', async () => {
    const measure = async (projects: number) => {
      const { org, owner } = await p.newOrg();
      for (let i = 0; i < projects; i++) {
        const repoId = await addRepo(org.orgId, `r${i}`);
        const prj = await createProject(p, { name: `P${i}`, repoId }, org.orgId, owner.token);
        const d = await addDeployment(org.orgId, prj.projectId, { target: 'production' });
        await setProduction(org.orgId, prj.projectId, d.deploymentId);
        await addDeployment(org.orgId, prj.projectId);
        await addDomain(org.orgId, prj.projectId, `${prj.slug}.example.com`);
      }
      let body: any;
      const calls = await countDynamoCalls(async () => {
        body = (await p.get(`/v1/orgs/${org.orgId}/projects?include=summary`, { token: owner.token })).body;
      });
      expect(body.projects).toHaveLength(projects);
      for (const x of body.projects) expect(x).toHaveProperty('latest');
      return calls;
    };
    const few = await measure(2);
    const many = await measure(12);
    expect(many).toEqual(few);
    // One BatchGet authorizes, one query reads the projects, one the domains, one BatchGet the rest.
    expect(many).toEqual({ BatchGetItemCommand: 2, QueryCommand: 2 });
  });

  it('refuses an unknown include with 400 Invalid request', async () => {
    const res = await p.get(`${base()}?include=everything`);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('Invalid request');
  });

  it('is open to keys holding deployments:read or domains:read instead of projects:read', async () => {
    for (const scope of ['deployments:read', 'domains:read'] as const) {
      const res = await p.get(base(), { token: await p.apiKey([scope]) });
      expect(res.status).toBe(200);
    }
  });

  it('answers 404 Organization not found for an unknown organization', async () => {
    const res = await p.get(`/v1/orgs/${someId('org_')}/projects`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Organization not found' });
  });

  it('answers 404 Not found for a path under projects that is no route', async () => {
    const res = await p.get(`${base()}/${someId('prj_')}/nothing-here`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Not found' });
  });
});

describe('GET /v1/orgs/:orgId/projects/:projectId', () => {
  it('answers the project with its most recent deployments, production, repo, domains and functionConfig', async () => {
    const repoId = await addRepo(p.org.orgId, 'shop');
    const prj = await createProject(p, { repoId });
    const made = [];
    for (let i = 0; i < 12; i++) made.push(await addDeployment(p.org.orgId, prj.projectId, { branch: `b${i}` }));
    await setProduction(p.org.orgId, prj.projectId, (made[3] as { deploymentId: string }).deploymentId);
    await addDomain(p.org.orgId, prj.projectId, `${prj.slug}.shop.example`, { status: 'verifying' });

    const res = await p.get(`${base()}/${prj.projectId}`);
    expect(res.status).toBe(200);
    expect(res.body.project).toMatchObject({ projectId: prj.projectId, repoId, version: 1 });
    expect(res.body.deployments.map((d: { deploymentId: string }) => d.deploymentId)).toEqual(
      made
        .slice(2)
        .reverse()
        .map((d) => d.deploymentId),
    );
    expect(res.body.production).toMatchObject({ deploymentId: made[3]?.deploymentId, branch: 'b3' });
    expect(res.body.productionHost).toBe(`${prj.slug}.localhost`);
    expect(res.body.repo).toEqual({ resourceId: repoId, name: 'shop' });
    expect(res.body.domains).toEqual([
      { hostname: `${prj.slug}.shop.example`, orgId: p.org.orgId, projectId: prj.projectId, status: 'verifying' },
    ]);
    expect(res.body.functionConfig).toEqual({
      memoryMb: 1024,
      timeoutSeconds: 30,
      architecture: 'arm64',
      runtime: 'nodejs22.x',
    });
    expect(res.body.functionConfig).toEqual(FUNCTION_CONFIG);
  });

  it('answers a new project with no deployments and no production', async () => {
    const prj = await createProject(p);
    const res = await p.get(`${base()}/${prj.projectId}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      project: expect.objectContaining({ projectId: prj.projectId }),
      deployments: [],
      domains: [],
      functionConfig: FUNCTION_CONFIG,
    });
  });

  it('leaves repo out when the linked repository no longer exists', async () => {
    const prj = await createProject(p, { repoId: await addRepo(p.org.orgId) });
    await putRecord(p.org.orgId, `PRJ#${prj.projectId}`, {
      ...(await readRecord(p.org.orgId, `PRJ#${prj.projectId}`)),
      repoId: someId('res_'),
    });
    const res = await p.get(`${base()}/${prj.projectId}`);
    expect(res.status).toBe(200);
    expect(res.body).not.toHaveProperty('repo');
  });

  it('is open to a key holding only domains:read', async () => {
    const prj = await createProject(p);
    const res = await p.get(`${base()}/${prj.projectId}`, { token: await p.apiKey(['domains:read']) });
    expect(res.status).toBe(200);
  });

  it.each([
    ['an unknown project', () => someId('prj_')],
    ['an id that is no project id', () => 'something-else'],
  ])('answers 404 Project not found for %s', async (_what, id) => {
    const res = await p.get(`${base()}/${id()}`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Project not found' });
  });

  it("answers 404 Project not found for another organization's project id", async () => {
    const other = await p.newOrg();
    const theirs = await createProject(p, {}, other.org.orgId, other.owner.token);
    const res = await p.get(`${base()}/${theirs.projectId}`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Project not found' });
  });

  it('answers 404 Organization not found for an unknown organization', async () => {
    const res = await p.get(`/v1/orgs/${someId('org_')}/projects/${someId('prj_')}`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Organization not found' });
  });
});

describe('PATCH /v1/orgs/:orgId/projects/:projectId', () => {
  it('changes every field and bumps the version', async () => {
    const prj = await createProject(p);
    const slug = uniqueSlug('renamed');
    const res = await p.patch(`${base()}/${prj.projectId}`, {
      name: ' Renamed ',
      slug,
      framework: 'node',
      productionBranch: ' release ',
      rootDirectory: ' server ',
      buildCommand: 'npm run build:prod',
      installCommand: 'npm ci',
      outputDirectory: 'dist',
      location: 'iad',
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      project: expect.objectContaining({
        projectId: prj.projectId,
        name: 'Renamed',
        slug,
        framework: 'node',
        productionBranch: 'release',
        rootDirectory: 'server',
        buildCommand: 'npm run build:prod',
        installCommand: 'npm ci',
        outputDirectory: 'dist',
        location: 'iad',
        version: 2,
      }),
    });
    const again = await p.get(`${base()}/${prj.projectId}`);
    expect(again.body.project).toEqual(res.body.project);
  });

  it('frees the old slug and takes the new one', async () => {
    const a = await createProject(p);
    const newSlug = uniqueSlug();
    expect((await p.patch(`${base()}/${a.projectId}`, { slug: newSlug })).status).toBe(200);
    expect((await p.post(base(), { name: 'Reuse', slug: a.slug })).status).toBe(201);
    const taken = await p.post(base(), { name: 'Clash', slug: newSlug });
    expect(taken.status).toBe(409);
  });

  it('clears build settings with null or an empty string', async () => {
    const prj = await createProject(p);
    await p.patch(`${base()}/${prj.projectId}`, { buildCommand: 'make', installCommand: 'x', outputDirectory: 'out' });
    const res = await p.patch(`${base()}/${prj.projectId}`, {
      buildCommand: null,
      installCommand: '',
      outputDirectory: '  ',
    });
    expect(res.status).toBe(200);
    for (const field of ['buildCommand', 'installCommand', 'outputDirectory']) {
      expect(res.body.project).not.toHaveProperty(field);
    }
  });

  it('links a repository of the organization, answering deployment: null, and unlinks it with null', async () => {
    const prj = await createProject(p);
    const repoId = await addRepo(p.org.orgId, 'linked');
    const linked = await p.patch(`${base()}/${prj.projectId}`, { repoId });
    expect(linked.status).toBe(200);
    expect(linked.body).toEqual({ project: expect.objectContaining({ repoId }), deployment: null });
    expect((await p.get(`${base()}/${prj.projectId}`)).body.repo).toEqual({ resourceId: repoId, name: 'linked' });

    const unlinked = await p.patch(`${base()}/${prj.projectId}`, { repoId: null });
    expect(unlinked.status).toBe(200);
    expect(unlinked.body).toEqual({ project: expect.not.objectContaining({ repoId }) });
    expect(unlinked.body.project).not.toHaveProperty('repoId');
    expect(await readRecord(p.org.orgId, `RES#repository#${repoId}`)).toBeDefined();
  });

  it('answers an empty change with the project as it is', async () => {
    const prj = await createProject(p);
    const res = await p.patch(`${base()}/${prj.projectId}`, {});
    expect(res.status).toBe(200);
    expect(res.body.project.version).toBe(1);
  });

  it("refuses another organization's repository with 400 Repository not found in this organization.", async () => {
    const prj = await createProject(p);
    const other = await p.newOrg();
    for (const repoId of [await addRepo(other.org.orgId), someId('res_'), 'x']) {
      const res = await p.patch(`${base()}/${prj.projectId}`, { repoId, name: 'Not applied' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'Repository not found in this organization.' });
    }
    expect((await p.get(`${base()}/${prj.projectId}`)).body.project).toMatchObject({ name: prj.name, version: 1 });
  });

  it('refuses an unknown location with 400 Unknown location: X', async () => {
    const prj = await createProject(p);
    const res = await p.patch(`${base()}/${prj.projectId}`, { location: 'atlantis' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'Unknown location: atlantis' });
  });

  it('refuses a slug in use with 409 A project with this slug exists.', async () => {
    const a = await createProject(p);
    const b = await createProject(p);
    const res = await p.patch(`${base()}/${b.projectId}`, { slug: a.slug, name: 'Not applied' });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: 'A project with this slug exists.' });
    expect((await p.get(`${base()}/${b.projectId}`)).body.project).toMatchObject({ slug: b.slug, name: b.name });
  });

  it('refuses a stale ifVersion with 409', async () => {
    const prj = await createProject(p);
    expect((await p.patch(`${base()}/${prj.projectId}`, { name: 'One', ifVersion: 1 })).status).toBe(200);
    const res = await p.patch(`${base()}/${prj.projectId}`, { name: 'Two', ifVersion: 1 });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: 'The project changed since it was read. Reload and try again.' });
  });

  it('applies concurrent changes of different fields without losing one', async () => {
    const prj = await createProject(p);
    const [a, b] = await Promise.all([
      p.patch(`${base()}/${prj.projectId}`, { buildCommand: 'a' }),
      p.patch(`${base()}/${prj.projectId}`, { installCommand: 'b' }),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    const res = await p.get(`${base()}/${prj.projectId}`);
    expect(res.body.project).toMatchObject({ buildCommand: 'a', installCommand: 'b', version: 3 });
  });

  it.each([
    [{ name: '' }, 'name'],
    [{ slug: 'Bad Slug' }, 'slug'],
    [{ framework: 'django' }, 'framework'],
    [{ productionBranch: '   ' }, 'productionBranch'],
    [{ productionBranch: 'b'.repeat(256) }, 'productionBranch'],
    [{ rootDirectory: 'r'.repeat(257) }, 'rootDirectory'],
    [{ location: '' }, 'location'],
    [{ repoId: 7 }, 'repoId'],
    [{ buildCommand: 3 }, 'buildCommand'],
  ])('refuses %j with 400 Invalid request naming %s', async (body, path) => {
    const prj = await createProject(p);
    const res = await p.patch(`${base()}/${prj.projectId}`, body);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('Invalid request');
    expect(res.body.issues).toEqual(expect.arrayContaining([expect.objectContaining({ path })]));
  });

  it('answers 404 Project not found for an unknown project', async () => {
    const res = await p.patch(`${base()}/${someId('prj_')}`, { name: 'X' });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Project not found' });
  });

  it('answers 404 Organization not found for an unknown organization', async () => {
    const res = await p.patch(`/v1/orgs/${someId('org_')}/projects/${someId('prj_')}`, { name: 'X' });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Organization not found' });
  });
});
