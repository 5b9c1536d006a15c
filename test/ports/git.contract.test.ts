import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { onPlatformEvents, type PlatformEvent } from '../../shared/kernel/events/bus';
import { newId } from '../../shared/kernel/store/ids';
import { refChange } from '../../shared/ports/git/events';
import { localGit, repoPath } from '../../shared/ports/git/local';
import { GitChangeError, GitConflict, GitInputError, type GitPort } from '../../shared/ports/git/port';

/**
 * The git port's contract, held by the local adapter on its real engine (the git CLI on bare
 * repositories): web commits through a temporary index with compare-and-swap on the branch,
 * refs, resolution, reads, archives and the smart-HTTP transport; hostile names and paths never
 * reach git. (The CodeCommit adapter's calls: test/git-http/codecommit.test.ts.)
 */
let port: GitPort;
const author = { name: 'Ada', email: 'ada@example.com', date: Date.UTC(2026, 10, 25) };

beforeAll(() => {
  process.env.DATA_DIR = mkdtempSync(join(process.env.TEST_DATA_DIR as string, 'git-'));
  port = localGit();
});

async function newRepo(): Promise<string> {
  const repoId = newId('res_');
  await port.create(repoId, 'main');
  return repoId;
}

const put = (path: string, text: string) => ({ action: 'put' as const, path, content: Buffer.from(text) });

it('creates an empty repository once; a second create keeps it', async () => {
  const repoId = await newRepo();
  await port.create(repoId, 'main');
  expect(await port.refs(repoId)).toEqual({ branches: [], tags: [] });
  expect(
    execFileSync('git', ['-C', repoPath(repoId), 'symbolic-ref', 'HEAD'])
      .toString()
      .trim(),
  ).toBe('refs/heads/main');
});

it('commits to an empty repository, then on its parent; an unchanged tree writes nothing', async () => {
  const repoId = await newRepo();
  const first = await port.commit(repoId, {
    branch: 'main',
    parent: null,
    changes: [put('README.md', '# Hello\n'), put('src/a.txt', 'a')],
    message: 'First',
    author,
  });
  expect(first.commitId).toMatch(/^[0-9a-f]{40}$/);
  const second = await port.commit(repoId, {
    branch: 'main',
    parent: first.commitId,
    changes: [
      { action: 'move', from: 'src/a.txt', path: 'src/b.txt' },
      { action: 'delete', path: 'README.md' },
    ],
    message: 'Second\n\nWith a body.',
    author,
  });
  const none = await port.commit(repoId, {
    branch: 'main',
    parent: second.commitId,
    changes: [put('src/b.txt', 'a')],
    message: 'Nothing',
    author,
  });
  expect(none).toEqual({ commitId: null });
  const { files } = await port.files(repoId, second.commitId as string, 100);
  expect(files.map((f) => f.path)).toEqual(['src/b.txt']);
  expect(await port.commitInfo(repoId, second.commitId as string)).toEqual({
    id: second.commitId,
    message: 'Second\n\nWith a body.',
    author: { name: 'Ada', email: 'ada@example.com', date: author.date },
    committedAt: author.date,
    parents: [first.commitId],
  });
  expect((await port.log(repoId, { from: second.commitId as string, skip: 0, limit: 10 })).map((c) => c.id)).toEqual([
    second.commitId,
    first.commitId,
  ]);
  expect(
    (await port.log(repoId, { from: second.commitId as string, path: 'README.md', skip: 0, limit: 10 })).map(
      (c) => c.id,
    ),
  ).toEqual([second.commitId, first.commitId]);
  // What git itself thinks of the repository.
  execFileSync('git', ['-C', repoPath(repoId), 'fsck', '--strict']);
});

it('fifty commits on one parent: one lands, forty-nine are GitConflict', async () => {
  const repoId = await newRepo();
  const { commitId: base } = await port.commit(repoId, {
    branch: 'main',
    parent: null,
    changes: [put('n', '0')],
    message: 'base',
    author,
  });
  const results = await Promise.allSettled(
    Array.from({ length: 50 }, (_, i) =>
      port.commit(repoId, {
        branch: 'main',
        parent: base,
        changes: [put('n', String(i + 1))],
        message: `c${i}`,
        author,
      }),
    ),
  );
  expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
  const failed = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
  expect(failed).toHaveLength(49);
  expect(failed.every((r) => r.reason instanceof GitConflict)).toBe(true);
});

