import { invalid } from '../../../kernel/ground/errors';
import { decodeCursor, encodeCursor, INVALID_CURSOR } from '../../../kernel/store/cursor';
import { pathProblem } from '../../../ports/git/names';
import { requireRepo } from '../records';
import { repoGit } from '../tags';
import { commitOf } from './refs';

/** A repository's history as the web reads it: pages of commits, the newest commit of a path. */

/** Commits of a ref (the default branch unless given), newest first, optionally touching `path`; a signed cursor. */
export async function listCommits(
  orgId: string,
  name: string,
  query: { ref?: string; path?: string; cursor?: string; limit: number },
) {
  const r = await requireRepo(orgId, name);
  const scope = `commits:${r.resourceId}:${query.path ?? ''}`;
  const at = query.cursor ? decodeCursor<{ from: string; skip: number }>(scope, query.cursor) : undefined;
  if (query.cursor && !at) throw invalid(INVALID_CURSOR);
  if (query.path && pathProblem(query.path)) return { commits: [], cursor: null };
  const port = await repoGit();
  const empty = (await port.refs(r.resourceId)).branches.length === 0;
  if (empty && !at) return { commits: [], cursor: null };
  const from = at?.from ?? (await commitOf(r, query.ref ?? r.defaultBranch));
  const skip = at?.skip ?? 0;
  const page = await port.log(r.resourceId, { from, path: query.path, skip, limit: query.limit + 1 });
  const more = page.length > query.limit;
  return {
    commits: page.slice(0, query.limit),
    cursor: more ? encodeCursor(scope, { from, skip: skip + query.limit }) : null,
  };
}

/** The newest commit of a ref that touched `path` (the whole tree without it); null when none did. */
export async function lastCommit(orgId: string, name: string, query: { ref?: string; path?: string }) {
  const r = await requireRepo(orgId, name);
  if (query.path && pathProblem(query.path)) return { commit: null };
  const from = await commitOf(r, query.ref ?? r.defaultBranch);
  const [commit] = await (await repoGit()).log(r.resourceId, { from, path: query.path, skip: 0, limit: 1 });
  return { commit: commit ?? null };
}
