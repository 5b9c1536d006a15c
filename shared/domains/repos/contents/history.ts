import { invalid, notFound } from '../../../kernel/ground/errors';
import { GitTooFar } from '../../../ports/git';
import { pathProblem } from '../../../ports/git/names';
import { TOO_FAR_COMMITS } from '../../../ports/git/port';
import { lfsFileOf } from '../lfs/objects';
import { openPullFor } from '../pulls';
import { type RepoRecord, requireRepo } from '../records';
import { repoGit } from '../tags';

/** A repository's history as the browsing routes read it: compare, insights, trees, files, commits. */
export const NOT_FOUND = 'Not found';
export const COMMIT_NOT_FOUND = 'Commit not found';
export const REF_NOT_FOUND = 'Branch or tag not found';

/** What `blob` shows inline; larger files are read with `contents/raw` (up to 4 MB) or cloned. */
export const MAX_BLOB_BYTES = 1024 * 1024;
/** A commit's changes as answered: files, then lines of hunks in all (later files collapsed). */
const MAX_DIFF_FILES = 300;
const MAX_DIFF_LINES = 5000;
/** Branches compared with the default one at once, and commits counted per comparison. */
const MAX_DIVERGENCE_NAMES = 20;
const DIVERGENCE_CAP = 1000;
/** Entries of a folder given their last commit at once. */
const MAX_LAST_COMMITS = 100;

async function commitAt(r: RepoRecord, ref: string | undefined): Promise<string> {
  const found = await (await repoGit()).resolve(r.resourceId, ref ?? r.defaultBranch);
  if (!found) throw notFound(ref ? REF_NOT_FOUND : NOT_FOUND);
  return found.commit;
}

/** A folder path as the query gives it: no leading or trailing slash; `''` is the root. */
function folder(path: string | undefined): string {
  const p = (path ?? '').replace(/^\/+|\/+$/g, '');
  if (p && pathProblem(p)) throw notFound(NOT_FOUND);
  return p;
}

/** UTF-8 text without NUL is shown as text; anything else as base64. */
function encode(content: Buffer): { encoding: 'utf-8' | 'base64'; content: string } {
  const text = content.toString('utf8');
  return !content.includes(0) && Buffer.from(text, 'utf8').equals(content)
    ? { encoding: 'utf-8', content: text }
    : { encoding: 'base64', content: content.toString('base64') };
}

/** Beyond TOO_FAR_COMMITS apart (the git port's, CodeCommit's limit), branches are not compared. */
export const TOO_MANY_BRANCHES = 'Compare up to 20 branches at once.';
export const TOO_FAR = 'These branches are too far apart to compare.';
const MAX_COMPARE_COMMITS = 250;
/** Insights read at most this many commits of the last 52 weeks. */
const MAX_INSIGHT_COMMITS = 10_000;
const WEEK = 7 * 86_400_000;

/** The Monday 00:00 UTC that starts the week of `t`. */
const weekStart = (t: number) => {
  const d = new Date(t);
  const day = (d.getUTCDay() + 6) % 7;
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() - day);
};

/** Head compared with base as a pull request would see them. */
export async function compare(orgId: string, name: string, query: { base: string; head: string }) {
  const r = await requireRepo(orgId, name);
  const port = await repoGit();
  const base = await port.resolve(r.resourceId, query.base);
  if (!base) throw notFound(REF_NOT_FOUND);
  const head = await port.resolve(r.resourceId, query.head);
  if (!head) throw notFound('Branch or commit not found.');
  const apart = await port.divergence(r.resourceId, base.commit, head.commit, TOO_FAR_COMMITS);
  if (!apart.exact) throw invalid(TOO_FAR);
  let merge: Awaited<ReturnType<typeof port.mergeOptions>>;
  try {
    merge = await port.mergeOptions(r.resourceId, base.commit, head.commit);
  } catch (err) {
    if (err instanceof GitTooFar) throw invalid(TOO_FAR);
    throw err;
  }
  const commits = await port.commitsBetween(r.resourceId, base.commit, head.commit, MAX_COMPARE_COMMITS);
  const diff = await port.diff(r.resourceId, merge.mergeBase, head.commit, {
    maxFiles: MAX_DIFF_FILES,
    maxLines: MAX_DIFF_LINES,
  });
  const status =
    base.commit === head.commit
      ? 'identical'
      : apart.behind === 0
        ? 'ahead'
        : apart.ahead === 0
          ? 'behind'
          : 'diverged';
  return {
    mergeBase: merge.mergeBase,
    status,
    aheadBy: apart.ahead,
    behindBy: apart.behind,
    exact: apart.exact,
    commits,
    commitsTruncated: apart.ahead > commits.length,
    files: diff.files,
    total: diff.files.length,
    truncated: diff.truncated,
    mergeOptions: merge.options,
    conflicts: merge.conflicts,
    base: { ref: query.base, commitId: base.commit },
    head: { ref: query.head, commitId: head.commit },
    pull:
      base.kind === 'branch' && head.kind === 'branch' ? await openPullFor(r.resourceId, query.head, query.base) : null,
  };
}

