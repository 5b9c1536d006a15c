import { invalid } from '../../kernel/ground/errors';
import { db } from '../../kernel/store/client';
import { UpdateCommand } from '../../kernel/store/commands';
import { PREFIXES } from '../../kernel/store/keys';
import { queryPrefix, transact } from '../../kernel/store/ops';
import { keys, TABLE } from '../../kernel/store/table';
import { resourceKey } from '../resources/records';
import type { RepoLabel as Label } from './record-schemas';
import type { RepoRecord } from './records';

/** Spec part B, "Label": its record schema (./record-schemas.ts) is the source. */
export { LABEL_COLORS } from './label-colors';
export type { Label };

export const MAX_LABELS = 100;
export const TOO_MANY_LABELS = 'A repository can have up to 100 labels.';

const labelKey = (r: RepoRecord, name: string) => ({
  pk: keys.org(r.orgId).pk,
  sk: `${PREFIXES.repos.label}${r.resourceId}#${name}`,
});

export async function listLabels(r: RepoRecord): Promise<Label[]> {
  const items = await queryPrefix<Label>(keys.org(r.orgId).pk, `${PREFIXES.repos.label}${r.resourceId}#`);
  return items.map((l) => ({ name: l.name, color: l.color, ...(l.description ? { description: l.description } : {}) }));
}

/**
 * Creates or replaces a label by name. A new one is counted on the repository in the same
 * transaction, which holds only below 100: of 101 concurrent new labels, 100 are kept.
 */
export async function upsertLabel(r: RepoRecord, label: Label): Promise<Label> {
  const item = { ...labelKey(r, label.name), ...label, updatedAt: Date.now() };
  let exists = false;
  try {
    await transact(
      [
        { Put: { TableName: TABLE(), Item: item, ConditionExpression: 'attribute_not_exists(pk)' } },
        {
          Update: {
            TableName: TABLE(),
            Key: resourceKey(r.orgId, 'repository', r.resourceId),
            UpdateExpression: 'SET labelCount = if_not_exists(labelCount, :zero) + :one',
            ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(labelCount) OR labelCount < :max)',
            ExpressionAttributeValues: { ':zero': 0, ':one': 1, ':max': MAX_LABELS },
          },
        },
      ],
      async (i) => {
        if (i === 0) {
          exists = true;
          return new Error('exists');
        }
        return invalid(TOO_MANY_LABELS);
      },
    );
  } catch (err) {
    if (!exists) throw err;
    // Already there: replaced as it is, the count unchanged.
    await db.send(
      new UpdateCommand({
        TableName: TABLE(),
        Key: labelKey(r, label.name),
        UpdateExpression: label.description
          ? 'SET color = :c, description = :d, updatedAt = :now'
          : 'SET color = :c, updatedAt = :now REMOVE description',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: {
          ':c': label.color,
          ':now': Date.now(),
          ...(label.description ? { ':d': label.description } : {}),
        },
      }),
    );
  }
  return label;
}

/** Removes a label (and its count); a missing one is fine. */
export async function deleteLabel(r: RepoRecord, name: string): Promise<void> {
  await transact(
    [
      { Delete: { TableName: TABLE(), Key: labelKey(r, name), ConditionExpression: 'attribute_exists(pk)' } },
      {
        Update: {
          TableName: TABLE(),
          Key: resourceKey(r.orgId, 'repository', r.resourceId),
          UpdateExpression: 'SET labelCount = labelCount - :one',
          ConditionExpression: 'labelCount > :zero',
          ExpressionAttributeValues: { ':one': 1, ':zero': 0 },
        },
      },
    ],
    async () => new Error('gone'),
  ).catch((err: Error) => {
    if (err.message !== 'gone') throw err;
  });
}
