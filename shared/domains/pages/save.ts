import { DomainError, notFound } from '../../kernel/ground/errors';
import { transact } from '../../kernel/store/ops';
import { fieldUpdate, TABLE } from '../../kernel/store/table';
import { removeContent, writeContent } from './content';
import type { PageVersionRecord } from './record-schemas';
import { getPage, PAGE_MESSAGES, type PageRecord, pageKey, requireVisible } from './records';
import { reindex } from './search-index';
import { type Author, ensureCurrent, getVersion, putVersion, versionOf } from './versions';

/** 409: the content moved on since `baseVersion`; the current version is in the answer. */
const stale = (contentVersion: number) => new DomainError('conflict', PAGE_MESSAGES.contentChanged, { contentVersion });

/**
 * Saves a page's content: a new object first, then, in one transaction, the record points to it
 * only while its `contentVersion` is the one read (and `baseVersion`, when given) and the new
 * version is written; then the index follows. A save that loses the race deletes its object and
 * answers 409 with the version that won.
 */
export async function saveContent(
  orgId: string,
  pageId: string,
  author: Author,
  content: string,
  baseVersion: number | undefined,
): Promise<PageRecord> {
  const { page } = await requireVisible(orgId, pageId, true);
  if (baseVersion !== undefined && baseVersion !== page.contentVersion) throw stale(page.contentVersion);
  const contentKey = content === '' ? undefined : await writeContent(orgId, pageId, content);
  try {
    return (await pointTo(page, author, { contentKey, contentLength: content.length }, null)).page;
  } catch (err) {
    if (contentKey) await removeContent([contentKey]);
    throw err;
  }
}

/**
 * Restores version `n`: a new version whose content is version n's (the same object), the page's
 * content now that; its title stays (a restore brings back content, as a save does). `baseVersion`
 * as for a save.
 */
export async function restoreVersion(
  orgId: string,
  pageId: string,
  author: Author,
  n: number,
  baseVersion: number | undefined,
): Promise<{ page: PageRecord; version: PageVersionRecord }> {
  const { page } = await requireVisible(orgId, pageId, true);
  const from = await getVersion(orgId, pageId, n);
  if (baseVersion !== undefined && baseVersion !== page.contentVersion) throw stale(page.contentVersion);
  return pointTo(page, author, { contentKey: from.contentKey ?? undefined, contentLength: from.size }, from.n);
}

/** The page at `content` as its next version, written only while the page is still at the version read. */
async function pointTo(
  page: PageRecord,
  author: Author,
  content: { contentKey: string | undefined; contentLength: number },
  restoredFrom: number | null,
): Promise<{ page: PageRecord; version: PageVersionRecord }> {
  const { orgId, pageId } = page;
  // A page saved before versions were kept: what it holds now is a version before it is replaced.
  await ensureCurrent(page);
  const at = Date.now();
  const fields = { ...content, contentVersion: page.contentVersion + 1, updatedAt: at, updatedBy: author.by };
  const update = fieldUpdate(fields, { names: { '#cv': 'contentVersion', '#status': 'status' } });
  const { contentKey: _old, ...rest } = page;
  const next = { ...rest, ...fields } as PageRecord;
  const version = versionOf(next, author, at, restoredFrom);
  await transact(
    [
      {
        Update: {
          TableName: TABLE(),
          Key: pageKey(orgId, pageId),
          ...update,
          ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(#status) AND #cv = :base',
          ExpressionAttributeValues: { ...update.ExpressionAttributeValues, ':base': page.contentVersion },
        },
      },
      putVersion(version),
    ],
    async () => {
      const now = await getPage(orgId, pageId, true);
      if (!now || now.status === 'removed') return notFound(PAGE_MESSAGES.pageNotFound);
      return stale(now.contentVersion);
    },
  );
  await reindex(orgId, pageId);
  return { page: next, version };
}