/** A ref's commits per week over the last 52 weeks and its ten most active authors. */
export async function insights(orgId: string, name: string, query: { ref?: string }) {
  const r = await requireRepo(orgId, name);
  const port = await repoGit();
  const empty = (await port.refs(r.resourceId)).branches.length === 0;
  const first = weekStart(Date.now()) - 51 * WEEK;
  const weeks = Array.from({ length: 52 }, (_, i) => ({ weekStart: first + i * WEEK, commits: 0 }));
  if (empty && !query.ref)
    return { ref: r.defaultBranch, commitId: null, weeks, contributors: [], totalCommits: 0, truncated: false };
  const from = await commitAt(r, query.ref);
  const commits = await port.log(r.resourceId, { from, skip: 0, limit: MAX_INSIGHT_COMMITS + 1 });
  const recent = commits.slice(0, MAX_INSIGHT_COMMITS).filter((c) => (c.author.date ?? 0) >= first);
  const authors = new Map<string, { name: string | null; email: string | null; commits: number }>();
  for (const c of recent) {
    const week = weeks[Math.floor(((c.author.date ?? 0) - first) / WEEK)];
    if (week) week.commits++;
    const key = (c.author.email ?? c.author.name ?? '').toLowerCase();
    const a = authors.get(key) ?? { name: c.author.name ?? null, email: c.author.email ?? null, commits: 0 };
    a.commits++;
    authors.set(key, a);
  }
  const contributors = [...authors.values()].sort((a, b) => b.commits - a.commits).slice(0, 10);
  return {
    ref: query.ref ?? r.defaultBranch,
    commitId: from,
    weeks,
    contributors,
    totalCommits: recent.length,
    truncated: commits.length > MAX_INSIGHT_COMMITS,
  };
}

/** A folder of a ref: folders first, then files, by name. */
export async function treeOf(orgId: string, name: string, query: { ref?: string; path?: string }) {
  const r = await requireRepo(orgId, name);
  const path = folder(query.path);
  const commitId = await commitAt(r, query.ref);
  const entries = await (await repoGit()).tree(r.resourceId, commitId, path);
  if (!entries) throw notFound(NOT_FOUND);
  return { ref: query.ref ?? r.defaultBranch, commitId, path, entries };
}

/** A file of a ref with its content (and its LFS object when it is a pointer). */
export async function blobOf(orgId: string, name: string, query: { ref?: string; path: string }) {
  const r = await requireRepo(orgId, name);
  if (pathProblem(query.path)) throw notFound(NOT_FOUND);
  const commitId = await commitAt(r, query.ref);
  const file = await (await repoGit()).readFile(r.resourceId, commitId, query.path, MAX_BLOB_BYTES);
  if (!file) throw notFound(NOT_FOUND);
  if ('tooLarge' in file) return { path: query.path, commitId, size: file.size, tooLarge: true };
  const lfs = await lfsFileOf({ orgId, repoId: r.resourceId }, file.content, query.path.split('/').pop());
  return { path: query.path, commitId, size: file.size, ...encode(file.content), ...(lfs && { lfs }) };
}

/** A commit with the files it changed against its first parent. */
export async function commitWithChanges(orgId: string, name: string, sha: string) {
  const r = await requireRepo(orgId, name);
  const port = await repoGit();
  const commit = await port.commitInfo(r.resourceId, sha);
  if (!commit) throw notFound(COMMIT_NOT_FOUND);
  const { files, truncated } = await port.diff(r.resourceId, commit.parents[0] ?? null, commit.id, {
    maxFiles: MAX_DIFF_FILES,
    maxLines: MAX_DIFF_LINES,
  });
  return { commit, files, truncated };
}

/** How far each named branch is from the default branch (null for one that does not exist). */
export async function divergenceOf(orgId: string, name: string, query: { name?: string }) {
  const r = await requireRepo(orgId, name);
  const names = [...new Set((query.name ?? '').split(',').filter(Boolean))];
  if (names.length > MAX_DIVERGENCE_NAMES) {
    throw invalid(TOO_MANY_BRANCHES);
  }
  const port = await repoGit();
  const { branches } = await port.refs(r.resourceId);
  const base = branches.find((b) => b.name === r.defaultBranch);
  if (!base) throw notFound(NOT_FOUND);
  const divergence: Record<string, { ahead: number; behind: number; exact: boolean } | null> = {};
  for (const name of names) {
    const branch = branches.find((b) => b.name === name);
    divergence[name] = branch ? await port.divergence(r.resourceId, base.commit, branch.commit, DIVERGENCE_CAP) : null;
  }
  return { base: r.defaultBranch, divergence };
}

/** The last commit of each entry of a folder. */
export async function lastCommits(orgId: string, name: string, query: { ref?: string; path?: string }) {
  const r = await requireRepo(orgId, name);
  const path = folder(query.path);
  const port = await repoGit();
  const from = await commitAt(r, query.ref);
  const entries = await port.tree(r.resourceId, from, path);
  if (!entries) throw notFound(NOT_FOUND);
  const shown = entries.slice(0, MAX_LAST_COMMITS);
  const commits: Record<string, Awaited<ReturnType<typeof port.commitInfo>>> = {};
  await Promise.all(
    shown.map(async (e) => {
      const [last] = await port.log(r.resourceId, { from, path: e.path, skip: 0, limit: 1 });
      commits[e.name] = last ?? null;
    }),
  );
  return { commitId: from, path, commits, truncated: entries.length > shown.length };
}
