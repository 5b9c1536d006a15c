import * as z from 'zod/mini';
import { mailUsage } from '../../shared/domains/mail/operator-usage';
import { putLocation, putRegion, readGeo, showRegion } from '../../shared/domains/platform-admin/geo';
import { listModels, putModel, showModel } from '../../shared/domains/platform-admin/models';
import { listOrgs, patchOrg } from '../../shared/domains/platform-admin/orgs';
import { queryInt } from '../../shared/kernel/http/query';
import { created, ok, type Reply, route } from '../../shared/kernel/http/route';
import { oneLine } from '../../shared/kernel/http/text-checks';
import { NOT_OPERATOR, requireOperator } from '../../shared/kernel/identity/operators';
import { PLATFORM_ADMIN_MESSAGES } from '../../shared/kernel/plans/messages';
import { putPlan } from '../../shared/kernel/plans/plan-edits';
import { ENFORCED_LIMITS, KEPT_LIMITS, listPlans, showPlan } from '../../shared/kernel/plans/plans';
import { INVALID_CURSOR } from '../../shared/kernel/store/cursor';
import { routes as insightRoutes } from './insight-routes';

/**
 * Platform administration (`/v1/platform`, outside any organization): owners and admins of the
 * platform organization and its agent keys (`requireOperator`); anyone else, customer owners
 * included, 403. Authenticated by the stack like `/v1/me` (no organization in the path).
 */
const ENTRY_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const EntryId = z.string().check(z.regex(ENTRY_ID, 'Expected letters, digits, ".", "_" or "-" (up to 64)'));
const Name = z.string().check(z.trim(), z.minLength(1), z.maxLength(100), oneLine);
const Version = z.int().check(z.minimum(0));
const Limit = z.int().check(z.minimum(0), z.maximum(1_000_000_000));
const Limits = z.strictObject(
  Object.fromEntries([...ENFORCED_LIMITS, ...KEPT_LIMITS].map((n) => [n, z.optional(Limit)])) as Record<
    (typeof ENFORCED_LIMITS)[number] | (typeof KEPT_LIMITS)[number],
    z.ZodMiniOptional<typeof Limit>
  >,
);
const OrgList = z.object({
  q: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(100))),
  cursor: z.optional(z.string()),
  limit: queryInt(1, 200, 50),
});

const OPERATORS = { 403: [NOT_OPERATOR] };
const upserted = (isNew: boolean, body: unknown): Reply => (isNew ? created(body) : ok(body));

