import { forbidden, invalid } from '../../kernel/ground/errors';
import { db } from '../../kernel/store/client';
import { UpdateCommand } from '../../kernel/store/commands';
import { transact } from '../../kernel/store/ops';
import { TABLE, versionedUpdate } from '../../kernel/store/table';
import { canEdit } from './access';
import { orgIssues, present, requireIssue } from './issues';
import type { Space, TrackedIssue } from './model';
import { compareRanks, placeRanks } from './rank';
import { type Actor, TRACKER_MESSAGES } from './records';
import { spaceIssuesSk, TK } from './store';

/** Raises the organization's last rank to `rank` when it is higher (new issues go after it). */
async function raiseLastRank(orgId: string, rank: string): Promise<void> {
  try {
    await db.send(
      new UpdateCommand({
        TableName: TABLE(),
        Key: TK.meta(orgId),
        UpdateExpression: 'SET lastRank = :r',
        ConditionExpression: 'attribute_not_exists(lastRank) OR lastRank < :r',
        ExpressionAttributeValues: { ':r': rank },
      }),
    );
  } catch (err) {
    if ((err as Error).name !== 'ConditionalCheckFailedException') throw err;
  }
}

/**
 * Ranks `refs` (in the order given) right before or after `anchor`, across the organization's
 * issues (a board over several spaces orders them together). One conditional write per issue whose
 * rank changes; past 128 characters every issue is ranked afresh, order kept.
 */
export async function rankIssues(
  actor: Actor,
  refs: string[],
  anchorRef: { before?: string; after?: string },
): Promise<{ issueId: string; key: string; rank: string }[]> {
  if ((anchorRef.before === undefined) === (anchorRef.after === undefined))
    throw invalid(TRACKER_MESSAGES.beforeOrAfter);
  const side = anchorRef.before !== undefined ? 'before' : 'after';
  const anchor = await requireIssue(actor, (anchorRef.before ?? anchorRef.after) as string);
  const moving: { issue: TrackedIssue; space: Space }[] = [];
  // Read 25 at a time (in the order given: the first refusal is the answer).
  const found: Awaited<ReturnType<typeof requireIssue>>[] = [];
  for (let i = 0; i < refs.length; i += 25)
    found.push(...(await Promise.all(refs.slice(i, i + 25).map((ref) => requireIssue(actor, ref)))));
  for (const one of found) {
    if (!canEdit(one.issue, one.space, actor)) throw forbidden(TRACKER_MESSAGES.cannotEdit);
    if (one.issue.issueId === anchor.issue.issueId) throw invalid(TRACKER_MESSAGES.rankSelf);
    if (!moving.some((m) => m.issue.issueId === one.issue.issueId)) moving.push(one);
  }
  const all = (await orgIssues(actor.orgId)).sort(
    (a, b) => compareRanks(a.rank, b.rank) || (a.issueId < b.issueId ? -1 : 1),
  );
  const byId = new Map(all.map((i) => [i.issueId, i]));
  const { ranks } = placeRanks(
    all.map((i) => ({ id: i.issueId, rank: i.rank })),
    moving.map((m) => m.issue.issueId),
    { id: anchor.issue.issueId, side },
  );
  const now = Date.now();
  const changed = [...ranks.entries()].filter(([id, rank]) => byId.get(id)?.rank !== rank);
  for (let i = 0; i < changed.length; i += 25) {
    await Promise.all(
      changed.slice(i, i + 25).map(([id, rank]) => {
        const issue = byId.get(id) as TrackedIssue;
        return transact(
          [
            {
              Update: versionedUpdate(TK.issue(actor.orgId, id), issue.version, {
                rank,
                updatedAt: now,
                gsi1sk: spaceIssuesSk(issue.statusId, now, id),
              }),
            },
          ],
          [TRACKER_MESSAGES.issueChanged],
        );
      }),
    );
  }
  const top = [...ranks.values()].reduce((m, r) => (compareRanks(r, m) > 0 ? r : m), '');
  if (top) await raiseLastRank(actor.orgId, top);
  return moving.map((m) => ({
    issueId: m.issue.issueId,
    key: present(m.issue, m.space).key,
    rank: ranks.get(m.issue.issueId) as string,
  }));
}
