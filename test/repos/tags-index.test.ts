import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { handler as gitPushes } from '../../functions/workers/git-pushes';
import { indexedTags, withIndexedTags } from '../../shared/domains/repos/tags';
import { queryAll } from '../../shared/kernel/store/ops';
import type { GitPort } from '../../shared/ports/git';
import { refChange } from '../../shared/ports/git/events';
import { localGit } from '../../shared/ports/git/local';
import { TestPlatform } from '../helpers/platform';
import { gitCli } from './git-cli';

/**
 * The tags index (shared/domains/repos/tags.ts), which stands in for the tag listing CodeCommit's API
 * lacks: written by the git endpoint from git's own report of a real push, reconciled from the
 * storage's tag events, read through a port that lists no tags as the AWS adapter does, and gone
 * with its repository.
 */
let p: TestPlatform;
let home: string;
let n = 0;
const unique = (base = 'tags') => `${base}-${Date.now().toString(36)}-${(n++).toString(36)}`;
const repos = () => `/v1/orgs/${p.org.orgId}/repos`;

beforeAll(async () => {
  process.env.DATA_DIR = mkdtempSync(join(process.env.TEST_DATA_DIR as string, 'tags-index-'));
  home = mkdtempSync(join(process.env.TEST_DATA_DIR as string, 'tags-home-'));
  p = await TestPlatform.start();
});
afterAll(() => p.close());

const { ok } = gitCli(() => home);

/** The local port as CodeCommit's API sees a repository: branches only, no tag resolves. */
function tagBlind(port: GitPort): GitPort {
  return Object.assign(Object.create(port) as GitPort, {
    listsTags: async () => false,
    refs: async (repoId: string) => ({ branches: (await port.refs(repoId)).branches, tags: [] }),
    resolve: async (repoId: string, rev: string) => {
      const found = await port.resolve(repoId, rev);
      return found?.kind === 'tag' ? null : found;
    },
  });
}

/** A repository with one pushed commit; its id, clone dir and head. */
async function pushedRepo() {
  const name = unique();
  const res = await p.post(repos(), { name });
  expect(res.status).toBe(201);
  const key = await p.apiKey(['git:read', 'git:write']);
  const url = (res.body.repo.cloneUrl as string).replace('://', `://git:${key}@`);
  const dir = mkdtempSync(join(home, 'work-'));
  await ok(dir, ['clone', '-q', url, 'repo']);
  const repo = join(dir, 'repo');
  writeFileSync(join(repo, 'a.txt'), 'a\n');
  await ok(repo, ['add', '.']);
  await ok(repo, ['commit', '-q', '-m', 'First']);
  await ok(repo, ['push', '-q', 'origin', 'main']);
  const head = (await ok(repo, ['rev-parse', 'HEAD'])).trim();
  return { name, repoId: res.body.repo.resourceId as string, repo, head };
}

it('a push of tags writes them to the index from git’s report; a tag-blind port lists and resolves them', async () => {
  const { repoId, repo, head } = await pushedRepo();
  await ok(repo, ['tag', 'v1']);
  await ok(repo, ['tag', '-a', 'v2', '-m', 'Two']);
  await ok(repo, ['push', '-q', 'origin', 'v1', 'v2']);
  const v2Object = (await ok(repo, ['rev-parse', 'v2'])).trim();
  expect(await indexedTags(repoId)).toEqual([
    { name: 'v1', annotated: false, object: head, commit: head },
    // From the push alone the index knows the tag object, not yet the commit it names.
    { name: 'v2', annotated: false, object: v2Object, commit: v2Object },
  ]);
  const blind = withIndexedTags(tagBlind(localGit()));
  expect((await blind.refs(repoId)).tags.map((t) => t.name)).toEqual(['v1', 'v2']);
  expect(await blind.resolve(repoId, 'v1')).toEqual({ kind: 'tag', commit: head });
  expect(await blind.resolve(repoId, 'main')).toEqual({ kind: 'branch', commit: head });
  expect(await blind.resolve(repoId, 'nope')).toBeNull();

  await ok(repo, ['push', '-q', 'origin', '--delete', 'v1']);
  expect((await indexedTags(repoId)).map((t) => t.name)).toEqual(['v2']);
});

it('tag events reconcile the index: created with the commit they name, deleted gone', async () => {
  const { repoId, head } = await pushedRepo();
  const object = 'f'.repeat(40);
  await gitPushes({
    ...refChange(repoId, 'refs/tags/rel', null, object),
    detail: { ...refChange(repoId, 'refs/tags/rel', null, object).detail, commitId: head },
  });
  expect(await indexedTags(repoId)).toEqual([{ name: 'rel', annotated: false, object: head, commit: head }]);
  await gitPushes(refChange(repoId, 'refs/tags/rel', head, null));
  expect(await indexedTags(repoId)).toEqual([]);
});

it('deleting the repository removes what is kept beside its id', async () => {
  const { name, repoId, repo } = await pushedRepo();
  await ok(repo, ['tag', 'v1']);
  await ok(repo, ['push', '-q', 'origin', 'v1']);
  expect(await indexedTags(repoId)).toHaveLength(1);
  expect((await p.delete(`${repos()}/${name}?confirm=${name}`)).status).toBe(204);
  const left = await queryAll({
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': `REPOID#${repoId}` },
  });
  expect(left).toEqual([]);
});
