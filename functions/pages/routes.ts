import * as z from 'zod/mini';
import { readContent } from '../../shared/domains/pages/content';
import { addFavorite, isFavorite, listFavorites, removeFavorite } from '../../shared/domains/pages/favorites';
import {
  crumb,
  getPage,
  PAGE_MESSAGES,
  type PageRecord,
  requireVisible,
  shown,
  summary,
} from '../../shared/domains/pages/records';
import { hidePage, sweep } from '../../shared/domains/pages/remove';
import { saveContent } from '../../shared/domains/pages/save';
import { searchPages } from '../../shared/domains/pages/search';
import { changePage, createPage, listChildren } from '../../shared/domains/pages/tree';
import { authorOf } from '../../shared/domains/pages/versions';
import { callerId } from '../../shared/kernel/auth/caller';
import { notFound } from '../../shared/kernel/ground/errors';
import { describeError, log } from '../../shared/kernel/ground/log';
import { queryInt } from '../../shared/kernel/http/query';
import { created, noContent, ok, route } from '../../shared/kernel/http/route';
import { oneLine } from '../../shared/kernel/http/text-checks';
import { INVALID_CURSOR } from '../../shared/kernel/store/cursor';
import { PagePath, Version, WRITERS } from './common';
import { versionRoutes } from './version-routes';

const OrgPath = z.object({ orgId: z.string() });
const Title = z.string().check(z.trim(), z.minLength(1), z.maxLength(255), oneLine);
/** An emoji or an image URL. */
const Icon = z.nullable(z.string().check(z.trim(), z.minLength(1), z.maxLength(1024)));
const PageId = z.string().check(z.minLength(1), z.maxLength(64));
const Markdown = z.string().check(z.maxLength(1_000_000));
/** How long a delete removes the subtree before leaving the rest to the pages-sweep worker. */
const SWEEP_BUDGET_MS = 5_000;

/** The content of a page as saved (a version replaced while it was read: the newer one). */
async function contentOf(orgId: string, page: PageRecord): Promise<{ page: PageRecord; content: string }> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const content = await readContent(page.contentKey);
    if (content !== undefined) return { page, content };
    const again = await getPage(orgId, page.pageId, true);
    if (!again || again.status === 'removed') throw notFound(PAGE_MESSAGES.pageNotFound);
    page = again;
  }
  throw new Error('The content of a page could not be read.');
}

