import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestPlatform } from '../helpers/platform';
import { gitCli } from '../repos/git-cli';
import { type Deployments, edgeFetch, waitFinal, withDeployments } from './helpers';

/**
 * Deployments of commits whose files are stored with Git LFS, pushed with the real git and
 * git-lfs: the build replaces each pointer by its object from the platform's LFS store, so the
 * site serves the file, not the pointer; a pointer whose object was never uploaded fails the build
 * naming the file.
 */
let p: TestPlatform;
let env: Deployments;
let home: string;
let n = 0;
const unique = (base: string) => `${base}-${Date.now().toString(36)}-${(n++).toString(36)}`;
const { ok } = gitCli(() => home);

withDeployments((platform, deployments) => {
  p = platform;
  env = deployments;
  home = mkdtempSync(join(process.env.TEST_DATA_DIR as string, 'lfs-deploy-home-'));
});

beforeAll(async () => {
  await ok(home, ['lfs', 'install', '--skip-repo']);
});

/** A repository linked to a new static project, cloned with git-lfs tracking `*.bin`. */
async function linkedClone() {
  const name = unique('lfs-site');
  const made = await p.post(`/v1/orgs/${p.org.orgId}/repos`, { name });
  expect(made.status).toBe(201);
  const slug = unique('lfs-web');
  const project = await p.post(`/v1/orgs/${p.org.orgId}/projects`, {
    name: slug,
    slug,
    framework: 'static',
    repoId: made.body.repo.resourceId,
  });
  expect(project.status).toBe(201);
  const key = await p.apiKey(['git:read', 'git:write']);
  const dir = mkdtempSync(join(home, 'work-'));
  await ok(dir, ['clone', '-q', (made.body.repo.cloneUrl as string).replace('://', `://git:${key}@`), 'repo']);
  const repo = join(dir, 'repo');
  cpSync(join(__dirname, '..', 'fixtures', 'static-site'), repo, { recursive: true });
  writeFileSync(join(repo, '.gitattributes'), '*.bin filter=lfs diff=lfs merge=lfs -text\n');
  return { repo, slug, projectId: project.body.project.projectId as string };
}

/** The deployment of `sha` (the push deploys it), once final. */
async function deploymentOf(projectId: string, sha: string) {
  for (let i = 0; i < 300; i++) {
    const res = await p.get(`/v1/orgs/${p.org.orgId}/deployments?projectId=${projectId}`);
    const found = (res.body.deployments as { deploymentId: string; commitSha?: string }[]).find(
      (d) => d.commitSha === sha,
    );
    if (found) return (await waitFinal(p, found.deploymentId, 60_000)).deployment;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no deployment of ${sha}`);
}

it('a commit with an LFS-tracked file deploys the file, not its pointer', async () => {
  const { repo, slug, projectId } = await linkedClone();
  const content = `LFS content ${randomBytes(2000).toString('hex')}\n`;
  writeFileSync(join(repo, 'assets', 'data.bin'), content);
  await ok(repo, ['add', '.']);
  await ok(repo, ['commit', '-q', '-m', 'A site with an LFS file']);
  expect(await ok(repo, ['lfs', 'ls-files'])).toContain('assets/data.bin');
  await ok(repo, ['push', '-q', 'origin', 'main']);
  const sha = (await ok(repo, ['rev-parse', 'HEAD'])).trim();

  const done = await deploymentOf(projectId, sha);
  expect([done.status, done.error]).toEqual(['ready', undefined]);
  const served = await edgeFetch(env.edge, `${slug}.localhost:${env.edge.port}`, '/assets/data.bin');
  expect(served.status).toBe(200);
  expect(served.text).not.toContain('git-lfs.github.com/spec');
  expect(served.text).toBe(content);
});

it('a pointer whose object was never uploaded fails the build naming the file', async () => {
  const { repo, projectId } = await linkedClone();
  writeFileSync(
    join(repo, 'assets', 'lost.bin'),
    `version https://git-lfs.github.com/spec/v1\noid sha256:${'b'.repeat(64)}\nsize 12\n`,
  );
  // Committed as a pointer only: git-lfs has no object to upload.
  await ok(repo, ['-c', 'filter.lfs.clean=cat', '-c', 'filter.lfs.smudge=cat', 'add', '.']);
  await ok(repo, ['commit', '-q', '-m', 'A lost pointer']);
  await ok(repo, ['-c', 'lfs.allowincompletepush=true', 'push', '-q', 'origin', 'main']);
  const sha = (await ok(repo, ['rev-parse', 'HEAD'])).trim();

  const done = await deploymentOf(projectId, sha);
  expect(done.status).toBe('error');
  expect(done.error).toBe(
    'assets/lost.bin is a Git LFS pointer whose object was never uploaded. Push it with git lfs push --all origin, then deploy again.',
  );
});
