import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { TestPlatform } from '../helpers/platform';

/**
 * The history routes of the repos group: folders, files shown inline, a commit with its hunks,
 * divergence of branches from the default one, and the last commit of each entry of a folder.
 */
let p: TestPlatform;
let base: string;
let first: string;
let second: string;
const b64 = (s: string | Buffer) => Buffer.from(s).toString('base64');

beforeAll(async () => {
  process.env.DATA_DIR = mkdtempSync(join(process.env.TEST_DATA_DIR as string, 'history-'));
  p = await TestPlatform.start();
  const name = `hist-${Date.now().toString(36)}`;
  await p.post(`/v1/orgs/${p.org.orgId}/repos`, { name, readme: true });
  base = `/v1/orgs/${p.org.orgId}/repos/${name}`;
  first = (await p.get(`${base}/branches`)).body.branches[0].commit;
  const c = await p.post(`${base}/contents`, {
    branch: 'main',
    parentCommitId: first,
    message: 'Add code',
    changes: [
      { action: 'put', path: 'src/app.js', content: b64('one\ntwo\nthree\n') },
      { action: 'put', path: 'src/lib/util.js', content: b64('export {};\n') },
      { action: 'put', path: 'logo.bin', content: b64(Buffer.from([0, 1, 2, 255])) },
    ],
  });
  second = c.body.commitId;
});
afterAll(() => p.close());

it('tree: folders first, then files; a sub-folder; 404 for a missing folder or ref', async () => {
  const root = await p.get(`${base}/tree`);
  expect(root.status).toBe(200);
  expect(root.body).toMatchObject({ ref: 'main', commitId: second, path: '' });
  expect(root.body.entries.map((e: { name: string; type: string }) => `${e.type}:${e.name}`)).toEqual([
    'dir:src',
    'file:logo.bin',
    'file:README.md',
  ]);
  const src = await p.get(`${base}/tree?path=src/&ref=main`);
  expect(src.body.entries).toEqual([
    { name: 'lib', path: 'src/lib', type: 'dir', mode: '040000', id: expect.any(String), size: null },
    { name: 'app.js', path: 'src/app.js', type: 'file', mode: '100644', id: expect.any(String), size: 14 },
  ]);
  for (const q of ['path=nope', 'path=../x', 'ref=nope']) {
    expect((await p.get(`${base}/tree?${q}`)).status).toBe(404);
  }
  const old = await p.get(`${base}/tree?ref=${first}`);
  expect(old.body.entries.map((e: { name: string }) => e.name)).toEqual(['README.md']);
});

it('blob: text as UTF-8, anything else as base64; 404 for a folder or a missing file', async () => {
  expect((await p.get(`${base}/blob?path=src/app.js`)).body).toEqual({
    path: 'src/app.js',
    commitId: second,
    size: 14,
    encoding: 'utf-8',
    content: 'one\ntwo\nthree\n',
  });
  const bin = await p.get(`${base}/blob?path=logo.bin`);
  expect(bin.body).toMatchObject({ encoding: 'base64', content: b64(Buffer.from([0, 1, 2, 255])) });
  for (const q of ['path=src', 'path=nope.txt', 'path=src/app.js&ref=nope']) {
    expect((await p.get(`${base}/blob?${q}`)).status).toBe(404);
  }
  expect((await p.get(`${base}/blob`)).status).toBe(400);
});

it('commits/:sha: the commit with its changed files and hunks; a root commit against nothing', async () => {
  const res = await p.get(`${base}/commits/${second}`);
  expect(res.status).toBe(200);
  expect(res.body.commit).toMatchObject({ id: second, message: 'Add code', parents: [first] });
  expect(res.body.truncated).toBe(false);
  const app = res.body.files.find((f: { path: string }) => f.path === 'src/app.js');
  expect(app).toEqual({
    path: 'src/app.js',
    change: 'added',
    additions: 3,
    deletions: 0,
    hunks: [{ oldStart: 0, oldLines: 0, newStart: 1, newLines: 3, lines: ['+one', '+two', '+three'] }],
  });
  expect(res.body.files.find((f: { path: string }) => f.path === 'logo.bin')).toMatchObject({
    change: 'added',
    binary: true,
    hunks: [],
  });
  const root = await p.get(`${base}/commits/${first.slice(0, 10)}`);
  expect(root.body.files.map((f: { path: string; change: string }) => `${f.change}:${f.path}`)).toEqual([
    'added:README.md',
  ]);
  const missing = await p.get(`${base}/commits/${'f'.repeat(40)}`);
  expect(missing.status).toBe(404);
  expect(missing.body).toEqual({ error: 'Commit not found' });
  expect((await p.get(`${base}/commits/--all`)).status).toBe(404);
});

