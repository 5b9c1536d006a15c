import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { appendFile, mkdir, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { PassThrough } from 'node:stream';
import { publishEvent } from '../../kernel/events/bus';
import { readEnv } from '../../kernel/ground/env';
import { describeError, log } from '../../kernel/ground/log';
import { assertSafeId, dataDir } from '../../kernel/tenancy/paths';
import { refChange } from './events';
import { httpBackend } from './http-backend';
import { isCommitId, pathProblem, refNameProblem } from './names';
import type { GitBranch, GitChange, GitHttpRequest, GitHttpResponse, GitTag } from './port';
import {
  type GitChangedFile,
  GitChangeError,
  type GitCommit,
  GitConflict,
  type GitConflictEntry,
  type GitFile,
  type GitFileContent,
  GitInputError,
  type GitPerson,
  type GitPort,
  GitTooFar,
  type GitTreeEntry,
  type MergeStrategy,
  TOO_FAR_COMMITS,
} from './port';

/**
 * Repositories on one machine: bare repositories in `DATA_DIR/git/<repoId>.git`, driven by the
 * git CLI through execFile (never a shell), with the system's and the user's git configuration
 * ignored, no prompt, and `--end-of-options` (or a `--` before paths) wherever a caller's value
 * follows options. Web commits are written through a temporary index (no work tree) and land with
 * `update-ref <ref> <new> <old>`, git's own compare-and-swap.
 */
export const gitRoot = () => join(dataDir(), 'git');
export const repoPath = (repoId: string) => join(gitRoot(), `${assertSafeId(repoId)}.git`);

const ZERO = '0'.repeat(40);
const MAX_BUFFER = 256 * 1024 * 1024;

const gitEnv = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => ({
  PATH: readEnv('PATH') ?? '/usr/bin:/bin',
  HOME: gitRoot(),
  LANG: 'C',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_TERMINAL_PROMPT: '0',
  ...extra,
});

class GitFailed extends Error {
  constructor(
    readonly args: string[],
    readonly code: number | string | null,
    readonly stderr: string,
  ) {
    super(`git ${args[0]} failed (${code}): ${stderr.trim().slice(0, 500)}`);
    this.name = 'GitFailed';
  }
}

/** Runs git in `cwd`; resolves stdout (bytes), rejects GitFailed. */
function git(
  cwd: string,
  args: string[],
  options: { input?: Buffer | string; env?: Record<string, string> } = {},
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      'git',
      ['-c', 'core.hooksPath=/dev/null', ...args],
      { cwd, env: gitEnv(options.env), encoding: 'buffer', maxBuffer: MAX_BUFFER },
      (err, stdout, stderr) => {
        if (err) reject(new GitFailed(args, (err as NodeJS.ErrnoException).code ?? null, stderr.toString('utf8')));
        else resolve(stdout);
      },
    );
    // git exits without reading stdin when it needs none: a closed pipe is not an error here.
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(options.input);
  });
}

const text = async (cwd: string, args: string[], options?: Parameters<typeof git>[2]) =>
  (await git(cwd, args, options)).toString('utf8');

function checkRef(name: string): void {
  const problem = refNameProblem(name);
  if (problem) throw new GitInputError(`${JSON.stringify(name.slice(0, 100))} ${problem}.`);
}

function checkPath(path: string): void {
  const problem = pathProblem(path);
  if (problem) throw new GitInputError(`${path.slice(0, 200)}: ${problem}`);
}

function checkFullRef(ref: string): void {
  const m = /^refs\/(heads|tags)\/(.+)$/.exec(ref);
  if (!m) throw new GitInputError(`${ref} is not a branch or tag`);
  checkRef(m[2] as string);
}

function checkSha(sha: string): void {
  if (!/^[0-9a-f]{40}$/.test(sha)) throw new GitInputError(`${sha.slice(0, 50)} is not a commit id`);
}

/**
 * `%H %P %an %ae %at %ct` separated by US (0x1f), then the message (`%B`, anything but NUL);
 * with `-z`, commits are separated by NUL.
 */
const LOG_FORMAT = ['-z', '--format=%H%x1f%P%x1f%an%x1f%ae%x1f%at%x1f%ct%x1f%B'];

