import { generateKeyBetween } from 'fractional-indexing';
import { conflict, invalid, notFound } from '../../kernel/ground/errors';
import { db } from '../../kernel/store/client';
import { QueryCommand } from '../../kernel/store/commands';
import { decodeCursor, encodeCursor } from '../../kernel/store/cursor';
import { newId } from '../../kernel/store/ids';
import { transact } from '../../kernel/store/ops';
import { putNew, TABLE } from '../../kernel/store/table';
import { removeContent, writeContent } from './content';
import {
  leaveParent,
  listPk,
  listSk,
  MAX_DEPTH,
  PAGE_MESSAGES,
  type PageRecord,
  pageKey,
  requireVisible,
} from './records';
import { reindex } from './search-index';
import { type Author, putVersion, versionOf } from './versions';

/**
 * The tree of pages: where a page goes among its siblings (a fractional index between its
 * neighbours' ranks), creates, moves, and one level's list. Writes check the new parent and its
 * ancestors in the same transaction (none hidden, none moved since read), so two moves running
 * at once can never make a cycle and nothing lands under a page being deleted.
 */
export interface Placement {
  before?: string;
  after?: string;
}

/**
 * One level of the tree as placing a page reads it, nearest first. `before` and `after` take a
 * GSI1 sort key (`<rank>#<pageId>`), so the model test (test/pages/order.test.ts) can stand an
 * array in for the table.
 */
export interface Siblings {
  /** The rank of `pageId` when it is one of these siblings; undefined otherwise. */
  rankOf(pageId: string): Promise<string | undefined>;
  /** Up to two siblings whose sort key is above `sk`, in order. */
  above(sk: string): Promise<{ pageId: string; rank: string }[]>;
  /** Up to two siblings whose sort key is below `sk` (or the last two, without one), backwards. */
  below(sk?: string): Promise<{ pageId: string; rank: string }[]>;
}

/** The children of `parentId` in the table (GSI1). */
function tableSiblings(orgId: string, parentId: string | null): Siblings {
  const query = async (cmp: '>' | '<' | undefined, sk?: string) => {
    const out = await db.send(
      new QueryCommand({
        TableName: TABLE(),
        IndexName: 'gsi1',
        KeyConditionExpression: `gsi1pk = :pk${cmp && sk !== undefined ? ` AND gsi1sk ${cmp} :k` : ''}`,
        ExpressionAttributeValues: { ':pk': listPk(orgId, parentId), ...(cmp && sk !== undefined ? { ':k': sk } : {}) },
        ScanIndexForward: cmp === '>',
        Limit: 2,
      }),
    );
    return (out.Items ?? []) as PageRecord[];
  };
  return {
    rankOf: async (pageId) => {
      const found = await requireVisible(orgId, pageId, true).catch(() => undefined);
      return found && found.page.parentId === parentId ? found.page.rank : undefined;
    },
    above: (sk) => query('>', sk),
    below: (sk) => query(sk === undefined ? undefined : '<', sk),
  };
}

/**
 * The rank of a page placed among `siblings`: right before or after one of them, else last.
 * `self` (a page being moved) is never its own neighbour. Ranks compare byte-wise, as DynamoDB
 * orders the sort keys (never by locale); equal ranks (two writers placing at once) are ordered
 * by page id, and a page placed next to them goes past all of them.
 */
export async function placeRank(siblings: Siblings, placement: Placement, self?: string): Promise<string> {
  if (placement.before && placement.after) throw invalid(PAGE_MESSAGES.beforeAndAfter);
  const anchorId = placement.before ?? placement.after;
  const other = (items: { pageId: string; rank: string }[]) => items.find((p) => p.pageId !== self);
  if (!anchorId) return generateKeyBetween(other(await siblings.below())?.rank ?? null, null);
  const rank = anchorId === self ? undefined : await siblings.rankOf(anchorId);
  if (rank === undefined) throw invalid(PAGE_MESSAGES.notSibling);
  if (placement.after) {
    // Past every sibling of the same rank: `#~` sorts after `#pg_…`, before longer ranks.
    return generateKeyBetween(rank, other(await siblings.above(`${rank}#~`))?.rank ?? null);
  }
  return generateKeyBetween(other(await siblings.below(`${rank}#`))?.rank ?? null, rank);
}

