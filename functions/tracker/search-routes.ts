import * as z from 'zod/mini';
import { queryInt } from '../../shared/http/query';
import { ok, route } from '../../shared/http/route';
import { bulkChange } from '../../shared/tracker/bulk';
import { rankIssues } from '../../shared/tracker/ranking';
import { TM } from '../../shared/tracker/records';
import { searchIssues } from '../../shared/tracker/search';
import { actorOf, IssueEdit, OrgPath, Ref, str } from './common';

const Order = z.enum(['rank', 'updated', 'created', 'key']);
const JQL_ERRORS = ['Expected <what> but <found> found at line <l>, column <c>.', 'Unknown field <name>'];

export const searchRoutes = [
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
      400: [TM.beforeOrAfter, TM.rankSelf],
      403: [TM.cannotEdit],
      404: [TM.issueNotFound],
      409: [TM.issueChanged],
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
      403: [TM.cannotCreate],
      404: [TM.spaceNotFound],
    },
    run: async (ctx) => ok(await bulkChange(actorOf(ctx), ctx.body)),
  }),
];
