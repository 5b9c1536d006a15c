import { describeError, log } from '../ground/log';
import type { Organization } from '../identity/schema';
import { getItem, keys } from '../store/table';
import type { Limits } from './plans';

/*
 * The budgets of an organization's plan for rate limiting (shared/kernel/http/rate-limits.ts), which is
 * synchronous and on every request: answered from this container's memory, refreshed in the
 * background at most once a minute (the plans in one Query, an organization's `planId` in one
 * GetItem). Until the first read lands, an organization has the environment's budgets.
 */
const REFRESH_MS = 60_000;
let plans = new Map<string, Limits>();
let plansRead = 0;
let plansReading = false;
const orgPlans = new Map<string, { planId: string | undefined; at: number; reading: boolean }>();
const ORG_PLANS_MAX = 10_000;

function refreshPlans(now: number): void {
  if (plansReading || now - plansRead < REFRESH_MS) return;
  plansReading = true;
  // The catalog's reads and writes load with the first refresh, not with a function's start.
  import('./plans')
    .then(({ listPlans }) => listPlans())
    .then(
      (list) => {
        plans = new Map(list.map((p) => [p.id, p.limits]));
        plansRead = Date.now();
        plansReading = false;
      },
      (err: unknown) => {
        plansRead = Date.now();
        plansReading = false;
        log.warn('plans_unread', { error: describeError(err) });
      },
    );
}

function refreshOrg(orgId: string, now: number): void {
  const known = orgPlans.get(orgId);
  if (known && (known.reading || now - known.at < REFRESH_MS)) return;
  if (!known && orgPlans.size >= ORG_PLANS_MAX) orgPlans.delete(orgPlans.keys().next().value as string);
  const entry = { planId: known?.planId, at: known?.at ?? 0, reading: true };
  orgPlans.set(orgId, entry);
  getItem<Organization>(keys.org(orgId)).then(
    (org) => {
      entry.planId = org?.planId;
      entry.at = Date.now();
      entry.reading = false;
    },
    (err: unknown) => {
      entry.at = Date.now();
      entry.reading = false;
      log.warn('plans_unread', { error: describeError(err) });
    },
  );
}

/** The limits of the organization's plan as this container knows them (none: the defaults). */
export function planLimitsOf(orgId: string, now = Date.now()): Limits | undefined {
  refreshPlans(now);
  refreshOrg(orgId, now);
  const planId = orgPlans.get(orgId)?.planId;
  return planId ? plans.get(planId) : undefined;
}

/** An organization's plan changed in this container: known at once here, within a minute elsewhere. */
export function notePlanOf(orgId: string, planId: string | undefined): void {
  orgPlans.set(orgId, { planId, at: Date.now(), reading: false });
  plansRead = 0;
}

/** The plans changed in this container: read again with the next request. */
export function forgetPlans(): void {
  plansRead = 0;
}
