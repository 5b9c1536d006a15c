import { type Caller, callerId } from '../../../kernel/auth/caller';
import { conflict } from '../../../kernel/ground/errors';
import { describeError, log } from '../../../kernel/ground/log';
import { GitChangeError, GitConflict, GitTooFar } from '../../../ports/git';
import { retirePreviews } from '../../deployments/preview-builds';
import { checksOf, requiredChecksBlock } from '../checks';
import { authorOf, getNumbered, type IssueRecord, updateIssue } from '../issues';
import { requiredChecksFor } from '../protection';
import { closingNumbers, finishPull, gitPerson, PULL_MESSAGES, type PullRecord, revisionOf } from '../pulls';
import type { RepoRecord } from '../records';
import { repoGit } from '../tags';
import { settleBranch } from './settle';
import { MAX_COMMITS, mergeState, pullOf, requireHeads, reviewState } from './state';

export interface MergeAsk {
  strategy: 'squash' | 'fast-forward' | 'three-way';
  message?: string;
  /** The source head the caller saw: a source that moved since is 409. */
  sourceCommitId?: string;
}

/**
 * Merges an open pull request with `strategy` (squash: one commit `<title> (#N)` by the pull
 * request's author; fast-forward; three-way: a merge commit), once its current revision has the
 * approvals branch protection requires and the required checks of its source head passed, and
 * only if its source is not in the target already. Then: the pull request is merged, its previews
 * retire, the issues its texts close with a keyword close (into the default branch only), and
 * other pull requests whose source the merge brought into the target settle (./settle.ts).
 */
export async function mergePull(orgId: string, name: string, number: number, caller: Caller, body: MergeAsk) {
  const { r, pull } = await pullOf(orgId, name, number, true);
  if (pull.state !== 'open') throw conflict(PULL_MESSAGES.alreadyClosed);
  const port = await repoGit();
  const heads = await requireHeads(port, pull);
  if (body.sourceCommitId !== undefined && body.sourceCommitId !== heads.source) {
    throw conflict(PULL_MESSAGES.sourceChanged);
  }
  const merge = await mergeState(port, pull.repoId, heads.target, heads.source, () =>
    conflict(PULL_MESSAGES.divergedMerge),
  );
  const review = await reviewState(r, pull, revisionOf(pull, heads.source));
  if (!review.approved) throw conflict(PULL_MESSAGES.needsApprovals);
  const required = requiredChecksFor(r, pull.targetBranch);
  const unpassed = required.length > 0 && requiredChecksBlock(required, await checksOf(pull.repoId, heads.source));
  if (unpassed) throw conflict(unpassed);
  if (merge.mergeBase === heads.source) {
    // The source is in the target already: a merge of it landed since the pull request was read
    // (settled now, or about to be), or the target moved on with it.
    const now = (await pullOf(orgId, name, number, true)).pull;
    throw conflict(now.state === 'open' ? PULL_MESSAGES.targetChanged : PULL_MESSAGES.alreadyClosed);
  }
  if (!merge.options.includes(body.strategy)) throw conflict(PULL_MESSAGES.strategy);
  const merger = authorOf(caller);
  const message =
    body.message ||
    (body.strategy === 'squash'
      ? `${pull.title} (#${pull.number})`
      : `Merge pull request #${pull.number} from ${pull.sourceBranch}`);
  const closing = r.defaultBranch === pull.targetBranch;
  const brought = closing
    ? await port.commitsBetween(pull.repoId, merge.mergeBase ?? heads.target, heads.source, MAX_COMMITS)
    : [];
  let commitId: string;
  try {
    ({ commitId } = await port.merge(pull.repoId, {
      target: pull.targetBranch,
      targetCommit: heads.target,
      source: heads.source,
      strategy: body.strategy,
      message,
      author: body.strategy === 'squash' ? gitPerson(pull) : gitPerson(merger),
      committer: gitPerson(merger),
    }));
  } catch (err) {
    if (err instanceof GitConflict) throw conflict(PULL_MESSAGES.targetChanged);
    if (err instanceof GitChangeError) throw conflict(PULL_MESSAGES.strategy);
    if (err instanceof GitTooFar) throw conflict(PULL_MESSAGES.divergedMerge);
    throw err;
  }
  await finishPull(pull, 'merged', {
    mergeCommitId: commitId,
    mergedHead: heads.source,
    closedAt: Date.now(),
    closedBy: callerId(caller),
  });
  await retirePreviews(pull.repoId, pull.number, 'merged');
  const closedIssues = closing
    ? await closeIssues(r, pull, [pull.title, pull.description, ...brought.map((c) => c.message)], caller)
    : [];
  await settleBranch(pull.repoId, pull.targetBranch).catch((err: unknown) =>
    log.warn('pull requests not settled after a merge', { repoId: pull.repoId, error: describeError(err) }),
  );
  return { merged: true as const, mergeCommitId: commitId, closedIssues };
}

/** Closes the open issues of this repository the texts name with a closing keyword; their numbers. */
async function closeIssues(r: RepoRecord, pull: PullRecord, texts: string[], caller: Caller): Promise<number[]> {
  const closed: number[] = [];
  for (const number of closingNumbers(texts)) {
    const issue = await getNumbered<IssueRecord>(r.resourceId, number, true);
    if (issue?.kind !== 'issue' || issue.state !== 'open') continue;
    const now = Date.now();
    try {
      await updateIssue(
        r.orgId,
        r.resourceId,
        issue,
        { state: 'closed', closedAt: now, closedBy: callerId(caller), closedByPull: pull.number, updatedAt: now },
        'closed',
        'The issue changed.',
      );
      closed.push(number);
    } catch {
      // Changed meanwhile: left as it is now.
    }
  }
  return closed;
}
