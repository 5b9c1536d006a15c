import type { Readable } from 'node:stream';
import {
  CodeCommitClient,
  CreateBranchCommand,
  CreateCommitCommand,
  CreateRepositoryCommand,
  DeleteBranchCommand,
  DeleteRepositoryCommand,
  GetBlobCommand,
  GetBranchCommand,
  GetCommitCommand,
  GetDifferencesCommand,
  GetFileCommand,
  GetFolderCommand,
  GetMergeConflictsCommand,
  GetMergeOptionsCommand,
  ListBranchesCommand,
  MergeBranchesByFastForwardCommand,
  MergeBranchesBySquashCommand,
  MergeBranchesByThreeWayCommand,
} from '@aws-sdk/client-codecommit';
import { config } from '../../kernel/config';
import { sdkSettings } from '../../kernel/ground/sdk-settings';
import { writeArchive } from './archive-writer';
import { repositoryName } from './events';
import { codecommitTransport } from './http-codecommit';
import { isCommitId, pathProblem, refNameProblem } from './names';
import type { GitBranch, GitChange, GitHttpRequest, GitHttpResponse, GitPerson, GitTag } from './port';
import {
  GitArchiveError,
  type GitChangedFile,
  GitChangeError,
  type GitCommit,
  GitConflict,
  type GitConflictEntry,
  type GitFile,
  type GitFileContent,
  GitInputError,
  type GitPort,
  GitTooFar,
  type GitTreeEntry,
  type MergeStrategy,
} from './port';

/**
 * Repositories on AWS: one CodeCommit repository per platform repository, named
 * `<GIT_REPO_PREFIX><repoId>` (the functions' grants are scoped to the prefix). CodeCommit's own
 * checks are the compare-and-swap: `parentCommitId` on CreateCommit (ParentCommitIdOutdated →
 * GitConflict), CreateBranch refusing an existing name. What CodeCommit's API lacks is said where
 * it matters: it lists and resolves no tags (`listsTags()` is false: the platform's tags index, shared/domains/repos/tags.ts, does),
 * moves no branch to an arbitrary commit, and makes no archives (they are written here, from the
 * tree's blobs: at most MAX_ARCHIVE_FILES files, ARCHIVE_READS GetBlob calls at a time).
 */
const MAX_ARCHIVE_FILES = 10_000;
const ARCHIVE_READS = 8;

let client: CodeCommitClient | undefined;
const cc = () => {
  client ??= new CodeCommitClient(sdkSettings('git'));
  return client;
};

const named = (err: unknown, ...names: string[]) => names.includes((err as Error)?.name ?? '');

function toCommit(
  id: string,
  c: {
    message?: string;
    author?: { name?: string; email?: string; date?: string };
    committer?: { date?: string };
    parents?: string[];
  },
): GitCommit {
  // CodeCommit's dates are "<epoch seconds> <zone>".
  const epoch = (d?: string) => (d ? Number(d.split(' ')[0]) * 1000 : undefined);
  return {
    id,
    message: (c.message ?? '').replace(/\n$/, ''),
    author: { name: c.author?.name, email: c.author?.email, date: epoch(c.author?.date) },
    committedAt: epoch(c.committer?.date) ?? null,
    parents: c.parents ?? [],
  };
}

function checkPath(path: string): void {
  const problem = pathProblem(path);
  if (problem) throw new GitInputError(`${path.slice(0, 200)}: ${problem}`);
}

const branchCommit = async (repoId: string, name: string) => {
  try {
    const out = await cc().send(new GetBranchCommand({ repositoryName: repositoryName(repoId), branchName: name }));
    return out?.branch?.commitId;
  } catch (err) {
    if (named(err, 'BranchDoesNotExistException')) return undefined;
    throw err;
  }
};
const getCommit = async (repoId: string, sha: string) => {
  try {
    const out = await cc().send(new GetCommitCommand({ repositoryName: repositoryName(repoId), commitId: sha }));
    return out.commit ? toCommit(out.commit.commitId ?? sha, out.commit) : null;
  } catch (err) {
    if (named(err, 'CommitIdDoesNotExistException', 'InvalidCommitIdException')) return null;
    throw err;
  }
};
/**
 * Merging `head` into `base`: CodeCommit's options, and their merge base. Conflicts by line, as
 * git merges (CodeCommit's default, FILE_LEVEL, refuses any file both sides changed).
 */