const pageRoutes = [
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/pages',
    scope: 'org:read',
    summary:
      'One level of the tree, in order: the top-level pages, or the children of `parentId`; `hasChildren` says ' +
      'which have more under them. Pages of `limit` (default 100) with a signed `cursor`.',
    params: OrgPath,
    query: z.object({
      parentId: z.optional(PageId),
      cursor: z.optional(z.string()),
      limit: queryInt(1, 200, 100),
    }),
    errors: { 400: [INVALID_CURSOR], 404: [PAGE_MESSAGES.pageNotFound] },
    run: async ({ org, query }) => {
      if (query.parentId) await requireVisible(org.orgId, query.parentId);
      const page = await listChildren(org.orgId, query.parentId ?? null, query.limit, query.cursor);
      return ok({ pages: page.pages.map(summary), cursor: page.cursor });
    },
  }),
  route({
    method: 'POST',
    path: '/v1/orgs/:orgId/pages',
    scope: 'org:read',
    roles: WRITERS,
    summary:
      'Creates a page: at the top level or under `parentId`, last among its siblings or right `before` or ' +
      '`after` one of them; `content` is Markdown. Members above viewer, or keys with org:write.',
    params: OrgPath,
    body: z.object({
      title: Title,
      parentId: z._default(z.nullable(PageId), null),
      icon: z._default(Icon, null),
      content: z._default(Markdown, ''),
      before: z.optional(PageId),
      after: z.optional(PageId),
    }),
    errors: {
      400: [PAGE_MESSAGES.beforeAndAfter, PAGE_MESSAGES.notSibling, PAGE_MESSAGES.tooDeep],

      404: [PAGE_MESSAGES.parentNotFound],
    },
    run: async ({ org, caller, body }) => {
      const page = await createPage(org.orgId, authorOf(caller), body);
      return created({ page: shown(page) });
    },
  }),
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/pages/search',
    scope: 'org:read',
    summary:
      'Pages whose title or text hold every word of `q` (the last word also as the start of a longer one), ' +
      'best first (BM25, titles weigh twice), each with a snippet and the places of the matched words in it. ' +
      'Pages of `limit` (default 20) with a signed `cursor`.',
    params: OrgPath,
    query: z.object({
      q: z.string().check(z.trim(), z.minLength(1), z.maxLength(200)),
      cursor: z.optional(z.string()),
      limit: queryInt(1, 50, 20),
    }),
    errors: { 400: [INVALID_CURSOR] },
    run: async ({ org, query }) => {
      const found = await searchPages(org.orgId, query.q, query.limit, query.cursor);
      return ok({
        results: found.hits.map((h) => ({
          page: summary(h.page),
          score: h.score,
          snippet: h.snippet,
          highlights: h.highlights,
        })),
        cursor: found.cursor,
      });
    },
  }),
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/pages/:pageId',
    scope: 'org:read',
    summary:
      'A page with its Markdown content, its breadcrumbs (ancestors, top level first), its first 100 children ' +
      '(`childrenCursor` continues them on GET /pages) and whether it is one of the caller’s favorites.',
    params: PagePath,
    errors: { 404: [PAGE_MESSAGES.pageNotFound] },
    run: async ({ org, params, caller }) => {
      const { page, ancestors } = await requireVisible(org.orgId, params.pageId);
      const [read, children, favorite] = await Promise.all([
        contentOf(org.orgId, page),
        listChildren(org.orgId, page.pageId, 100),
        isFavorite(org.orgId, page.pageId, callerId(caller)),
      ]);
      return ok({
        page: shown(read.page),
        content: read.content,
        breadcrumbs: ancestors.map(crumb),
        children: children.pages.map(summary),
        childrenCursor: children.cursor,
        favorite,
      });
    },
  }),
  route({
    method: 'PATCH',
    path: '/v1/orgs/:orgId/pages/:pageId',
    scope: 'org:read',
    roles: WRITERS,
    summary:
      'Renames a page, changes its icon (null removes it) or moves it: under another `parentId` (null: the top ' +
      'level; never under itself or its descendants) and/or `before` or `after` a sibling (last when a new ' +
      'parent is given alone). `ifVersion`: only if the page is still at that version (else 409).',
    params: PagePath,
    body: z.object({
      title: z.optional(Title),
      icon: z.optional(Icon),
      parentId: z.optional(z.nullable(PageId)),
      before: z.optional(PageId),
      after: z.optional(PageId),
      ifVersion: z.optional(Version),
    }),
    errors: {
      400: [PAGE_MESSAGES.underItself, PAGE_MESSAGES.beforeAndAfter, PAGE_MESSAGES.notSibling, PAGE_MESSAGES.tooDeep],

      404: [PAGE_MESSAGES.pageNotFound, PAGE_MESSAGES.parentNotFound],
      409: [PAGE_MESSAGES.changed],
    },
    run: async ({ org, caller, params, body }) => {
      const by = callerId(caller);
      const page = await changePage(org.orgId, params.pageId, by, body);
      return ok({ page: shown(page) });
    },
  }),
  route({
    method: 'DELETE',
    path: '/v1/orgs/:orgId/pages/:pageId',
    scope: 'org:read',
    roles: WRITERS,
    summary:
      'Deletes a page and every page under it: all of them answer 404 at once; their content, search entries ' +
      'and favorites are removed right after (a very large subtree finishes in the background).',
    params: PagePath,
    errors: { 404: [PAGE_MESSAGES.pageNotFound] },
    run: async ({ org, params }) => {
      await hidePage(org.orgId, params.pageId);
      // Hidden is deleted for every reader: a sweep that fails here is finished by the worker.
      await sweep(org.orgId, params.pageId, Date.now() + SWEEP_BUDGET_MS).catch((err: unknown) =>
        log.warn('pages sweep stopped', { orgId: org.orgId, pageId: params.pageId, ...describeError(err) }),
      );
      return noContent();
    },
  }),
  route({
    method: 'PUT',
    path: '/v1/orgs/:orgId/pages/:pageId/content',
    scope: 'org:read',
    roles: WRITERS,
    summary:
      'Saves the Markdown content of a page (up to 1,000,000 characters). `baseVersion`: the `contentVersion` ' +
      'the edit started from; when the content changed since, 409 with the current `contentVersion`.',
    params: PagePath,
    body: z.object({ content: Markdown, baseVersion: z.optional(Version) }),
    errors: { 404: [PAGE_MESSAGES.pageNotFound], 409: [PAGE_MESSAGES.contentChanged] },
    run: async ({ org, caller, params, body }) => {
      const updated = await saveContent(org.orgId, params.pageId, authorOf(caller), body.content, body.baseVersion);
      return ok({ page: shown(updated) });
    },
  }),
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/favorites',
    scope: 'org:read',
    summary: "The caller's favorite pages, newest first; pages of `limit` (default 50) with a signed `cursor`.",
    params: OrgPath,
    query: z.object({ cursor: z.optional(z.string()), limit: queryInt(1, 100, 50) }),
    errors: { 400: [INVALID_CURSOR] },
    run: async ({ org, caller, query }) => {
      const found = await listFavorites(org.orgId, callerId(caller), query.limit, query.cursor);
      return ok({
        favorites: found.found.map((f) => ({ page: summary(f.page), favoritedAt: f.favorite.favoritedAt })),
        cursor: found.cursor,
      });
    },
  }),
  route({
    method: 'PUT',
    path: '/v1/orgs/:orgId/favorites/:pageId',
    scope: 'org:read',
    summary: 'Makes a page one of the caller’s favorites (again: no change). Viewers may keep favorites.',
    params: PagePath,
    errors: { 404: [PAGE_MESSAGES.pageNotFound] },
    run: async ({ org, caller, params }) => {
      const { page } = await requireVisible(org.orgId, params.pageId);
      const favorite = await addFavorite(org.orgId, page.pageId, callerId(caller));
      return ok({ favorite: { page: summary(page), favoritedAt: favorite.favoritedAt } });
    },
  }),
  route({
    method: 'DELETE',
    path: '/v1/orgs/:orgId/favorites/:pageId',
    scope: 'org:read',
    summary: 'Removes a page from the caller’s favorites (not one: no change).',
    params: PagePath,
    errors: { 404: [PAGE_MESSAGES.pageNotFound] },
    run: async ({ org, caller, params }) => {
      await requireVisible(org.orgId, params.pageId);
      await removeFavorite(org.orgId, params.pageId, callerId(caller));
      return noContent();
    },
  }),
];

/** The group's routes: the pages and favorites, then the history (./version-routes.ts). */
export const routes = [...pageRoutes, ...versionRoutes];
