import * as z from 'zod/mini';
import { analyticsOf } from '../../shared/domains/insights/analytics';
import { FROM_AFTER_TO, QueryTime, RANGE_TOO_LONG, rangeOf } from '../../shared/domains/insights/query';
import { listAudit } from '../../shared/kernel/audit/audit';
import type { Role, Scope } from '../../shared/kernel/auth/scopes';
import { invalid } from '../../shared/kernel/ground/errors';
import { queryInt } from '../../shared/kernel/http/query';
import { ok, route } from '../../shared/kernel/http/route';
import { INVALID_CURSOR } from '../../shared/kernel/store/cursor';

const OrgPath = z.object({ orgId: z.string() });
const Text = (max: number) => z.optional(z.string().check(z.minLength(1), z.maxLength(max)));
const Id = z.string().check(z.regex(/^[A-Za-z0-9_-]{1,64}$/, 'Expected an id'));

export const AUDIT_REFUSAL = 'Only owners and admins can read the audit log.';
const READERS: { allow: Role[]; refusal: string; keyScope: Scope } = {
  allow: ['owner', 'admin'],
  refusal: AUDIT_REFUSAL,
  keyScope: 'org:write',
};

export const routes = [
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/audit',
    scope: 'org:read',
    roles: READERS,
    summary:
      'Who changed what: one entry per write (POST, PUT, PATCH, DELETE) of a signed-in caller or key, refused ' +
      'ones too, newest first, kept 365 days: `at`, `actor` {kind, id, email}, `action` (e.g. `projects.create`), ' +
      '`target` (the path’s ids), `status`, `requestId`, `ip`, `userAgent` and the names of the fields sent ' +
      '(never their values). Filters: `actor` (an id or email), `action` (a prefix: `projects.`), `target` (an ' +
      'id), `from`/`to` (epoch ms or ISO 8601). Owners, admins, and keys with `org:write`.',
    params: OrgPath,
    query: z.object({
      actor: Text(320),
      action: Text(128),
      target: Text(256),
      from: z.optional(QueryTime),
      to: z.optional(QueryTime),
      cursor: z.optional(z.string()),
      limit: queryInt(1, 200, 50),
    }),
    errors: { 400: [FROM_AFTER_TO, INVALID_CURSOR] },
    run: async ({ org, query }) => {
      if (query.from !== undefined && query.to !== undefined && query.from > query.to) throw invalid(FROM_AFTER_TO);
      return ok(await listAudit(org.orgId, query));
    },
  }),
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/analytics',
    scope: 'org:read',
    summary:
      'The organization’s API traffic, or one project’s (`projectId`): a point per `interval` (`hour`, the ' +
      'default, or `day`) from `from` to `to` (at most 90 days; default the last 24 hours, or 30 days by day), ' +
      'each with requests, client and server errors, total and average duration, deployments created, issues ' +
      'opened and mail sent; the totals; and the top routes of the range (by day).',
    params: OrgPath,
    query: z.object({
      from: z.optional(QueryTime),
      to: z.optional(QueryTime),
      interval: z._default(z.enum(['hour', 'day']), 'hour'),
      projectId: z.optional(Id),
    }),
    errors: { 400: [FROM_AFTER_TO, RANGE_TOO_LONG] },
    run: async ({ org, query }) => {
      const span = query.interval === 'hour' ? 86_400_000 : 30 * 86_400_000;
      const grain = query.interval === 'hour' ? 3_600_000 : 86_400_000;
      const { from, to } = rangeOf(query.from, query.to, span, grain);
      return ok(await analyticsOf(org.orgId, { ...query, from, to }));
    },
  }),
];
