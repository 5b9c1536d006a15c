import type { Caller } from '../auth/caller';
import { readEnv } from '../ground/env';
import { describeError, log } from '../ground/log';
import { planLimitsOf } from '../plans/plan-limits';
import { HttpError } from './http-error';

/**
 * Rate limits per organization and per API key, in fixed windows. Only callers that passed
 * authentication spend a budget, so nobody spends another organization's. A budget comes from the
 * organization's plan, else from the environment (`RATE_LIMIT_ORG`, `RATE_LIMIT_KEY` per
 * `RATE_LIMIT_WINDOW_SECONDS`, `RATE_LIMIT_BUILDS` a minute; `RATE_LIMITS=off` turns counting off).
 *
 * A function counts in memory and decides at once: no call on the request's path, reads and
 * writes alike, and a refused request does nothing. It adds what it counted to the budget's
 * window in the platform table (one item per budget and window, gone by TTL) at most once a
 * second or every 25 requests, in the background, and learns the total of every function from
 * the answer: one function holds a budget exactly; several hold it within what each counted since
 * it last wrote.
 */
export interface Budget {
  scope: string;
  limit: number;
  windowSeconds: number;
}

export interface Count {
  limit: number;
  remaining: number;
  /** Seconds until the window ends. */
  reset: number;
  over: boolean;
}

const DEFAULTS = { org: 3000, key: 1200, window: 60, builds: 30 };
const FLUSH_MS = 1000;
const FLUSH_BATCH = 25;
const num = (name: string, fallback: number) => {
  const v = Number(readEnv(name));
  return Number.isFinite(v) && v > 0 ? v : fallback;
};

export const rateLimitsOn = () => readEnv('RATE_LIMITS') !== 'off';

/**
 * The budgets a request spends: its organization's, a key's own, and a route's (`builds`). The
 * organization's plan sets them (`requests`, `keyRequests`, `builds`: shared/kernel/plans/plans.ts,
 * known from this container's memory, refreshed in the background); the environment's figures
 * are the budgets of an organization without a plan, or of a limit its plan leaves out.
 */
export function budgetsOf(orgId: string, caller: Caller, own?: 'builds'): Budget[] {
  const plan = planLimitsOf(orgId);
  const windowSeconds = num('RATE_LIMIT_WINDOW_SECONDS', DEFAULTS.window);
  const orgLimit = plan?.requests ?? num('RATE_LIMIT_ORG', DEFAULTS.org);
  const budgets = [{ scope: `org#${orgId}`, limit: orgLimit, windowSeconds }];
  if (caller.kind === 'api_key' || caller.kind === 'agent_key') {
    const limit = plan?.keyRequests ?? num('RATE_LIMIT_KEY', DEFAULTS.key);
    budgets.push({ scope: `key#${caller.keyId}`, limit, windowSeconds });
  }
  // Builds are the platform's dearest work: a lower budget of their own, per organization and minute.
  if (own === 'builds') {
    const limit = plan?.builds ?? num('RATE_LIMIT_BUILDS', DEFAULTS.builds);
    budgets.push({ scope: `org#${orgId}#builds`, limit, windowSeconds: 60 });
  }
  return budgets;
}

const windowOf = (b: Budget, now: number) => Math.floor(now / 1000 / b.windowSeconds);
const resetOf = (b: Budget, now: number) =>
  Math.max(1, Math.ceil(((windowOf(b, now) + 1) * b.windowSeconds * 1000 - now) / 1000));

/** What this function knows of a budget's window: the total last read back, and what it counted since. */
interface Tally {
  window: number;
  known: number;
  /** Counted and being written. */
  writing: number;
  pending: number;
  flushedAt: number;
}
const tallies = new Map<string, Tally>();

function tallyOf(b: Budget, now: number): Tally {
  const window = windowOf(b, now);
  let t = tallies.get(b.scope);
  if (!t || t.window !== window) {
    t = { window, known: 0, writing: 0, pending: 0, flushedAt: 0 };
    tallies.set(b.scope, t);
  }
  return t;
}

/** Adds what was counted to the window's item and learns the total of every function. */
function flush(b: Budget, t: Tally, now: number): void {
  if (t.writing > 0 || t.pending === 0) return;
  if (now - t.flushedAt < FLUSH_MS && t.pending < FLUSH_BATCH) return;
  const n = t.pending;
  t.pending = 0;
  t.writing = n;
  t.flushedAt = now;
  import('./rate-limit-writes')
    .then(({ addToWindow }) => addToWindow(b.scope, t.window, n, Math.floor(now / 1000) + b.windowSeconds + 60))
    .then(
      (total) => {
        t.known = Math.max(t.known + n, total);
        t.writing = 0;
      },
      (err: unknown) => {
        // Counted again with the next write; limits protect, they never break the API.
        t.pending += n;
        t.writing = 0;
        log.warn('rate_unwritten', { error: describeError(err) });
      },
    );
}

/**
 * Spends one request of every budget, or none when one of them is spent (that one answered).
 * Decided in memory: nothing waits.
 */
export function spend(budgets: Budget[], now = Date.now()): Count {
  const tallied = budgets.map((b) => ({ b, t: tallyOf(b, now) }));
  // A refused request writes what is due too: the counts reach the table while refusals go on.
  for (const { b, t } of tallied) flush(b, t, now);
  const used = (t: Tally) => t.known + t.writing + t.pending;
  const spent = tallied.find(({ b, t }) => used(t) >= b.limit);
  if (spent) return { limit: spent.b.limit, remaining: 0, reset: resetOf(spent.b, now), over: true };
  let tightest: Count | undefined;
  for (const { b, t } of tallied) {
    t.pending++;
    flush(b, t, now);
    const count = {
      limit: b.limit,
      remaining: Math.max(0, b.limit - used(t)),
      reset: resetOf(b, now),
      over: false,
    };
    if (!tightest || count.remaining < tightest.remaining) tightest = count;
  }
  return tightest as Count;
}

/** The IETF RateLimit header fields of a count. */
export const rateHeaders = (c: Count): Record<string, string> => ({
  'ratelimit-limit': String(c.limit),
  'ratelimit-remaining': String(c.remaining),
  'ratelimit-reset': String(c.reset),
});

/** 429 with `Retry-After` and the headers. */
export const tooMany = (c: Count) =>
  new HttpError(
    429,
    `Too many requests. Try again in ${c.reset} seconds.`,
    {},
    {
      ...rateHeaders(c),
      'retry-after': String(c.reset),
    },
  );
