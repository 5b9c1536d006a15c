import * as z from 'zod/mini';
import { IMPORT_MESSAGES } from '../../shared/domains/mail/imports';
import { bulkChange } from '../../shared/domains/tracker/bulk';
import { rankIssues } from '../../shared/domains/tracker/ranking';
import { TRACKER_MESSAGES } from '../../shared/domains/tracker/records';
import { searchIssues } from '../../shared/domains/tracker/search';
import { queryInt } from '../../shared/kernel/http/query';
import { ok, route } from '../../shared/kernel/http/route';
import { actorOf, IssueEdit, OrgPath, Ref, str } from './common';

const Order = z.enum(['rank', 'updated', 'created', 'key']);
const JQL_ERRORS = ['Expected <what> but <found> found at line <l>, column <c>.', 'Unknown field <name>'];

const transfer = () => import('../../shared/domains/tracker/transfer');

export const searchRoutes = [
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/issues/export',
    scope: 'issues:read',
    summary:
      'Up to 10,000 issues matching `jql` that the caller sees, as a file: Jira’s CSV layout (repeated columns for ' +
      'multi-valued fields, cells starting = + - @ neutralised) or this API’s JSON. A file over 4 MB answers 303 to ' +
      'a link to it (5 minutes) instead.',
    params: OrgPath,
    query: z.object({ jql: z._default(str(0, 10_000), ''), format: z._default(z.enum(['csv', 'json']), 'csv') }),
    errors: { 400: [...JQL_ERRORS, 'An export can hold up to 10000 issues; this query matches <n>. Narrow it.'] },
    run: async (ctx) => {
      const out = await (await transfer()).exportIssues(actorOf(ctx), ctx.query.jql, ctx.query.format);
      if ('link' in out) return { status: 303, headers: { location: out.link } };
      return ok(out.body, {
        'content-type': out.contentType,
        'content-disposition': `attachment; filename="${out.filename}"`,
      });
    },
  }),
  route({
    method: 'POST',
    path: '/v1/orgs/:orgId/issues/import',
    scope: 'issues:write',
    summary:
      'Imports a Jira CSV export (or this API’s JSON export) into a space, 200 records a call: pass `startRow` ' +
      'and `keyMap` from the previous answer until `done`. Catalog values by name (`createMissing` creates missing ' +
      'versions, components and sprints, else a warning), people by email (else a warning), parents through ' +
      '`keyMap`. The file is `content`, or `file`: the token of a file sent by upload (POST /issues/import/upload). ' +
      'Sending the same call twice creates nothing twice. Space administrators only.',
    params: OrgPath,
    body: z.object({
      space: str(1, 64),
      format: z.enum(['csv', 'json']),
      content: z.optional(z.string().check(z.minLength(1))),
      file: z.optional(str(1, 2000)),
      startRow: z.optional(z.int().check(z.minimum(0))),
      keyMap: z.optional(z.record(str(1, 64), str(1, 64))),
      createMissing: z.optional(z.boolean()),
    }),
    errors: {
      400: [
        'The CSV file has no Summary column: export it from the issue tracker with all fields.',
        TRACKER_MESSAGES.importOneSource,
        IMPORT_MESSAGES.notUploaded,
        IMPORT_MESSAGES.badNext,
      ],
      403: [TRACKER_MESSAGES.importAdmins],
      404: [TRACKER_MESSAGES.spaceNotFound],
      413: [TRACKER_MESSAGES.importTooLarge],
    },
    run: async (ctx) => ok(await (await transfer()).importIssues(actorOf(ctx), ctx.body)),
  }),
  route({
    method: 'POST',
    path: '/v1/orgs/:orgId/issues/import/upload',
    scope: 'issues:write',
    summary:
      'Starts an import of a file too large for a request body (a 5 MB file escaped in JSON can pass the 6 MB ' +
      'a request may carry): `size` in bytes (up to 5 MB). Answers an `upload` link to PUT the file to (15 ' +
      'minutes, with its `headers`) and the `file` token: then call POST /issues/import with `file` instead of ' +
      '`content`, as many times as it takes (`startRow`, `keyMap`). Space administrators only.',
    params: OrgPath,
    body: z.object({
      space: str(1, 64),
      format: z.enum(['csv', 'json']),
      size: z.int().check(z.minimum(1)),
    }),
    errors: {
      403: [TRACKER_MESSAGES.importAdmins],
      404: [TRACKER_MESSAGES.spaceNotFound],
      413: [TRACKER_MESSAGES.importTooLarge],
    },
    run: async (ctx) => ok(await (await transfer()).startImportUpload(actorOf(ctx), ctx.body)),
  }),
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/issues',
    scope: 'issues:read',
    summary:
      'Issues matching `jql` that the caller may see (a hidden issue is neither answered nor counted), in the ' +
      'query’s ORDER BY or `order` (default: most recently updated first). `scanned`: issue records read. A bad ' +
      'query is 400 with `line`, `column` and `expected`.',
    params: OrgPath,
    query: z.object({
      jql: z._default(str(0, 10_000), ''),
      startAt: queryInt(0, 100_000, 0),
      maxResults: queryInt(1, 1000, 50),
      order: z.optional(Order),
    }),
    errors: { 400: JQL_ERRORS },
    run: async (ctx) => ok(await searchIssues(actorOf(ctx), ctx.query)),
  }),
  route({
    method: 'POST',
    path: '/v1/orgs/:orgId/issues/search',
    scope: 'issues:write',
    summary: 'GET /issues with its fields in the body (for long queries).',
    params: OrgPath,
    body: z.object({
      jql: z._default(str(0, 10_000), ''),
      startAt: z._default(z.int().check(z.minimum(0), z.maximum(100_000)), 0),
      maxResults: z._default(z.int().check(z.minimum(1), z.maximum(1000)), 50),
      order: z.optional(Order),
    }),
    errors: { 400: JQL_ERRORS },
    run: async (ctx) => ok(await searchIssues(actorOf(ctx), ctx.body)),
  }),
  route({
    method: 'POST',
    path: '/v1/orgs/:orgId/issues/rank',
    scope: 'issues:write',
    summary:
      'Ranks 1-200 issues (in the order given) right before or after another one: exactly one of `before` and ' +
      '`after`. Ranks compare byte-wise (as the table sorts them); past 128 characters all are ranked afresh.',
    params: OrgPath,
    body: z.object({
      issues: z.array(Ref).check(z.minLength(1), z.maxLength(200)),
      before: z.optional(Ref),
      after: z.optional(Ref),
    }),
    errors: {
      400: [TRACKER_MESSAGES.beforeOrAfter, TRACKER_MESSAGES.rankSelf],
      403: [TRACKER_MESSAGES.cannotEdit],
      404: [TRACKER_MESSAGES.issueNotFound],
      409: [TRACKER_MESSAGES.issueChanged],
    },
    run: async (ctx) => ok({ issues: await rankIssues(actorOf(ctx), ctx.body.issues, ctx.body) }),
  }),
  route({
    method: 'POST',
    path: '/v1/orgs/:orgId/issues/bulk',
    scope: 'issues:write',
    summary:
      'One operation over 1-200 issues, each on its own with one conditional write: `edit` (`fields`), ' +
      '`transition` (`transition`: id, name or target status; `fields` for its screen), `move` (to `space`, ' +
      'optionally as `type`: a new key, the old one kept), `delete`, `watch`, `unwatch`. `done` and `failed` count them.',
    params: OrgPath,
    body: z.object({
      issues: z.array(Ref).check(z.minLength(1), z.maxLength(200)),
      operation: z.enum(['edit', 'transition', 'move', 'delete', 'watch', 'unwatch']),
      fields: z.optional(IssueEdit),
      transition: z.optional(str(1, 80)),
      space: z.optional(str(1, 64)),
      type: z.optional(str(1, 80)),
    }),
    errors: {
      400: ['A transition operation needs transition.', 'A move operation needs space.'],
      403: [TRACKER_MESSAGES.cannotCreate],
      404: [TRACKER_MESSAGES.spaceNotFound],
    },
    run: async (ctx) => ok(await bulkChange(actorOf(ctx), ctx.body)),
  }),
];
