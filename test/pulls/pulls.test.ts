import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BatchWriteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { handler as gitPushes } from '../../functions/workers/git-pushes';
import { numberKey } from '../../shared/domains/repos/issues';
import { resourceKey } from '../../shared/domains/resources/records';
import { onPlatformEvents } from '../../shared/kernel/events/bus';
import { db } from '../../shared/kernel/store/client';
import { TABLE } from '../../shared/kernel/store/table';
import { GIT_EVENT_SOURCE, type RefChange, repositoryName } from '../../shared/ports/git/events';
import { TOO_FAR_COMMITS } from '../../shared/ports/git/port';
import { type Person, TestPlatform } from '../helpers/platform';
import { gitCli } from '../repos/git-cli';

/**
 * Pull requests on the local platform with the git CLI and three people: open, comment on a line,
 * approve as another person (never one's own), push again (the old approval stops counting, the old
 * revision is refused), merge with each strategy (parents checked in a fresh clone), close issues by
 * keywords; conflicts; settling of pull requests finished outside (by the push, never by a read);
 * reopen; races; every error.
 */
let p: TestPlatform;
let developer: Person;
let viewer: Person;
let key: string;
let home: string;
let n = 0;
const unique = (base = 'pr') => `${base}-${Date.now().toString(36)}-${(n++).toString(36)}`;
const repos = () => `/v1/orgs/${p.org.orgId}/repos`;

beforeAll(async () => {
  process.env.DATA_DIR = mkdtempSync(join(process.env.TEST_DATA_DIR as string, 'pulls-'));
  home = mkdtempSync(join(process.env.TEST_DATA_DIR as string, 'pulls-home-'));
  p = await TestPlatform.start();
  developer = await p.person('developer');
  viewer = await p.person('viewer');
  key = await p.apiKey(['git:read', 'git:write']);
});
afterAll(async () => {
  stopEvents();
  await p.close();
});

/**
 * The ref events the local git engine tells (as CodeCommit tells EventBridge), held here until a
 * test hands them to the git-pushes worker with `deliver`: what a GET sees before the push is
 * delivered, and after, is then the test's choice, not a race.
 */
const told: RefChange[] = [];
let wake: (() => void) | undefined;
const stopEvents = onPlatformEvents(async (event) => {
  if (event.source !== GIT_EVENT_SOURCE) return;
  told.push(event as unknown as RefChange);
  wake?.();
});

/** Hands the git-pushes worker an event of each branch (waiting for one to be told), in order. */
async function deliver(repoId: string, ...branches: string[]): Promise<void> {
  const name = repositoryName(repoId);
  for (const branch of branches) {
    const at = () => told.findIndex((e) => e.detail.repositoryName === name && e.detail.referenceName === branch);
    while (at() < 0) await new Promise<void>((resolve) => (wake = resolve));
    await gitPushes(told.splice(at(), 1)[0] as RefChange);
  }
}

/** A pull request's record as stored (its `version` goes up with each write). */
const stored = async (repoId: string, number: number) =>
  (await db.send(new GetCommand({ TableName: TABLE(), Key: numberKey(repoId, number), ConsistentRead: true }))).Item;

const { ok, run } = gitCli(() => home);

/** Sets a repository's count of open pull requests, to reach the cap without opening 1,000. */
const setOpenPulls = (repoId: string, count: number) =>
  db.send(
    new UpdateCommand({
      TableName: TABLE(),
      Key: resourceKey(p.org.orgId, 'repository', repoId),
      UpdateExpression: 'SET openPulls = :n',
      ExpressionAttributeValues: { ':n': count },
    }),
  );

/**
 * A repository with a README on main and `feature` with one commit changing `app.txt`: its three
 * commits written at once by git fast-import in a local repository whose `origin` is the new one,
 * `feature` checked out, both branches in one push (no clone, no commit by the platform first: one
 * exchange with the git endpoint).
 */
async function setup() {
  const name = unique();
  const res = await p.post(repos(), { name });
  expect(res.status).toBe(201);
  const url = (res.body.repo.cloneUrl as string).replace('://', `://git:${key}@`);
  const dir = join(mkdtempSync(join(home, 'w-')), 'repo');
  await ok(home, ['init', '-q', '--initial-branch=main', dir]);
  appendFileSync(
    join(dir, '.git', 'config'),
    `[remote "origin"]\n\turl = ${url}\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n`,
  );
  const at = Math.floor(Date.now() / 1000);
  const commit = (branch: string, message: string, path: string, content: string) =>
    `commit refs/heads/${branch}\ncommitter Grace <grace@example.com> ${at} +0000\n${data(`${message}\n`)}` +
    `${branch === 'feature' ? 'from refs/heads/main\n' : ''}M 100644 inline ${path}\n${data(content)}\n`;
  fastImport(dir, [
    Buffer.from(
      commit('main', 'Initial commit', 'README.md', `# ${name}\n`) +
        commit('main', 'Add app', 'app.txt', 'one\ntwo\nthree\n') +
        commit('feature', 'Shout two', 'app.txt', 'one\nTWO\nthree\n'),
    ),
  ]);
  await ok(dir, ['checkout', '-q', '-f', 'feature']);
  await ok(dir, ['push', '-q', 'origin', 'main', 'feature']);
  const repoId = res.body.repo.resourceId as string;
  return { name, url, dir, repoId, base: `${repos()}/${name}`, pulls: `${repos()}/${name}/pulls` };
}

/** A fast-import `data` command of `text`. */
const data = (text: string) => `data ${Buffer.byteLength(text)}\n${text}`;

/** Writes the commits of a git fast-import stream into the repository in `dir`, in one run. */
function fastImport(dir: string, stream: Buffer[]): void {
  execFileSync('git', ['fast-import', '--quiet'], {
    cwd: dir,
    input: Buffer.concat(stream),
    // glibc gives the heap back after each commit fast-import writes (a brk system call or four per
    // commit, 10,000 commits): a trim threshold above what it holds keeps it, and the run in a second.
    env: {
      PATH: process.env.PATH,
      HOME: home,
      GIT_CONFIG_NOSYSTEM: '1',
      GLIBC_TUNABLES: 'glibc.malloc.trim_threshold=134217728',
    },
  });
}

/** Author and committer dates of the commits git makes, at `at` (epoch seconds). */
const dated = (at: number) => ({ GIT_AUTHOR_DATE: `@${at} +0000`, GIT_COMMITTER_DATE: `@${at} +0000` });

