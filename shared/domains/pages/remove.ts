import { notFound } from '../../kernel/ground/errors';
import { db } from '../../kernel/store/client';
import { DeleteCommand, QueryCommand } from '../../kernel/store/commands';
import { deleteMany, queryAll, transact } from '../../kernel/store/ops';
import { getItem, TABLE } from '../../kernel/store/table';
import { removeAllContent } from './content';
import { favoritesPk } from './favorites';
import {
  leaveParent,
  listPk,
  PAGE_MESSAGES,
  type PageRecord,
  pageKey,
  requireVisible,
  SWEEP_PK,
  sweepKey,
} from './records';
import { reindex } from './search-index';
import { removeVersions } from './versions';

/**
 * Deleting a page and everything under it. The delete hides the page at once, in one transaction:
 * `status: removed`, out of its parent's list and count, and a sweep marker (`PAGESWEEP` /
 * `<orgId>#<pageId>`). Every read walks up a page's ancestors, so the whole subtree answers 404
 * from that moment. Then the subtree is removed leaves first, each page in steps that are safe to
 * repeat (its postings, its content objects and versions, favorites of it, its record last, only while it has
 * no children), for as long as the request's budget allows; the marker goes when the subtree is
 * gone. What a budget leaves (a very large subtree, a failure) is finished by the `pages-sweep`
 * worker (lib/workers.ts), which runs the same sweep for each marker.
 */

export async function hidePage(orgId: string, pageId: string): Promise<void> {
  const { page } = await requireVisible(orgId, pageId, true);
  await transact(
    [
      {
        Update: {
          TableName: TABLE(),
          Key: pageKey(orgId, pageId),
          UpdateExpression: 'SET #status = :removed, detached = :yes, removedAt = :now REMOVE gsi1pk, gsi1sk',
          ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(#status)',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':removed': 'removed', ':yes': true, ':now': Date.now() },
        },
      },
      ...leaveParent(orgId, page.parentId),
      { Put: { TableName: TABLE(), Item: { ...sweepKey(orgId, pageId), orgId, pageId, at: Date.now() } } },
    ],
    // Hidden meanwhile (or its parent gone): the page is gone for this caller either way.
    [() => notFound(PAGE_MESSAGES.pageNotFound), () => notFound(PAGE_MESSAGES.pageNotFound)],
  );
}

/** Removes a hidden subtree until `deadline` (ms); true when it is all gone (and its marker). */
export async function sweep(orgId: string, pageId: string, deadline: number): Promise<boolean> {
  const done = await removeTree(orgId, pageId, deadline);
  if (done) await db.send(new DeleteCommand({ TableName: TABLE(), Key: sweepKey(orgId, pageId) }));
  return done;
}

/** The markers of subtrees not yet removed, oldest first. */
export const pendingSweeps = () =>
  queryAll<{ orgId: string; pageId: string; at: number }>({
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': SWEEP_PK },
  });

/** `under`: the parent it was found under (a page moved away meanwhile is not this tree's). */
async function removeTree(orgId: string, pageId: string, deadline: number, under?: string): Promise<boolean> {
  for (;;) {
    if (Date.now() > deadline) return false;
    const out = await db.send(
      new QueryCommand({
        TableName: TABLE(),
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': listPk(orgId, pageId) },
        Limit: 25,
      }),
    );
    const children = (out.Items ?? []) as PageRecord[];
    for (const child of children) if (!(await removeTree(orgId, child.pageId, deadline, pageId))) return false;
    if (children.length > 0) continue;
    const page = await getItem<PageRecord>(pageKey(orgId, pageId), true);
    if (!page || (under !== undefined && page.parentId !== under)) return true;
    await reindex(orgId, pageId, true);
    await removeAllContent(orgId, pageId);
    await removeVersions(orgId, pageId);
    const favorites = await queryAll<{ pk: string; sk: string }>({
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': favoritesPk(orgId, pageId) },
      ProjectionExpression: 'pk, sk',
    });
    await deleteMany(favorites);
    const gone = await transact(
      [
        {
          Delete: {
            TableName: TABLE(),
            Key: pageKey(orgId, pageId),
            // A child added since the list above keeps it (the next round removes the child first).
            ConditionExpression: `(attribute_not_exists(#children) OR #children <= :zero)${under ? ' AND #parent = :under' : ''}`,
            ExpressionAttributeNames: { '#children': 'children', ...(under ? { '#parent': 'parentId' } : {}) },
            ExpressionAttributeValues: { ':zero': 0, ...(under ? { ':under': under } : {}) },
          },
        },
        ...leaveParent(orgId, page.detached ? null : page.parentId),
      ],
      async () => KEPT,
    ).then(
      () => true,
      (err: unknown) => {
        if (err === KEPT) return false;
        throw err;
      },
    );
    if (gone) return true;
  }
}
const KEPT = new Error('kept');
