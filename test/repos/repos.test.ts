import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TestPlatform } from '../helpers/platform';

/**
 * The repository routes of the repos group, through the local gateway on the local git port:
 * create (empty or with a first commit, a retry converging), list, availability, people, get,
 * patch, rename (the clone URL follows), protection, delete with its confirmation; and the same
 * records through /resources.
 */
let p: TestPlatform;
let n = 0;
const unique = (base = 'repo') => `${base}-${Date.now().toString(36)}-${(n++).toString(36)}`;
const repos = () => `/v1/orgs/${p.org.orgId}/repos`;

beforeAll(async () => {
  // This file's own data folder: one test makes its git folder unusable for a while.
  process.env.DATA_DIR = mkdtempSync(join(process.env.TEST_DATA_DIR as string, 'repos-'));
  p = await TestPlatform.start();
});
afterAll(() => p.close());

async function newRepo(body: Record<string, unknown> = {}) {
  const name = unique();
  const res = await p.post(repos(), { name, ...body });
  if (res.status !== 201) throw new Error(`create: ${res.status} ${res.text}`);
  return { name, repo: res.body.repo };
}

describe('POST /repos', () => {
  it('creates an empty repository: a resource with its default branch, empty, and a clone URL', async () => {
    const name = unique();
    const res = await p.post(repos(), { name, description: '  A service  ' });
    expect(res.status).toBe(201);
    expect(res.body.repo).toMatchObject({
      resourceId: expect.stringMatching(/^res_/),
      type: 'repository',
      name,
      status: 'active',
      description: 'A service',
      orgId: p.org.orgId,
      defaultBranch: 'main',
      empty: true,
      cloneUrl: `${p.baseUrl}/git/${p.org.orgId}/${name}.git`,
    });
    const got = await p.get(`${repos()}/${name}`);
    expect(got.body).toMatchObject({ branches: [], tags: [], empty: true, openIssues: 0, openPulls: 0 });
  });

  it('makes one first commit with a README, a .gitignore and a license when asked', async () => {
    const { name, repo } = await newRepo({ readme: true, gitignore: 'Node', license: 'MIT', defaultBranch: 'trunk' });
    expect(repo).toMatchObject({ defaultBranch: 'trunk', empty: false });
    const files = await p.get(`${repos()}/${name}/contents/files?ref=trunk`);
    expect(files.body.files.map((f: { path: string }) => f.path)).toEqual(['.gitignore', 'LICENSE', 'README.md']);
    const license = await p.get(`${repos()}/${name}/contents/raw?ref=trunk&path=LICENSE`);
    expect(license.text).toContain('Permission is hereby granted, free of charge');
    expect(license.text).toContain(`Copyright (c) ${new Date().getUTCFullYear()} Test owner`);
    const apache = await newRepo({ license: 'Apache-2.0' });
    const text = (await p.get(`${repos()}/${apache.name}/contents/raw?path=LICENSE`)).text;
    expect(text).toContain('Apache License');
    expect(text).toContain('END OF TERMS AND CONDITIONS');
    const commits = await p.get(`${repos()}/${name}/commits?ref=trunk`);
    expect(commits.body.commits).toHaveLength(1);
    expect(commits.body.commits[0]).toMatchObject({ message: 'Initial commit', parents: [] });
  });

  it('refuses a taken name (409), a bad name and unknown templates (400), an unknown location', async () => {
    const { name } = await newRepo();
    const taken = await p.post(repos(), { name });
    expect(taken.status).toBe(409);
    expect(taken.body).toEqual({ error: 'A repository with this name already exists.' });
    for (const bad of ['ab', 'Upper', '-start', 'end-', 'a'.repeat(41), 'with_underscore']) {
      expect((await p.post(repos(), { name: bad })).status).toBe(400);
    }
    expect((await p.post(repos(), { name: unique(), gitignore: 'Cobol' })).status).toBe(400);
    expect((await p.post(repos(), { name: unique(), license: 'GPL' })).status).toBe(400);
    expect((await p.post(repos(), { name: unique(), defaultBranch: '--force' })).status).toBe(400);
    const where = await p.post(repos(), { name: unique(), location: 'mars' });
    expect(where.status).toBe(400);
    expect(where.body).toEqual({ error: 'Unknown location: mars' });
  });

  it('a create that failed with 502 leaves the name to a retry, which finishes the repository', async () => {
    const name = unique();
    const gitDir = join(process.env.DATA_DIR as string, 'git');
    rmSync(gitDir, { recursive: true, force: true });
    // Where the repositories' folder must be, a file: the storage can't be made.
    writeFileSync(gitDir, 'not a folder');
    try {
      const failed = await p.post(repos(), { name, readme: true });
      expect(failed.status).toBe(502);
      expect(failed.body).toEqual({ error: 'Could not create the repository.' });
      expect((await p.get(`${repos()}/-/available?name=${name}`)).body.reason).toBe('taken');
    } finally {
      rmSync(gitDir, { force: true });
    }
    const retried = await p.post(repos(), { name, readme: true });
    expect(retried.status).toBe(201);
    expect(retried.body.repo).toMatchObject({ status: 'active', empty: false });
    expect(retried.body.repo.error).toBeUndefined();
    expect((await p.get(`${repos()}/${name}`)).body.branches).toEqual(['main']);
  });

  it('of 20 concurrent creates of one name, one is 201 and the others 409', async () => {
    const name = unique();
    const answers = await Promise.all(Array.from({ length: 20 }, () => p.post(repos(), { name })));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(19);
  });
});

