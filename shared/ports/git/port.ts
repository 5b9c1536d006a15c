import type { Readable } from 'node:stream';
import type { GitHttpRequest, GitHttpResponse } from './http-backend';

export type { GitHttpRequest, GitHttpResponse } from './http-backend';

/** A branch and the commit it points at. */
export interface GitBranch {
  name: string;
  commit: string;
}

/** A tag: `object` is what the ref points at (a tag object when annotated), `commit` the commit it names. */
export interface GitTag {
  name: string;
  annotated: boolean;
  object: string;
  commit: string;
}

/** Spec part B, "Commit summary" (and `parents`, which lists carry). */
export interface GitCommit {
  id: string;
  message: string;
  author: { name?: string; email?: string; date?: number };
  committedAt: number | null;
  parents: string[];
}

/** A person as a commit names them; `date` in epoch ms (now when absent). */
export interface GitPerson {
  name: string;
  email: string;
  date?: number;
}

/** One change of a web commit (paths are checked by the caller and again by the adapter). */
export type GitChange =
  | { action: 'put'; path: string; content: Buffer }
  | { action: 'move'; from: string; path: string; content?: Buffer }
  | { action: 'delete'; path: string };

/** A file of a commit's tree. */
export interface GitFile {
  path: string;
  blobId: string;
  mode: string;
  type: 'file' | 'link';
}

/** An entry of a folder of a commit's tree. */
export interface GitTreeEntry {
  name: string;
  path: string;
  type: 'file' | 'dir' | 'link' | 'submodule';
  mode: string;
  /** The blob (file, link) or tree (dir) id; a submodule's commit. */
  id: string;
  size: number | null;
}

/** Spec part B, "Changed file". */
export interface GitChangedFile {
  path: string;
  change: 'deleted' | 'added' | 'modified';
  additions: number;
  deletions: number;
  binary?: boolean;
  /** Its hunks were left out (too large, or more files than the answer holds). */
  collapsed?: boolean;
  hunks: { oldStart: number; oldLines: number; newStart: number; newLines: number; lines: string[] }[];
}

/** Spec part B, "Conflict entry". */
export interface GitConflictEntry {
  path: string;
  conflicts: number;
  binary: boolean;
  kind: 'type' | 'content' | 'mode';
}

/** Spec part B, "Merge options". */
export type MergeStrategy = 'fast-forward' | 'squash' | 'three-way';

/** A file's bytes, or that it is larger than the caller wants, or (null) that there is no such file. */
export type GitFileContent = { content: Buffer; size: number } | { tooLarge: true; size: number } | null;

/** The ref moved since the caller read it (compare-and-swap failed): 409 for the routes. */
export class GitConflict extends Error {
  override name = 'GitConflict';
}

/** A name, path or revision that git must never see (option-like, `..`, control characters…): 400. */
export class GitInputError extends Error {
  override name = 'GitInputError';
}

/** Two commits too far apart for the backend to compare or merge (CodeCommit's TipsDivergenceExceeded): 400. */
export class GitTooFar extends Error {
  override name = 'GitTooFar';
}

/**
 * Commits apart (on both sides of the merge base, together) beyond which the local adapter refuses
 * to compare or merge two commits with GitTooFar, as CodeCommit does with its own limit.
 */
export const TOO_FAR_COMMITS = 10_000;

/** A web commit's change that does not apply (moving or deleting a file that is not there): 400. */
export class GitChangeError extends Error {
  override name = 'GitChangeError';
}

/**
 * An archive that can't be made, whatever the retries: its reason is for the person who asked
 * (a file CodeCommit won't hand out, too many files, over the size limit).
 */
export class GitArchiveError extends Error {
  override name = 'GitArchiveError';
}

/**
 * The git port: repositories' storage, for the repos routes, the git endpoint and builds of
 * commits. Repositories are known by their resource id (`res_…`), never by name, so a rename is a
 * record change. AWS: CodeCommit. One machine: bare repositories under `DATA_DIR/git`, driven by
 * the git CLI. Every ref update is compare-and-swap: a ref that moved since the caller read it is a
 * GitConflict, never a lost update. The port never writes platform records.
 */
