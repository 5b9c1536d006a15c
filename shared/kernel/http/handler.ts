import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { recordRequest, rememberActions } from '../audit/record';
import { describeError, log } from '../ground/log';
import { authorize } from './middleware/authorize';
import { conditionalReads } from './middleware/conditional-reads';
import { idempotency } from './middleware/idempotency';
import { mapErrors } from './middleware/map-errors';
import { matchRoute } from './middleware/match-route';
import { preconditions } from './middleware/preconditions';
import { rateLimit } from './middleware/rate-limit';
import type { Ctx, Event, Middleware, RequestState, Result } from './middleware/state';
import { validate } from './middleware/validate';
import type { Route } from './route';
import type { RouteTable } from './route-entry';
import { runRoute } from './run-route';

/**
 * The order of the stack, written once (one file per middleware in ./middleware/). middy runs the
 * `before`s in this order and the `after`s and `onError`s in the reverse one:
 * - mapErrors: every error becomes `{ error }` with its status (its `onError` runs last);
 * - matchRoute: 404 / 405 / 400 for a malformed path, the route and its parameters;
 * - authorize: the credential, the path's organization and role, the scope;
 * - rateLimit: the caller's budgets, and the RateLimit headers of the answer;
 * - preconditions: `If-Match` of a write, under the resource's lease;
 * - validate: the JSON body, params, query and body against the route's schemas;
 * - conditionalReads: the `ETag` of a 200 GET and 304 for `If-None-Match`;
 * - idempotency: `Idempotency-Key` of a write, claimed last so only valid, allowed writes take a key.
 */
export const stackOrder = (routes: RouteTable): Middleware[] => [
  mapErrors(),
  matchRoute(routes),
  authorize(),
  rateLimit(),
  preconditions(),
  validate(),
  conditionalReads(),
  idempotency(),
];

/**
 * The one middy stack every route group shares: `export const handler = httpHandler(routeIndex)`
 * (the group's generated index, whose routes load with the first request that needs them), or
 * `httpHandler(routes)` with the routes themselves.
 */
export function httpHandler(routes: RouteTable) {
  rememberActions(routes);
  const stack = answer(routes);
  // The analytics event of every answer and the audit entry of a write (shared/kernel/audit/record.ts),
  // outside the stack so they see its final status, an early one too (an idempotent replay: no
  // second entry for a write done once).
  return async (event: Event, context: Context): Promise<Result> => {
    const startedAt = Date.now();
    const started = performance.now();
    let result: Result;
    try {
      result = await stack(event, context as Ctx);
    } finally {
      // The resource an `If-Match` write held (see `preconditions`), whatever the answer.
      await (context as Ctx).api?.release?.();
    }
    const state = (context as Ctx).api;
    if (event.requestContext.http.method === 'HEAD' && result.body !== undefined) result = headOf(result);
    await recordRequest({
      event,
      requestId: event.requestContext.requestId ?? context.awsRequestId,
      route: state?.route,
      params: state?.params ?? {},
      caller: state?.caller,
      orgId: state?.access?.org.orgId,
      status: result.statusCode ?? 200,
      answer: result.isBase64Encoded ? undefined : result.body,
      replayed: result.headers?.['idempotent-replayed'] === 'true',
      startedAt,
      durationMs: performance.now() - started,
    }).catch((err: unknown) =>
      log.error('audit_unwritten', { requestId: context.awsRequestId, error: describeError(err) }),
    );
    return result;
  };
}

/** A GET's answer to a HEAD: its headers, with the length of the body it leaves out. */
function headOf(result: Result): Result {
  const length = Buffer.byteLength(result.body as string, result.isBase64Encoded ? 'base64' : 'utf8');
  const { body: _body, isBase64Encoded: _base64, ...rest } = result;
  return { ...rest, headers: { ...rest.headers, 'content-length': String(length) } };
}

function answer(routes: RouteTable) {
  return middy<Event, Result, Error, Ctx>()
    .use(stackOrder(routes))
    .handler(async (event, context) => {
      const state = context.api;
      return runRoute(state.route as Route, state.input as NonNullable<RequestState['input']>, state, event, context);
    });
}