describe('listing, availability, people', () => {
  it('lists repositories by name with the spec fields', async () => {
    const { name, repo } = await newRepo({ description: 'listed' });
    const res = await p.get(repos());
    expect(res.status).toBe(200);
    expect(res.body.repos).toContainEqual({
      name,
      resourceId: repo.resourceId,
      description: 'listed',
      defaultBranch: 'main',
      createdAt: expect.any(Number),
      updatedAt: expect.any(Number),
      language: null,
    });
    const names = res.body.repos.map((r: { name: string }) => r.name);
    expect(names).toEqual([...names].sort());
  });

  it('says whether a name is available, and why not', async () => {
    const { name } = await newRepo();
    const check = async (q: string) => (await p.get(`${repos()}/-/available?name=${encodeURIComponent(q)}`)).body;
    expect(await check(name)).toEqual({ name, available: false, reason: 'taken' });
    expect(await check('No_Good')).toEqual({ name: 'No_Good', available: false, reason: 'format' });
    expect(await check(unique())).toMatchObject({ available: true, reason: null });
    expect((await p.get(`${repos()}/-/available`)).status).toBe(400);
    expect((await p.get(`${repos()}/-/available?name=${'a'.repeat(101)}`)).status).toBe(400);
  });

  it('lists people with handles unique in the organization', async () => {
    const a = await p.person('developer');
    const res = await p.get(`${repos()}/-/people`);
    expect(res.status).toBe(200);
    const handles = res.body.people.map((x: { handle: string }) => x.handle);
    expect(new Set(handles).size).toBe(handles.length);
    expect(res.body.people).toContainEqual({
      userId: a.userId,
      name: 'Test developer',
      email: a.email,
      handle: expect.stringMatching(/^developer-/),
    });
  });
});