export interface GitPort {
  /**
   * Whether `refs` lists tags and `resolve` finds them. CodeCommit's API does neither: the
   * platform keeps a tags index for it (shared/domains/repos/tags.ts).
   */
  listsTags(): Promise<boolean>;
  /** Creates the repository's storage with `defaultBranch` as its HEAD; one that exists is kept. */
  create(repoId: string, defaultBranch: string): Promise<void>;
  /**
   * Where the platform's own jobs (an import, where builds run) push a whole history with the git
   * CLI: a URL or path, and the `-c` settings its credentials need. Never handed to a person.
   */
  pushTarget(repoId: string): Promise<{ url: string; config: string[] }>;
  /** Deletes the repository's storage; a missing one is fine. */
  remove(repoId: string): Promise<void>;
  /** Every branch and tag, by name. */
  refs(repoId: string): Promise<{ branches: GitBranch[]; tags: GitTag[] }>;
  /** A branch, tag or commit id (full, or at least 7 hex characters) to its commit; null when none. */
  resolve(repoId: string, rev: string): Promise<{ kind: 'branch' | 'tag' | 'commit'; commit: string } | null>;
  /** The commits of the branches `names`, in their order (null: no such branch), at one look. */
  branchHeads(repoId: string, names: string[]): Promise<(string | null)[]>;
  /** A commit's summary; null when there is no such commit. */
  commitInfo(repoId: string, sha: string): Promise<GitCommit | null>;
  /** Commits reachable from `from`, newest first, optionally touching `path`. */
  log(repoId: string, input: { from: string; path?: string; skip: number; limit: number }): Promise<GitCommit[]>;
  /**
   * A web commit: `changes` on `parent` (null: the first commit of an empty repository), written
   * to `branch` only if it still points at `parent` (else GitConflict). `commitId` is null when the
   * changes leave the tree as it was (nothing is written). With `create`, `branch` is a new branch
   * made at the commit (it must not exist: GitConflict otherwise).
   */
  commit(
    repoId: string,
    input: {
      branch: string;
      parent: string | null;
      changes: GitChange[];
      message: string;
      author: GitPerson;
      create?: boolean;
    },
  ): Promise<{ commitId: string | null }>;
  /**
   * Moves `ref` (`refs/heads/…` or `refs/tags/…`) to `next` only if it is at `expected` (null: it
   * must not exist; `next` null deletes it). GitConflict otherwise.
   */
  setRef(repoId: string, ref: string, next: string | null, expected: string | null): Promise<void>;
  /** Every file of a commit's tree, in path order, at most `limit`. */
  files(repoId: string, commit: string, limit: number): Promise<{ files: GitFile[]; truncated: boolean }>;
  /** A file of a commit, up to `maxBytes`. */
  readFile(repoId: string, commit: string, path: string, maxBytes: number): Promise<GitFileContent>;
  /** Blobs by id, up to `maxBytes` each. */
  readBlob(repoId: string, blobId: string, maxBytes: number): Promise<GitFileContent>;
  /** The entries of a folder (`''`: the root) of a commit; null when there is no such folder. */
  tree(repoId: string, commit: string, path: string): Promise<GitTreeEntry[] | null>;
  /**
   * What changed from `base` (null: nothing, for a root commit) to `head`: at most `maxFiles`
   * files (`truncated` past them), hunks of at most `maxLines` lines in all (later files collapsed).
   */
  diff(
    repoId: string,
    base: string | null,
    head: string,
    limits: { maxFiles: number; maxLines: number },
  ): Promise<{ files: GitChangedFile[]; truncated: boolean }>;
  /** Commits `head` has that `base` lacks (ahead) and the reverse (behind), counting up to `cap` in all. */
  divergence(
    repoId: string,
    base: string,
    head: string,
    cap: number,
  ): Promise<{ ahead: number; behind: number; exact: boolean }>;
  /**
   * Whether `ancestor` is reachable from `descendant` (a commit is its own ancestor): an ancestry
   * check, never a comparison of commit times. GitTooFar: too far apart for the storage to tell.
   */
  isAncestor(repoId: string, ancestor: string, descendant: string): Promise<boolean>;
  /** The merge base of two commits; null for unrelated histories. GitTooFar: too far apart. */
  mergeBase(repoId: string, base: string, head: string): Promise<string | null>;
  /**
   * Merging `head` into `base` now: their merge base (null: unrelated histories), the strategies
   * that would succeed, and the conflicts a merge would meet. GitTooFar: too far apart to tell.
   */
  mergeOptions(
    repoId: string,
    base: string,
    head: string,
  ): Promise<{ mergeBase: string | null; options: MergeStrategy[]; conflicts: GitConflictEntry[] }>;
  /**
   * Merges the commit `source` into the branch `target`, only while the branch is at
   * `targetCommit` (GitConflict otherwise): `fast-forward` moves it to `source` (which must descend
   * from it), `squash` writes one commit of the merged tree on it, `three-way` a commit with both
   * parents. GitChangeError when the strategy can't merge them without conflicts.
   */
  merge(
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
  ): Promise<{ commitId: string }>;
  /** Commits reachable from `head` but not from `base`, newest first, at most `limit`. */
  commitsBetween(repoId: string, base: string, head: string, limit: number): Promise<GitCommit[]>;
  /** The tree of a commit as an archive, written as it is read (GitArchiveError: it can't be made). */
  archive(repoId: string, commit: string, format: 'zip' | 'tar.gz'): Promise<Readable>;
  /** One smart-HTTP exchange with the repository (the git endpoint, after its own checks). */
  http(repoId: string, request: GitHttpRequest): Promise<GitHttpResponse>;
}
