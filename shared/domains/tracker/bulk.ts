import { DomainError, forbidden, invalid, isCallersError, notFound } from '../../kernel/ground/errors';
import { transact } from '../../kernel/store/ops';
import { getItem, TABLE } from '../../kernel/store/table';
import { canEdit, permissionsFor } from './access';
import { findNamed, ISSUE_TYPES, workflowOf } from './catalog';
import { type IssueInput, present, requireIssue, resolveInput, statusChange, writeChanges } from './issues';
import type { Space, TrackedIssue } from './model';
import { type Actor, TRACKER_MESSAGES } from './records';
import { requireSpace } from './spaces';
import { countBy, spaceIssuesPk, spaceIssuesSk, TK, takeNumber } from './store';
import { applyTransition, findTransition } from './transitions';

export type BulkOperation = 'edit' | 'transition' | 'move' | 'delete' | 'watch' | 'unwatch';

export interface BulkInput {
  issues: string[];
  operation: BulkOperation;
  fields?: IssueInput;
  transition?: string;
  space?: string;
  type?: string;
}

export type BulkResult = { issue: string; ok: true; key?: string } | { issue: string; ok: false; error: string };

/**
 * A bulk change (1-200 issues): each issue on its own, with one conditional write (on the version
 * read), so one issue's failure (not found, not allowed, changed meanwhile, a transition that
 * does not apply) is its own result and the others go on.
 */
export async function bulkChange(
  actor: Actor,
  input: BulkInput,
): Promise<{ results: BulkResult[]; done: number; failed: number }> {
  if (input.operation === 'transition' && !input.transition) throw invalid('A transition operation needs transition.');
  if (input.operation === 'move' && !input.space) throw invalid('A move operation needs space.');
  const target = input.operation === 'move' ? await requireSpace(actor, input.space as string) : undefined;
  if (target && !permissionsFor(target, actor).create) throw forbidden(TRACKER_MESSAGES.cannotCreate);
  const results: BulkResult[] = [];
  const queue = [...input.issues];
  const work = async () => {
    for (let ref = queue.shift(); ref !== undefined; ref = queue.shift()) {
      const at = input.issues.indexOf(ref);
      try {
        const key = await one(actor, ref, input, target);
        results[at] = { issue: ref, ok: true, ...(key ? { key } : {}) };
      } catch (err) {
        if (!isCallersError(err)) throw err;
        results[at] = { issue: ref, ok: false, error: err.message };
      }
    }
  };
  await Promise.all(Array.from({ length: 8 }, work));
  const list = input.issues.map(
    (ref, i) => results[i] ?? { issue: ref, ok: false as const, error: 'Repeated in the request.' },
  );
  const done = list.filter((r) => r.ok).length;
  return { results: list, done, failed: list.length - done };
}

async function one(actor: Actor, ref: string, input: BulkInput, target?: Space): Promise<string | undefined> {
  const { issue, space } = await requireIssue(actor, ref, true);
  const perms = permissionsFor(space, actor);
  switch (input.operation) {
    case 'edit': {
      if (!canEdit(issue, space, actor)) throw forbidden(TRACKER_MESSAGES.cannotEdit);
      const { fields, description } = await resolveInput(actor, space, input.fields ?? {}, issue);
      await writeChanges(actor.orgId, issue, fields, description, actor.id);
      return undefined;
    }
    case 'transition': {
      const t = findTransition(space, issue, input.transition as string);
      if (!t) throw new DomainError('conflict', `No transition "${input.transition}" from this issue's status.`);
      await applyTransition(actor, space, issue, t, input.fields);
      return undefined;
    }
    case 'watch':
    case 'unwatch': {
      if (!perms.browse) throw notFound(TRACKER_MESSAGES.issueNotFound);
      const watchers =
        input.operation === 'watch'
          ? [...new Set([...issue.watchers, actor.id])]
          : issue.watchers.filter((w) => w !== actor.id);
      await writeChanges(actor.orgId, issue, { watchers });
      return undefined;
    }
    case 'delete': {
      if (!(perms.delete || (perms.deleteOwn && issue.reporterId === actor.id)))
        throw forbidden(TRACKER_MESSAGES.cannotDelete);
      await transact(
        [
          {
            Delete: {
              TableName: TABLE(),
              Key: TK.issue(actor.orgId, issue.issueId),
              ConditionExpression: '#v = :v',
              ExpressionAttributeNames: { '#v': 'version' },
              ExpressionAttributeValues: { ':v': issue.version },
            },
          },
          { Delete: { TableName: TABLE(), Key: TK.description(actor.orgId, issue.issueId) } },
          countBy(actor.orgId, issue.spaceId, issue.statusId, -1),
        ],
        [TRACKER_MESSAGES.issueChanged],
      );
      return undefined;
    }
    case 'move':
      if (!perms.move) throw forbidden("You can't move this issue.");
      return moveIssue(actor, issue, space, target as Space, input.type);
  }
}

