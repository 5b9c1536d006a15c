import { PREFIXES } from '../store/keys';
import { CATALOG, readCatalog } from './catalog';

/**
 * Plans (`PLATFORM#PLANS`): a name and limits, set by the platform's operators and assigned to
 * organizations (`planId` on the organization). Enforced now: the rate-limit budgets (`requests`
 * per organization and `keyRequests` per API key in each rate window, `builds` a minute) and
 * `importGb`, the most one repository import may read (shared/domains/repos/imports/limits.ts); the
 * other limits are kept and shown for the operators and the organizations' owners. An
 * organization without a plan has the environment's budgets.
 */
export const ENFORCED_LIMITS = ['requests', 'keyRequests', 'builds', 'importGb'] as const;
export const KEPT_LIMITS = ['members', 'projects', 'databases', 'buckets', 'storageGb', 'mailPerDay'] as const;
export type LimitName = (typeof ENFORCED_LIMITS)[number] | (typeof KEPT_LIMITS)[number];
export type Limits = Partial<Record<LimitName, number>>;

export interface PlanRecord {
  id: string;
  name: string;
  limits: Limits;
  version: number;
  updatedAt: number;
}

export const planKey = (id: string) => ({ pk: CATALOG.plans, sk: `${PREFIXES.plans.plan}${id}` });

/** The plans a fresh platform offers (no organization is on one until an operator assigns it). */
const SEED: { id: string; name: string; limits: Limits }[] = [
  {
    id: 'free',
    name: 'Free',
    limits: { requests: 600, keyRequests: 300, builds: 5, members: 5, projects: 3, mailPerDay: 100 },
  },
  {
    id: 'pro',
    name: 'Pro',
    limits: { requests: 3000, keyRequests: 1200, builds: 30, members: 50, projects: 50, mailPerDay: 500 },
  },
  { id: 'enterprise', name: 'Enterprise', limits: { requests: 12000, keyRequests: 6000, builds: 120 } },
];

export async function listPlans(consistent = false): Promise<PlanRecord[]> {
  const items = await readCatalog<PlanRecord>(
    CATALOG.plans,
    () => SEED.map((p) => ({ ...planKey(p.id), ...p })),
    consistent,
  );
  return items.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

export const showPlan = (p: PlanRecord) => ({
  id: p.id,
  name: p.name,
  limits: p.limits,
  /** Which of its limits the platform enforces now (the rest are kept and shown). */
  enforced: ENFORCED_LIMITS.filter((l) => p.limits[l] !== undefined),
  version: p.version,
  updatedAt: p.updatedAt,
});

export async function findPlan(id: string): Promise<PlanRecord | undefined> {
  return (await listPlans(true)).find((p) => p.id === id);
}