function parseCommits(out: string): GitCommit[] {
  return out
    .split('\0')
    .filter((r) => r.length > 0)
    .map((record) => {
      const [id, parents, name, email, at, ct, ...message] = record.split('\x1f');
      return {
        id: id as string,
        message: message.join('\x1f').replace(/\n$/, ''),
        author: { name, email, date: Number(at) * 1000 },
        committedAt: ct ? Number(ct) * 1000 : null,
        parents: parents ? parents.split(' ') : [],
      };
    });
}

const exists = async (cwd: string, ref: string) => {
  try {
    return (await text(cwd, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`])).trim();
  } catch {
    return undefined;
  }
};

async function readObject(cwd: string, spec: string, maxBytes: number): Promise<GitFileContent> {
  // Its type and size in one run (`<spec> missing` when there is no such object).
  const [type, bytes] = (
    await text(cwd, ['cat-file', '--batch-check=%(objecttype) %(objectsize)'], { input: `${spec}\n` }).catch(() => '')
  )
    .trim()
    .split(' ');
  if (type !== 'blob') return null;
  const size = Number(bytes);
  if (size > maxBytes) return { tooLarge: true, size };
  return { content: await git(cwd, ['cat-file', 'blob', spec]), size };
}

/** git's empty tree: the base of a root commit's changes. */
const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

/** The hunks of one file's unified diff. */
function parseHunks(patch: string): GitChangedFile['hunks'] {
  const hunks: GitChangedFile['hunks'] = [];
  let current: GitChangedFile['hunks'][number] | undefined;
  for (const line of patch.split('\n')) {
    const m = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/.exec(line);
    if (m) {
      current = {
        oldStart: Number(m[1]),
        oldLines: m[2] === undefined ? 1 : Number(m[2]),
        newStart: Number(m[3]),
        newLines: m[4] === undefined ? 1 : Number(m[4]),
        lines: [],
      };
      hunks.push(current);
    } else if (line.startsWith('diff --git ')) current = undefined;
    else if (current && /^[ +\-\\]/.test(line)) current.lines.push(line);
  }
  return hunks;
}

/**
 * GitTooFar when `base` and `head` are more than TOO_FAR_COMMITS commits apart (both sides of
 * their merge base together), as CodeCommit's TipsDivergenceExceeded: one count, capped.
 */
async function nearEnough(cwd: string, base: string, head: string): Promise<void> {
  const apart = Number(
    await text(cwd, [
      'rev-list',
      '--count',
      `--max-count=${TOO_FAR_COMMITS + 1}`,
      '--end-of-options',
      `${base}...${head}`,
    ]),
  );
  if (apart > TOO_FAR_COMMITS)
    throw new GitTooFar(`${base} and ${head} are more than ${TOO_FAR_COMMITS} commits apart.`);
}

/** The merge base of `base` and `head` (null: unrelated histories), found while nearEnough counts. */
async function mergeBaseNear(cwd: string, base: string, head: string): Promise<string | null> {
  const [, found] = await Promise.all([
    nearEnough(cwd, base, head),
    text(cwd, ['merge-base', '--end-of-options', base, head]).catch(() => ''),
  ]);
  return found.trim() || null;
}

/** The conflicts a merge of `head` into `base` would meet (none: it merges cleanly). */
async function mergeTreeConflicts(cwd: string, base: string, head: string): Promise<GitConflictEntry[]> {
  try {
    await git(cwd, ['merge-tree', '--write-tree', '--name-only', '--no-messages', '-z', base, head]);
    return [];
  } catch (err) {
    if (!(err instanceof GitFailed) || err.code !== 1) throw err;
  }
  // Conflicted: git's own messages say what kind each conflict is (-z: `<count> NUL <paths…> NUL
  // <type> NUL <message> NUL` after the stages and an empty entry); the merged tree holds the markers.
  const out = await new Promise<string>((resolve) => {
    execFile(
      'git',
      ['-c', 'core.hooksPath=/dev/null', 'merge-tree', '--write-tree', '-z', base, head],
      { cwd, env: gitEnv(), maxBuffer: MAX_BUFFER },
      (_err, stdout) => resolve(String(stdout)),
    );
  });
  const fields = out.split('\0');
  const tree = fields[0] as string;
  const modes = new Map<string, Set<string>>();
  // Each side's blob (stages 2 and 3): the same blob under two modes is a conflict of modes alone.
  const blobs = new Map<string, Set<string>>();
  let i = 1;
  for (; i < fields.length && fields[i] !== ''; i++) {
    const m = /^(\d{6}) ([0-9a-f]{40}) (\d)\t(.+)$/.exec(fields[i] as string);
    if (!m) continue;
    const path = m[4] as string;
    modes.set(path, (modes.get(path) ?? new Set()).add(m[1] as string));
    if (m[3] !== '1') blobs.set(path, (blobs.get(path) ?? new Set()).add(m[2] as string));
  }
  const messages: { paths: string[]; type: string }[] = [];
  for (i++; i < fields.length; ) {
    const count = Number(fields[i]);
    if (!Number.isInteger(count) || count < 1) break;
    messages.push({ paths: fields.slice(i + 1, i + 1 + count), type: fields[i + 1 + count] ?? '' });
    i += count + 3;
  }
  // git records a displaced side as `<path>~<side>`: its conflicts are the path's.
  const alias = new Map<string, string>();
  for (const m of messages) {
    if (m.paths.length < 2) continue;
    const [original, ...displaced] = [...m.paths].sort((a, b) => a.length - b.length) as [string, ...string[]];
    for (const d of displaced) if (d.startsWith(`${original}~`)) alias.set(d, original);
  }
  const found = new Map<string, GitConflictEntry>();
  for (const { paths, type } of messages) {
    if (!type.startsWith('CONFLICT')) continue;
    const path = alias.get(paths[0] as string) ?? (paths[0] as string);
    const entry = found.get(path) ?? { path, conflicts: 1, binary: false, kind: 'content' as const };
    if (type === 'CONFLICT (binary)') entry.binary = true;
    else if (type === 'CONFLICT (file/directory)') entry.kind = 'type';
    else if (type === 'CONFLICT (distinct modes)' || type === 'CONFLICT (distinct types)') {
      const both = paths.flatMap((p) => [...(modes.get(p) ?? [])]);
      entry.kind = both.every((m) => m === '100644' || m === '100755') ? 'mode' : 'type';
    } else if (
      (type === 'CONFLICT (add/add)' || type === 'CONFLICT (contents)') &&
      blobs.get(path)?.size === 1 &&
      (modes.get(path)?.size ?? 0) > 1
    ) {
      // Both sides hold the same content, one executable and one not.
      entry.kind = 'mode';
    }
    found.set(path, entry);
  }
  // Content conflicts of text files: as many as the merged file has conflict markers.
  await Promise.all(
    [...found.values()]
      .filter((e) => e.kind === 'content' && !e.binary)
      .map(async (e) => {
        const merged = await text(cwd, ['cat-file', 'blob', `${tree}:${e.path}`]).catch(() => '');
        e.conflicts = Math.max(1, merged.split('\n').filter((l) => l.startsWith('<<<<<<< ')).length);
      }),
  );
  return [...found.values()].sort((a, b) => (a.path < b.path ? -1 : 1));
}

/**
 * The patch of `range` (of `paths` only, taken literally, when any are given), one part per file in
 * path order. git writes a change of type (a file that became a link…) as two parts under one
 * header: they are one file's.
 */
async function patchesOf(cwd: string, range: string[], paths: string[]): Promise<string[]> {
  const patch = await text(
    cwd,
    ['diff', '--no-color', '--no-ext-diff', '-U3', ...range, ...(paths.length > 0 ? ['--', ...paths] : [])],
    { env: { GIT_LITERAL_PATHSPECS: '1' } },
  );
  const parts: string[] = [];
  let header = '';
  for (const part of patch.split(/^(?=diff --git )/m)) {
    if (!part.startsWith('diff --git ')) continue;
    const first = part.slice(0, part.indexOf('\n'));
    if (first === header) parts[parts.length - 1] += part;
    else parts.push(part);
    header = first;
  }
  return parts;
}

/**
 * The commits the full ref names `refs` name, by ref (absent: no such ref, or not a commit), with
 * one for-each-ref: tags are peeled, and a tag of a tag resolved as rev-parse would.
 */
async function commitsOf(cwd: string, refs: string[]): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  if (refs.length === 0) return found;
  // A pattern also matches the refs below it (`refs/heads/a` matches `refs/heads/a/b`): only exact names count.
  const wanted = new Set(refs);
  const out = await text(cwd, [
    'for-each-ref',
    '--format=%(refname)%00%(objecttype)%00%(objectname)%00%(*objecttype)%00%(*objectname)',
    '--',
    ...refs,
  ]);
  for (const line of out.split('\n')) {
    const [ref, type, object, peeledType, peeled] = line.split('\0') as [string, string, string, string, string];
    if (!wanted.has(ref)) continue;
    if (type === 'commit') found.set(ref, object);
    else if (peeledType === 'commit') found.set(ref, peeled);
    else if (peeledType === 'tag') {
      const commit = await exists(cwd, ref);
      if (commit) found.set(ref, commit);
    }
  }
  return found;
}

/** Every branch and tag with the object it points at. */
async function refMap(cwd: string): Promise<Map<string, string>> {
  const out = await text(cwd, ['for-each-ref', '--format=%(objectname) %(refname)', 'refs/heads', 'refs/tags']);
  return new Map(
    out
      .split('\n')
      .filter(Boolean)
      .map((l) => {
        const [object, ref] = l.split(' ') as [string, string];
        return [ref, object] as const;
      }),
  );
}

const repo = (repoId: string) => {
  const path = repoPath(repoId);
  if (!existsSync(path)) throw new Error(`The repository ${repoId} has no storage.`);
  return path;
};

class LocalGit implements GitPort {
  async listsTags(): Promise<boolean> {
    return true;
  }
  async create(repoId: string, defaultBranch: string): Promise<void> {
    checkRef(defaultBranch);
    const path = repoPath(repoId);
    if (existsSync(join(path, 'HEAD'))) return;
    await mkdir(gitRoot(), { recursive: true, mode: 0o700 });
    // Made beside it and renamed into place: a half-made repository is never seen.
    const temp = `${path}.${randomBytes(4).toString('hex')}.tmp`;
    await git(gitRoot(), ['init', '--quiet', '--bare', `--initial-branch=${defaultBranch}`, '--', temp]);
    // Its settings appended to the config git init wrote (a section may appear twice), without a git run each.
    await appendFile(
      join(temp, 'config'),
      '[http]\n\treceivepack = true\n[receive]\n\tfsckObjects = true\n\tdenyNonFastForwards = false\n' +
        '[core]\n\tlogAllRefUpdates = true\n[gc]\n\tauto = 0\n',
    );
    await rename(temp, path).catch(async (err: NodeJS.ErrnoException) => {
      await rm(temp, { recursive: true, force: true });
      // Created meanwhile by a retry: that one stands.
      if (!existsSync(join(path, 'HEAD'))) throw err;
    });
  }

  async pushTarget(repoId: string): Promise<{ url: string; config: string[] }> {
    return { url: repoPath(repoId), config: [] };
  }

  async remove(repoId: string): Promise<void> {
    await rm(repoPath(repoId), { recursive: true, force: true });
  }

  async refs(repoId: string): Promise<{ branches: GitBranch[]; tags: GitTag[] }> {
    const out = await text(repo(repoId), [
      'for-each-ref',
      '--format=%(objectname) %(objecttype) %(*objectname) %(refname)',
      'refs/heads',
      'refs/tags',
    ]);
    const branches: { name: string; commit: string }[] = [];
    const tags: { name: string; annotated: boolean; object: string; commit: string }[] = [];
    for (const line of out.split('\n').filter(Boolean)) {
      const [object, type, peeled, ref] = line.split(' ') as [string, string, string, string];
      if (ref.startsWith('refs/heads/')) branches.push({ name: ref.slice(11), commit: object });
      else if (ref.startsWith('refs/tags/')) {
        const annotated = type === 'tag';
        tags.push({ name: ref.slice(10), annotated, object, commit: annotated ? peeled || object : object });
      }
    }
    return { branches, tags };
  }

  async resolve(repoId: string, rev: string): Promise<{ kind: 'branch' | 'tag' | 'commit'; commit: string } | null> {
    const cwd = repo(repoId);
    if (!refNameProblem(rev)) {
      const found = await commitsOf(cwd, [`refs/heads/${rev}`, `refs/tags/${rev}`]);
      const branch = found.get(`refs/heads/${rev}`);
      if (branch) return { kind: 'branch', commit: branch };
      const tag = found.get(`refs/tags/${rev}`);
      if (tag) return { kind: 'tag', commit: tag };
    }
    if (isCommitId(rev)) {
      const commit = await exists(cwd, rev);
      // An abbreviation must name a commit, not a tree or blob, and one only (rev-parse fails otherwise).
      if (commit?.startsWith(rev)) return { kind: 'commit', commit };
    }
    return null;
  }

  async branchHeads(repoId: string, names: string[]): Promise<(string | null)[]> {
    const refs = names.map((name) => (refNameProblem(name) ? null : `refs/heads/${name}`));
    const found = await commitsOf(
      repo(repoId),
      refs.filter((r): r is string => r !== null),
    );
    return refs.map((ref) => (ref && found.get(ref)) || null);
  }

  async commitInfo(repoId: string, sha: string): Promise<GitCommit | null> {
    if (!isCommitId(sha)) return null;
    try {
      const out = await text(repo(repoId), ['log', '-1', ...LOG_FORMAT, '--end-of-options', `${sha}^{commit}`]);
      return parseCommits(out)[0] ?? null;
    } catch (err) {
      if (err instanceof GitFailed) return null;
      throw err;
    }
  }

  async log(repoId: string, input: { from: string; path?: string; skip: number; limit: number }): Promise<GitCommit[]> {
    checkSha(input.from);
    if (input.path !== undefined) checkPath(input.path);
    const out = await text(repo(repoId), [
      'log',
      ...LOG_FORMAT,
      `--max-count=${Math.max(1, Math.floor(input.limit))}`,
      `--skip=${Math.max(0, Math.floor(input.skip))}`,
      '--end-of-options',
      input.from,
      '--',
      ...(input.path !== undefined ? [input.path] : []),
    ]);
    return parseCommits(out);
  }

  async commit(
    repoId: string,
    input: {
      branch: string;
      parent: string | null;
      changes: GitChange[];
      message: string;
      author: GitPerson;
      create?: boolean;
    },
  ): Promise<{ commitId: string | null }> {
    const cwd = repo(repoId);
    checkRef(input.branch);
    if (input.parent !== null) checkSha(input.parent);
    for (const c of input.changes) {
      checkPath(c.path);
      if (c.action === 'move') checkPath(c.from);
    }
    const index = join(tmpdir(), `platform-index-${randomBytes(8).toString('hex')}`);
    const env = { GIT_INDEX_FILE: index };
    const write = async (content: Buffer) =>
      (await text(cwd, ['hash-object', '-w', '--stdin'], { input: content })).trim();
    try {
      // The parent's files (ls-tree, no index read) and the new contents' blobs, at once.
      const [listed, blobs] = await Promise.all([
        input.parent ? text(cwd, ['ls-tree', '-r', '-z', '--full-tree', '--end-of-options', input.parent]) : '',
        Promise.all(input.changes.map((c) => (c.action === 'delete' || !c.content ? undefined : write(c.content)))),
      ]);
      const before = new Map(
        listed
          .split('\0')
          .filter(Boolean)
          .map((line) => {
            const tab = line.indexOf('\t');
            const [mode, , sha] = line.slice(0, tab).split(' ') as [string, string, string];
            return [line.slice(tab + 1), { mode, sha }] as const;
          }),
      );
      const staged = new Map(before);
      input.changes.forEach((c, i) => {
        if (c.action === 'delete') {
          if (!staged.has(c.path)) throw new GitChangeError(`${c.path}: there is no such file to delete`);
          staged.delete(c.path);
        } else if (c.action === 'move') {
          const from = staged.get(c.from);
          if (!from) throw new GitChangeError(`${c.from}: there is no such file to move`);
          staged.delete(c.from);
          staged.set(c.path, { mode: from.mode, sha: blobs[i] ?? from.sha });
        } else {
          const mode = staged.get(c.path)?.mode ?? '100644';
          staged.set(c.path, { mode: mode === '120000' ? '100644' : mode, sha: blobs[i] as string });
        }
      });
      // The same files as the parent's: its tree, nothing to commit.
      const same =
        staged.size === before.size &&
        [...staged].every(([path, e]) => before.get(path)?.sha === e.sha && before.get(path)?.mode === e.mode);
      if (input.parent && same) return { commitId: null };
      // The whole tree into a fresh index in one run (a file replacing a folder, or the reverse, as git does).
      const lines = [...staged].map(([path, e]) => `${e.mode} ${e.sha}\t${path}\0`);
      if (lines.length > 0) await git(cwd, ['update-index', '-z', '--index-info'], { env, input: lines.join('') });
      const tree = (await text(cwd, ['write-tree'], { env })).trim();
      const date = `${Math.floor((input.author.date ?? Date.now()) / 1000)} +0000`;
      const person = {
        GIT_AUTHOR_NAME: input.author.name,
        GIT_AUTHOR_EMAIL: input.author.email,
        GIT_AUTHOR_DATE: date,
        GIT_COMMITTER_NAME: input.author.name,
        GIT_COMMITTER_EMAIL: input.author.email,
        GIT_COMMITTER_DATE: date,
      };
      const commitId = (
        await text(cwd, ['commit-tree', tree, ...(input.parent ? ['-p', input.parent] : []), '-F', '-'], {
          env: person,
          input: input.message,
        })
      ).trim();
      await updateRef(repoId, cwd, `refs/heads/${input.branch}`, commitId, input.create ? null : input.parent);
      return { commitId };
    } finally {
      await rm(index, { force: true });
    }
  }

  async setRef(repoId: string, ref: string, next: string | null, expected: string | null): Promise<void> {
    checkFullRef(ref);
    if (next !== null) checkSha(next);
    if (expected !== null) checkSha(expected);
    await updateRef(repoId, repo(repoId), ref, next, expected);
  }

  async files(repoId: string, commit: string, limit: number): Promise<{ files: GitFile[]; truncated: boolean }> {
    checkSha(commit);
    const out = await text(repo(repoId), ['ls-tree', '-r', '-z', '--full-tree', '--end-of-options', commit]);
    const files: GitFile[] = [];
    let truncated = false;
    for (const entry of out.split('\0')) {
      if (!entry) continue;
      const [meta, path] = entry.split('\t') as [string, string];
      const [mode, type, blobId] = meta.split(' ') as [string, string, string];
      if (type !== 'blob') continue;
      if (files.length >= limit) {
        truncated = true;
        break;
      }
      files.push({ path, blobId, mode, type: mode === '120000' ? 'link' : 'file' });
    }
    return { files, truncated };
  }

  async readFile(repoId: string, commit: string, path: string, maxBytes: number): Promise<GitFileContent> {
    checkSha(commit);
    checkPath(path);
    return readObject(repo(repoId), `${commit}:${path}`, maxBytes);
  }

  async readBlob(repoId: string, blobId: string, maxBytes: number): Promise<GitFileContent> {
    checkSha(blobId);
    return readObject(repo(repoId), blobId, maxBytes);
  }

  async tree(repoId: string, commit: string, path: string): Promise<GitTreeEntry[] | null> {
    checkSha(commit);
    if (path !== '') checkPath(path);
    let out: string;
    try {
      out = await text(repo(repoId), ['ls-tree', '-z', '-l', '--end-of-options', path ? `${commit}:${path}` : commit]);
    } catch (err) {
      if (err instanceof GitFailed) return null;
      throw err;
    }
    const entries = out
      .split('\0')
      .filter(Boolean)
      .map((entry) => {
        const [meta, name] = entry.split('\t') as [string, string];
        const [mode, kind, id, size] = meta.split(/\s+/) as [string, string, string, string];
        const type: GitTreeEntry['type'] =
          kind === 'tree' ? 'dir' : kind === 'commit' ? 'submodule' : mode === '120000' ? 'link' : 'file';
        return {
          name,
          path: path ? `${path}/${name}` : name,
          type,
          mode,
          id,
          size: size === '-' ? null : Number(size),
        };
      });
    // Folders first, then files, each by name (as repository browsers list them).
    return entries.sort((a, b) => Number(b.type === 'dir') - Number(a.type === 'dir') || a.name.localeCompare(b.name));
  }

  async diff(
    repoId: string,
    base: string | null,
    head: string,
    limits: { maxFiles: number; maxLines: number },
  ): Promise<{ files: GitChangedFile[]; truncated: boolean }> {
    checkSha(head);
    if (base !== null) checkSha(base);
    const cwd = repo(repoId);
    const from = base ?? EMPTY_TREE;
    const range = ['--no-renames', '--end-of-options', from, head];
    // One run for what changed: each file's status (--raw) and its line counts (--numstat).
    const summary = (await text(cwd, ['diff', '--raw', '--numstat', '-z', ...range])).split('\0');
    const changes = new Map<string, GitChangedFile['change']>();
    const changed: { path: string; binary: boolean; additions: number; deletions: number }[] = [];
    for (let i = 0; i < summary.length; i++) {
      const field = summary[i] as string;
      if (field.startsWith(':')) {
        // `:<modes> <ids> <status>`, then the path.
        const code = field.slice(-1);
        changes.set(summary[++i] as string, code === 'A' ? 'added' : code === 'D' ? 'deleted' : 'modified');
      } else if (field) {
        const [added, deleted] = field.split('\t', 2) as [string, string];
        const path = field.slice(added.length + deleted.length + 2);
        changed.push({ path, binary: added === '-', additions: Number(added) || 0, deletions: Number(deleted) || 0 });
      }
    }
    // The files whose hunks fit the line budget, in order; then one patch of them all.
    const shown = changed.slice(0, limits.maxFiles);
    const fits = new Set<string>();
    let lines = 0;
    for (const f of shown) {
      const size = f.additions + f.deletions;
      if (f.binary || lines + size > limits.maxLines) continue;
      lines += size;
      fits.add(f.path);
    }
    const patches = fits.size > 0 ? await patchesOf(cwd, range, fits.size === changed.length ? [] : [...fits]) : [];
    let next = 0;
    const files = shown.map((f): GitChangedFile => {
      const file: GitChangedFile = {
        path: f.path,
        change: changes.get(f.path) ?? 'modified',
        additions: f.additions,
        deletions: f.deletions,
        ...(f.binary ? { binary: true } : {}),
        hunks: [],
      };
      if (fits.has(f.path)) file.hunks = parseHunks(patches[next++] ?? '');
      else if (!f.binary) file.collapsed = true;
      return file;
    });
    return { files, truncated: changed.length > limits.maxFiles };
  }

  async divergence(
    repoId: string,
    base: string,
    head: string,
    cap: number,
  ): Promise<{ ahead: number; behind: number; exact: boolean }> {
    checkSha(base);
    checkSha(head);
    const out = await text(repo(repoId), [
      'rev-list',
      '--left-right',
      `--max-count=${cap + 1}`,
      '--end-of-options',
      `${base}...${head}`,
    ]);
    const marks = out.split('\n').filter(Boolean);
    const exact = marks.length <= cap;
    const counted = marks.slice(0, cap);
    return {
      behind: counted.filter((m) => m.startsWith('<')).length,
      ahead: counted.filter((m) => m.startsWith('>')).length,
      exact,
    };
  }

  async isAncestor(repoId: string, ancestor: string, descendant: string): Promise<boolean> {
    checkSha(ancestor);
    checkSha(descendant);
    // Exit 0: an ancestor; 1: not one; anything else (no such commit) is an error.
    try {
      await git(repo(repoId), ['merge-base', '--is-ancestor', '--end-of-options', ancestor, descendant]);
      return true;
    } catch (err) {
      if (err instanceof GitFailed && err.code === 1) return false;
      throw err;
    }
  }

  async mergeBase(repoId: string, base: string, head: string): Promise<string | null> {
    checkSha(base);
    checkSha(head);
    return mergeBaseNear(repo(repoId), base, head);
  }

  async mergeOptions(
    repoId: string,
    base: string,
    head: string,
  ): Promise<{ mergeBase: string | null; options: MergeStrategy[]; conflicts: GitConflictEntry[] }> {
    checkSha(base);
    checkSha(head);
    const cwd = repo(repoId);
    const mergeBase = await mergeBaseNear(cwd, base, head);
    if (!mergeBase) return { mergeBase: null, options: [], conflicts: [] };
    if (mergeBase === head) return { mergeBase, options: [], conflicts: [] };
    const options: MergeStrategy[] = mergeBase === base ? ['fast-forward'] : [];
    // git merge-tree --write-tree (git 2.38+): exit 1 with the conflicted paths, without touching refs.
    const conflicts = await mergeTreeConflicts(cwd, base, head);
    if (conflicts.length === 0) options.push('squash', 'three-way');
    return { mergeBase, options, conflicts };
  }

  async merge(
    repoId: string,
    input: {
      target: string;
      targetCommit: string;
      source: string;
      strategy: MergeStrategy;
      message: string;
      author: GitPerson;
      committer: GitPerson;
    },
  ): Promise<{ commitId: string }> {
    const cwd = repo(repoId);
    checkRef(input.target);
    checkSha(input.targetCommit);
    checkSha(input.source);
    const ref = `refs/heads/${input.target}`;
    if (input.strategy === 'fast-forward') {
      const ancestor = await git(cwd, ['merge-base', '--is-ancestor', input.targetCommit, input.source]).then(
        () => true,
        () => false,
      );
      if (!ancestor) throw new GitChangeError(`${input.target} can't be fast-forwarded to ${input.source}.`);
      await updateRef(repoId, cwd, ref, input.source, input.targetCommit);
      return { commitId: input.source };
    }
    let tree: string;
    try {
      tree = (await text(cwd, ['merge-tree', '--write-tree', '--no-messages', input.targetCommit, input.source])).split(
        '\n',
      )[0] as string;
    } catch (err) {
      if (err instanceof GitFailed && err.code === 1) throw new GitChangeError('The branches conflict.');
      throw err;
    }
    const parents = input.strategy === 'three-way' ? [input.targetCommit, input.source] : [input.targetCommit];
    const when = (p: GitPerson) => `${Math.floor((p.date ?? Date.now()) / 1000)} +0000`;
    const commitId = (
      await text(cwd, ['commit-tree', tree, ...parents.flatMap((p) => ['-p', p]), '-F', '-'], {
        env: {
          GIT_AUTHOR_NAME: input.author.name,
          GIT_AUTHOR_EMAIL: input.author.email,
          GIT_AUTHOR_DATE: when(input.author),
          GIT_COMMITTER_NAME: input.committer.name,
          GIT_COMMITTER_EMAIL: input.committer.email,
          GIT_COMMITTER_DATE: when(input.committer),
        },
        input: input.message,
      })
    ).trim();
    await updateRef(repoId, cwd, ref, commitId, input.targetCommit);
    return { commitId };
  }

  async commitsBetween(repoId: string, base: string, head: string, limit: number): Promise<GitCommit[]> {
    checkSha(base);
    checkSha(head);
    const out = await text(repo(repoId), [
      'log',
      ...LOG_FORMAT,
      `--max-count=${Math.max(1, Math.floor(limit))}`,
      '--end-of-options',
      `${base}..${head}`,
      '--',
    ]);
    return parseCommits(out);
  }

  async archive(repoId: string, commit: string, format: 'zip' | 'tar.gz'): Promise<Readable> {
    checkSha(commit);
    const child = spawn(
      'git',
      ['-c', 'core.hooksPath=/dev/null', 'archive', `--format=${format}`, '--end-of-options', commit],
      { cwd: repo(repoId), env: gitEnv(), stdio: ['ignore', 'pipe', 'pipe'] },
    );
    // The archive as it is written; a git failure ends it with git's own words, not a short file.
    const out = new PassThrough();
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (d: string) => {
      stderr = (stderr + d).slice(-1000);
    });
    child.stdout.pipe(out, { end: false });
    child.once('close', (code) => {
      if (code === 0) out.end();
      else out.destroy(new Error(`git archive failed (${code}): ${stderr.trim()}`));
    });
    child.once('error', (err) => out.destroy(err));
    return out;
  }

  async http(repoId: string, request: GitHttpRequest): Promise<GitHttpResponse> {
    const cwd = repo(repoId);
    if (request.service !== 'git-receive-pack') return httpBackend(cwd, request);
    // A push: what it moved is told once git has answered (as CodeCommit tells it).
    const before = await refMap(cwd);
    const res = await httpBackend(cwd, request);
    res.body.once('end', () => {
      void refMap(cwd).then((after) => {
        for (const ref of new Set([...before.keys(), ...after.keys()])) {
          const old = before.get(ref) ?? null;
          const next = after.get(ref) ?? null;
          if (old !== next) announce(repoId, ref, old, next);
        }
      });
    });
    return res;
  }
}

/** Tells the platform a ref moved, as CodeCommit would (EventBridge there, the bus here); never awaited. */
function announce(repoId: string, ref: string, old: string | null, next: string | null): void {
  void publishEvent(refChange(repoId, ref, old, next)).catch((err: unknown) =>
    log.error('a repository event was not handled', { repoId, ref, error: describeError(err) }),
  );
}

/** `update-ref` with the old value: git refuses when the ref is elsewhere (or exists, for a create). */
async function updateRef(
  repoId: string,
  cwd: string,
  ref: string,
  next: string | null,
  expected: string | null,
): Promise<void> {
  const args = next === null ? ['update-ref', '-d', ref, expected ?? ''] : ['update-ref', ref, next, expected ?? ZERO];
  try {
    await git(
      cwd,
      args.filter((a) => a !== ''),
    );
  } catch (err) {
    if (err instanceof GitFailed) throw new GitConflict(`${ref} moved: ${err.stderr.trim()}`);
    throw err;
  }
  announce(repoId, ref, expected, next);
}

/** Bare repositories on this machine, driven by the git CLI. */
export const localGit = (): GitPort => new LocalGit();