/** A commit writing `file` on the branch checked out; dated `at` (epoch seconds) when given. */
const commitIn = async (dir: string, file: string, content: string, message: string, at?: number) => {
  writeFileSync(join(dir, file), content);
  await ok(dir, ['add', '.']);
  await ok(dir, ['commit', '-q', '-m', message], at === undefined ? {} : dated(at));
};

/** Twenty lines; with a side, lines 2 and 18 name it (two conflicts apart when both sides differ). */
const lines = (side: string) =>
  Array.from({ length: 20 }, (_, i) => (side && (i === 1 || i === 17) ? `line ${i} ${side}` : `line ${i}`));

/**
 * `count` commits on `branch` of the clone in `dir`, written at once by git fast-import: the first
 * writes `files` (path to content), the others are empty.
 */
function fillerCommits(dir: string, branch: string, count: number, files: Record<string, Buffer> = {}): void {
  const chunks: Buffer[] = [];
  for (let i = 0; i < count; i++) {
    const message = `Filler ${i}`;
    const from = i === 0 ? `from refs/heads/${branch}^0\n` : '';
    chunks.push(
      Buffer.from(
        `commit refs/heads/${branch}\ncommitter Grace <grace@example.com> ${1_700_000_000 + i} +0000\n` +
          `data ${message.length}\n${message}\n${from}`,
      ),
    );
    if (i === 0) {
      for (const [path, content] of Object.entries(files)) {
        chunks.push(Buffer.from(`M 100644 inline ${path}\ndata ${content.length}\n`), content, Buffer.from('\n'));
      }
    }
    chunks.push(Buffer.from('\n'));
  }
  fastImport(dir, chunks);
}

/** Parents of the tip of `branch` in a fresh clone, and its subject. */
async function tipOf(url: string, branch: string): Promise<{ parents: string[]; subject: string }> {
  const dir = join(mkdtempSync(join(home, 'fresh-')), 'c');
  await ok(home, ['clone', '-q', '--branch', branch, url, dir]);
  const [parents, subject] = (await ok(dir, ['log', '-1', '--format=%P%n%s'])).trim().split('\n') as [string, string];
  return { parents: parents.split(' '), subject };
}