it('branches and tags: compare-and-swap creates and deletes; resolution by branch, tag or commit', async () => {
  const repoId = await newRepo();
  const { commitId } = await port.commit(repoId, {
    branch: 'main',
    parent: null,
    changes: [put('f', 'x')],
    message: 'm',
    author,
  });
  const sha = commitId as string;
  const creates = await Promise.allSettled(
    Array.from({ length: 20 }, () => port.setRef(repoId, 'refs/heads/feature', sha, null)),
  );
  expect(creates.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
  await port.setRef(repoId, 'refs/tags/v1', sha, null);
  const annotate = (tag: string, target: string) =>
    execFileSync('git', [
      '-C',
      repoPath(repoId),
      '-c',
      'user.name=A',
      '-c',
      'user.email=a@b',
      'tag',
      '-a',
      tag,
      '-m',
      tag,
      target,
    ]);
  annotate('v2', sha);
  const refs = await port.refs(repoId);
  expect(refs.branches).toEqual([
    { name: 'feature', commit: sha },
    { name: 'main', commit: sha },
  ]);
  expect(refs.tags).toEqual([
    { name: 'v1', annotated: false, object: sha, commit: sha },
    { name: 'v2', annotated: true, object: expect.not.stringMatching(sha), commit: sha },
  ]);
  expect(
    execFileSync('git', ['-C', repoPath(repoId), 'config', '--get-regexp', '^(http|receive|core.logallref|gc)'])
      .toString()
      .trim()
      .split('\n'),
  ).toEqual([
    'http.receivepack true',
    'receive.fsckobjects true',
    'receive.denynonfastforwards false',
    'core.logallrefupdates true',
    'gc.auto 0',
  ]);
  // Branches by name at one look: exact names only (not the refs below them), in the order asked.
  await port.setRef(repoId, 'refs/heads/deep/er', sha, null);
  expect(await port.branchHeads(repoId, ['main', 'nope', 'deep', 'deep/er', 'v1', '-x', 'feature'])).toEqual([
    sha,
    null,
    null,
    sha,
    null,
    null,
    sha,
  ]);
  // A tag of a tag resolves to its commit, as rev-parse peels it.
  annotate('v3', 'v2');
  expect(await port.resolve(repoId, 'v3')).toEqual({ kind: 'tag', commit: sha });
  expect(await port.resolve(repoId, 'feature')).toEqual({ kind: 'branch', commit: sha });
  expect(await port.resolve(repoId, 'v2')).toEqual({ kind: 'tag', commit: sha });
  expect(await port.resolve(repoId, sha.slice(0, 8))).toEqual({ kind: 'commit', commit: sha });
  for (const rev of ['nope', '--upload-pack=touch /tmp/x', '-x', 'a..b', `${'f'.repeat(40)}`, 'HEAD@{1}']) {
    expect(await port.resolve(repoId, rev)).toBeNull();
  }
  await expect(port.setRef(repoId, 'refs/heads/feature', null, 'f'.repeat(40))).rejects.toBeInstanceOf(GitConflict);
  await port.setRef(repoId, 'refs/heads/feature', null, sha);
  expect((await port.refs(repoId)).branches.map((b) => b.name)).toEqual(['deep/er', 'main']);
  for (const ref of ['refs/heads/--force', 'refs/heads/a..b', 'refs/remotes/x', 'refs/heads/a b']) {
    await expect(port.setRef(repoId, ref, sha, null)).rejects.toBeInstanceOf(GitInputError);
  }
});

it('hostile paths and missing files never reach git as changes', async () => {
  const repoId = await newRepo();
  for (const path of [
    '/etc/passwd',
    '../x',
    'a/../../x',
    '.git/config',
    'a/.GIT/hooks/pre-receive',
    'a\0b',
    'a//b',
    `${'x'.repeat(5000)}`,
  ]) {
    await expect(
      port.commit(repoId, { branch: 'main', parent: null, changes: [put(path, 'x')], message: 'm', author }),
    ).rejects.toBeInstanceOf(GitInputError);
  }
  await expect(
    port.commit(repoId, {
      branch: 'main',
      parent: null,
      changes: [{ action: 'delete', path: 'missing' }],
      message: 'm',
      author,
    }),
  ).rejects.toBeInstanceOf(GitChangeError);
  expect(await port.refs(repoId)).toEqual({ branches: [], tags: [] });
});

it('reads files and blobs up to a size, lists a tree, makes archives, serves smart HTTP', async () => {
  const repoId = await newRepo();
  const big = Buffer.alloc(50_000, 7);
  const { commitId } = await port.commit(repoId, {
    branch: 'main',
    parent: null,
    changes: [put('a.txt', 'hello'), { action: 'put', path: 'bin/big.dat', content: big }],
    message: 'files',
    author,
  });
  const sha = commitId as string;
  expect(await port.readFile(repoId, sha, 'a.txt', 100)).toEqual({ content: Buffer.from('hello'), size: 5 });
  expect(await port.readFile(repoId, sha, 'bin/big.dat', 1000)).toEqual({ tooLarge: true, size: 50_000 });
  expect(await port.readFile(repoId, sha, 'nope.txt', 1000)).toBeNull();
  expect(await port.readFile(repoId, sha, 'bin', 1000)).toBeNull();
  const { files, truncated } = await port.files(repoId, sha, 1);
  expect({ files: files.map((f) => f.path), truncated }).toEqual({ files: ['a.txt'], truncated: true });
  expect(await port.readBlob(repoId, files[0]?.blobId as string, 100)).toEqual({
    content: Buffer.from('hello'),
    size: 5,
  });
  const chunks: Buffer[] = [];
  for await (const c of await port.archive(repoId, sha, 'tar.gz')) chunks.push(c as Buffer);
  expect(gunzipSync(Buffer.concat(chunks)).includes(Buffer.from('hello'))).toBe(true);
  const res = await port.http(repoId, {
    method: 'GET',
    service: 'info/refs',
    query: 'service=git-upload-pack',
    user: 'usr_test',
  });
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toBe('application/x-git-upload-pack-advertisement');
  let body = '';
  for await (const c of res.body) body += c.toString();
  expect(body).toContain(`${sha} refs/heads/main`);
});

describe('merges', () => {
  const committer = { name: 'Grace', email: 'grace@example.com', date: Date.UTC(2026, 10, 26) };
  /** `feature` merged into `main` three-way, as a pull request's merge does. */
  const mergeFeature = (t: { repoId: string; main: string; feature: string }) =>
    port.merge(t.repoId, {
      target: 'main',
      targetCommit: t.main,
      source: t.feature,
      strategy: 'three-way',
      message: 'Merge pull request #1 from feature',
      author,
      committer,
    });
  /** main with one commit, and a feature branch one commit ahead; main optionally moved on too. */
  async function branches(mainMoves: boolean) {
    const repoId = await newRepo();
    const base = (
      await port.commit(repoId, {
        branch: 'main',
        parent: null,
        changes: [put('a.txt', 'a\n')],
        message: 'Base',
        author,
      })
    ).commitId as string;
    await port.setRef(repoId, 'refs/heads/feature', base, null);
    const feature = (
      await port.commit(repoId, {
        branch: 'feature',
        parent: base,
        changes: [put('b.txt', 'b\n')],
        message: 'Feature',
        author,
      })
    ).commitId as string;
    const main = mainMoves
      ? ((
          await port.commit(repoId, {
            branch: 'main',
            parent: base,
            changes: [put('c.txt', 'c\n')],
            message: 'Main',
            author,
          })
        ).commitId as string)
      : base;
    return { repoId, base, feature, main };
  }
  const parents = (repoId: string, sha: string) =>
    execFileSync('git', ['-C', repoPath(repoId), 'log', '-1', '--format=%P|%an|%cn|%s', sha])
      .toString()
      .trim();

  it('fast-forward moves the target to the source; refused once the target moved on', async () => {
    const ff = await branches(false);
    const done = await port.merge(ff.repoId, {
      target: 'main',
      targetCommit: ff.main,
      source: ff.feature,
      strategy: 'fast-forward',
      message: '',
      author,
      committer,
    });
    expect(done.commitId).toBe(ff.feature);
    expect((await port.resolve(ff.repoId, 'main'))?.commit).toBe(ff.feature);
    const moved = await branches(true);
    await expect(
      port.merge(moved.repoId, {
        target: 'main',
        targetCommit: moved.main,
        source: moved.feature,
        strategy: 'fast-forward',
        message: '',
        author,
        committer,
      }),
    ).rejects.toThrow(GitChangeError);
  });

  it('isAncestor follows the history, not commit times: a target that moved on does not contain the source', async () => {
    const t = await branches(true);
    // Main's commit is written after the feature's: a walk by commit time would meet it first.
    expect(await port.isAncestor(t.repoId, t.feature, t.main)).toBe(false);
    expect(await port.isAncestor(t.repoId, t.main, t.feature)).toBe(false);
    expect(await port.isAncestor(t.repoId, t.base, t.main)).toBe(true);
    expect(await port.isAncestor(t.repoId, t.feature, t.feature)).toBe(true);
    const { commitId } = await mergeFeature(t);
    expect(await port.isAncestor(t.repoId, t.feature, commitId)).toBe(true);
    await expect(port.isAncestor(t.repoId, '0'.repeat(40), t.main)).rejects.toThrow();
    await expect(port.isAncestor(t.repoId, '--all', t.main)).rejects.toThrow(GitInputError);
  });

  it('squash writes one commit on the target (author and committer kept apart); three-way has both parents', async () => {
    const s = await branches(true);
    const squashed = await port.merge(s.repoId, {
      target: 'main',
      targetCommit: s.main,
      source: s.feature,
      strategy: 'squash',
      message: 'Feature (#1)',
      author,
      committer,
    });
    expect(parents(s.repoId, squashed.commitId)).toBe(`${s.main}|Ada|Grace|Feature (#1)`);
    expect((await port.files(s.repoId, squashed.commitId, 10)).files.map((f) => f.path)).toEqual([
      'a.txt',
      'b.txt',
      'c.txt',
    ]);
    const t = await branches(true);
    const merged = await mergeFeature(t);
    expect(parents(t.repoId, merged.commitId)).toBe(
      `${t.main} ${t.feature}|Ada|Grace|Merge pull request #1 from feature`,
    );
  });

  it("a merge is the target branch's ref event, as a push is (so linked projects deploy it)", async () => {
    const t = await branches(true);
    const seen: PlatformEvent[] = [];
    const stop = onPlatformEvents(async (event) => {
      seen.push(event);
    });
    try {
      const merged = await mergeFeature(t);
      expect(seen).toEqual([refChange(t.repoId, 'refs/heads/main', t.main, merged.commitId)]);
    } finally {
      stop();
    }
  });

  it('a target that is not where the caller read it is GitConflict; conflicting changes are GitChangeError', async () => {
    const s = await branches(true);
    await expect(
      port.merge(s.repoId, {
        target: 'main',
        targetCommit: s.base,
        source: s.feature,
        strategy: 'three-way',
        message: 'x',
        author,
        committer,
      }),
    ).rejects.toThrow(GitConflict);
    const repoId = await newRepo();
    const base = (
      await port.commit(repoId, {
        branch: 'main',
        parent: null,
        changes: [put('a.txt', 'a\n')],
        message: 'Base',
        author,
      })
    ).commitId as string;
    await port.setRef(repoId, 'refs/heads/other', base, null);
    const ours = (
      await port.commit(repoId, {
        branch: 'main',
        parent: base,
        changes: [put('a.txt', 'ours\n')],
        message: 'Ours',
        author,
      })
    ).commitId as string;
    const theirs = (
      await port.commit(repoId, {
        branch: 'other',
        parent: base,
        changes: [put('a.txt', 'theirs\n')],
        message: 'Theirs',
        author,
      })
    ).commitId as string;
    await expect(
      port.merge(repoId, {
        target: 'main',
        targetCommit: ours,
        source: theirs,
        strategy: 'squash',
        message: 'x',
        author,
        committer,
      }),
    ).rejects.toThrow(GitChangeError);
    expect((await port.resolve(repoId, 'main'))?.commit).toBe(ours);
  });
});

it('diff: one patch cut per file gives each file its own hunks, binary files none', async () => {
  const repoId = await newRepo();
  const base = (
    await port.commit(repoId, {
      branch: 'main',
      parent: null,
      changes: [put('a.txt', 'a\n'), put('z.txt', 'z\n')],
      message: 'Base',
      author,
    })
  ).commitId as string;
  const head = (
    await port.commit(repoId, {
      branch: 'main',
      parent: base,
      changes: [
        put('a.txt', 'a\nA\n'),
        { action: 'put', path: 'b.bin', content: Buffer.from([0, 1, 2]) },
        put('m.txt', 'm1\nm2\n'),
        { action: 'delete', path: 'z.txt' },
      ],
      message: 'Head',
      author,
    })
  ).commitId as string;
  const whole = await port.diff(repoId, base, head, { maxFiles: 300, maxLines: 1000 });
  expect(whole.files.map((f) => [f.path, f.change, f.additions, f.deletions, f.binary ?? false])).toEqual([
    ['a.txt', 'modified', 1, 0, false],
    ['b.bin', 'added', 0, 0, true],
    ['m.txt', 'added', 2, 0, false],
    ['z.txt', 'deleted', 0, 1, false],
  ]);
  expect(whole.files.map((f) => f.hunks.flatMap((h) => h.lines))).toEqual([[' a', '+A'], [], ['+m1', '+m2'], ['-z']]);
  // Past the line budget, file by file: the same hunks for the files that fit, the rest collapsed.
  const budget = await port.diff(repoId, base, head, { maxFiles: 300, maxLines: 3 });
  expect(budget.files.map((f) => (f.collapsed ? 'collapsed' : f.hunks.flatMap((h) => h.lines)))).toEqual([
    [' a', '+A'],
    [],
    ['+m1', '+m2'],
    'collapsed',
  ]);
});

it('diff: a file that became a link keeps its hunks, and the files after it theirs; paths are never patterns', async () => {
  const repoId = await newRepo();
  const base = (
    await port.commit(repoId, {
      branch: 'main',
      parent: null,
      changes: [put('a*b', 'x\n'), put('ab', 'x\n'), put('f', 'f\n'), put('z.txt', 'z\n')],
      message: 'Base',
      author,
    })
  ).commitId as string;
  // `f` becomes a link to z.txt (git writes that as two patches under one header).
  execFileSync('git', ['fast-import', '--quiet'], {
    cwd: repoPath(repoId),
    input:
      `commit refs/heads/main\ncommitter Ada <ada@example.com> 1764028800 +0000\ndata 4\nHead\nfrom ${base}\n` +
      'M 120000 inline f\ndata 5\nz.txt\nM 100644 inline a*b\ndata 4\nx\ny\nM 100644 inline ab\ndata 4\nx\nw\n' +
      `M 100644 inline z.txt\ndata 4\nz\nZ\nM 100644 inline big.txt\ndata 10\n1\n2\n3\n4\n5\n\n`,
  });
  const head = (await port.resolve(repoId, 'main'))?.commit as string;
  const lines = (d: Awaited<ReturnType<GitPort['diff']>>) =>
    d.files.map((f) => [f.path, f.change, f.collapsed ? 'collapsed' : f.hunks.flatMap((h) => h.lines)]);
  expect(lines(await port.diff(repoId, base, head, { maxFiles: 300, maxLines: 1000 }))).toEqual([
    ['a*b', 'modified', [' x', '+y']],
    ['ab', 'modified', [' x', '+w']],
    ['big.txt', 'added', ['+1', '+2', '+3', '+4', '+5']],
    ['f', 'modified', ['-f', '+z.txt', '\\ No newline at end of file']],
    ['z.txt', 'modified', [' z', '+Z']],
  ]);
  // Past the line budget: the files that fit, by their own names (`a*b` is not a pattern matching `ab`).
  expect(lines(await port.diff(repoId, base, head, { maxFiles: 300, maxLines: 4 }))).toEqual([
    ['a*b', 'modified', [' x', '+y']],
    ['ab', 'modified', [' x', '+w']],
    ['big.txt', 'added', 'collapsed'],
    ['f', 'modified', ['-f', '+z.txt', '\\ No newline at end of file']],
    ['z.txt', 'modified', 'collapsed'],
  ]);
});
