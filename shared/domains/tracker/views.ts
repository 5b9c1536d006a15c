import { db } from '../../kernel/store/client';
import { PutCommand } from '../../kernel/store/commands';
import { getItem, TABLE } from '../../kernel/store/table';
import type { Actor } from './records';
import { TK } from './store';

/**
 * A person's issue history, as Jira keeps it: the issues they opened with `remember=1` (Jira's
 * `updateHistory`), newest first, up to 50, in one record of theirs. JQL reads it: `issue in
 * issueHistory()`, and `lastViewed` (when they last opened each issue, ORDER BY lastViewed DESC).
 * A view is written with a conditional put on the record's version; a view lost to a concurrent
 * one of the same person is dropped (a history, not a ledger), never an error of the read.
 */
export const MAX_VIEWED = 50;

interface Views {
  /** [issueId, at (ms)], newest first. */
  issues: [string, number][];
  version: number;
}

/** The person's viewed issues, newest first: issueId → when. */
export async function viewedIssues(orgId: string, userId: string): Promise<Map<string, number>> {
  const item = await getItem<Views>(TK.views(orgId, userId));
  return new Map(item?.issues ?? []);
}

/** Puts the issue first in the person's history. */
export async function rememberView(actor: Actor, issueId: string, at = Date.now()): Promise<void> {
  if (!actor.person) return;
  const key = TK.views(actor.orgId, actor.id);
  for (let attempt = 0; attempt < 3; attempt++) {
    const item = await getItem<Views>(key, true);
    const issues: [string, number][] = [[issueId, at], ...(item?.issues ?? []).filter(([id]) => id !== issueId)].slice(
      0,
      MAX_VIEWED,
    ) as [string, number][];
    try {
      await db.send(
        new PutCommand({
          TableName: TABLE(),
          Item: { ...key, issues, version: (item?.version ?? 0) + 1 },
          ConditionExpression: item ? 'version = :v' : 'attribute_not_exists(pk)',
          ...(item ? { ExpressionAttributeValues: { ':v': item.version } } : {}),
        }),
      );
      return;
    } catch (err) {
      if ((err as Error).name !== 'ConditionalCheckFailedException') throw err;
    }
  }
}
