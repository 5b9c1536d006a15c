import type { Caller } from '../../../kernel/auth/caller';
import { invalid } from '../../../kernel/ground/errors';
import { describeError, log } from '../../../kernel/ground/log';
import { newId } from '../../../kernel/store/ids';
import { previewPullForAll } from '../../deployments/preview-builds';
import { authorOf, memberIds } from '../issues';
import { createPull, PULL_MESSAGES, type PullRecord } from '../pulls';
import { requireRepo } from '../records';
import { repoGit } from '../tags';
import { mergeState } from './state';

export interface NewPull {
  title: string;
  description: string;
  source: string;
  target: string;
  labels: string[];
  assignees: string[];
}

/**
 * Opens a pull request from `source` into `target` under the repository's next number: two
 * different branches that exist and that the storage can compare, assignees who are members; one
 * open per pair of branches, within the cap (shared/domains/repos/pulls.ts). Its previews start.
 */
export async function openPullRequest(orgId: string, name: string, caller: Caller, body: NewPull) {
  if (body.source === body.target) throw invalid(PULL_MESSAGES.branchesSame);
  const r = await requireRepo(orgId, name);
  const assignees = await memberIds(orgId, body.assignees, PULL_MESSAGES.notMember);
  const port = await repoGit();
  const [source, target] = await port.branchHeads(r.resourceId, [body.source, body.target]);
  if (!source || !target) throw invalid(PULL_MESSAGES.branchNotFound);
  await mergeState(port, r.resourceId, target, source, () => invalid(PULL_MESSAGES.divergedCreate));
  const now = Date.now();
  const pull = await createPull(r, (number) => ({
    kind: 'pull',
    number,
    pullRequestId: newId('pr_'),
    orgId,
    repoId: r.resourceId,
    title: body.title,
    description: body.description,
    state: 'open',
    sourceBranch: body.source,
    targetBranch: body.target,
    labels: [...new Set(body.labels)],
    assignees,
    comments: 0,
    ...authorOf(caller),
    createdAt: now,
    updatedAt: now,
    version: 1,
  }));
  await startPreviews(pull, source);
  return pull;
}

/** The previews of a pull request just opened or reopened; a failure is logged, the pull request stands. */
export async function startPreviews(pull: PullRecord, head: string): Promise<void> {
  try {
    await previewPullForAll(pull, head);
  } catch (err) {
    log.error('previews not started', { repoId: pull.repoId, number: pull.number, error: describeError(err) });
  }
}