describe('review and merge', () => {
  it('open, comment on a line, approve as another person, push again, approve again, squash-merge closing an issue', async () => {
    const { base, pulls, dir, url } = await setup();
    const issue = await p.post(`${base}/issues`, { title: 'Two is too quiet' });
    expect(issue.body.issue.number).toBe(1);
    expect((await p.put(`${base}/protection`, { requiredApprovals: 1 })).status).toBe(200);

    const opened = await p.post(pulls, { title: 'Louder', description: 'Fixes #1', source: 'feature', target: 'main' });
    expect(opened.status).toBe(201);
    expect(opened.body.pull).toMatchObject({
      number: 2,
      state: 'open',
      sourceBranch: 'feature',
      targetBranch: 'main',
      authorId: p.owner.userId,
    });
    const head = (await ok(dir, ['rev-parse', 'HEAD'])).trim();
    const detail = await p.get(`${pulls}/2`);
    expect(detail.status).toBe(200);
    expect(detail.body.pull).toMatchObject({
      head,
      sourceBranchExists: true,
      description: 'Fixes #1',
      mergeCommitId: null,
    });
    expect(detail.body.mergeOptions).toEqual(['fast-forward', 'squash', 'three-way']);
    expect(detail.body.conflicts).toEqual([]);
    const revision = detail.body.pull.revisionId as string;

    const files = await p.get(`${pulls}/2/files`);
    expect(files.body).toMatchObject({
      total: 1,
      truncated: false,
      head,
      files: [{ path: 'app.txt', change: 'modified', additions: 1, deletions: 1 }],
    });
    const commits = await p.get(`${pulls}/2/commits`);
    expect(commits.body.commits.map((c: { message: string }) => c.message)).toEqual(['Shout two']);

    const thread = await p.post(
      `${pulls}/2/review/comments`,
      { body: 'Why shout?', path: 'app.txt', line: 2 },
      { token: developer.token },
    );
    expect(thread.status).toBe(201);
    const reply = await p.post(`${pulls}/2/review/comments`, { body: 'Because.', inReplyTo: thread.body.comment.id });
    expect(reply.status).toBe(201);
    expect((await p.post(`${pulls}/2/review/comments`, { body: 'Where?' })).body).toEqual({
      error: 'Choose a line to comment on.',
    });

    const own = await p.post(`${pulls}/2/approval`, { approve: true, revisionId: revision });
    expect(own.status).toBe(403);
    expect(own.body).toEqual({ error: "You can't approve your own pull request." });
    const needs = await p.post(`${pulls}/2/merge`, { strategy: 'squash' });
    expect(needs.status).toBe(409);
    expect(needs.body).toEqual({ error: 'This pull request needs more approvals before it can be merged.' });
    expect(
      (await p.post(`${pulls}/2/approval`, { approve: true, revisionId: revision }, { token: developer.token })).body,
    ).toEqual({ approved: true });
    let review = await p.get(`${pulls}/2/review`, { token: developer.token });
    expect(review.body).toMatchObject({
      revisionId: revision,
      approvals: [{ id: developer.userId }],
      required: 1,
      rules: [{ name: 'Branch protection', required: 1, fromTemplate: true, satisfied: true }],
      approved: true,
      overridden: false,
      viewerApproved: true,
    });
    expect(review.body.threads).toHaveLength(1);
    expect(review.body.threads[0]).toMatchObject({ path: 'app.txt', line: 2, side: 'new', outdated: false });
    expect(review.body.threads[0].comments.map((c: { body: string }) => c.body)).toEqual(['Why shout?', 'Because.']);

    // A new push: a new revision; the approval of the old one no longer counts, and the old revision is refused.
    await commitIn(dir, 'app.txt', 'one\nTWO!\nthree\n', 'Shout louder');
    await ok(dir, ['push', '-q', 'origin', 'feature']);
    review = await p.get(`${pulls}/2/review`);
    expect(review.body.revisionId).not.toBe(revision);
    expect(review.body).toMatchObject({ approvals: [], approved: false });
    expect(review.body.threads[0].outdated).toBe(true);
    const stale = await p.post(
      `${pulls}/2/approval`,
      { approve: true, revisionId: revision },
      { token: developer.token },
    );
    expect(stale.status).toBe(409);
    expect(stale.body).toEqual({ error: 'New commits were pushed. Review the latest changes, then approve.' });
    await p.post(
      `${pulls}/2/approval`,
      { approve: true, revisionId: review.body.revisionId },
      { token: developer.token },
    );

    const oldHead = await p.post(`${pulls}/2/merge`, { strategy: 'squash', sourceCommitId: head });
    expect(oldHead.body).toEqual({ error: 'The source branch changed. Reload and try again.' });
    const merged = await p.post(`${pulls}/2/merge`, { strategy: 'squash' }, { token: developer.token });
    expect(merged.status).toBe(200);
    expect(merged.body).toEqual({
      merged: true,
      mergeCommitId: expect.stringMatching(/^[0-9a-f]{40}$/),
      closedIssues: [1],
    });
    const closedIssue = (await p.get(`${base}/issues/1`)).body.issue;
    expect(closedIssue).toMatchObject({ state: 'closed', closedByPull: 2, closedBy: developer.userId });
    expect((await tipOf(url, 'main')).parents).toHaveLength(1);
    const fresh = join(mkdtempSync(join(home, 'msg-')), 'c');
    await ok(home, ['clone', '-q', url, fresh]);
    expect((await ok(fresh, ['log', '-1', '--format=%s|%an|%cn'])).trim()).toBe(
      `Louder (#2)|Test owner|Test developer`,
    );
    expect((await p.get(`${pulls}/2`)).body.pull).toMatchObject({
      state: 'merged',
      mergeCommitId: merged.body.mergeCommitId,
    });
    // Merged, its review still says who approved the revision merged.
    const kept = await p.get(`${pulls}/2/review`, { token: developer.token });
    expect(kept.body).toMatchObject({
      revisionId: review.body.revisionId,
      approvals: [{ id: developer.userId }],
      required: 1,
      rules: [{ name: 'Branch protection', required: 1, fromTemplate: true, satisfied: true }],
      approved: true,
      viewerApproved: true,
    });
    expect(kept.body.approvals).toHaveLength(1);
    expect((await p.get(`${pulls}/2`)).body.pull.revisionId).toBe(review.body.revisionId);
    const again = await p.post(`${pulls}/2/merge`, { strategy: 'squash' });
    expect(again.body).toEqual({ error: 'This pull request is already closed.' });
    expect((await p.post(`${pulls}/2/reopen`)).body).toEqual({ error: "Merged pull requests can't be reopened." });
    expect((await p.post(`${pulls}/2/approval`, { approve: true }, { token: developer.token })).body).toEqual({
      error: 'This pull request is closed.',
    });
  });

  it('fast-forward moves main to the source head; three-way makes a commit with both parents', async () => {
    const ff = await setup();
    await p.post(ff.pulls, { title: 'FF', source: 'feature', target: 'main' });
    const head = (await ok(ff.dir, ['rev-parse', 'HEAD'])).trim();
    const done = await p.post(`${ff.pulls}/1/merge`, { strategy: 'fast-forward' });
    expect(done.body).toEqual({ merged: true, mergeCommitId: head, closedIssues: [] });

    const tw = await setup();
    // main moves on: fast-forward is no longer possible, a three-way merge is.
    await ok(tw.dir, ['checkout', '-q', 'main']);
    await commitIn(tw.dir, 'other.txt', 'x\n', 'Other');
    await ok(tw.dir, ['push', '-q', 'origin', 'main']);
    const mainHead = (await ok(tw.dir, ['rev-parse', 'HEAD'])).trim();
    const featureHead = (await ok(tw.dir, ['rev-parse', 'feature'])).trim();
    await p.post(tw.pulls, { title: 'TW', source: 'feature', target: 'main' });
    expect((await p.get(`${tw.pulls}/1`)).body.mergeOptions).toEqual(['squash', 'three-way']);
    const refused = await p.post(`${tw.pulls}/1/merge`, { strategy: 'fast-forward' });
    expect(refused.body).toEqual({ error: "This pull request can't be merged automatically with that strategy." });
    const merged = await p.post(`${tw.pulls}/1/merge`, { strategy: 'three-way' });
    expect(merged.status).toBe(200);
    expect(await tipOf(tw.url, 'main')).toEqual({
      parents: [mainHead, featureHead],
      subject: 'Merge pull request #1 from feature',
    });
  });

  it('closing keywords in the title, description and commits, any case; pull requests, unknown numbers and other targets close none', async () => {
    const { base, pulls, dir } = await setup();
    for (const title of ['One', 'Two', 'Three']) await p.post(`${base}/issues`, { title });
    await commitIn(dir, 'app.txt', 'one\nTWO\nthree\nfour\n', 'Count on\n\nRESOLVED #2');
    await ok(dir, ['push', '-q', 'origin', 'feature', 'main:dev']);
    // Into a branch that is not the default one: nothing closes.
    expect((await p.post(pulls, { title: 'Fixes #3', source: 'feature', target: 'dev' })).body.pull.number).toBe(4);
    const side = await p.post(`${pulls}/4/merge`, { strategy: 'three-way' });
    expect(side.body).toMatchObject({ merged: true, closedIssues: [] });
    const opened = await p.post(pulls, {
      title: 'closes #1',
      description: 'Fixes #4 (a pull request), resolves #99 (nothing); see #3.',
      source: 'feature',
      target: 'main',
    });
    expect(opened.body.pull.number).toBe(5);
    const merged = await p.post(`${pulls}/5/merge`, { strategy: 'fast-forward' });
    expect(merged.body).toMatchObject({ merged: true, closedIssues: [1, 2] });
    const issues = await p.get(`${base}/issues?state=closed`);
    expect(issues.body.issues.map((i: { number: number; closedByPull: number }) => [i.number, i.closedByPull])).toEqual(
      [
        [2, 5],
        [1, 5],
      ],
    );
    expect((await p.get(`${base}/issues/3`)).body.issue.state).toBe('open');
    expect((await p.get(`${pulls}/4`)).body.pull.state).toBe('merged');
  });

  it('10 merges of one pull request at once: one 200, the others 409', async () => {
    const { pulls } = await setup();
    await p.post(pulls, { title: 'Once', source: 'feature', target: 'main' });
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => p.post(`${pulls}/1/merge`, { strategy: 'three-way' })),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    for (const a of answers.filter((x) => x.status !== 200)) {
      expect(a.status).toBe(409);
      expect([
        'This pull request is already closed.',
        'The target branch changed. Try again.',
        'The pull request changed. Reload and try again.',
      ]).toContain(a.body.error);
    }
  });
});

