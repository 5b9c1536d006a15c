import { TEXT_MESSAGES } from '../../shared/kernel/ground/text';
import { TestPlatform } from '../helpers/platform';

/**
 * One rule for text (shared/kernel/ground/text.ts): names, paths, branches and commands are one
 * line of plain text, free text keeps its line breaks but no control character, and every path
 * parameter and query string is held to the one-line rule by the stack. Refused input stores nothing.
 */
let p: TestPlatform;

beforeAll(async () => {
  p = await TestPlatform.start();
});
afterAll(() => p.close());

const oneLine = (path: string) => ({ path, message: TEXT_MESSAGES.oneLine });
const slug = () => `cc-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

async function newProject() {
  const res = await p.post(`/v1/orgs/${p.org.orgId}/projects`, { name: 'Control', slug: slug(), framework: 'static' });
  expect(res.status).toBe(201);
  return res.body.project as { projectId: string; version: number };
}

test("a project's settings refuse NUL, ESC, line breaks and direction overrides, and keep what they had", async () => {
  const project = await newProject();
  const path = `/v1/orgs/${p.org.orgId}/projects/${project.projectId}`;
  const before = (await p.get(path)).body.project;
  const res = await p.patch(path, {
    productionBranch: 'main\u0000',
    rootDirectory: 'app\u001b[31m',
    buildCommand: 'npm run build\nrm -rf /',
    installCommand: 'npm ci\u0007',
    outputDirectory: 'dist\u202e',
  });
  expect(res.status).toBe(400);
  expect(res.body).toEqual({
    error: 'Invalid request',
    issues: expect.arrayContaining(
      ['productionBranch', 'rootDirectory', 'buildCommand', 'installCommand', 'outputDirectory'].map(oneLine),
    ),
  });
  expect(res.body.issues).toHaveLength(5);
  expect((await p.get(path)).body.project).toEqual(before);

  const named = await p.post(`/v1/orgs/${p.org.orgId}/projects`, { name: 'invoice\u202efdp.exe', slug: slug() });
  expect(named.status).toBe(400);
  expect(named.body.issues).toEqual([oneLine('name')]);
});

test("an organization's name is one line", async () => {
  const { org, owner } = await p.newOrg();
  const res = await p.patch(`/v1/orgs/${org.orgId}`, { name: 'Acme\u0000Evil' }, { token: owner.token });
  expect(res.status).toBe(400);
  expect(res.body.issues).toEqual([oneLine('name')]);
  expect((await p.get(`/v1/orgs/${org.orgId}`, { token: owner.token })).body.org.name).toBe(org.name);
});

test('an environment value keeps its line breaks and refuses NUL', async () => {
  const project = await newProject();
  const env = `/v1/orgs/${p.org.orgId}/projects/${project.projectId}/env`;
  const nul = await p.post(env, { vars: [{ key: 'TOKEN', value: 'abc\u0000def' }], targets: ['production'] });
  expect(nul.status).toBe(400);
  expect(nul.body.issues).toEqual([{ path: 'vars.0.value', message: TEXT_MESSAGES.plainText }]);
  expect((await p.get(env)).body.vars).toEqual([]);
  const pem = await p.post(env, { vars: [{ key: 'KEY', value: 'line one\nline two\n' }], targets: ['production'] });
  expect(pem.status).toBe(200);
});

test("a repository's description is free text: line breaks pass, control characters don't", async () => {
  const name = slug();
  const bad = await p.post(`/v1/orgs/${p.org.orgId}/repos`, { name, description: 'one\u0000two' });
  expect(bad.status).toBe(400);
  expect(bad.body.issues).toEqual([{ path: 'description', message: TEXT_MESSAGES.plainText }]);
  const good = await p.post(`/v1/orgs/${p.org.orgId}/repos`, { name, description: 'one\ntwo' });
  expect(good.status).toBe(201);
});

test('every path parameter and query string is one line, in any group', async () => {
  const query = await p.get(`/v1/orgs/${p.org.orgId}/projects?include=summary&note=a%1Bb`);
  expect(query.status).toBe(400);
  expect(query.body.issues).toEqual([oneLine('note')]);
  const param = await p.get(`/v1/orgs/${p.org.orgId}/projects/prj%00x/env`);
  expect(param.status).toBe(400);
  expect(param.body.issues).toContainEqual(oneLine('projectId'));
  const repo = await p.get(`/v1/orgs/${p.org.orgId}/repos/x/contents/raw?path=a%0Ab`);
  expect(repo.status).toBe(400);
  expect(repo.body.issues).toContainEqual(oneLine('path'));
});
