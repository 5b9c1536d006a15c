import { callerId } from '../../auth/caller';
import { isWrite } from '../route-entry';
import { errorResult } from './map-errors';
import type { Middleware, Request } from './state';

/**
 * `Idempotency-Key` on a write (shared/kernel/http/idempotency.ts): claimed once the caller is known
 * and the input valid; a repeat answers the kept response, a mismatch 422, one still running 409.
 * The answer, error or not, is kept below 500; a 5xx lets the key go.
 */
export const idempotency = (): Middleware => ({
  before: async (request: Request) => {
    const key = request.event.headers['idempotency-key'];
    const state = request.context.api;
    const method = request.event.requestContext.http.method;
    if (key === undefined || !state.caller || !isWrite(method)) return;
    const scope = `${state.params.orgId ?? '-'}#${callerId(state.caller)}`;
    const { claim } = await keys();
    const out = await claim(scope, key, { method, path: request.event.rawPath, body: request.event.body });
    if ('replay' in out) return out.replay;
    state.idem = out.claim;
  },
  after: async (request: Request) => {
    const claimed = request.context.api?.idem;
    if (claimed && request.response) await (await keys()).settle(claimed, request.response);
  },
  onError: async (request: Request) => {
    const claimed = request.context.api?.idem;
    if (!claimed) return;
    // Answered here (mapErrors then keeps it): the error is logged once, and kept as it is answered.
    request.response = await errorResult(request);
    request.context.api.answered = true;
    await (await keys()).settle(claimed, request.response);
  },
});

/** Idempotency keys' module, loaded with the first write that sends one. */
const keys = () => import('../idempotency');
