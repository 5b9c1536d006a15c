import { type Caller, callerId } from '../../../kernel/auth/caller';
import { conflict, forbidden, invalid, notFound } from '../../../kernel/ground/errors';
import type { GitPort } from '../../../ports/git';
import { authorOf } from '../issues';
import {
  createThread,
  gitPerson,
  listThreads,
  PULL_MESSAGES,
  type PullRecord,
  replyToThread,
  revisionOf,
  setApproval,
} from '../pulls';
import { repoGit } from '../tags';
import { headsOf, MAX_FILES, mergeState, pullOf, requireHeads, reviewState, revisionAt } from './state';

/**
 * The review of a pull request: approvals of its current revision (a push makes a new one), what
 * branch protection requires, and review threads on lines of its diff.
 */

/** The review of the current revision, as the caller sees it (threads `outdated` once their line changed). */
export async function pullReview(orgId: string, name: string, number: number, caller: Caller) {
  const { r, pull } = await pullOf(orgId, name, number);
  const port = await repoGit();
  const heads = await headsOf(port, pull);
  const merge =
    heads.source && heads.target
      ? await mergeState(port, pull.repoId, heads.target, heads.source, () => invalid(PULL_MESSAGES.tooFar))
      : undefined;
  const revisionId = revisionAt(pull, heads.source);
  const [review, threads] = await Promise.all([
    reviewState(r, pull, revisionId),
    listThreads(pull.repoId, pull.number),
  ]);
  const outdated = await outdatedLines(port, pull, threads, heads.source);
  return {
    revisionId,
    base: merge?.mergeBase ?? null,
    head: heads.source,
    approvals: review.approvals.map((a) => ({ id: a.userId, name: a.name, email: a.email })),
    required: review.required,
    rules: review.protectedTarget
      ? [{ name: 'Branch protection', required: review.required, fromTemplate: true, satisfied: review.approved }]
      : [],
    approved: review.approved,
    overridden: false,
    viewerApproved: review.approvals.some((a) => a.userId === callerId(caller)),
    threads: threads.map((t) => ({
      id: t.id,
      path: t.path,
      line: t.line,
      side: t.side,
      beforeCommitId: t.beforeCommitId,
      afterCommitId: t.afterCommitId,
      outdated: outdated.has(t.id),
      comments: t.comments,
    })),
  };
}

export interface ReviewComment {
  body: string;
  inReplyTo?: string;
  path?: string;
  line?: number;
  side: 'old' | 'new';
  base?: string;
  head?: string;
}

/**
 * A review comment: a reply to a thread (`inReplyTo`: a thread or comment id), or a new thread on
 * `line` of `path` of the diff between `base` and `head` (default: the merge base and the source
 * head). Returns the comment's id.
 */
export async function commentOnReview(
  orgId: string,
  name: string,
  number: number,
  caller: Caller,
  body: ReviewComment,
): Promise<string> {
  const { pull } = await pullOf(orgId, name, number);
  const author = authorOf(caller);
  const comment = {
    body: body.body,
    author: { id: author.authorId, name: gitPerson(author).name, email: author.authorEmail ?? null },
    createdAt: Date.now(),
    updatedAt: null,
    deleted: false,
  };
  if (body.inReplyTo !== undefined) {
    const id = await replyToThread(pull, body.inReplyTo, comment);
    if (!id) throw notFound();
    return id;
  }
  if (body.path === undefined || body.line === undefined) throw invalid(PULL_MESSAGES.chooseLine);
  const port = await repoGit();
  const heads = await requireHeads(port, pull);
  const merge = await mergeState(port, pull.repoId, heads.target, heads.source, () => invalid(PULL_MESSAGES.tooFar));
  const base = body.base ?? merge.mergeBase;
  const head = body.head ?? heads.source;
  if (!base || base === head) throw conflict(PULL_MESSAGES.noChanges);
  return createThread(
    pull,
    { path: body.path, line: body.line, side: body.side, beforeCommitId: base, afterCommitId: head },
    comment,
  );
}

/**
 * Approves (or withdraws the approval of) the current revision: never one's own pull request, only
 * an open one, and only the revision the caller saw (`revisionId`, when given).
 */
export async function approvePull(
  orgId: string,
  name: string,
  number: number,
  caller: Caller,
  body: { approve: boolean; revisionId?: string },
): Promise<boolean> {
  const { pull } = await pullOf(orgId, name, number, true);
  const who = callerId(caller);
  if (pull.authorId === who) throw forbidden(PULL_MESSAGES.ownApproval);
  if (pull.state !== 'open') throw conflict(PULL_MESSAGES.closed);
  const heads = await requireHeads(await repoGit(), pull);
  const current = revisionOf(pull, heads.source);
  if (body.revisionId !== undefined && body.revisionId !== current) throw conflict(PULL_MESSAGES.staleRevision);
  const author = authorOf(caller);
  await setApproval(
    pull,
    { userId: who, name: gitPerson(author).name, email: author.authorEmail ?? null },
    current,
    body.approve,
  );
  return body.approve;
}

/** Threads whose line changed since the commit they were written on (the source head moved there). */
async function outdatedLines(
  port: GitPort,
  pull: PullRecord,
  threads: { id: string; path: string | null; line: number | null; side: string; afterCommitId: string | null }[],
  head: string | null,
): Promise<Set<string>> {
  const out = new Set<string>();
  const byCommit = new Map<string, typeof threads>();
  for (const t of threads) {
    if (!t.afterCommitId || !head || t.afterCommitId === head || t.path === null || t.line === null) continue;
    byCommit.set(t.afterCommitId, [...(byCommit.get(t.afterCommitId) ?? []), t]);
  }
  for (const [after, list] of byCommit) {
    const { files } = await port.diff(pull.repoId, after, head as string, { maxFiles: MAX_FILES, maxLines: 50_000 });
    for (const t of list) {
      const file = files.find((f) => f.path === t.path);
      if (!file) continue;
      const line = t.line as number;
      // A new-side line is outdated when a hunk since covers it (or the file went); an old-side one when its file changed.
      const touched =
        file.change === 'deleted' ||
        t.side === 'old' ||
        file.collapsed ||
        file.hunks.some((h) => line >= h.oldStart && line < h.oldStart + Math.max(h.oldLines, 1));
      if (touched) out.add(t.id);
    }
  }
  return out;
}
