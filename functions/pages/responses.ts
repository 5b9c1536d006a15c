import * as z from 'zod/mini';
import { PageVersion } from '../../shared/domains/pages/record-schemas';
import type { ResponseDocs } from '../../shared/kernel/http/responses';

/** Success responses of the pages routes (see shared/kernel/http/responses.ts): documentation only. */
const PageSummary = z.object({
  pageId: z.string(),
  orgId: z.string(),
  parentId: z.nullable(z.string()),
  title: z.string(),
  icon: z.nullable(z.string()),
  hasChildren: z.boolean(),
  version: z.number(),
  contentVersion: z.number(),
  createdAt: z.number(),
  createdBy: z.string(),
  updatedAt: z.number(),
  updatedBy: z.string(),
});
const Page = z.extend(PageSummary, { contentLength: z.number() });
const Favorite = z.object({ page: PageSummary, favoritedAt: z.number() });

export const responses: ResponseDocs = {
  'GET /v1/orgs/:orgId/pages': { 200: z.object({ pages: z.array(PageSummary), cursor: z.nullable(z.string()) }) },
  'POST /v1/orgs/:orgId/pages': { 201: z.object({ page: Page }) },
  'GET /v1/orgs/:orgId/pages/search': {
    200: z.object({
      results: z.array(
        z.object({
          page: PageSummary,
          score: z.number(),
          snippet: z.string(),
          highlights: z.array(z.tuple([z.number(), z.number()])),
        }),
      ),
      cursor: z.nullable(z.string()),
    }),
  },
  'GET /v1/orgs/:orgId/pages/:pageId': {
    200: z.object({
      page: Page,
      content: z.string(),
      breadcrumbs: z.array(z.object({ pageId: z.string(), title: z.string(), icon: z.nullable(z.string()) })),
      children: z.array(PageSummary),
      childrenCursor: z.nullable(z.string()),
      favorite: z.boolean(),
    }),
  },
  'PATCH /v1/orgs/:orgId/pages/:pageId': { 200: z.object({ page: Page }) },
  'DELETE /v1/orgs/:orgId/pages/:pageId': { 204: null },
  'PUT /v1/orgs/:orgId/pages/:pageId/content': { 200: z.object({ page: Page }) },
  'GET /v1/orgs/:orgId/pages/:pageId/versions': {
    200: z.object({ versions: z.array(PageVersion), cursor: z.nullable(z.string()), contentVersion: z.number() }),
  },
  'GET /v1/orgs/:orgId/pages/:pageId/versions/:n': { 200: z.object({ version: PageVersion, content: z.string() }) },
  'POST /v1/orgs/:orgId/pages/:pageId/versions/:n/restore': { 201: z.object({ page: Page, version: PageVersion }) },
  'GET /v1/orgs/:orgId/favorites': { 200: z.object({ favorites: z.array(Favorite), cursor: z.nullable(z.string()) }) },
  'PUT /v1/orgs/:orgId/favorites/:pageId': { 200: z.object({ favorite: Favorite }) },
  'DELETE /v1/orgs/:orgId/favorites/:pageId': { 204: null },
};
