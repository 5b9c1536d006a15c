import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TestPlatform } from '../helpers/platform';
import { gitCli } from './git-cli';

/** Git clone URLs name the organization by its slug as well as by its id. */
let p: TestPlatform;
let home: string;

beforeAll(async () => {
  process.env.DATA_DIR = mkdtempSync(join(process.env.TEST_DATA_DIR as string, 'git-slug-'));
  home = mkdtempSync(join(process.env.TEST_DATA_DIR as string, 'git-slug-home-'));
  p = await TestPlatform.start();
});
afterAll(() => p.close());

const { run, ok } = gitCli(() => home);

it("clones and pushes through /git/<slug>/<name>.git; an unknown slug is refused as an unknown organization's id is", async () => {
  const key = await p.apiKey(['git:read', 'git:write']);
  const name = `slug-${Date.now().toString(36)}`;
  const res = await p.post(`/v1/orgs/${p.org.orgId}/repos`, { name, readme: true });
  expect(res.status).toBe(201);
  const byId = res.body.repo.cloneUrl as string;
  expect(byId).toContain(`/git/${p.org.orgId}/`);
  const bySlug = byId.replace(`/git/${p.org.orgId}/`, `/git/${p.org.slug}/`).replace('://', `://git:${key}@`);

  const dir = mkdtempSync(join(home, 'work-'));
  await ok(dir, ['clone', '-q', bySlug, 'clone']);
  const clone = join(dir, 'clone');
  writeFileSync(join(clone, 'NOTES.md'), 'by slug\n');
  await ok(clone, ['add', '.']);
  await ok(clone, ['commit', '-q', '-m', 'By slug']);
  await ok(clone, ['push', '-q', 'origin', 'HEAD:main']);
  const commits = await p.get(`/v1/orgs/${p.org.orgId}/repos/${name}/commits?ref=main`);
  expect(JSON.stringify(commits.body)).toContain('By slug');

  const unknown = await run(dir, ['clone', '-q', bySlug.replace(`/git/${p.org.slug}/`, '/git/no-such-org/'), 'x']);
  expect(unknown.code).not.toBe(0);
  expect(unknown.out).toMatch(/Authentication failed|401/);
});
