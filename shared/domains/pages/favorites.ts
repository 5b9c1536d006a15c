import { db } from '../../kernel/store/client';
import { DeleteCommand, PutCommand, QueryCommand } from '../../kernel/store/commands';
import { decodeCursor, encodeCursor } from '../../kernel/store/cursor';
import { PREFIXES } from '../../kernel/store/keys';
import { getItem, getMany, TABLE } from '../../kernel/store/table';
import { hidingIn, type PageRecord, pageKey, visibleOnly } from './records';

/**
 * A person's (or a key's) favorite pages: one item per page and caller under the page
 * (`PGFAV#<orgId>#<pageId>` / `BY#<callerId>`), so removing a page finds its favorites at once,
 * listed for the caller newest first by GSI1 (`PGFAVS#<orgId>#<callerId>` / `<at>#<pageId>`).
 */
export const favoritesPk = (orgId: string, pageId: string) => `${PREFIXES.pages.favorites}${orgId}#${pageId}`;
const favoriteKey = (orgId: string, pageId: string, by: string) => ({
  pk: favoritesPk(orgId, pageId),
  sk: `${PREFIXES.pages.by}${by}`,
});
const listPk = (orgId: string, by: string) => `${PREFIXES.pages.favoritesOf}${orgId}#${by}`;

export interface FavoriteRecord {
  pageId: string;
  favoritedAt: number;
}

/** Marks a page a favorite; a second time changes nothing (answers the first). */
export async function addFavorite(orgId: string, pageId: string, by: string): Promise<FavoriteRecord> {
  const at = Date.now();
  const item = {
    ...favoriteKey(orgId, pageId, by),
    gsi1pk: listPk(orgId, by),
    gsi1sk: `${String(at).padStart(15, '0')}#${pageId}`,
    pageId,
    favoritedAt: at,
  };
  try {
    await db.send(new PutCommand({ TableName: TABLE(), Item: item, ConditionExpression: 'attribute_not_exists(pk)' }));
    return { pageId, favoritedAt: at };
  } catch (err) {
    if ((err as Error).name !== 'ConditionalCheckFailedException') throw err;
    const seen = await getItem<FavoriteRecord>(favoriteKey(orgId, pageId, by), true);
    return { pageId, favoritedAt: seen?.favoritedAt ?? at };
  }
}

export const removeFavorite = async (orgId: string, pageId: string, by: string) => {
  await db.send(new DeleteCommand({ TableName: TABLE(), Key: favoriteKey(orgId, pageId, by) }));
};

export const isFavorite = async (orgId: string, pageId: string, by: string) =>
  (await getItem(favoriteKey(orgId, pageId, by))) !== undefined;

/** The caller's favorites, newest first, with their pages (pages hidden meanwhile, or under a hidden one, left out). */
export async function listFavorites(orgId: string, by: string, limit: number, cursor?: string) {
  const scope = `${orgId}:favorites:${by}`;
  const out = await db.send(
    new QueryCommand({
      TableName: TABLE(),
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': listPk(orgId, by) },
      ScanIndexForward: false,
      ExclusiveStartKey: decodeCursor(scope, cursor),
      Limit: limit,
    }),
  );
  const favorites = (out.Items ?? []) as FavoriteRecord[];
  const [pages, hiding] = await Promise.all([
    getMany<PageRecord>(favorites.map((f) => pageKey(orgId, f.pageId))),
    hidingIn(orgId),
  ]);
  const visible = new Set(
    (
      await visibleOnly(
        orgId,
        pages.filter((p): p is PageRecord => p !== undefined),
        hiding,
      )
    ).map((p) => p.pageId),
  );
  const found = favorites.flatMap((f, i) => {
    const page = pages[i];
    return page && visible.has(page.pageId) ? [{ favorite: f, page }] : [];
  });
  return { found, cursor: encodeCursor(scope, out.LastEvaluatedKey) };
}
