import { cpSync, mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { handler as gitPushes } from '../../functions/workers/git-pushes';
import { refChange } from '../../shared/ports/git/events';
import { type Deployments, edgeFetch, waitFinal, withDeployments } from '../deployments/helpers';
import type { TestPlatform } from '../helpers/platform';
import { gitCli } from './git-cli';

/**
 * Deployments of commits: a push to a linked project's production branch is built from the
 * commit and goes live on the project's host; a deployment of a commit through the API reads the
 * commit (404 when the repository lacks it; its message and author kept); `[skip ci]` deploys
 * nothing.
 */
let p: TestPlatform;
let env: Deployments;
let home: string;
let n = 0;
const unique = (base: string) => `${base}-${Date.now().toString(36)}-${(n++).toString(36)}`;

withDeployments((platform, deployments) => {
  p = platform;
  env = deployments;
  home = mkdtempSync(join(process.env.TEST_DATA_DIR as string, 'push-home-'));
});

const git = gitCli(() => home).ok;

/** A repository linked to a new static project; answers what the tests need of both. */
async function linkedProject() {
  const name = unique('site');
  const repo = await p.post(`/v1/orgs/${p.org.orgId}/repos`, { name });
  expect(repo.status).toBe(201);
  const slug = unique('web');
  const project = await p.post(`/v1/orgs/${p.org.orgId}/projects`, {
    name: slug,
    slug,
    framework: 'static',
    repoId: repo.body.repo.resourceId,
  });
  expect(project.status).toBe(201);
  return {
    name,
    repoId: repo.body.repo.resourceId as string,
    cloneUrl: repo.body.repo.cloneUrl as string,
    projectId: project.body.project.projectId as string,
    slug,
  };
}

/** A commit on `main` through the API (a web commit: it moves main as a push does); answers its id. */
async function webCommit(site: { name: string }, message: string, path: string, content: string): Promise<string> {
  const commit = await p.post(`/v1/orgs/${p.org.orgId}/repos/${site.name}/contents`, {
    branch: 'main',
    message,
    changes: [{ action: 'put', path, content: Buffer.from(content).toString('base64') }],
  });
  expect(commit.status).toBe(201);
  return commit.body.commitId as string;
}

async function deploymentsOf(projectId: string) {
  const res = await p.get(`/v1/orgs/${p.org.orgId}/deployments?projectId=${projectId}`);
  expect(res.status).toBe(200);
  return res.body.deployments as { deploymentId: string; commitSha?: string; target: string; branch?: string }[];
}

async function waitForDeployment(projectId: string, commitSha: string) {
  for (let i = 0; i < 300; i++) {
    const found = (await deploymentsOf(projectId)).find((d) => d.commitSha === commitSha);
    if (found) return found;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no deployment of ${commitSha}`);
}

it('a push to the production branch goes live on the project host, built from the commit', async () => {
  const site = await linkedProject();
  const key = await p.apiKey(['git:read', 'git:write']);
  const dir = mkdtempSync(join(home, 'work-'));
  await git(dir, ['clone', '-q', site.cloneUrl.replace('://', `://git:${key}@`), 'repo']);
  const repo = join(dir, 'repo');
  cpSync(join(__dirname, '..', 'fixtures', 'static-site'), repo, { recursive: true });
  writeFileSync(join(repo, 'commit.txt'), 'pushed');
  await git(repo, ['add', '.']);
  await git(repo, ['commit', '-q', '-m', 'Launch the site']);
  await git(repo, ['push', '-q', 'origin', 'main']);
  const head = (await git(repo, ['rev-parse', 'HEAD'])).trim();

  const found = await waitForDeployment(site.projectId, head);
  expect(found).toMatchObject({ target: 'production', branch: 'main' });
  const done = await waitFinal(p, found.deploymentId);
  if (done.deployment.status !== 'ready') {
    const log = await p.get(`/v1/orgs/${p.org.orgId}/deployments/${found.deploymentId}/logs?kind=build`);
    throw new Error(`${done.deployment.status}: ${done.deployment.error} ${log.text}`);
  }
  expect(done.deployment).toMatchObject({
    status: 'ready',
    commitSha: head,
    commitMessage: 'Launch the site',
    commitAuthor: 'Grace',
  });
  const live = await edgeFetch(env.edge, `${site.slug}.localhost:${env.edge.port}`, '/commit.txt');
  expect(live.status).toBe(200);
  expect(live.text).toBe('pushed');
});

it('deploys a commit through the API with its message; an unknown commit is 404 Commit not found', async () => {
  const site = await linkedProject();
  const sha = await webCommit(site, 'From the web\n\nWith a body.', 'index.html', '<h1>web</h1>');
  // The web commit itself deploys too (it moved main); the API deployment of the same commit is
  // answered by that one unless forced.
  const res = await p.post(`/v1/orgs/${p.org.orgId}/projects/${site.projectId}/deployments`, {
    source: 'git',
    branch: 'feature',
    commitSha: sha,
    force: true,
  });
  expect(res.status).toBe(201);
  expect(res.body.deployment.target).toBe('preview');
  const done = await waitFinal(p, res.body.deployment.deploymentId);
  expect(done.deployment).toMatchObject({
    status: 'ready',
    commitSha: sha,
    commitMessage: 'From the web',
    commitAuthor: 'Test owner',
  });
  const missing = await p.post(`/v1/orgs/${p.org.orgId}/projects/${site.projectId}/deployments`, {
    source: 'git',
    branch: 'main',
    commitSha: 'a'.repeat(40),
  });
  expect(missing.status).toBe(404);
  expect(missing.body).toEqual({ error: 'Commit not found' });
});

it('[skip ci] deploys nothing; tags and deleted branches deploy nothing', async () => {
  const site = await linkedProject();
  const sha = await webCommit(site, 'Docs only [skip ci]', 'README.md', 'docs');
  const before = (await deploymentsOf(site.projectId)).length;
  await gitPushes(refChange(site.repoId, 'refs/heads/main', null, sha));
  await gitPushes(refChange(site.repoId, 'refs/tags/v1', null, sha));
  await gitPushes(refChange(site.repoId, 'refs/heads/old', sha, null));
  expect((await deploymentsOf(site.projectId)).filter((d) => d.commitSha === sha)).toHaveLength(0);
  expect((await deploymentsOf(site.projectId)).length).toBe(before);
});

it('the same push event again (EventBridge delivers at least once) deploys its commit once', async () => {
  const site = await linkedProject();
  const sha = await webCommit(site, 'Pushed twice', 'index.html', 'twice');
  // The local git engine's event deployed it; the same event comes again, twice.
  await waitForDeployment(site.projectId, sha);
  const event = refChange(site.repoId, 'refs/heads/main', null, sha);
  await gitPushes(event);
  await gitPushes(event);
  expect((await deploymentsOf(site.projectId)).filter((d) => d.commitSha === sha)).toHaveLength(1);
});
