import { budgetsOf, rateHeaders, rateLimitsOn, spend, tooMany } from '../rate-limits';
import type { Route } from '../route';
import type { Middleware, Request } from './state';

/**
 * Rate limits (shared/kernel/http/rate-limits.ts) of a caller that passed: decided in memory before
 * anything runs (a refused request does nothing and waits for nothing), written to the table in
 * the background. Every answer of a counted request carries the RateLimit headers.
 */
export const rateLimit = (): Middleware => ({
  before: (request: Request) => {
    const state = request.context.api;
    if (!state.access || !state.caller || !rateLimitsOn()) return;
    const route = state.route as Route;
    const counted = spend(budgetsOf(state.access.org.orgId, state.caller, route.rateBudget));
    if (counted.over) throw tooMany(counted);
    state.counted = counted;
  },
  after: (request: Request) => {
    const counted = request.context.api?.counted;
    if (!counted || !request.response) return;
    request.response = { ...request.response, headers: { ...request.response.headers, ...rateHeaders(counted) } };
  },
});
