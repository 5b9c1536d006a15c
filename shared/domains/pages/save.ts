import { DomainError, notFound } from '../../kernel/ground/errors';
import { db } from '../../kernel/store/client';
import { UpdateCommand } from '../../kernel/store/commands';
import { fieldUpdate, TABLE } from '../../kernel/store/table';
import { removeContent, writeContent } from './content';
import { getPage, PAGE_MESSAGES, type PageRecord, pageKey, requireVisible } from './records';
import { reindex } from './search-index';

/** 409: the content moved on since `baseVersion`; the current version is in the answer. */
const stale = (contentVersion: number) => new DomainError('conflict', PAGE_MESSAGES.contentChanged, { contentVersion });

/**
 * Saves a page's content: a new object first, then the record points to it only while its
 * `contentVersion` is the one read (and `baseVersion`, when given), then the index follows. A save
 * that loses the race deletes its object and answers 409 with the version that won.
 */
export async function saveContent(
  orgId: string,
  pageId: string,
  by: string,
  content: string,
  baseVersion: number | undefined,
): Promise<PageRecord> {
  const { page } = await requireVisible(orgId, pageId, true);
  if (baseVersion !== undefined && baseVersion !== page.contentVersion) throw stale(page.contentVersion);
  const contentKey = content === '' ? undefined : await writeContent(orgId, pageId, content);
  const fields = {
    contentKey,
    contentLength: content.length,
    contentVersion: page.contentVersion + 1,
    updatedAt: Date.now(),
    updatedBy: by,
  };
  const update = fieldUpdate(fields, { names: { '#cv': 'contentVersion', '#status': 'status' } });
  try {
    await db.send(
      new UpdateCommand({
        TableName: TABLE(),
        Key: pageKey(orgId, pageId),
        ...update,
        ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(#status) AND #cv = :base',
        ExpressionAttributeValues: { ...update.ExpressionAttributeValues, ':base': page.contentVersion },
      }),
    );
  } catch (err) {
    if ((err as Error).name !== 'ConditionalCheckFailedException') throw err;
    if (contentKey) await removeContent([contentKey]);
    const now = await getPage(orgId, pageId, true);
    if (!now || now.status === 'removed') throw notFound(PAGE_MESSAGES.pageNotFound);
    throw stale(now.contentVersion);
  }
  await reindex(orgId, pageId);
  const { contentKey: _old, ...rest } = page;
  return { ...rest, ...fields } as PageRecord;
}