const getMergeOptions = (repoId: string, base: string, head: string) =>
  cc().send(
    new GetMergeOptionsCommand({
      repositoryName: repositoryName(repoId),
      sourceCommitSpecifier: head,
      destinationCommitSpecifier: base,
      conflictDetailLevel: 'LINE_LEVEL',
    }),
  );
const content = async (read: () => Promise<{ bytes?: Uint8Array; size: number }>, maxBytes: number) => {
  try {
    const { bytes, size } = await read();
    if (size > maxBytes) return { tooLarge: true as const, size };
    return { content: Buffer.from(bytes ?? new Uint8Array()), size };
  } catch (err) {
    if (named(err, 'FileDoesNotExistException', 'BlobIdDoesNotExistException', 'CommitDoesNotExistException'))
      return null;
    if (named(err, 'FileTooLargeException')) return { tooLarge: true as const, size: maxBytes + 1 };
    throw err;
  }
};

class AwsGit implements GitPort {
  // Its API lists no tags and resolves none (shared/domains/repos/tags.ts keeps an index).
  async listsTags(): Promise<boolean> {
    return false;
  }
  /** CodeCommit makes the default branch with the first commit pushed to it. */
  async create(repoId: string, _defaultBranch: string): Promise<void> {
    try {
      await cc().send(new CreateRepositoryCommand({ repositoryName: repositoryName(repoId) }));
    } catch (err) {
      if (!named(err, 'RepositoryNameExistsException')) throw err;
    }
  }

  // The job's role signs git's requests (CodeCommit's credential helper, in the AWS CLI).
  async pushTarget(repoId: string): Promise<{ url: string; config: string[] }> {
    return {
      url: `https://git-codecommit.${config.region}.amazonaws.com/v1/repos/${repositoryName(repoId)}`,
      config: ['credential.helper=!aws codecommit credential-helper $@', 'credential.UseHttpPath=true'],
    };
  }

  async remove(repoId: string): Promise<void> {
    await cc().send(new DeleteRepositoryCommand({ repositoryName: repositoryName(repoId) }));
  }

  async refs(repoId: string): Promise<{ branches: GitBranch[]; tags: GitTag[] }> {
    const names: string[] = [];
    let nextToken: string | undefined;
    do {
      const out = await cc().send(new ListBranchesCommand({ repositoryName: repositoryName(repoId), nextToken }));
      names.push(...(out.branches ?? []));
      nextToken = out.nextToken;
    } while (nextToken);
    const branches = await Promise.all(
      names.map(async (name) => ({ name, commit: (await branchCommit(repoId, name)) ?? '' })),
    );
    return { branches: branches.filter((b) => b.commit), tags: [] };
  }

  async resolve(repoId: string, rev: string): Promise<{ kind: 'branch' | 'tag' | 'commit'; commit: string } | null> {
    if (!refNameProblem(rev)) {
      const commit = await branchCommit(repoId, rev);
      if (commit) return { kind: 'branch', commit };
    }
    if (isCommitId(rev)) {
      const commit = await getCommit(repoId, rev);
      if (commit) return { kind: 'commit', commit: commit.id };
    }
    return null;
  }

  async branchHeads(repoId: string, names: string[]): Promise<(string | null)[]> {
    // No batch call: GetBranch for each, at once.
    return Promise.all(
      names.map(async (name) => (refNameProblem(name) ? null : ((await branchCommit(repoId, name)) ?? null))),
    );
  }

  async commitInfo(repoId: string, sha: string): Promise<GitCommit | null> {
    return isCommitId(sha) ? getCommit(repoId, sha) : null;
  }

