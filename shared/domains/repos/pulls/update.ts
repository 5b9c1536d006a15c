import { type Caller, callerId } from '../../../kernel/auth/caller';
import { conflict, forbidden } from '../../../kernel/ground/errors';
import { retirePreviews } from '../../deployments/preview-builds';
import { memberIds } from '../issues';
import { finishPull, PULL_MESSAGES, type PullRecord, reopenPull, updatePull } from '../pulls';
import { repoGit } from '../tags';
import { startPreviews } from './create';
import { headsOf, isAuthorOr, pullOf } from './state';

/** Who asks, with what scopes, for which pull request. */
export interface PullAsk {
  orgId: string;
  name: string;
  number: number;
  caller: Caller;
  scopes: ReadonlySet<string>;
}

/** Changes the title, description, labels or assignees: its author, or a member with git:write. */
export async function editPull(
  ask: PullAsk,
  body: { title?: string; description?: string; labels?: string[]; assignees?: string[] },
): Promise<PullRecord> {
  const { pull } = await pullOf(ask.orgId, ask.name, ask.number, true);
  if (!isAuthorOr(pull, ask.caller, ask.scopes)) throw forbidden(PULL_MESSAGES.onlyAuthorEdit);
  const fields: Record<string, unknown> = { updatedAt: Date.now() };
  if (body.title !== undefined) fields.title = body.title;
  if (body.description !== undefined) fields.description = body.description;
  if (body.labels !== undefined) fields.labels = [...new Set(body.labels)];
  if (body.assignees !== undefined)
    fields.assignees = await memberIds(ask.orgId, body.assignees, PULL_MESSAGES.notMember);
  return updatePull(pull, fields);
}

/** Closes without merging (its author, or git:write): its previews retire. A finished one stays as it is. */
export async function closePullRequest(ask: PullAsk): Promise<PullRecord['state']> {
  const { pull } = await pullOf(ask.orgId, ask.name, ask.number, true);
  if (!isAuthorOr(pull, ask.caller, ask.scopes)) throw forbidden(PULL_MESSAGES.onlyAuthorClose);
  if (pull.state !== 'open') return pull.state;
  const closed = await finishPull(pull, 'closed', { closedAt: Date.now(), closedBy: callerId(ask.caller) });
  await retirePreviews(pull.repoId, pull.number, 'closed');
  return closed.state;
}

/**
 * Reopens a closed pull request as a new one under the same number (approvals start over): both
 * branches must exist and differ; merged ones never reopen. Its previews start again.
 */
export async function reopenPullRequest(ask: PullAsk): Promise<PullRecord['state']> {
  const { pull } = await pullOf(ask.orgId, ask.name, ask.number, true);
  if (!isAuthorOr(pull, ask.caller, ask.scopes)) throw forbidden(PULL_MESSAGES.onlyAuthorReopen);
  if (pull.state === 'merged') throw conflict(PULL_MESSAGES.mergedReopen);
  if (pull.state === 'open') return 'open';
  const heads = await headsOf(await repoGit(), pull);
  if (!heads.source || !heads.target) throw conflict(PULL_MESSAGES.branchGone(pull.sourceBranch, pull.targetBranch));
  if (heads.source === heads.target) throw conflict(PULL_MESSAGES.sameCommit);
  const reopened = await reopenPull(pull);
  await startPreviews(reopened, heads.source);
  return reopened.state;
}