describe('the branch list and a comparison name the open pull request', () => {
  it('openPull of a branch and pull of a base and head: while open, none once closed or merged', async () => {
    const { dir, base, pulls } = await setup();
    await ok(dir, ['push', '-q', 'origin', 'main:release', 'feature:other']);
    const openPulls = async () =>
      Object.fromEntries(
        (await p.get(`${base}/branches`)).body.branches.map((b: { name: string; openPull: number | null }) => [
          b.name,
          b.openPull,
        ]),
      );
    const pullOf = async (baseRef: string, headRef: string) =>
      (await p.get(`${base}/compare?base=${baseRef}&head=${headRef}`)).body.pull;
    expect(await openPulls()).toEqual({ main: null, feature: null, release: null, other: null });
    expect(await pullOf('main', 'feature')).toBeNull();

    await p.post(pulls, { title: 'Into main', source: 'feature', target: 'main' });
    await p.post(pulls, { title: 'Into release', source: 'feature', target: 'release' });
    await p.post(pulls, { title: 'Other', source: 'other', target: 'main' });
    // A branch with two open: the first opened.
    expect(await openPulls()).toEqual({ main: null, feature: 1, release: null, other: 3 });
    expect(await pullOf('main', 'feature')).toBe(1);
    expect(await pullOf('release', 'feature')).toBe(2);
    expect(await pullOf('main', 'other')).toBe(3);
    // Not the other way round, and not for a commit or tag naming the same commit.
    expect(await pullOf('feature', 'main')).toBeNull();
    const featureHead = (await ok(dir, ['rev-parse', 'feature'])).trim();
    await ok(dir, ['tag', 'v1', 'feature']);
    await ok(dir, ['push', '-q', 'origin', 'v1']);
    expect(await pullOf('main', featureHead)).toBeNull();
    expect(await pullOf('main', 'v1')).toBeNull();

    await p.post(`${pulls}/1/close`);
    expect(await openPulls()).toMatchObject({ feature: 2 });
    expect(await pullOf('main', 'feature')).toBeNull();
    expect((await p.post(`${pulls}/2/merge`, { strategy: 'fast-forward' })).status).toBe(200);
    expect(await openPulls()).toEqual({ main: null, feature: null, release: null, other: 3 });
    expect(await pullOf('release', 'feature')).toBeNull();
  });
});

describe('numbers shared by issues and pull requests', () => {
  it('50 parallel creates, 10 pull requests among 40 issues, get 50 distinct numbers', async () => {
    const { base, dir, pulls } = await setup();
    const sources = Array.from({ length: 10 }, (_, i) => `b${i}`);
    await ok(dir, ['push', '-q', 'origin', ...sources.map((b) => `feature:refs/heads/${b}`)]);
    const answers = await Promise.all([
      ...sources.map((b) => p.post(pulls, { title: b, source: b, target: 'main' })),
      ...Array.from({ length: 40 }, (_, i) => p.post(`${base}/issues`, { title: `Issue ${i}` })),
    ]);
    expect(answers.map((a) => a.status)).toEqual(Array(50).fill(201));
    const numbers = answers.map((a) => (a.body.pull ?? a.body.issue).number as number).sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
  });
});

describe('two merges into one target at once', () => {
  it('lose no commit: one lands, the other is told the target changed, and lands when tried again', async () => {
    const { dir, pulls, url } = await setup();
    await ok(dir, ['checkout', '-q', 'main']);
    await ok(dir, ['checkout', '-q', '-b', 'other']);
    await commitIn(dir, 'other.txt', 'other\n', 'Other');
    await ok(dir, ['push', '-q', 'origin', 'other']);
    const heads = [(await ok(dir, ['rev-parse', 'feature'])).trim(), (await ok(dir, ['rev-parse', 'other'])).trim()];
    await p.post(pulls, { title: 'Feature', source: 'feature', target: 'main' });
    await p.post(pulls, { title: 'Other', source: 'other', target: 'main' });
    const answers = await Promise.all([1, 2].map((n) => p.post(`${pulls}/${n}/merge`, { strategy: 'three-way' })));
    expect(answers.some((a) => a.status === 200)).toBe(true);
    for (const [i, a] of answers.entries()) {
      if (a.status === 200) continue;
      expect(a.body).toEqual({ error: 'The target branch changed. Try again.' });
      expect((await p.post(`${pulls}/${i + 1}/merge`, { strategy: 'three-way' })).status).toBe(200);
    }
    const fresh = join(mkdtempSync(join(home, 'both-')), 'c');
    await ok(home, ['clone', '-q', url, fresh]);
    for (const head of heads) expect((await run(fresh, ['merge-base', '--is-ancestor', head, 'HEAD'])).code).toBe(0);
  });
});

describe('too far apart', () => {
  it('past the limit every comparing route answers the spec error, and merge its 409', async () => {
    const { dir, pulls } = await setup();
    await ok(dir, ['push', '-q', 'origin', 'main:other']);
    expect((await p.post(pulls, { title: 'Near', source: 'feature', target: 'main' })).status).toBe(201);
    const revisionId = (await p.get(`${pulls}/1`)).body.pull.revisionId as string;
    expect(
      (await p.post(`${pulls}/1/approval`, { approve: true, revisionId }, { token: developer.token })).body,
    ).toEqual({ approved: true });
    fillerCommits(dir, 'main', TOO_FAR_COMMITS + 1);
    await ok(dir, ['push', '-q', 'origin', 'main']);

    const tooFar = { error: 'These branches are too far apart to compare.' };
    for (const path of ['', '/commits', '/files', '/review']) {
      const res = await p.get(`${pulls}/1${path}`);
      expect([path, res.status, res.body]).toEqual([path, 400, tooFar]);
    }
    const thread = await p.post(`${pulls}/1/review/comments`, { body: 'x', path: 'app.txt', line: 1 });
    expect([thread.status, thread.body]).toEqual([400, tooFar]);
    const merge = await p.post(`${pulls}/1/merge`, { strategy: 'three-way' });
    expect([merge.status, merge.body]).toEqual([409, { error: 'The branches have diverged too far to merge.' }]);
    const create = await p.post(pulls, { title: 'Far', source: 'other', target: 'main' });
    expect([create.status, create.body]).toEqual([400, { error: 'The branches have diverged too far to compare.' }]);
    // The pull request is still open, and listing it still works.
    expect((await p.get(pulls)).body.pulls.map((x: { number: number }) => x.number)).toEqual([1]);
  });
});