describe('one repository', () => {
  it('answers 404 Repository not found for an unknown name', async () => {
    for (const path of ['', '/protection', '/branches', '/tags', '/labels']) {
      const res = await p.get(`${repos()}/nope-${unique()}${path}`);
      expect({ path, status: res.status, body: res.body }).toEqual({
        path,
        status: 404,
        body: { error: 'Repository not found' },
      });
    }
  });

  it('patches the description and the default branch (one that exists)', async () => {
    const { name } = await newRepo({ readme: true });
    const branch = await p.post(`${repos()}/${name}/branches`, { name: 'develop', from: 'main' });
    expect(branch.status).toBe(201);
    const res = await p.patch(`${repos()}/${name}`, { description: 'New words', defaultBranch: 'develop' });
    expect(res.status).toBe(200);
    expect(res.body.repo).toMatchObject({ description: 'New words', defaultBranch: 'develop' });
    const missing = await p.patch(`${repos()}/${name}`, { defaultBranch: 'nope' });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ error: 'Branch nope not found.' });
    const cleared = await p.patch(`${repos()}/${name}`, { description: null });
    expect(cleared.body.repo.description).toBeNull();
  });

  it('renames: the old name is gone, the clone URL follows, a taken name is 409', async () => {
    const { name } = await newRepo({ readme: true });
    const other = await newRepo();
    const next = unique('renamed');
    const res = await p.post(`${repos()}/${name}/rename`, { name: next });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ name: next });
    expect((await p.get(`${repos()}/${name}`)).status).toBe(404);
    const got = await p.get(`${repos()}/${next}`);
    expect(got.body.cloneUrl).toBe(`${p.baseUrl}/git/${p.org.orgId}/${next}.git`);
    expect(got.body.branches).toEqual(['main']);
    const taken = await p.post(`${repos()}/${next}/rename`, { name: other.name });
    expect(taken.status).toBe(409);
    expect(taken.body).toEqual({ error: 'A repository with this name already exists.' });
    expect((await p.post(`${repos()}/${name}/rename`, { name: unique() })).status).toBe(404);
    // The old name is free again.
    expect((await p.post(repos(), { name })).status).toBe(201);
  });

  it('protects the default branch (0-10; 0 removes the rule); an empty repository cannot be', async () => {
    const empty = await newRepo();
    const refused = await p.put(`${repos()}/${empty.name}/protection`, { requiredApprovals: 1 });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ error: 'Push a branch before protecting it.' });
    const { name } = await newRepo({ readme: true });
    expect((await p.get(`${repos()}/${name}/protection`)).body).toEqual({
      requiredApprovals: 0,
      requiredChecks: [],
      branch: null,
    });
    const on = await p.put(`${repos()}/${name}/protection`, { requiredApprovals: 2 });
    expect(on.body).toEqual({ requiredApprovals: 2, requiredChecks: [], branch: 'main' });
    expect((await p.get(`${repos()}/${name}`)).body).toMatchObject({ protectedBranch: 'main', requiredApprovals: 2 });
    expect((await p.get(`${repos()}/${name}/branches`)).body.branches).toEqual([
      { name: 'main', commit: expect.any(String), isDefault: true, protected: true, openPull: null },
    ]);
    for (const bad of [-1, 11, 1.5, '2']) {
      expect((await p.put(`${repos()}/${name}/protection`, { requiredApprovals: bad })).status).toBe(400);
    }
    const off = await p.put(`${repos()}/${name}/protection`, { requiredApprovals: 0 });
    expect(off.body).toEqual({ requiredApprovals: 0, requiredChecks: [], branch: null });
    expect((await p.put(`${repos()}/nope-${unique()}/protection`, { requiredApprovals: 1 })).status).toBe(404);
  });

  it('deletes with the name typed as confirmation; linked projects are unlinked', async () => {
    const { name, repo } = await newRepo({ readme: true });
    const project = await p.post(`/v1/orgs/${p.org.orgId}/projects`, {
      name: unique('app'),
      slug: unique('app'),
      framework: 'static',
      repoId: repo.resourceId,
    });
    expect(project.status).toBe(201);
    const projectId = project.body.project.projectId;
    const unconfirmed = await p.delete(`${repos()}/${name}`);
    expect(unconfirmed.status).toBe(400);
    expect(unconfirmed.body).toEqual({ error: 'Type the repository name to confirm.' });
    expect((await p.delete(`${repos()}/${name}?confirm=other`)).status).toBe(400);
    expect((await p.delete(`${repos()}/${name}?confirm=${name}`)).status).toBe(204);
    expect((await p.get(`${repos()}/${name}`)).status).toBe(404);
    expect((await p.delete(`${repos()}/${name}?confirm=${name}`)).status).toBe(404);
    const linked = await p.get(`/v1/orgs/${p.org.orgId}/projects/${projectId}`);
    expect(linked.body.project.repoId).toBeUndefined();
  });
});

describe('repositories through /resources', () => {
  it('POST /resources type repository and its DELETE share the repos code', async () => {
    const name = unique();
    const res = await p.post(`/v1/orgs/${p.org.orgId}/resources`, { type: 'repository', name });
    expect(res.status).toBe(201);
    expect(res.body.resource).toMatchObject({ type: 'repository', name, status: 'active' });
    expect((await p.get(`${repos()}/${name}`)).body).toMatchObject({ empty: true, defaultBranch: 'main' });
    const taken = await p.post(repos(), { name });
    expect(taken.status).toBe(409);
    const gone = await p.delete(`/v1/orgs/${p.org.orgId}/resources/repository/${res.body.resource.resourceId}`);
    expect(gone.status).toBe(204);
    expect((await p.get(`${repos()}/${name}`)).status).toBe(404);
  });
});
