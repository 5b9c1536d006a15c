import { conflict, invalid, notFound } from '../../../kernel/ground/errors';
import { GitConflict } from '../../../ports/git';
import { isCommitId, refNameProblem } from '../../../ports/git/names';
import { protectedBranchOf } from '../protection';
import { openPairs } from '../pulls';
import { type RepoRecord, requireRepo } from '../records';
import { repoGit } from '../tags';

/** A repository's branches and tags as the web shows them, and the branches made and deleted there. */

export const REFS_MESSAGES = {
  refNotFound: 'Branch or tag not found',
  branchExists: 'A branch with this name already exists.',
  tagExists: 'A tag with this name already exists.',
  noSuchCommit: "That commit doesn't exist.",
  defaultBranch: "The default branch can't be deleted.",
  branchGone: 'Branch not found.',
  branchChanged: 'The branch changed. Reload and try again.',
} as const;

/** A branch, tag or commit of the repository: 404 `Branch or tag not found` when it names none. */
export async function commitOf(r: RepoRecord, ref: string): Promise<string> {
  const found = await (await repoGit()).resolve(r.resourceId, ref);
  if (!found) throw notFound(REFS_MESSAGES.refNotFound);
  return found.commit;
}

/** Branches with their commits: the default, the protected one, and each one's open pull request (the lowest). */
export async function listBranches(orgId: string, name: string) {
  const r = await requireRepo(orgId, name);
  const [{ branches }, pairs] = await Promise.all([(await repoGit()).refs(r.resourceId), openPairs(r.resourceId)]);
  const openPull = new Map<string, number>();
  for (const pair of pairs) {
    const known = openPull.get(pair.source);
    if (known === undefined || pair.number < known) openPull.set(pair.source, pair.number);
  }
  const guarded = protectedBranchOf(r);
  return {
    defaultBranch: r.defaultBranch,
    branches: branches.map((b) => ({
      name: b.name,
      commit: b.commit,
      isDefault: b.name === r.defaultBranch,
      protected: b.name === guarded,
      openPull: openPull.get(b.name) ?? null,
    })),
  };
}

/** Tags (pushed with git): annotated or not, the object they point at and their commit. */
export async function listTags(orgId: string, name: string) {
  const r = await requireRepo(orgId, name);
  return { tags: (await (await repoGit()).refs(r.resourceId)).tags };
}

/** A new branch `branch` at a branch, tag or commit `from`: a valid name no branch or tag has. */
export async function createBranch(orgId: string, name: string, branch: string, from: string) {
  const problem = refNameProblem(branch);
  if (problem) throw invalid(`Branch name ${problem}.`);
  const r = await requireRepo(orgId, name);
  const port = await repoGit();
  const refs = await port.refs(r.resourceId);
  if (refs.tags.some((t) => t.name === branch)) throw conflict(REFS_MESSAGES.tagExists);
  if (refs.branches.some((b) => b.name === branch)) throw conflict(REFS_MESSAGES.branchExists);
  const at = await port.resolve(r.resourceId, from);
  if (!at) throw isCommitId(from) ? invalid(REFS_MESSAGES.noSuchCommit) : notFound(REFS_MESSAGES.refNotFound);
  try {
    await port.setRef(r.resourceId, `refs/heads/${branch}`, at.commit, null);
  } catch (err) {
    if (err instanceof GitConflict) throw conflict(REFS_MESSAGES.branchExists);
    throw err;
  }
  return { name: branch, commitId: at.commit };
}

/** Deletes a branch (never the default one), only where it was read; the commit it pointed at. */
export async function deleteBranch(orgId: string, name: string, branchName: string) {
  const r = await requireRepo(orgId, name);
  if (branchName === r.defaultBranch) throw invalid(REFS_MESSAGES.defaultBranch);
  const port = await repoGit();
  const branch = (await port.refs(r.resourceId)).branches.find((b) => b.name === branchName);
  if (!branch) throw notFound(REFS_MESSAGES.branchGone);
  try {
    await port.setRef(r.resourceId, `refs/heads/${branch.name}`, null, branch.commit);
  } catch (err) {
    if (err instanceof GitConflict) throw conflict(REFS_MESSAGES.branchChanged);
    throw err;
  }
  return { deleted: branch.name, commitId: branch.commit };
}