const rankFor = (orgId: string, parentId: string | null, placement: Placement, self?: string) =>
  placeRank(tableSiblings(orgId, parentId), placement, self);

/** A parent that exists and is visible, with its ancestors: 404 `Parent page not found`. */
async function requireParent(orgId: string, parentId: string) {
  const found = await requireVisible(orgId, parentId, true, PAGE_MESSAGES.parentNotFound);
  if (found.ancestors.length + 1 >= MAX_DEPTH) throw invalid(PAGE_MESSAGES.tooDeep);
  return found;
}

/**
 * The transaction items that keep a new parent as it was read: it exists, is not hidden and still
 * sits where it did, and so does each of its ancestors. Its `children` goes up by one.
 */
function parentChecks(orgId: string, parent: PageRecord, ancestors: PageRecord[]) {
  const sameAndVisible = (p: PageRecord) => ({
    TableName: TABLE(),
    Key: pageKey(orgId, p.pageId),
    ConditionExpression:
      'attribute_exists(pk) AND attribute_not_exists(#status) AND ' +
      (p.parentId === null ? 'attribute_type(#parent, :null)' : '#parent = :parent'),
    ExpressionAttributeNames: { '#status': 'status', '#parent': 'parentId' },
    ExpressionAttributeValues: p.parentId === null ? { ':null': 'NULL' } : { ':parent': p.parentId },
  });
  const self = sameAndVisible(parent);
  return [
    {
      Update: {
        ...self,
        UpdateExpression: 'ADD #children :one',
        ExpressionAttributeNames: { ...self.ExpressionAttributeNames, '#children': 'children' },
        ExpressionAttributeValues: { ...self.ExpressionAttributeValues, ':one': 1 },
      },
    },
    ...ancestors.map((a) => ({ ConditionCheck: sameAndVisible(a) })),
  ];
}

export interface NewPage {
  title: string;
  parentId: string | null;
  icon: string | null;
  content: string;
  before?: string;
  after?: string;
}

export async function createPage(orgId: string, author: Author, input: NewPage): Promise<PageRecord> {
  const by = author.by;
  const parent = input.parentId ? await requireParent(orgId, input.parentId) : undefined;
  const rank = await rankFor(orgId, input.parentId, input);
  const pageId = newId('pg_');
  const now = Date.now();
  const contentKey = input.content === '' ? undefined : await writeContent(orgId, pageId, input.content);
  const page: PageRecord = {
    pageId,
    orgId,
    parentId: input.parentId,
    title: input.title,
    icon: input.icon,
    rank,
    children: 0,
    version: 1,
    contentVersion: 1,
    ...(contentKey ? { contentKey } : {}),
    contentLength: input.content.length,
    createdAt: now,
    createdBy: by,
    updatedAt: now,
    updatedBy: by,
  };
  await transact(
    [
      putNew({
        ...pageKey(orgId, pageId),
        gsi1pk: listPk(orgId, input.parentId),
        gsi1sk: listSk(rank, pageId),
        ...page,
      }),
      // Its first version, in the same transaction (a new id: never there before).
      putVersion(versionOf(page, author, now)),
      ...(parent ? parentChecks(orgId, parent.page, parent.ancestors) : []),
    ],
    async (i) => (i <= 1 ? undefined : notFound(PAGE_MESSAGES.parentNotFound)),
  ).catch(async (err: unknown) => {
    // Nothing names the content written for it: it goes too.
    if (contentKey) await removeContent([contentKey]);
    throw err;
  });
  await reindex(orgId, pageId);
  return page;
}