describe('create', () => {
  it('every create error of the spec; one open pull request per pair of branches, even 20 at once', async () => {
    const { pulls } = await setup();
    const same = await p.post(pulls, { title: 'x', source: 'main', target: 'main' });
    expect(same.body).toEqual({ error: 'Choose two different branches.' });
    const missing = await p.post(pulls, { title: 'x', source: 'nope', target: 'main' });
    expect(missing.body).toEqual({ error: 'Branch not found.' });
    const stranger = await p.post(pulls, { title: 'x', source: 'feature', target: 'main', assignees: ['usr_nobody'] });
    expect(stranger.body).toEqual({ error: 'Assignees must be members of this organization.' });
    expect(
      (await p.post(pulls, { title: 'x', source: 'feature', target: 'main' }, { token: viewer.token })).status,
    ).toBe(403);
    expect((await p.post(pulls, { title: 'x'.repeat(151), source: 'feature', target: 'main' })).status).toBe(400);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => p.post(pulls, { title: 'Race', source: 'feature', target: 'main' })),
    );
    const won = answers.filter((a) => a.status === 201);
    expect(won).toHaveLength(1);
    const number = won[0]?.body.pull.number;
    for (const a of answers.filter((x) => x.status !== 201)) {
      expect(a.status).toBe(409);
      expect(a.body).toEqual({ error: `Pull request #${number} is already open for these branches.` });
    }
    const listed = await p.get(pulls);
    expect(listed.body.pulls.map((x: { number: number }) => x.number)).toEqual([number]);
  });

  it('edits by the author or git:write; comments; the other kind of number is 404', async () => {
    const { base, pulls } = await setup();
    await p.post(`${base}/issues`, { title: 'An issue' });
    await p.post(pulls, { title: 'Mine', source: 'feature', target: 'main' });
    const refused = await p.patch(`${pulls}/2`, { title: 'x' }, { token: viewer.token });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: 'Only the author or members with git:write can edit this pull request.' });
    const edited = await p.patch(`${pulls}/2`, { title: 'Mine, edited', labels: ['ui'] }, { token: developer.token });
    expect(edited.body.pull).toMatchObject({ title: 'Mine, edited', labels: ['ui'] });
    const comment = await p.post(`${pulls}/2/comments`, { body: 'Looks good' }, { token: viewer.token });
    expect(comment.status).toBe(201);
    expect(comment.body.comment).toMatchObject({ number: 2, body: 'Looks good', authorId: viewer.userId });
    expect((await p.get(`${pulls}/2`)).body.comments).toHaveLength(1);
    expect((await p.get(`${pulls}/1`)).body).toEqual({ error: 'Pull request not found' });
    expect((await p.get(`${base}/issues/2`)).body).toEqual({ error: 'Issue not found' });
    expect((await p.get(`${pulls}/abc`)).body).toEqual({ error: 'Not found' });
    expect((await p.get(`${repos()}/nope-${unique()}/pulls`)).body).toEqual({ error: 'Repository not found' });
    const closed = await p.post(`${pulls}/2/close`, undefined, { token: viewer.token });
    expect(closed.body).toEqual({ error: 'Only the author or members with git:write can close this pull request.' });
  });
});

describe('pages past their limits', () => {
  it('commits past 250 are truncated; files past 300 truncated, binary and 1,000-line files collapsed', async () => {
    const { dir, pulls } = await setup();
    const files: Record<string, Buffer> = {
      'a-big.txt': Buffer.from(Array.from({ length: 1001 }, (_, i) => `line ${i}\n`).join('')),
      'a-bin.bin': Buffer.from([0, 1, 2, 0, 3]),
    };
    for (let i = 0; i < 300; i++) files[`f${String(i).padStart(3, '0')}.txt`] = Buffer.from(`${i}\n`);
    // With "Shout two" before them, the source brings 251 commits and 303 files.
    fillerCommits(dir, 'feature', 250, files);
    await ok(dir, ['push', '-q', 'origin', 'feature']);
    await p.post(pulls, { title: 'Big', source: 'feature', target: 'main' });
    const commits = await p.get(`${pulls}/1/commits`);
    expect(commits.body.commits).toHaveLength(250);
    expect(commits.body.truncated).toBe(true);
    expect(commits.body.commits[0].message.trim()).toBe('Filler 249');
    const page = await p.get(`${pulls}/1/files`);
    expect(page.body).toMatchObject({ total: 300, truncated: true });
    const byPath = new Map((page.body.files as { path: string }[]).map((f) => [f.path, f]));
    expect(byPath.get('a-big.txt')).toEqual({
      path: 'a-big.txt',
      change: 'added',
      additions: 1001,
      deletions: 0,
      collapsed: true,
      hunks: [],
    });
    expect(byPath.get('a-bin.bin')).toMatchObject({ binary: true, collapsed: true, hunks: [] });
    expect(byPath.get('app.txt')).toMatchObject({ additions: 1, deletions: 1, hunks: [expect.any(Object)] });
    expect(byPath.get('app.txt')).not.toHaveProperty('collapsed');
  });
});

