import * as z from 'zod/mini';
import { IMPORT_M, importView, listImports, requireImport } from '../../shared/domains/repos/imports/records';
import { cancelImport, NO_NAME, startImport } from '../../shared/domains/repos/imports/start';
import { M } from '../../shared/domains/repos/records';
import { queryInt } from '../../shared/kernel/http/query';
import { accepted, ok, route } from '../../shared/kernel/http/route';
import { plainText } from '../../shared/kernel/http/text-checks';
import { RepoName } from './repos';

const ImportParams = z.object({ orgId: z.string(), importId: z.string() });

export const importRoutes = [
  route({
    method: 'POST',
    path: '/v1/orgs/:orgId/repos/-/imports',
    scope: 'git:write',
    rateBudget: 'builds',
    summary:
      'Imports an existing repository by its git URL (every branch and tag, and its Git LFS objects when the ' +
      'source serves them) as background work where builds run. Answers 202 with the import; `GET` it for ' +
      'progress. A user name and password in the URL, or `username` and `password`, reach the source only; ' +
      "the URL's query and fragment are dropped (never sent, kept or answered).",
    body: z.object({
      url: z.string().check(z.trim(), z.minLength(1), z.maxLength(2000)),
      name: z.optional(RepoName),
      description: z.optional(z.string().check(z.trim(), z.maxLength(1000), plainText)),
      username: z.optional(z.string().check(z.maxLength(256))),
      password: z.optional(z.string().check(z.maxLength(4096))),
    }),
    errors: {
      400: [IMPORT_M.badUrl, 'url must use https.', "url can't be reached from the platform: ...", NO_NAME],
      409: [M.nameTaken, IMPORT_M.tooMany],
      429: ['Too many builds. ...'],
    },
    run: async ({ org, caller, body }) => accepted({ import: importView(await startImport(org.orgId, caller, body)) }),
  }),
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/repos/-/imports',
    scope: 'git:read',
    summary: "The organization's imports, newest first, `limit` a page (cursor: `nextCursor`).",
    query: z.object({
      limit: queryInt(1, 100, 25),
      cursor: z.optional(z.string()),
    }),
    read: async ({ orgId, query }) => {
      const page = await listImports(orgId, query.limit, query.cursor);
      return { imports: page.imports.map(importView), nextCursor: page.nextCursor };
    },
  }),
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/repos/-/imports/:importId',
    scope: 'git:read',
    summary: 'An import: its state, progress (`phase`, `objects`, `bytes`), message and, once done, its repository.',
    params: ImportParams,
    errors: { 404: [IMPORT_M.notFound] },
    read: async ({ orgId, params }) => ({ import: importView(await requireImport(orgId, params.importId)) }),
  }),
  route({
    method: 'POST',
    path: '/v1/orgs/:orgId/repos/-/imports/:importId/cancel',
    scope: 'git:write',
    summary: 'Cancels a queued or running import: its work stops and the repository it was filling is removed.',
    params: ImportParams,
    errors: { 404: [IMPORT_M.notFound], 409: [IMPORT_M.finished] },
    run: async ({ org, params }) => ok({ import: importView(await cancelImport(org.orgId, params.importId)) }),
  }),
];