export interface PageChange extends Placement {
  title?: string;
  icon?: string | null;
  /** `null` moves the page to the top level. */
  parentId?: string | null;
  ifVersion?: number;
}

/**
 * Renames, re-icons or moves a page (another parent, or another place among its siblings).
 * Under itself or one of its descendants is 400. Written only while the page is at the version
 * read (`ifVersion` when given: else a change that raced another is tried again).
 */
export async function changePage(orgId: string, pageId: string, by: string, change: PageChange): Promise<PageRecord> {
  for (let attempt = 0; ; attempt++) {
    const { page } = await requireVisible(orgId, pageId, true);
    if (change.ifVersion !== undefined && page.version !== change.ifVersion) throw conflict(PAGE_MESSAGES.changed);
    const parentId = change.parentId === undefined ? page.parentId : change.parentId;
    const moves = parentId !== page.parentId;
    let parent: Awaited<ReturnType<typeof requireParent>> | undefined;
    if (parentId !== null && moves) {
      if (parentId === pageId) throw invalid(PAGE_MESSAGES.underItself);
      parent = await requireParent(orgId, parentId);
      if (parent.ancestors.some((a) => a.pageId === pageId)) throw invalid(PAGE_MESSAGES.underItself);
    }
    const placed = moves || change.before !== undefined || change.after !== undefined;
    const rank = placed ? await rankFor(orgId, parentId, change, pageId) : page.rank;
    const fields: Record<string, unknown> = { updatedAt: Date.now(), updatedBy: by };
    if (change.title !== undefined) fields.title = change.title;
    if (change.icon !== undefined) fields.icon = change.icon;
    if (placed)
      Object.assign(fields, { parentId, rank, gsi1pk: listPk(orgId, parentId), gsi1sk: listSk(rank, pageId) });
    const names: Record<string, string> = { '#version': 'version', '#status': 'status' };
    const values: Record<string, unknown> = { ':one': 1, ':v': page.version };
    const sets = ['#version = #version + :one'];
    Object.entries(fields).forEach(([k, v], i) => {
      names[`#f${i}`] = k;
      values[`:f${i}`] = v;
      sets.push(`#f${i} = :f${i}`);
    });
    const items: Parameters<typeof transact>[0] = [
      {
        Update: {
          TableName: TABLE(),
          Key: pageKey(orgId, pageId),
          UpdateExpression: `SET ${sets.join(', ')}`,
          ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(#status) AND #version = :v',
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
        },
      },
    ];
    if (moves) items.push(...leaveParent(orgId, page.parentId));
    if (parent) items.push(...parentChecks(orgId, parent.page, parent.ancestors));
    const raced = await transact(items, async (i) => {
      if (i === 0 && change.ifVersion !== undefined) return conflict(PAGE_MESSAGES.changed);
      return RACED;
    }).then(
      () => false,
      (err: unknown) => {
        if (err === RACED && attempt < 3) return true;
        if (err === RACED) throw conflict(PAGE_MESSAGES.changed);
        throw err;
      },
    );
    if (raced) continue;
    const updated = { ...page, ...fields, version: page.version + 1 } as PageRecord;
    if (change.title !== undefined && change.title !== page.title) await reindex(orgId, pageId);
    return updated;
  }
}
const RACED = new Error('raced');

/** One level of the tree, in order: pages of `limit` with a signed cursor. */
export async function listChildren(orgId: string, parentId: string | null, limit: number, cursor?: string) {
  const scope = `${orgId}:pages:${parentId ?? 'root'}`;
  const start = decodeCursor(scope, cursor);
  const out = await db.send(
    new QueryCommand({
      TableName: TABLE(),
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': listPk(orgId, parentId) },
      ExclusiveStartKey: start,
      Limit: limit,
    }),
  );
  const pages = (out.Items ?? []) as PageRecord[];
  return { pages, cursor: encodeCursor(scope, out.LastEvaluatedKey) };
}
