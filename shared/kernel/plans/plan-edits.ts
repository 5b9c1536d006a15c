import { putEntry } from './catalog';
import { PLATFORM_ADMIN_MESSAGES } from './messages';
import { forgetPlans } from './plan-limits';
import { findPlan, type Limits, type PlanRecord, planKey } from './plans';

/*
 * Changing the plans (the operators' route), apart from ./plans.ts (reading them): ./plan-limits.ts
 * loads the reads with its first refresh, and this container forgets what it knows after a change,
 * so neither module imports the other back.
 */

/**
 * Creates a plan (`name` and `limits` given) or changes one: `limits` replaces the plan's limits
 * as a whole (a limit left out is no limit).
 */
export async function putPlan(id: string, body: { name?: string; limits?: Limits; ifVersion?: number }) {
  const existing = await findPlan(id);
  const fields = Object.fromEntries(
    Object.entries(existing ? { name: body.name, limits: body.limits } : { id, ...body, ifVersion: undefined }).filter(
      ([, v]) => v !== undefined,
    ),
  );
  const out = await putEntry<PlanRecord>({
    key: planKey(id),
    existing,
    fields,
    ifVersion: body.ifVersion,
    stale: PLATFORM_ADMIN_MESSAGES.planStale,
    notFoundMessage: PLATFORM_ADMIN_MESSAGES.planNotFound,
    required: ['name', 'limits'],
  });
  forgetPlans(); // this container sees its own change at once
  return { plan: out.entry, created: out.created };
}
