import type { Caller } from '../../../kernel/auth/caller';
import { callerId } from '../../../kernel/auth/caller';
import { notFound } from '../../../kernel/ground/errors';
import { publicFields } from '../../../kernel/store/table';
import { type GitPort, GitTooFar } from '../../../ports/git';
import { requireNumbered } from '../issues';
import { listApprovals, PULL_MESSAGES, type PullRecord, reviewedHead, revisionOf } from '../pulls';
import { type RepoRecord, requireRepo } from '../records';

/**
 * What the pulls use cases share: the pull request of a path, the heads of its branches now,
 * what the storage says of merging them, and the review that counts.
 */

/** Commits a pull request lists, and files it shows, at most. */
export const MAX_COMMITS = 250;
export const MAX_FILES = 300;

/** A repository's pull request by number (404 `Pull request not found`). */
export const requirePull = (repoId: string, number: number, consistent = false) =>
  requireNumbered<PullRecord>(repoId, number, 'pull', PULL_MESSAGES.notFound, consistent);

/** The repository (by name) and its pull request (by number). */
export async function pullOf(orgId: string, name: string, number: number, consistent = false) {
  const r = await requireRepo(orgId, name);
  const pull = await requirePull(r.resourceId, number, consistent);
  return { r, pull };
}

/** Its author, or a member with git:write. */
export const isAuthorOr = (pull: PullRecord, caller: Caller, scopes: ReadonlySet<string>) =>
  pull.authorId === callerId(caller) || scopes.has('git:write');

/** A pull request as lists show it. */
export function shown(p: PullRecord) {
  const {
    kind: _kind,
    version: _version,
    description: _d,
    mergedHead: _m,
    ...pull
  } = publicFields(p as PullRecord & Record<string, unknown>);
  return pull;
}

/** The heads of both branches now (null: the branch is gone). */
export async function headsOf(port: GitPort, pull: PullRecord) {
  const [source = null, target = null] = await port.branchHeads(pull.repoId, [pull.sourceBranch, pull.targetBranch]);
  return { source, target };
}

/** Both heads of an open comparison: 404 `Branch or commit not found.` when one is gone. */
export async function requireHeads(port: GitPort, pull: PullRecord) {
  const heads = await headsOf(port, pull);
  if (!heads.source || !heads.target) throw notFound(PULL_MESSAGES.refNotFound);
  return heads as { source: string; target: string };
}

/** Merge options of the pull request now: `tooFar()` when the storage won't compare them. */
export async function mergeState(port: GitPort, repoId: string, target: string, source: string, tooFar: () => Error) {
  try {
    return await port.mergeOptions(repoId, target, source);
  } catch (err) {
    if (err instanceof GitTooFar) throw tooFar();
    throw err;
  }
}

/** The merge base of both heads (null: unrelated histories); `tooFar()` when too far apart. */
export async function mergeBaseOf(
  port: GitPort,
  repoId: string,
  heads: { source: string; target: string },
  tooFar: () => Error,
): Promise<string | null> {
  try {
    return await port.mergeBase(repoId, heads.target, heads.source);
  } catch (err) {
    if (err instanceof GitTooFar) throw tooFar();
    throw err;
  }
}

/** The revision a pull request's review is of (see `reviewedHead`); null when none. */
export function revisionAt(pull: PullRecord, source: string | null): string | null {
  const head = reviewedHead(pull, source);
  return head ? revisionOf(pull, head) : null;
}

/** Approvals of the current revision by anyone but the author; the branch rule's count. */
export async function reviewState(r: RepoRecord, pull: PullRecord, revisionId: string | null) {
  const approvals = (await listApprovals(pull.repoId, pull.number)).filter(
    (a) => a.revisionId === revisionId && a.userId !== pull.authorId,
  );
  const protectedTarget = (r.requiredApprovals ?? 0) > 0 && pull.targetBranch === r.defaultBranch;
  const required = protectedTarget ? (r.requiredApprovals as number) : 0;
  return { approvals, required, protectedTarget, approved: approvals.length >= required };
}