  async log(repoId: string, input: { from: string; path?: string; skip: number; limit: number }): Promise<GitCommit[]> {
    // CodeCommit has no log: the first-parent chain, one GetCommit per commit (bounded by the page).
    const out: GitCommit[] = [];
    let at: string | undefined = input.from;
    for (let i = 0; at && out.length < input.limit && i < input.skip + input.limit; i++) {
      const commit = await getCommit(repoId, at);
      if (!commit) break;
      if (i >= input.skip) out.push(commit);
      at = commit.parents[0];
    }
    return out;
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
    const putFiles: {
      filePath: string;
      fileContent?: Uint8Array;
      sourceFile?: { filePath: string; isMove: boolean };
    }[] = [];
    const deleteFiles: { filePath: string }[] = [];
    for (const c of input.changes) {
      checkPath(c.path);
      if (c.action === 'put') putFiles.push({ filePath: c.path, fileContent: c.content });
      else if (c.action === 'delete') deleteFiles.push({ filePath: c.path });
      else {
        checkPath(c.from);
        putFiles.push(
          c.content
            ? { filePath: c.path, fileContent: c.content }
            : { filePath: c.path, sourceFile: { filePath: c.from, isMove: true } },
        );
        if (c.content) deleteFiles.push({ filePath: c.from });
      }
    }
    if (input.create && input.parent) {
      // CodeCommit commits onto an existing branch: the new one starts at the parent.
      try {
        await cc().send(
          new CreateBranchCommand({
            repositoryName: repositoryName(repoId),
            branchName: input.branch,
            commitId: input.parent,
          }),
        );
      } catch (err) {
        if (named(err, 'BranchNameExistsException')) throw new GitConflict(`${input.branch} exists`);
        throw err;
      }
    }
    try {
      const out = await cc().send(
        new CreateCommitCommand({
          repositoryName: repositoryName(repoId),
          branchName: input.branch,
          parentCommitId: input.parent ?? undefined,
          authorName: input.author.name,
          email: input.author.email,
          commitMessage: input.message,
          putFiles,
          deleteFiles,
        }),
      );
      return { commitId: out.commitId ?? null };
    } catch (err) {
      if (named(err, 'NoChangeException')) return { commitId: null };
      if (
        named(err, 'ParentCommitIdOutdatedException', 'ParentCommitDoesNotExistException', 'BranchNameExistsException')
      )
        throw new GitConflict((err as Error).message);
      if (named(err, 'FileDoesNotExistException', 'FolderDoesNotExistException', 'FileEntryRequiredException'))
        throw new GitChangeError((err as Error).message);
      throw err;
    }
  }

  async setRef(repoId: string, ref: string, next: string | null, expected: string | null): Promise<void> {
    const m = /^refs\/heads\/(.+)$/.exec(ref);
    if (!m) throw new GitInputError('CodeCommit moves branches only: tags are pushed with git.');
    const branchName = m[1] as string;
    const now = await branchCommit(repoId, branchName);
    if ((now ?? null) !== expected) throw new GitConflict(`${ref} moved`);
    if (next === null) {
      await cc().send(new DeleteBranchCommand({ repositoryName: repositoryName(repoId), branchName }));
      return;
    }
    if (expected !== null) throw new GitInputError('CodeCommit cannot move a branch to another commit.');
    try {
      await cc().send(new CreateBranchCommand({ repositoryName: repositoryName(repoId), branchName, commitId: next }));
    } catch (err) {
      if (named(err, 'BranchNameExistsException')) throw new GitConflict(`${ref} exists`);
      throw err;
    }
  }