describe('the rest of the spec errors', () => {
  it('a deleted source: detail says so, the comparing routes 404; a reply to no thread 404', async () => {
    const { dir, pulls } = await setup();
    await p.post(pulls, { title: 'Soon gone', source: 'feature', target: 'main' });
    const thread = await p.post(`${pulls}/1/review/comments`, { body: 'Hm', path: 'app.txt', line: 2 });
    expect(thread.status).toBe(201);
    await ok(dir, ['push', '-q', 'origin', '--delete', 'feature']);
    const detail = await p.get(`${pulls}/1`);
    expect(detail.status).toBe(200);
    expect(detail.body.pull).toMatchObject({ state: 'open', sourceBranchExists: false, head: null, revisionId: null });
    expect(detail.body).toMatchObject({ mergeOptions: [], conflicts: [] });
    const gone = { error: 'Branch or commit not found.' };
    for (const path of ['/commits', '/files']) {
      const res = await p.get(`${pulls}/1${path}`);
      expect([path, res.status, res.body]).toEqual([path, 404, gone]);
    }
    const line = await p.post(`${pulls}/1/review/comments`, { body: 'x', path: 'app.txt', line: 1 });
    expect([line.status, line.body]).toEqual([404, gone]);
    const merge = await p.post(`${pulls}/1/merge`, { strategy: 'squash' });
    expect([merge.status, merge.body]).toEqual([404, gone]);
    // A reply still lands on its thread; a reply to nothing is 404.
    expect(
      (await p.post(`${pulls}/1/review/comments`, { body: 'Yes', inReplyTo: thread.body.comment.id })).status,
    ).toBe(201);
    const nowhere = await p.post(`${pulls}/1/review/comments`, { body: 'x', inReplyTo: 'thr_nothing' });
    expect([nowhere.status, nowhere.body]).toEqual([404, { error: 'Not found' }]);
  });

  it('edit assignees must be members; reopen by others is 403; reopen past the cap 409; numbers taken 409', async () => {
    const { base, pulls } = await setup();
    const repoId = (await p.get(base)).body.resourceId as string;
    await p.post(pulls, { title: 'Mine', source: 'feature', target: 'main' });
    const stranger = await p.patch(`${pulls}/1`, { assignees: ['usr_nobody'] });
    expect([stranger.status, stranger.body]).toEqual([
      400,
      { error: 'Assignees must be members of this organization.' },
    ]);
    expect((await p.post(`${pulls}/1/close`)).body).toEqual({ state: 'closed' });
    const refused = await p.post(`${pulls}/1/reopen`, undefined, { token: viewer.token });
    expect([refused.status, refused.body]).toEqual([
      403,
      { error: 'Only the author or members with git:write can reopen this pull request.' },
    ]);
    const setOpen = (count: number) => setOpenPulls(repoId, count);
    await setOpen(1000);
    const capped = await p.post(`${pulls}/1/reopen`);
    expect([capped.status, capped.body]).toEqual([409, { error: 'Too many open pull requests in this repository.' }]);
    await setOpen(0);
    // The counter behind three items that exist (as after a restore): the create gives up with the spec 409.
    await Promise.all(
      [2, 3, 4].map((number) =>
        db.send(
          new PutCommand({
            TableName: TABLE(),
            Item: { pk: `REPOID#${repoId}`, sk: `NUM#${String(number).padStart(10, '0')}`, kind: 'issue', number },
          }),
        ),
      ),
    );
    const taken = await p.post(pulls, { title: 'No room', source: 'feature', target: 'main' });
    expect([taken.status, taken.body]).toEqual([409, { error: 'Could not create the pull request. Try again.' }]);
    // Nothing was held by the failed create: the pair opens under the next number.
    const next = await p.post(pulls, { title: 'Room', source: 'feature', target: 'main' });
    expect([next.status, next.body.pull?.number]).toEqual([201, 5]);
  });

  it('an API key with git:write is held to branch protection as a person is', async () => {
    const { base, pulls } = await setup();
    expect((await p.put(`${base}/protection`, { requiredApprovals: 1 })).status).toBe(200);
    await p.post(pulls, { title: 'By the owner', source: 'feature', target: 'main' });
    const early = await p.post(`${pulls}/1/merge`, { strategy: 'squash' }, { token: key });
    expect([early.status, early.body]).toEqual([
      409,
      { error: 'This pull request needs more approvals before it can be merged.' },
    ]);
    // A key is not a reviewer of its own pull request either.
    await p.post(`${pulls}/1/close`);
    const byKey = await p.post(pulls, { title: 'By the key', source: 'feature', target: 'main' }, { token: key });
    const number = byKey.body.pull.number as number;
    const revisionId = (await p.get(`${pulls}/${number}`)).body.pull.revisionId as string;
    const own = await p.post(`${pulls}/${number}/approval`, { approve: true, revisionId }, { token: key });
    expect([own.status, own.body]).toEqual([403, { error: "You can't approve your own pull request." }]);
    expect((await p.post(`${pulls}/${number}/merge`, { strategy: 'squash' }, { token: key })).status).toBe(409);
    await p.post(`${pulls}/${number}/approval`, { approve: true, revisionId }, { token: developer.token });
    const merged = await p.post(`${pulls}/${number}/merge`, { strategy: 'squash' }, { token: key });
    expect([merged.status, merged.body.merged]).toEqual([200, true]);
  });
});

describe('limits', () => {
  it('the open cap, the approvals cap, and a comment on no changes', async () => {
    const { base, pulls } = await setup();
    const repoId = (await p.get(base)).body.resourceId as string;
    const setOpen = (count: number) => setOpenPulls(repoId, count);
    await setOpen(1000);
    const capped = await p.post(pulls, { title: 'One too many', source: 'feature', target: 'main' });
    expect(capped.status).toBe(409);
    expect(capped.body).toEqual({ error: 'Too many open pull requests in this repository.' });
    await setOpen(0);
    expect((await p.post(pulls, { title: 'Fits', source: 'feature', target: 'main' })).status).toBe(201);
    const number = (await p.get(pulls)).body.pulls[0].number as number;
    const revision = (await p.get(`${pulls}/${number}`)).body.pull.revisionId;
    // 200 approvals by others, 25 to a batch (DynamoDB's most), one batch after another.
    const approvals = Array.from({ length: 200 }, (_, i) => ({
      PutRequest: {
        Item: {
          pk: `REPOID#${repoId}`,
          sk: `APPROVAL#${String(number).padStart(10, '0')}#usr_${i}`,
          userId: `usr_${i}`,
          name: `Reviewer ${i}`,
          email: null,
          revisionId: revision,
          at: Date.now(),
        },
      },
    }));
    for (let i = 0; i < approvals.length; i += 25) {
      let batch: Record<string, unknown>[] | undefined = approvals.slice(i, i + 25);
      while (batch?.length) {
        const out = await db.send(new BatchWriteCommand({ RequestItems: { [TABLE()]: batch } }));
        batch = out.UnprocessedItems?.[TABLE()] as Record<string, unknown>[] | undefined;
      }
    }
    const full = await p.post(
      `${pulls}/${number}/approval`,
      { approve: true, revisionId: revision },
      { token: developer.token },
    );
    expect(full.status).toBe(409);
    expect(full.body).toEqual({ error: 'This pull request has the maximum number of approvals.' });
    const head = (await p.get(`${pulls}/${number}`)).body.pull.head;
    const nothing = await p.post(`${pulls}/${number}/review/comments`, {
      body: 'x',
      path: 'app.txt',
      line: 1,
      base: head,
      head,
    });
    expect(nothing.status).toBe(409);
    expect(nothing.body).toEqual({ error: 'This pull request has no changes to comment on.' });
  });
});

