import { notFound } from '../../kernel/ground/errors';
import { db } from '../../kernel/store/client';
import { QueryCommand } from '../../kernel/store/commands';
import { PREFIXES } from '../../kernel/store/keys';
import { getItem, orgPk, TABLE } from '../../kernel/store/table';

/**
 * Knowledge pages (the pages group): a tree of pages per organization, each with a title, an icon
 * and Markdown content kept in the artifacts bucket.
 *
 * - A page is `ORG#<orgId>` / `PAGE#<pageId>` (the prefix the organization's contents count as
 *   "docs"), listed under its parent by GSI1: `PAGES#<orgId>#<parentId|root>` / `<rank>#<pageId>`,
 *   where the rank is a fractional index (fractional-indexing: base-62 ASCII, so DynamoDB's
 *   byte-wise order of the sort key is the siblings' order; ranks are never compared by locale).
 * - `children` counts the page's listed children, moved in the transactions that add, move and
 *   hide them; a page is removed only while it has none.
 * - `version` guards title, icon and place (`ifVersion`); `contentVersion` the content
 *   (`baseVersion`), so renaming a page never makes an editor's save stale.
 * - A deleted page is hidden at once (`status: removed`, out of its parent's list); a page under a
 *   hidden one is hidden too, since every read walks up its ancestors (breadcrumbs).
 */
export interface PageRecord {
  pageId: string;
  orgId: string;
  parentId: string | null;
  title: string;
  icon: string | null;
  rank: string;
  children: number;
  version: number;
  contentVersion: number;
  /** The content's object in the artifacts bucket; none while the page is empty. */
  contentKey?: string;
  /** The content's length in characters. */
  contentLength: number;
  createdAt: number;
  createdBy: string;
  updatedAt: number;
  updatedBy: string;
  status?: 'removed';
  /** A hidden page whose parent no longer counts it (the root of a deleted subtree). */
  detached?: boolean;
  /** What the search index holds for the page (shared/domains/pages/search-index.ts). */
  indexed?: IndexedState;
}

export interface IndexedState {
  title: string;
  contentKey: string | null;
  titleLength: number;
  bodyLength: number;
}

export const PAGE_MESSAGES = {
  pageNotFound: 'Page not found',
  parentNotFound: 'Parent page not found',
  underItself: "A page can't be moved under itself.",
  beforeAndAfter: 'Give before or after, not both.',
  notSibling: 'before and after name a page under the same parent.',
  tooDeep: 'Pages nest at most 50 levels deep.',
  changed: 'The page changed. Reload and try again.',
  contentChanged: 'The content changed since you loaded it. Reload and try again.',
  busy: 'The page is being saved. Try again.',
  viewer: "Viewers can read pages but can't change them.",
} as const;

/** The deepest a page may be created or moved (its ancestors are checked in one transaction). */
export const MAX_DEPTH = 50;

export const pageKey = (orgId: string, pageId: string) => ({ pk: orgPk(orgId), sk: `${PREFIXES.pages.page}${pageId}` });
/** GSI1 of a parent's children. */
export const listPk = (orgId: string, parentId: string | null) =>
  `${PREFIXES.pages.children}${orgId}#${parentId ?? 'root'}`;
export const listSk = (rank: string, pageId: string) => `${rank}#${pageId}`;

const PAGE_ID = /^pg_[0-9a-z]{26}$/;

/** The transaction item that takes a child off `parentId`'s count (none for the top level). */
export const leaveParent = (orgId: string, parentId: string | null) =>
  parentId
    ? [
        {
          Update: {
            TableName: TABLE(),
            Key: pageKey(orgId, parentId),
            UpdateExpression: 'ADD #children :minus',
            ConditionExpression: 'attribute_exists(pk)',
            ExpressionAttributeNames: { '#children': 'children' },
            ExpressionAttributeValues: { ':minus': -1 },
          },
        },
      ]
    : [];

/** A page record, or undefined (also for ids that can't be ours). */
export function getPage(orgId: string, pageId: string, consistent = false): Promise<PageRecord | undefined> {
  if (!PAGE_ID.test(pageId)) return Promise.resolve(undefined);
  return getItem<PageRecord>(pageKey(orgId, pageId), consistent);
}

/**
 * A page readers can see, with its ancestors (root first): 404 `message` when it, or one of its
 * ancestors, is gone or hidden.
 */
export async function requireVisible(
  orgId: string,
  pageId: string,
  consistent = false,
  message: string = PAGE_MESSAGES.pageNotFound,
): Promise<{ page: PageRecord; ancestors: PageRecord[] }> {
  const page = await getPage(orgId, pageId, consistent);
  if (!page || page.status === 'removed') throw notFound(message);
  const ancestors: PageRecord[] = [];
  let parentId = page.parentId;
  while (parentId) {
    const parent = await getPage(orgId, parentId, consistent);
    if (!parent || parent.status === 'removed' || ancestors.length > 10 * MAX_DEPTH) throw notFound(message);
    ancestors.unshift(parent);
    parentId = parent.parentId;
  }
  return { page, ancestors };
}

/** A page as lists show it. */
export function summary(p: PageRecord) {
  return {
    pageId: p.pageId,
    orgId: p.orgId,
    parentId: p.parentId,
    title: p.title,
    icon: p.icon,
    hasChildren: p.children > 0,
    version: p.version,
    contentVersion: p.contentVersion,
    createdAt: p.createdAt,
    createdBy: p.createdBy,
    updatedAt: p.updatedAt,
    updatedBy: p.updatedBy,
  };
}

/** A page as its own routes show it. */
export const shown = (p: PageRecord) => ({ ...summary(p), contentLength: p.contentLength });

/** An ancestor as breadcrumbs show it. */
export const crumb = (p: PageRecord) => ({ pageId: p.pageId, title: p.title, icon: p.icon });

/** Markers of hidden subtrees not yet removed (shared/domains/pages/remove.ts), across organizations. */
export const SWEEP_PK = 'PAGESWEEP';
export const sweepKey = (orgId: string, pageId: string) => ({ pk: SWEEP_PK, sk: `${orgId}#${pageId}` });

/**
 * Whether `orgId` has a hidden subtree not yet removed: while it has, lists that don't walk up
 * (search, favorites) check their pages' ancestors.
 */
export async function hidingIn(orgId: string): Promise<boolean> {
  const out = await db.send(
    new QueryCommand({
      TableName: TABLE(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :org)',
      ExpressionAttributeValues: { ':pk': SWEEP_PK, ':org': `${orgId}#` },
      Limit: 1,
    }),
  );
  return (out.Items ?? []).length > 0;
}

/** Of `pages`, those a reader sees (none under a hidden page): their ancestors read only while `orgId` hides some. */
export async function visibleOnly<T extends { pageId: string; status?: string }>(
  orgId: string,
  pages: T[],
  hiding: boolean,
): Promise<T[]> {
  const shown = pages.filter((p) => p.status !== 'removed');
  if (!hiding) return shown;
  const seen = await Promise.all(
    shown.map((p) =>
      requireVisible(orgId, p.pageId).then(
        () => true,
        () => false,
      ),
    ),
  );
  return shown.filter((_, i) => seen[i]);
}