  async files(repoId: string, commit: string, limit: number): Promise<{ files: GitFile[]; truncated: boolean }> {
    const files: GitFile[] = [];
    const folders = ['/'];
    while (folders.length > 0 && files.length <= limit) {
      const folderPath = folders.shift() as string;
      const out = await cc().send(
        new GetFolderCommand({ repositoryName: repositoryName(repoId), commitSpecifier: commit, folderPath }),
      );
      for (const f of out.files ?? []) {
        files.push({
          path: f.absolutePath ?? '',
          blobId: f.blobId ?? '',
          mode: f.fileMode === 'EXECUTABLE' ? '100755' : '100644',
          type: 'file',
        });
      }
      for (const l of out.symbolicLinks ?? []) {
        files.push({ path: l.absolutePath ?? '', blobId: l.blobId ?? '', mode: '120000', type: 'link' });
      }
      for (const sub of out.subFolders ?? []) folders.push(sub.absolutePath ?? '');
    }
    files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    return { files: files.slice(0, limit), truncated: files.length > limit || folders.length > 0 };
  }

  readFile(repoId: string, commit: string, path: string, maxBytes: number): Promise<GitFileContent> {
    checkPath(path);
    return content(async () => {
      const out = await cc().send(
        new GetFileCommand({ repositoryName: repositoryName(repoId), commitSpecifier: commit, filePath: path }),
      );
      return { bytes: out.fileContent, size: out.fileSize ?? out.fileContent?.length ?? 0 };
    }, maxBytes);
  }

  readBlob(repoId: string, blobId: string, maxBytes: number): Promise<GitFileContent> {
    return content(async () => {
      const out = await cc().send(new GetBlobCommand({ repositoryName: repositoryName(repoId), blobId }));
      return { bytes: out.content, size: out.content?.length ?? 0 };
    }, maxBytes);
  }

