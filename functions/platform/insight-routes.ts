import * as z from 'zod/mini';
import { analyticsOf } from '../../shared/domains/insights/analytics';
import { PLATFORM } from '../../shared/domains/insights/counters';
import { FROM_AFTER_TO, QueryTime, RANGE_TOO_LONG, rangeOf } from '../../shared/domains/insights/query';
import { Analytics, AuditList, PlatformStats } from '../../shared/domains/insights/responses';
import { listAudit, listPlatformAudit } from '../../shared/kernel/audit/audit';
import { readStats } from '../../shared/kernel/audit/stats';
import { invalid } from '../../shared/kernel/ground/errors';
import { queryInt } from '../../shared/kernel/http/query';
import type { ResponseDocs } from '../../shared/kernel/http/responses';
import { ok, type Route, route } from '../../shared/kernel/http/route';
import { NOT_OPERATOR, requireOperator } from '../../shared/kernel/identity/operators';
import { INVALID_CURSOR } from '../../shared/kernel/store/cursor';

/**
 * The platform group's insight routes (included by functions/platform/routes.ts): the traffic of
 * the whole platform, every organization's audit log, and the totals by kind. Operators only.
 * Their documented answers are `responses` below, for functions/platform/responses.ts to spread.
 */
const Id = z.string().check(z.regex(/^[A-Za-z0-9_-]{1,64}$/, 'Expected an id'));
const Text = (max: number) => z.optional(z.string().check(z.minLength(1), z.maxLength(max)));
const OPERATORS = { 403: [NOT_OPERATOR] };

export const routes: Route[] = [
  route({
    method: 'GET',
    path: '/v1/platform/analytics',
    access: 'token',
    summary:
      'The API traffic of the whole platform, or of one organization (`orgId`): the same series, totals and top ' +
      'routes as an organization’s `GET …/analytics` (`from`, `to` at most 90 days apart, `interval` hour|day). ' +
      'Operators only.',
    query: z.object({
      from: z.optional(QueryTime),
      to: z.optional(QueryTime),
      interval: z._default(z.enum(['hour', 'day']), 'hour'),
      orgId: z.optional(Id),
    }),
    errors: { 400: [FROM_AFTER_TO, RANGE_TOO_LONG], ...OPERATORS },
    run: async ({ caller, query }) => {
      await requireOperator(caller);
      const span = query.interval === 'hour' ? 86_400_000 : 30 * 86_400_000;
      const grain = query.interval === 'hour' ? 3_600_000 : 86_400_000;
      const { from, to } = rangeOf(query.from, query.to, span, grain);
      const { orgId, ...rest } = query;
      return ok({ orgId: orgId ?? null, ...(await analyticsOf(orgId ?? PLATFORM, { ...rest, from, to })) });
    },
  }),
  route({
    method: 'GET',
    path: '/v1/platform/audit',
    access: 'token',
    summary:
      'Every organization’s audit entries and the platform’s own (its operators’ writes), newest first, by day ' +
      '(`from`/`to`, default the last 30 days, at most 90); `orgId` narrows to one organization, `actor`, ' +
      '`action` (a prefix) and `target` as for an organization’s audit. Signed `cursor`, `limit` 1–200. ' +
      'Operators only.',
    query: z.object({
      orgId: z.optional(Id),
      actor: Text(320),
      action: Text(128),
      target: Text(256),
      from: z.optional(QueryTime),
      to: z.optional(QueryTime),
      cursor: z.optional(z.string()),
      limit: queryInt(1, 200, 50),
    }),
    errors: { 400: [FROM_AFTER_TO, RANGE_TOO_LONG, INVALID_CURSOR], ...OPERATORS },
    run: async ({ caller, query }) => {
      await requireOperator(caller);
      if (query.from !== undefined && query.to !== undefined && query.from > query.to) throw invalid(FROM_AFTER_TO);
      if (query.orgId) return ok(await listAudit(query.orgId, query));
      const { from, to } = rangeOf(query.from, query.to, 30 * 86_400_000);
      return ok(await listPlatformAudit({ ...query, from, to }));
    },
  }),
  route({
    method: 'GET',
    path: '/v1/platform/stats',
    access: 'token',
    summary:
      'Totals by kind: organizations, projects, deployments (created), repositories, databases, buckets, ' +
      'mailboxes, mail domains, domains, webhooks, connectors, pages, sign-in clients, issues and pull requests ' +
      '(opened). Moved by each successful create and delete as its audit entry is written. Operators only.',
    errors: OPERATORS,
    run: async ({ caller }) => {
      await requireOperator(caller);
      return ok(await readStats());
    },
  }),
];

/** The documented answers of these routes, for functions/platform/responses.ts. */
export const responses: ResponseDocs = {
  'GET /v1/platform/analytics': { 200: z.extend(Analytics, { orgId: z.nullable(z.string()) }) },
  'GET /v1/platform/audit': { 200: AuditList },
  'GET /v1/platform/stats': { 200: PlatformStats },
};