describe('conflicts, settling, reopen', () => {
  it('a one-line conflict is listed with its kind; no strategy merges it', async () => {
    const { dir, pulls } = await setup();
    await ok(dir, ['checkout', '-q', 'main']);
    await commitIn(dir, 'app.txt', 'one\ntwo-main\nthree\n', 'Main edit');
    await ok(dir, ['push', '-q', 'origin', 'main']);
    await p.post(pulls, { title: 'Conflicted', source: 'feature', target: 'main' });
    const detail = await p.get(`${pulls}/1`);
    expect(detail.body.mergeOptions).toEqual([]);
    expect(detail.body.conflicts).toEqual([{ path: 'app.txt', conflicts: 1, binary: false, kind: 'content' }]);
    expect((await p.post(`${pulls}/1/merge`, { strategy: 'three-way' })).body).toEqual({
      error: "This pull request can't be merged automatically with that strategy.",
    });
  });

  it('conflicts of every kind: content (counted), binary, a file against a folder, a file against a link, modes', async () => {
    const { dir, pulls } = await setup();
    await ok(dir, ['checkout', '-q', 'main']);
    await commitIn(dir, 'two.txt', `${lines('').join('\n')}\n`, 'Two');
    writeFileSync(join(dir, 'img.bin'), Buffer.from([0, 1, 2, 3]));
    writeFileSync(join(dir, 'spot'), 'a file\n');
    writeFileSync(join(dir, 'link'), 'a file\n');
    await ok(dir, ['add', '.']);
    await ok(dir, ['commit', '-q', '-m', 'Base files']);
    await ok(dir, ['push', '-q', 'origin', 'main']);
    await ok(dir, ['checkout', '-q', '-b', 'side']);
    writeFileSync(join(dir, 'two.txt'), `${lines('side').join('\n')}\n`);
    writeFileSync(join(dir, 'img.bin'), Buffer.from([0, 9, 9, 9]));
    await ok(dir, ['rm', '-q', 'spot']);
    mkdirSync(join(dir, 'spot'));
    await commitIn(dir, 'spot/inside.txt', 'now a folder\n', 'Side');
    await ok(dir, ['rm', '-q', 'link']);
    symlinkSync('two.txt', join(dir, 'link'));
    await ok(dir, ['add', 'link']);
    await ok(dir, ['commit', '-q', '-m', 'link is a link']);
    // The same new file on both sides, executable on this one only.
    writeFileSync(join(dir, 'run.sh'), 'echo hi\n', { mode: 0o755 });
    await ok(dir, ['add', 'run.sh']);
    await ok(dir, ['commit', '-q', '-m', 'run.sh, executable']);
    await ok(dir, ['push', '-q', 'origin', 'side']);
    await ok(dir, ['checkout', '-q', 'main']);
    writeFileSync(join(dir, 'two.txt'), `${lines('main').join('\n')}\n`);
    writeFileSync(join(dir, 'img.bin'), Buffer.from([0, 7, 7, 7]));
    writeFileSync(join(dir, 'spot'), 'a changed file\n');
    writeFileSync(join(dir, 'link'), 'a changed file\n');
    writeFileSync(join(dir, 'run.sh'), 'echo hi\n', { mode: 0o644 });
    await ok(dir, ['add', 'run.sh']);
    await ok(dir, ['commit', '-q', '-am', 'Main']);
    await ok(dir, ['push', '-q', 'origin', 'main']);
    await p.post(pulls, { title: 'Every kind', source: 'side', target: 'main' });
    const detail = await p.get(`${pulls}/1`);
    expect(detail.body.mergeOptions).toEqual([]);
    expect(detail.body.conflicts).toEqual([
      { path: 'img.bin', conflicts: 1, binary: true, kind: 'content' },
      { path: 'link', conflicts: 1, binary: false, kind: 'type' },
      { path: 'run.sh', conflicts: 1, binary: false, kind: 'mode' },
      { path: 'spot', conflicts: 1, binary: false, kind: 'type' },
      { path: 'two.txt', conflicts: 2, binary: false, kind: 'content' },
    ]);
  });

  it('a push settles pull requests finished outside (source deleted: closed; source in the target: merged); reopen checks the branches', async () => {
    const { dir, pulls, repoId } = await setup();
    await ok(dir, ['checkout', '-q', '-b', 'gone']);
    await commitIn(dir, 'g.txt', 'g\n', 'Gone soon');
    await ok(dir, ['push', '-q', 'origin', 'gone']);
    await p.post(pulls, { title: 'Deleted source', source: 'gone', target: 'main' });
    await p.post(pulls, { title: 'Merged by push', source: 'feature', target: 'main' });
    await ok(dir, ['push', '-q', 'origin', '--delete', 'gone']);
    await ok(dir, ['push', '-q', 'origin', 'feature:main']);
    // Its source in the target already (as when another merge of it lands first): the target changed.
    const late = await p.post(`${pulls}/2/merge`, { strategy: 'squash' });
    expect(late.status).toBe(409);
    expect(late.body).toEqual({ error: 'The target branch changed. Try again.' });
    await deliver(repoId, 'gone', 'main');
    expect((await p.get(pulls)).body.pulls).toEqual([]);
    expect((await p.get(`${pulls}?state=closed`)).body.pulls.map((x: { number: number }) => x.number)).toEqual([1]);
    expect((await p.get(`${pulls}?state=merged`)).body.pulls.map((x: { number: number }) => x.number)).toEqual([2]);
    expect((await p.get(`${pulls}/1`)).body.pull).toMatchObject({ state: 'closed', closedBy: 'system' });
    // Once settled, a merge of it is refused as any finished pull request's is.
    expect((await p.post(`${pulls}/2/merge`, { strategy: 'squash' })).body).toEqual({
      error: 'This pull request is already closed.',
    });
    const gone = await p.post(`${pulls}/1/reopen`);
    expect(gone.status).toBe(409);
    expect(gone.body).toEqual({ error: 'The branch gone or main no longer exists. Push it again to reopen.' });
  });

  it('a GET writes nothing: before its push is delivered, a pull request merged outside reads as it was', async () => {
    const { dir, pulls, repoId } = await setup();
    await p.post(pulls, { title: 'By push', source: 'feature', target: 'main' });
    const before = (await stored(repoId, 1))?.version as number;
    await ok(dir, ['push', '-q', 'origin', 'feature:main']);
    expect((await p.get(pulls)).body.pulls.map((x: { number: number }) => x.number)).toEqual([1]);
    expect((await p.get(`${pulls}/1`)).body.pull.state).toBe('open');
    await p.get(`${pulls}/1/review`);
    expect((await p.get(`${pulls}?state=merged`)).body.pulls).toEqual([]);
    expect((await stored(repoId, 1))?.version).toBe(before);
    // The push delivered, with no GET: merged at the source head, one write.
    await deliver(repoId, 'main');
    const feature = (await ok(dir, ['rev-parse', 'feature'])).trim();
    expect(await stored(repoId, 1)).toMatchObject({ state: 'merged', mergeCommitId: feature, version: before + 1 });
    // Delivered again (events come at least once): nothing more is written.
    const { refChange } = await import('../../shared/ports/git/events');
    await gitPushes(refChange(repoId, 'refs/heads/main', null, feature));
    expect((await stored(repoId, 1))?.version).toBe(before + 1);
    expect((await p.get(pulls)).body.pulls).toEqual([]);
  });

  it('a merge through the platform settles the pull requests whose source it brought into the target', async () => {
    const { dir, pulls, repoId } = await setup();
    await ok(dir, ['checkout', '-q', '-b', 'part', 'main']);
    await commitIn(dir, 'part.txt', 'part\n', 'Part');
    await ok(dir, ['checkout', '-q', '-b', 'whole']);
    await commitIn(dir, 'whole.txt', 'whole\n', 'Whole');
    await ok(dir, ['push', '-q', 'origin', 'part', 'whole']);
    await p.post(pulls, { title: 'Whole', source: 'whole', target: 'main' });
    await p.post(pulls, { title: 'Part', source: 'part', target: 'main' });
    expect((await p.post(`${pulls}/1/merge`, { strategy: 'three-way' })).status).toBe(200);
    // No event delivered: the merge itself settled #2.
    const part = (await ok(dir, ['rev-parse', 'part'])).trim();
    expect(await stored(repoId, 2)).toMatchObject({ state: 'merged', mergeCommitId: part });
    expect((await p.get(`${pulls}?state=merged`)).body.pulls.map((x: { number: number }) => x.number)).toEqual([2, 1]);
  });

  it('a target that moved on settles nothing, whichever commit is newer or both in one second; a source in it is merged', async () => {
    const { dir, pulls, repoId } = await setup();
    // main's next commit is later than any so far; sources from main written before it, after it, in its second.
    const t = Math.floor(Date.now() / 1000) + 3600;
    for (const [branch, at] of [
      ['older', t - 100],
      ['newer', t + 100],
      ['same', t],
      ['landed', t - 50],
    ] as const) {
      await ok(dir, ['checkout', '-q', '-b', branch, 'main']);
      await commitIn(dir, `${branch}.txt`, `${branch}\n`, `Branch ${branch}`, at);
    }
    await ok(dir, ['push', '-q', 'origin', 'older', 'newer', 'same', 'landed']);
    for (const source of ['feature', 'older', 'newer', 'same', 'landed']) {
      expect((await p.post(pulls, { title: source, source, target: 'main' })).status).toBe(201);
    }
    const openSources = async () =>
      (await p.get(pulls)).body.pulls.map((x: { sourceBranch: string }) => x.sourceBranch).sort();

    // main moves on, changing the line `feature` changes: that one conflicts now.
    await ok(dir, ['checkout', '-q', 'main']);
    await commitIn(dir, 'app.txt', 'one\ntwo-main\nthree\n', 'Main edit', t);
    await ok(dir, ['push', '-q', 'origin', 'main']);
    await deliver(repoId, 'main');
    expect(await openSources()).toEqual(['feature', 'landed', 'newer', 'older', 'same']);
    const conflicted = await p.get(`${pulls}/1`);
    expect(conflicted.body.pull).toMatchObject({ state: 'open', sourceBranch: 'feature', mergeCommitId: null });
    expect(conflicted.body.mergeOptions).toEqual([]);
    expect(conflicted.body.conflicts).toEqual([{ path: 'app.txt', conflicts: 1, binary: false, kind: 'content' }]);

    const landedRevision = (await p.get(`${pulls}/5`)).body.pull.revisionId;
    await p.post(`${pulls}/5/approval`, { approve: true, revisionId: landedRevision }, { token: developer.token });
    // landed is merged into main outside the platform, and main moves on past it.
    await ok(dir, ['merge', '-q', '--no-ff', '-m', 'Merge landed', 'landed'], dated(t + 200));
    await commitIn(dir, 'after.txt', 'after\n', 'After', t + 300);
    await ok(dir, ['push', '-q', 'origin', 'main']);
    await deliver(repoId, 'main');
    expect(await openSources()).toEqual(['feature', 'newer', 'older', 'same']);
    const landed = (await ok(dir, ['rev-parse', 'landed'])).trim();
    expect((await p.get(`${pulls}?state=merged`)).body.pulls).toMatchObject([
      { number: 5, sourceBranch: 'landed', state: 'merged', mergeCommitId: landed },
    ]);
    expect((await p.get(`${pulls}?state=closed`)).body.pulls).toEqual([]);
    expect((await p.get(`${pulls}/5/review`)).body).toMatchObject({
      revisionId: landedRevision,
      approvals: [{ id: developer.userId }],
    });
    // The conflicting one is still a pull request like any other: closed and reopened.
    expect((await p.post(`${pulls}/1/close`)).body).toEqual({ state: 'closed' });
    expect((await p.post(`${pulls}/1/reopen`)).body).toEqual({ state: 'open' });
  });

  it('close then reopen: a new pull request id under the same number, approvals start over', async () => {
    const { pulls } = await setup();
    await p.post(pulls, { title: 'Again', source: 'feature', target: 'main' });
    const first = (await p.get(`${pulls}/1`)).body.pull;
    await p.post(`${pulls}/1/approval`, { approve: true, revisionId: first.revisionId }, { token: developer.token });
    expect((await p.post(`${pulls}/1/close`)).body).toEqual({ state: 'closed' });
    expect((await p.get(`${pulls}/1`)).body.pull.revisionId).toBeNull();
    // Another pull request takes the pair meanwhile: reopening names it.
    const other = await p.post(pulls, { title: 'Other', source: 'feature', target: 'main' });
    const taken = await p.post(`${pulls}/1/reopen`);
    expect(taken.body).toEqual({
      error: `Pull request #${other.body.pull.number} is already open for these branches.`,
    });
    await p.post(`${pulls}/${other.body.pull.number}/close`);
    expect((await p.post(`${pulls}/1/reopen`)).body).toEqual({ state: 'open' });
    const reopened = (await p.get(`${pulls}/1`)).body.pull;
    expect(reopened.pullRequestId).not.toBe(first.pullRequestId);
    expect(reopened.previousPullRequestIds).toEqual([first.pullRequestId]);
    expect(reopened.revisionId).not.toBe(first.revisionId);
    expect((await p.get(`${pulls}/1/review`)).body.approvals).toEqual([]);
  });

  it('reopen refuses branches at the same commit', async () => {
    const { dir, pulls } = await setup();
    await p.post(pulls, { title: 'Same', source: 'feature', target: 'main' });
    await p.post(`${pulls}/1/close`);
    await ok(dir, ['push', '-q', 'origin', 'feature:main']);
    expect((await p.post(`${pulls}/1/reopen`)).body).toEqual({
      error: 'The branches point at the same commit; there is nothing to merge.',
    });
    const r = await run(dir, ['status']);
    expect(r.code).toBe(0);
  });
});