/**
 * Moves an issue to another space: the next number there (taken in the issue's own transaction,
 * as on creation) and so a new key; the old key keeps resolving (its number pointer stays). The
 * type must exist in the target space (`type`, else the same or the target's default); a status
 * the target's workflow lacks becomes its first.
 */
async function moveIssue(actor: Actor, issue: TrackedIssue, from: Space, to: Space, typeRef?: string): Promise<string> {
  if (from.spaceId === to.spaceId) return present(issue, to).key;
  const types = ISSUE_TYPES.filter((t) => to.config.issueTypeIds.includes(t.id));
  const typeId = typeRef
    ? findNamed(types, typeRef)?.id
    : to.config.issueTypeIds.includes(issue.typeId)
      ? issue.typeId
      : to.config.defaultTypeId;
  if (!typeId) throw invalid(`Unknown issue type: ${typeRef}`);
  const wf = workflowOf(to.config, typeId);
  for (let attempt = 0; ; attempt++) {
    const space = (await getItem<Space & { pk: string }>(TK.space(actor.orgId, to.spaceId), true)) as Space;
    const taken = takeNumber(actor.orgId, space, issue.issueId);
    const { number } = taken;
    const change: Partial<TrackedIssue> = {
      spaceId: to.spaceId,
      number,
      key: `${space.key}-${number}`,
      typeId,
      securityLevelId: undefined,
      componentIds: [],
      fixVersionIds: [],
      affectsVersionIds: [],
      ...(wf.statuses.includes(issue.statusId)
        ? {}
        : statusChange(issue, wf.statuses[0] as string, Date.now(), actor.id)),
      updatedAt: Date.now(),
    };
    const next = { ...issue, ...change, version: issue.version + 1 } as TrackedIssue;
    for (const [k, v] of Object.entries(next))
      if (v === undefined) delete (next as unknown as Record<string, unknown>)[k];
    try {
      await transact(
        [
          taken.sequence,
          {
            Put: {
              TableName: TABLE(),
              Item: {
                ...TK.issue(actor.orgId, issue.issueId),
                gsi1pk: spaceIssuesPk(actor.orgId, to.spaceId),
                gsi1sk: spaceIssuesSk(next.statusId, next.updatedAt, issue.issueId),
                ...next,
              },
              ConditionExpression: '#v = :v',
              ExpressionAttributeNames: { '#v': 'version' },
              ExpressionAttributeValues: { ':v': issue.version },
            },
          },
          taken.pointer,
          countBy(actor.orgId, from.spaceId, issue.statusId, -1),
          countBy(actor.orgId, to.spaceId, next.statusId, 1),
        ],
        (i) => Promise.resolve(i === 1 ? new DomainError('conflict', TRACKER_MESSAGES.issueChanged) : undefined),
      );
      return next.key;
    } catch (err) {
      if ((err as Error).name !== 'TransactionCanceledException' || attempt >= 100) throw err;
    }
  }
}
