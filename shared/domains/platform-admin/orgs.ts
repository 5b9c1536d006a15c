import { invalid, notFound } from '../../kernel/ground/errors';
import { getOrg } from '../../kernel/identity/orgs';
import type { Organization } from '../../kernel/identity/schema';
import { PLATFORM_ADMIN_MESSAGES } from '../../kernel/plans/messages';
import { notePlanOf } from '../../kernel/plans/plan-limits';
import { listPlans, type PlanRecord } from '../../kernel/plans/plans';
import { decodeCursor, encodeCursor } from '../../kernel/store/cursor';
import { PREFIXES } from '../../kernel/store/keys';
import { queryCount, queryPages, updateVersioned } from '../../kernel/store/ops';
import { keys, ORG_PREFIX } from '../../kernel/store/table';

/** What an organization holds, as the operators' list shows it (one counting Query each). */
const COUNTED = {
  members: ORG_PREFIX.member,
  projects: ORG_PREFIX.project,
  resources: PREFIXES.resources.resource,
} as const;
type Counts = Record<keyof typeof COUNTED, number>;

const count = (orgId: string, prefix: string) =>
  queryCount({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
    ExpressionAttributeValues: { ':pk': keys.org(orgId).pk, ':p': prefix },
  });

async function countsOf(orgId: string): Promise<Counts> {
  const names = Object.keys(COUNTED) as (keyof typeof COUNTED)[];
  const counts = await Promise.all(names.map((n) => count(orgId, COUNTED[n])));
  return Object.fromEntries(names.map((n, i) => [n, counts[i]])) as Counts;
}

export const statusOf = (org: Organization): 'active' | 'suspended' | 'deleting' =>
  org.status === 'deleting' ? 'deleting' : org.suspended ? 'suspended' : 'active';

function show(org: Organization, plans: Map<string, PlanRecord>, counts: Counts) {
  const plan = org.planId ? plans.get(org.planId) : undefined;
  return {
    orgId: org.orgId,
    slug: org.slug,
    name: org.name,
    kind: org.kind,
    status: statusOf(org),
    plan: org.planId ? { id: org.planId, name: plan?.name ?? org.planId } : null,
    counts,
    createdAt: org.createdAt,
    updatedAt: org.updatedAt ?? null,
    version: org.version,
  };
}

export type PlatformOrg = ReturnType<typeof show>;

const planMap = async () => new Map((await listPlans()).map((p) => [p.id, p]));

const BATCH = 100;

/**
 * Organizations in id order (GSI1 `ORGS`: oldest first), `q` matching a part of the name or slug
 * regardless of case; `limit` a page, with a cursor signed for `list` and the same `q`.
 */
export async function pageOrgs(list: string, input: { q?: string; cursor?: string; limit: number }) {
  const q = input.q?.toLowerCase();
  const scope = `platform:${list}:${q ?? ''}`;
  const found: (Organization & Record<string, unknown>)[] = [];
  let cursor: string | null = null;
  const read = queryPages<Organization & Record<string, unknown>>(
    {
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :orgs',
      ExpressionAttributeValues: { ':orgs': 'ORGS' },
      Limit: q ? BATCH : Math.min(BATCH, input.limit + 1),
    },
    decodeCursor(scope, input.cursor),
  );
  pages: for await (const page of read) {
    for (const org of page.items) {
      if (q && !org.name.toLowerCase().includes(q) && !org.slug.toLowerCase().includes(q)) continue;
      if (found.length === input.limit) {
        // One more match exists: the page ends at the last one taken.
        const last = found[found.length - 1] as Record<string, unknown>;
        cursor = encodeCursor(scope, { pk: last.pk, sk: last.sk, gsi1pk: last.gsi1pk, gsi1sk: last.gsi1sk });
        break pages;
      }
      found.push(org);
    }
  }
  return { orgs: found as Organization[], cursor };
}

/** The operators' list: each organization with its plan, status and counts. */
export async function listOrgs(input: { q?: string; cursor?: string; limit: number }) {
  const page = await pageOrgs('orgs', input);
  const [plans, counts] = await Promise.all([planMap(), Promise.all(page.orgs.map((o) => countsOf(o.orgId)))]);
  return { organizations: page.orgs.map((o, i) => show(o, plans, counts[i] as Counts)), cursor: page.cursor };
}

/**
 * An operator's change to an organization: its plan (`null`: none, the default budgets) and its
 * status (a suspended organization's writes are refused, shared/kernel/http/handler.ts), guarded by
 * `ifVersion` (stale: 409).
 */
export async function patchOrg(
  orgId: string,
  body: { planId?: string | null; status?: 'active' | 'suspended'; ifVersion?: number },
): Promise<PlatformOrg> {
  if (body.planId === undefined && body.status === undefined)
    throw invalid('Nothing to change: give planId or status.');
  const org = await getOrg(orgId);
  if (!org) throw notFound(PLATFORM_ADMIN_MESSAGES.orgNotFound);
  const plans = await planMap();
  if (typeof body.planId === 'string' && !plans.has(body.planId))
    throw invalid(PLATFORM_ADMIN_MESSAGES.unknownPlan(body.planId));
  if (body.status === 'suspended' && org.kind === 'platform') throw invalid(PLATFORM_ADMIN_MESSAGES.platformOrg);
  const fields: Record<string, unknown> = { updatedAt: Date.now() };
  // `undefined` removes the attribute: no plan, not suspended.
  if (body.planId !== undefined) fields.planId = body.planId ?? undefined;
  if (body.status !== undefined) fields.suspended = body.status === 'suspended' ? true : undefined;
  const updated = await updateVersioned<Organization>(
    keys.org(orgId),
    body.ifVersion,
    fields,
    PLATFORM_ADMIN_MESSAGES.orgStale,
  );
  if (body.planId !== undefined) notePlanOf(orgId, updated.planId);
  return show(updated, plans, await countsOf(orgId));
}
