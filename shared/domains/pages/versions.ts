import { type Caller, callerId } from '../../kernel/auth/caller';
import { notFound } from '../../kernel/ground/errors';
import { db } from '../../kernel/store/client';
import { PutCommand, QueryCommand } from '../../kernel/store/commands';
import { decodeCursor, encodeCursor } from '../../kernel/store/cursor';
import { PREFIXES } from '../../kernel/store/keys';
import { deleteMany, queryAll } from '../../kernel/store/ops';
import { getItem, TABLE } from '../../kernel/store/table';
import { readContent } from './content';
import type { PageVersion, PageVersionRecord } from './record-schemas';
import { type PageRecord, requireVisible } from './records';

/**
 * A page's history: every saved content is a version, `n` being the page's `contentVersion` it
 * had (1 at creation, +1 at each save or restore), kept as long as the page (all of them: no
 * limit on their number; each as large as a page's content may be). A version is an item per page
 * (`PGVER#<orgId>#<pageId>` / `n` in 10 digits) written in the same transaction as the save that
 * makes it, naming its content object in the artifacts bucket; objects are never replaced, so a
 * version and the page (while it is current), or a restore and the version it restores, share one.
 *
 * Pages saved before versions were kept have no version items: the content they hold becomes a
 * version, numbered with their `contentVersion`, when their history is first read or their next
 * save starts (`ensureCurrent`); earlier numbers of theirs are unknown (404).
 */
export const VERSION_MESSAGES = {
  notFound: 'Version not found',
} as const;

export const versionsPk = (orgId: string, pageId: string) => `${PREFIXES.pages.versions}${orgId}#${pageId}`;
const versionSk = (n: number) => String(n).padStart(10, '0');
const versionKey = (orgId: string, pageId: string, n: number) => ({ pk: versionsPk(orgId, pageId), sk: versionSk(n) });

export interface Author {
  by: string;
  name: string | null;
}

/** Who saves: a person by id and name (else email), a key by id alone. */
export const authorOf = (caller: Caller): Author =>
  caller.kind === 'user'
    ? { by: caller.userId, name: caller.name || caller.email || null }
    : { by: callerId(caller), name: null };

/** The version a page's content is at, as the record to write with the page's update. */
export function versionOf(
  page: Pick<PageRecord, 'orgId' | 'pageId' | 'title' | 'contentKey' | 'contentLength' | 'contentVersion'>,
  author: Author,
  at: number,
  restoredFrom: number | null = null,
): PageVersionRecord {
  return {
    ...versionKey(page.orgId, page.pageId, page.contentVersion),
    orgId: page.orgId,
    pageId: page.pageId,
    n: page.contentVersion,
    title: page.title,
    contentKey: page.contentKey ?? null,
    size: page.contentLength,
    createdAt: at,
    createdBy: author.by,
    authorName: author.name,
    restoredFrom,
  };
}

/** The transaction item that writes a new version (never over one). */
export const putVersion = (record: PageVersionRecord) => ({
  Put: { TableName: TABLE(), Item: record, ConditionExpression: 'attribute_not_exists(pk)' },
});

/** A version as the history shows it. */
export const listed = (v: PageVersionRecord): PageVersion => ({
  n: v.n,
  title: v.title,
  size: v.size,
  createdAt: v.createdAt,
  createdBy: v.createdBy,
  authorName: v.authorName,
  restoredFrom: v.restoredFrom,
});

/**
 * A page saved before versions were kept: what it holds now becomes its version (numbered with its
 * `contentVersion`, by whoever saved it last, at that time). Safe to run at any time and more than once.
 */
export async function ensureCurrent(page: PageRecord): Promise<void> {
  const key = versionKey(page.orgId, page.pageId, page.contentVersion);
  if (await getItem(key, true)) return;
  const record = versionOf(page, { by: page.updatedBy, name: null }, page.updatedAt);
  await db
    .send(new PutCommand({ TableName: TABLE(), Item: record, ConditionExpression: 'attribute_not_exists(pk)' }))
    .catch((err: unknown) => {
      // Written meanwhile (by a save or another reader): the same version.
      if ((err as Error).name !== 'ConditionalCheckFailedException') throw err;
    });
}

/** A visible page's versions, newest first; pages of `limit` with a signed cursor. */
export async function listVersions(orgId: string, pageId: string, limit: number, cursor?: string) {
  const { page } = await requireVisible(orgId, pageId, true);
  const scope = `${orgId}:page-versions:${pageId}`;
  const start = decodeCursor(scope, cursor);
  if (!start) await ensureCurrent(page);
  const out = await db.send(
    new QueryCommand({
      TableName: TABLE(),
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': versionsPk(orgId, pageId) },
      ScanIndexForward: false,
      ExclusiveStartKey: start,
      Limit: limit,
      ConsistentRead: true,
    }),
  );
  const versions = (out.Items ?? []) as PageVersionRecord[];
  return { versions: versions.map(listed), cursor: encodeCursor(scope, out.LastEvaluatedKey), page };
}

/** One version of a visible page (404 when the page or the version is unknown). */
export async function getVersion(orgId: string, pageId: string, n: number): Promise<PageVersionRecord> {
  const { page } = await requireVisible(orgId, pageId, true);
  if (n === page.contentVersion) await ensureCurrent(page);
  const version = await getItem<PageVersionRecord>(versionKey(orgId, pageId, n), true);
  if (!version) throw notFound(VERSION_MESSAGES.notFound);
  return version;
}

/** One version with its content. */
export async function versionWithContent(orgId: string, pageId: string, n: number) {
  const version = await getVersion(orgId, pageId, n);
  const content = await readContent(version.contentKey);
  if (content === undefined) throw new Error(`The content of version ${n} of ${pageId} is gone.`);
  return { version, content };
}

/** Deletes every version of a page (its content objects go with the page's folder). */
export async function removeVersions(orgId: string, pageId: string): Promise<void> {
  const items = await queryAll<{ pk: string; sk: string }>({
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': versionsPk(orgId, pageId) },
    ProjectionExpression: 'pk, sk',
  });
  await deleteMany(items);
}