export const routes = [
  ...insightRoutes,
  route({
    method: 'GET',
    path: '/v1/platform/orgs',
    access: 'token',
    summary:
      'Every organization (oldest first) with its plan, status and counts (members, projects, resources); `q` ' +
      'matches a part of the name or slug. Pages of `limit` (default 50) with a signed `cursor`. Operators only.',
    query: OrgList,
    errors: { 400: [INVALID_CURSOR], ...OPERATORS },
    run: async ({ caller, query }) => {
      await requireOperator(caller);
      return ok(await listOrgs(query));
    },
  }),
  {
    // `:orgId` names the organization changed, not the caller's: no organization access is asked
    // of the caller (route() marks paths with `:orgId` as the caller's organization's).
    ...route({
      method: 'PATCH',
      path: '/v1/platform/orgs/:orgId',
      access: 'token',
      summary:
        "Sets an organization's plan (`planId`; `null`: none, the default budgets) or status (`suspended`: its " +
        'writes are refused with 403, reads still work; `active` lifts it); `ifVersion` guards the change. Operators only.',
      params: z.object({ orgId: z.string().check(z.minLength(1), z.maxLength(64)) }),
      body: z.object({
        planId: z.optional(z.nullable(EntryId)),
        status: z.optional(z.enum(['active', 'suspended'])),
        ifVersion: z.optional(Version),
      }),
      errors: {
        400: [PLATFORM_ADMIN_MESSAGES.unknownPlan('<planId>'), PLATFORM_ADMIN_MESSAGES.platformOrg],
        ...OPERATORS,
        404: [PLATFORM_ADMIN_MESSAGES.orgNotFound],
        409: [PLATFORM_ADMIN_MESSAGES.orgStale],
      },
      run: async ({ caller, params, body }) => {
        await requireOperator(caller);
        return ok({ organization: await patchOrg(params.orgId, body) });
      },
    }),
    orgScoped: false,
  },
  route({
    method: 'GET',
    path: '/v1/platform/mail/usage',
    access: 'token',
    summary:
      'Mail per organization this month (mailboxes, sent, received, bounces, complaints; and sent today) and ' +
      "the account's sending quota (SES; locally the local engine's). `q`, `cursor`, `limit` as for " +
      '/v1/platform/orgs. Operators only.',
    query: OrgList,
    errors: { 400: [INVALID_CURSOR], ...OPERATORS },
    run: async ({ caller, query }) => {
      await requireOperator(caller);
      return ok(await mailUsage(query));
    },
  }),
  route({
    method: 'GET',
    path: '/v1/platform/regions',
    access: 'token',
    summary: 'The regions with their locations (enabled or not) and the default location. Operators only.',
    errors: OPERATORS,
    run: async ({ caller }) => {
      await requireOperator(caller);
      const geo = await readGeo();
      return ok({ regions: geo.regions.map((r) => showRegion(r, geo)), defaultLocation: geo.defaultId });
    },
  }),
  route({
    method: 'PUT',
    path: '/v1/platform/regions/:regionId',
    access: 'token',
    summary:
      "Changes a region's `name` or `enabled` (disabling one that enabled locations use is 409); with a `name`, " +
      'an unknown id adds the region (201). `ifVersion` guards the change. Operators only.',
    params: z.object({ regionId: EntryId }),
    body: z.object({ name: z.optional(Name), enabled: z.optional(z.boolean()), ifVersion: z.optional(Version) }),
    errors: {
      ...OPERATORS,
      404: [PLATFORM_ADMIN_MESSAGES.regionNotFound],
      409: [PLATFORM_ADMIN_MESSAGES.regionInUse(['<locationId>']), PLATFORM_ADMIN_MESSAGES.regionStale],
    },
    run: async ({ caller, params, body }) => {
      await requireOperator(caller);
      const out = await putRegion(params.regionId, body);
      return upserted(out.created, { region: out.region });
    },
  }),
  route({
    method: 'PUT',
    path: '/v1/platform/locations/:locationId',
    access: 'token',
    summary:
      "Changes a location's `name`, `region`, `enabled` or `default` (`GET /v1/locations` lists the enabled ones); " +
      'with `name` and `region`, an unknown id adds the location (201). A region not in the registry is 400; ' +
      'the default location stays enabled. `ifVersion` guards the change. Operators only.',
    params: z.object({ locationId: EntryId }),
    body: z.object({
      name: z.optional(Name),
      region: z.optional(EntryId),
      enabled: z.optional(z.boolean()),
      default: z.optional(z.boolean()),
      ifVersion: z.optional(Version),
    }),
    errors: {
      400: [
        PLATFORM_ADMIN_MESSAGES.unknownRegion('<region>'),
        PLATFORM_ADMIN_MESSAGES.keepDefault,
        PLATFORM_ADMIN_MESSAGES.defaultMustBeEnabled,
      ],
      ...OPERATORS,
      404: [PLATFORM_ADMIN_MESSAGES.locationNotFound],
      409: [
        PLATFORM_ADMIN_MESSAGES.regionDisabled('<region>'),
        PLATFORM_ADMIN_MESSAGES.defaultDisabled,
        PLATFORM_ADMIN_MESSAGES.locationStale,
      ],
    },
    run: async ({ caller, params, body }) => {
      await requireOperator(caller);
      const out = await putLocation(params.locationId, body);
      return upserted(out.created, { location: out.location });
    },
  }),
  route({
    method: 'GET',
    path: '/v1/platform/plans',
    access: 'token',
    summary:
      'The plans with their limits; `enforced` names the limits the platform enforces now (the rate-limit ' +
      'budgets: `requests`, `keyRequests`, `builds`), the others are kept and shown. Operators only.',
    errors: OPERATORS,
    run: async ({ caller }) => {
      await requireOperator(caller);
      return ok({ plans: (await listPlans()).map(showPlan), enforced: [...ENFORCED_LIMITS], kept: [...KEPT_LIMITS] });
    },
  }),
  route({
    method: 'PUT',
    path: '/v1/platform/plans/:planId',
    access: 'token',
    summary:
      "Changes a plan's `name` or `limits` (replaced as a whole: a limit left out is no limit); with both, an " +
      'unknown id adds the plan (201). Organizations on it get its budgets within a minute. Operators only.',
    params: z.object({ planId: EntryId }),
    body: z.object({ name: z.optional(Name), limits: z.optional(Limits), ifVersion: z.optional(Version) }),
    errors: { ...OPERATORS, 404: [PLATFORM_ADMIN_MESSAGES.planNotFound], 409: [PLATFORM_ADMIN_MESSAGES.planStale] },
    run: async ({ caller, params, body }) => {
      await requireOperator(caller);
      const out = await putPlan(params.planId, body);
      return upserted(out.created, { plan: showPlan(out.plan) });
    },
  }),
  route({
    method: 'GET',
    path: '/v1/platform/models',
    access: 'token',
    summary: 'The catalog of models offered to organizations: name, provider, enabled. Operators only.',
    errors: OPERATORS,
    run: async ({ caller }) => {
      await requireOperator(caller);
      return ok({ models: (await listModels()).map(showModel) });
    },
  }),
  route({
    method: 'PUT',
    path: '/v1/platform/models/:modelId',
    access: 'token',
    summary:
      "Changes a model's `name`, `provider` or `enabled`; with a name and a provider, an unknown id adds it to " +
      'the catalog (201, enabled unless said). `ifVersion` guards the change. Operators only.',
    params: z.object({ modelId: EntryId }),
    body: z.object({
      name: z.optional(Name),
      provider: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(64))),
      enabled: z.optional(z.boolean()),
      ifVersion: z.optional(Version),
    }),
    errors: { ...OPERATORS, 404: [PLATFORM_ADMIN_MESSAGES.modelNotFound], 409: [PLATFORM_ADMIN_MESSAGES.modelStale] },
    run: async ({ caller, params, body }) => {
      await requireOperator(caller);
      const out = await putModel(params.modelId, body);
      return upserted(out.created, { model: showModel(out.model) });
    },
  }),
];