  async tree(repoId: string, commit: string, path: string): Promise<GitTreeEntry[] | null> {
    try {
      const out = await cc().send(
        new GetFolderCommand({
          repositoryName: repositoryName(repoId),
          commitSpecifier: commit,
          folderPath: path ? `/${path}` : '/',
        }),
      );
      const entry = (
        type: GitTreeEntry['type'],
        e: {
          absolutePath?: string;
          relativePath?: string;
          blobId?: string;
          treeId?: string;
          commitId?: string;
          fileMode?: string;
        },
      ): GitTreeEntry => ({
        name: e.relativePath ?? '',
        path: (e.absolutePath ?? '').replace(/^\//, ''),
        type,
        mode:
          type === 'dir'
            ? '040000'
            : type === 'link'
              ? '120000'
              : type === 'submodule'
                ? '160000'
                : e.fileMode === 'EXECUTABLE'
                  ? '100755'
                  : '100644',
        id: e.blobId ?? e.treeId ?? e.commitId ?? '',
        size: null,
      });
      return [
        ...(out.subFolders ?? []).map((f) => entry('dir', f)),
        ...(out.files ?? []).map((f) => entry('file', f)),
        ...(out.symbolicLinks ?? []).map((f) => entry('link', f)),
        ...(out.subModules ?? []).map((f) => entry('submodule', f)),
      ].sort((a, b) => Number(b.type === 'dir') - Number(a.type === 'dir') || a.name.localeCompare(b.name));
    } catch (err) {
      if (named(err, 'FolderDoesNotExistException', 'CommitDoesNotExistException')) return null;
      throw err;
    }
  }

  async diff(
    repoId: string,
    base: string | null,
    head: string,
    limits: { maxFiles: number; maxLines: number },
  ): Promise<{ files: GitChangedFile[]; truncated: boolean }> {
    // CodeCommit lists what changed, not how: every file comes collapsed (no hunks).
    const files: GitChangedFile[] = [];
    let nextToken: string | undefined;
    do {
      const out = await cc().send(
        new GetDifferencesCommand({
          repositoryName: repositoryName(repoId),
          beforeCommitSpecifier: base ?? undefined,
          afterCommitSpecifier: head,
          NextToken: nextToken,
        }),
      );
      for (const d of out.differences ?? []) {
        files.push({
          path: d.afterBlob?.path ?? d.beforeBlob?.path ?? '',
          change: d.changeType === 'A' ? 'added' : d.changeType === 'D' ? 'deleted' : 'modified',
          additions: 0,
          deletions: 0,
          collapsed: true,
          hunks: [],
        });
      }
      nextToken = out.NextToken;
    } while (nextToken && files.length <= limits.maxFiles);
    return {
      files: files.slice(0, limits.maxFiles),
      truncated: files.length > limits.maxFiles || Boolean(nextToken),
    };
  }

  async divergence(
    repoId: string,
    base: string,
    head: string,
    cap: number,
  ): Promise<{ ahead: number; behind: number; exact: boolean }> {
    // No API counts it: both histories are walked (GetCommit per commit) up to `cap` commits in all.
    const seen = new Map<string, number>();
    const queues: string[][] = [[base], [head]];
    let walked = 0;
    while ((queues[0]?.length || queues[1]?.length) && walked < cap * 2) {
      for (const side of [0, 1]) {
        const id = queues[side]?.shift();
        if (!id) continue;
        seen.set(id, (seen.get(id) ?? 0) | (side === 0 ? 1 : 2));
        walked++;
        const c = await getCommit(repoId, id);
        for (const parent of c?.parents ?? []) queues[side]?.push(parent);
      }
    }
    const only = (mask: number) => [...seen.values()].filter((m) => m === mask).length;
    const exact = !(queues[0]?.length || queues[1]?.length);
    return { behind: only(1), ahead: only(2), exact };
  }

  async isAncestor(repoId: string, ancestor: string, descendant: string): Promise<boolean> {
    // No ancestry call either: merging `ancestor` into `descendant` has it as the merge base exactly when it is one.
    if (ancestor === descendant) return true;
    return (await this.mergeBase(repoId, descendant, ancestor)) === ancestor;
  }

  async mergeBase(repoId: string, base: string, head: string): Promise<string | null> {
    // CodeCommit has no merge-base call: GetMergeOptions answers it (baseCommitId).
    try {
      return (await getMergeOptions(repoId, base, head)).baseCommitId ?? null;
    } catch (err) {
      if (named(err, 'TipsDivergenceExceededException')) throw new GitTooFar((err as Error).message);
      throw err;
    }
  }

  async mergeOptions(
    repoId: string,
    base: string,
    head: string,
  ): Promise<{ mergeBase: string | null; options: MergeStrategy[]; conflicts: GitConflictEntry[] }> {
    try {
      const out = await getMergeOptions(repoId, base, head);
      const names: Record<string, MergeStrategy> = {
        FAST_FORWARD_MERGE: 'fast-forward',
        SQUASH_MERGE: 'squash',
        THREE_WAY_MERGE: 'three-way',
      };
      const options = (out.mergeOptions ?? []).flatMap((o) => (names[o] ? [names[o]] : []));
      const conflicts: GitConflictEntry[] = [];
      // Every page of conflicting files (CodeCommit answers them a page at a time).
      for (let nextToken: string | undefined, pages = 0; !options.includes('three-way') && pages < 20; pages++) {
        const c = await cc().send(
          new GetMergeConflictsCommand({
            repositoryName: repositoryName(repoId),
            sourceCommitSpecifier: head,
            destinationCommitSpecifier: base,
            mergeOption: 'THREE_WAY_MERGE',
            conflictDetailLevel: 'LINE_LEVEL',
            nextToken,
          }),
        );
        for (const m of c.conflictMetadataList ?? []) {
          const binary = m.isBinaryFile;
          conflicts.push({
            path: m.filePath ?? '',
            conflicts: m.numberOfConflicts ?? 1,
            binary: Boolean(binary?.source || binary?.destination || binary?.base),
            kind: m.objectTypeConflict ? 'type' : m.fileModeConflict && !m.contentConflict ? 'mode' : 'content',
          });
        }
        nextToken = c.nextToken;
        if (!nextToken) break;
      }
      conflicts.sort((a, b) => (a.path < b.path ? -1 : 1));
      return { mergeBase: out.baseCommitId ?? null, options, conflicts };
    } catch (err) {
      if (named(err, 'TipsDivergenceExceededException')) throw new GitTooFar((err as Error).message);
      throw err;
    }
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
    // CodeCommit merges on its side; the target is checked first, and a target that moves during
    // the call is its ConcurrentReferenceUpdateException: GitConflict either way.
    if ((await branchCommit(repoId, input.target)) !== input.targetCommit) {
      throw new GitConflict(`${input.target} moved`);
    }
    const common = {
      repositoryName: repositoryName(repoId),
      sourceCommitSpecifier: input.source,
      destinationCommitSpecifier: input.targetCommit,
      targetBranch: input.target,
    };
    const person = {
      authorName: input.author.name,
      email: input.author.email,
      commitMessage: input.message,
      conflictDetailLevel: 'LINE_LEVEL' as const,
    };
    try {
      const out =
        input.strategy === 'fast-forward'
          ? await cc().send(new MergeBranchesByFastForwardCommand(common))
          : input.strategy === 'squash'
            ? await cc().send(new MergeBranchesBySquashCommand({ ...common, ...person }))
            : await cc().send(new MergeBranchesByThreeWayCommand({ ...common, ...person }));
      return { commitId: out.commitId ?? '' };
    } catch (err) {
      if (named(err, 'ManualMergeRequiredException')) throw new GitChangeError('The branches conflict.');
      if (named(err, 'TipsDivergenceExceededException')) throw new GitTooFar((err as Error).message);
      if (named(err, 'ConcurrentReferenceUpdateException')) throw new GitConflict(`${input.target} moved`);
      throw err;
    }
  }

  async commitsBetween(repoId: string, base: string, head: string, limit: number): Promise<GitCommit[]> {
    // The first-parent chain from head down to base (CodeCommit has no range log).
    const out: GitCommit[] = [];
    for (let at: string | undefined = head; at && at !== base && out.length < limit; ) {
      const c = await getCommit(repoId, at);
      if (!c) break;
      out.push(c);
      at = c.parents[0];
    }
    return out;
  }

  async archive(repoId: string, commit: string, format: 'zip' | 'tar.gz'): Promise<Readable> {
    // CodeCommit makes no archives: the tree's files, one GetBlob each, written here.
    const [{ files, truncated }, info] = await Promise.all([
      this.files(repoId, commit, MAX_ARCHIVE_FILES),
      getCommit(repoId, commit),
    ]);
    if (!info) throw new GitArchiveError("That commit doesn't exist.");
    if (truncated) {
      throw new GitArchiveError(`The commit has more than ${MAX_ARCHIVE_FILES} files. Clone the repository instead.`);
    }
    const name = repositoryName(repoId);
    const blob = async (f: GitFile) => {
      try {
        const out = await cc().send(new GetBlobCommand({ repositoryName: name, blobId: f.blobId }));
        return { path: f.path.replace(/^\/+/, ''), mode: f.mode, data: out.content ?? new Uint8Array() };
      } catch (err) {
        if (named(err, 'FileTooLargeException')) {
          throw new GitArchiveError(`${f.path} is too large for an archive here. Clone the repository instead.`);
        }
        throw err;
      }
    };
    // In tree order, ARCHIVE_READS blobs asked ahead of the one written.
    // A read failing ahead of its turn is handled then (never an unhandled rejection meanwhile).
    const read = (f: GitFile) => {
      const p = blob(f);
      p.catch(() => undefined);
      return p;
    };
    async function* entries() {
      const ahead = files.slice(0, ARCHIVE_READS).map(read);
      for (let i = 0; i < files.length; i++) {
        const next = files[i + ARCHIVE_READS];
        if (next) ahead.push(read(next));
        yield await (ahead.shift() as ReturnType<typeof blob>);
      }
    }
    return writeArchive(format, entries(), new Date(info.committedAt ?? Date.now()));
  }

  async http(repoId: string, request: GitHttpRequest): Promise<GitHttpResponse> {
    const credentials = await cc().config.credentials();
    return codecommitTransport(repositoryName(repoId), config.region, credentials, request);
  }
}

/** CodeCommit, through its API (and its smart HTTP for the git endpoint). */
export const awsGit = (): GitPort => new AwsGit();