it('branches/divergence: ahead and behind the default branch; null for a missing branch', async () => {
  await p.post(`${base}/branches`, { name: 'old', from: first });
  const topic = await p.post(`${base}/contents`, {
    branch: 'main',
    parentCommitId: second,
    newBranch: 'topic',
    message: 'Topic',
    changes: [{ action: 'put', path: 'topic.txt', content: b64('t') }],
  });
  expect(topic.status).toBe(201);
  const res = await p.get(`${base}/branches/divergence?name=old&name=topic&name=gone`);
  expect(res.status).toBe(200);
  expect(res.body).toEqual({
    base: 'main',
    divergence: {
      old: { ahead: 0, behind: 1, exact: true },
      topic: { ahead: 1, behind: 0, exact: true },
      gone: null,
    },
  });
  const many = Array.from({ length: 21 }, (_, i) => `name=b${i}`).join('&');
  expect((await p.get(`${base}/branches/divergence?${many}`)).status).toBe(400);
});

it('last-commits: the last commit of each entry of a folder', async () => {
  const res = await p.get(`${base}/last-commits`);
  expect(res.status).toBe(200);
  expect(res.body.truncated).toBe(false);
  expect(res.body.commits['README.md'].id).toBe(first);
  expect(res.body.commits.src.id).toBe(second);
  const src = await p.get(`${base}/last-commits?path=src`);
  expect(Object.keys(src.body.commits).sort()).toEqual(['app.js', 'lib']);
  expect((await p.get(`${base}/last-commits?path=nope`)).status).toBe(404);
});

describe('compare', () => {
  it('head ahead of base: the commits and files it brings, every strategy possible', async () => {
    await p.post(`${base}/branches`, { name: 'ahead', from: 'main' });
    const main = (await p.get(`${base}/branches`)).body.branches.find(
      (b: { name: string }) => b.name === 'main',
    ).commit;
    const c = await p.post(`${base}/contents`, {
      branch: 'ahead',
      parentCommitId: main,
      message: 'Ahead',
      changes: [{ action: 'put', path: 'ahead.txt', content: b64('a\n') }],
    });
    const res = await p.get(`${base}/compare?base=main&head=ahead`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      mergeBase: main,
      status: 'ahead',
      aheadBy: 1,
      behindBy: 0,
      exact: true,
      commitsTruncated: false,
      total: 1,
      truncated: false,
      mergeOptions: ['fast-forward', 'squash', 'three-way'],
      conflicts: [],
      base: { ref: 'main', commitId: main },
      head: { ref: 'ahead', commitId: c.body.commitId },
      pull: null,
    });
    expect(res.body.commits.map((x: { message: string }) => x.message)).toEqual(['Ahead']);
    expect(res.body.files).toEqual([
      {
        path: 'ahead.txt',
        change: 'added',
        additions: 1,
        deletions: 0,
        hunks: [{ oldStart: 0, oldLines: 0, newStart: 1, newLines: 1, lines: ['+a'] }],
      },
    ]);
    const same = await p.get(`${base}/compare?base=main&head=main`);
    expect(same.body).toMatchObject({ status: 'identical', aheadBy: 0, behindBy: 0, mergeOptions: [], files: [] });
  });

  it('diverged branches that touch the same lines: the conflict, and no strategy', async () => {
    const main = (await p.get(`${base}/branches`)).body.branches.find(
      (b: { name: string }) => b.name === 'main',
    ).commit;
    for (const [branch, text] of [
      ['left', 'left\n'],
      ['right', 'right\n'],
    ]) {
      await p.post(`${base}/contents`, {
        branch: 'main',
        parentCommitId: main,
        newBranch: branch,
        message: branch,
        changes: [{ action: 'put', path: 'src/app.js', content: b64(text as string) }],
      });
    }
    const res = await p.get(`${base}/compare?base=left&head=right`);
    expect(res.body).toMatchObject({
      status: 'diverged',
      aheadBy: 1,
      behindBy: 1,
      mergeOptions: [],
      conflicts: [{ path: 'src/app.js', conflicts: 1, binary: false, kind: 'content' }],
    });
  });

  it('404 for an unknown base or head', async () => {
    const noBase = await p.get(`${base}/compare?base=nope&head=main`);
    expect(noBase.status).toBe(404);
    expect(noBase.body).toEqual({ error: 'Branch or tag not found' });
    const noHead = await p.get(`${base}/compare?base=main&head=nope`);
    expect(noHead.status).toBe(404);
    expect(noHead.body).toEqual({ error: 'Branch or commit not found.' });
    expect((await p.get(`${base}/compare?base=main`)).status).toBe(400);
  });
});

it('insights: 52 weeks of commits and the authors with the most', async () => {
  const res = await p.get(`${base}/insights`);
  expect(res.status).toBe(200);
  expect(res.body.weeks).toHaveLength(52);
  expect(res.body.weeks.reduce((n: number, w: { commits: number }) => n + w.commits, 0)).toBe(res.body.totalCommits);
  expect(res.body.totalCommits).toBeGreaterThanOrEqual(2);
  expect(res.body.contributors[0]).toMatchObject({ name: 'Test owner', commits: res.body.totalCommits });
  expect(new Date(res.body.weeks[0].weekStart).getUTCDay()).toBe(1);
  expect((await p.get(`${base}/insights?ref=nope`)).status).toBe(404);
});
