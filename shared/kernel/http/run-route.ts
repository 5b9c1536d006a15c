import type { Caller } from '../auth/caller';
import { type Ctx, type Event, type RequestState, type Result, reply } from './middleware/state';
import type { Reply, Route, RouteContext } from './route';

/** Runs a route with its valid input for the caller the stack found; its answer as Lambda's result. */
export async function runRoute(
  route: Route,
  input: NonNullable<RequestState['input']>,
  state: RequestState,
  event: Event,
  context: Ctx,
): Promise<Result> {
  const access = state.access;
  const ctx: RouteContext<unknown, unknown, unknown> = {
    params: input.params,
    query: input.query,
    body: input.body,
    caller: state.caller as Caller,
    get org() {
      if (!access) throw new Error(`${route.path} has no organization`);
      return access.org;
    },
    role: access?.role,
    scopes: access?.scopes ?? new Set(),
    requestId: context.awsRequestId,
    event,
  };
  if (route.read) {
    // A read started during authorization (the request's own route), or now.
    const started = route === state.route ? state.read : undefined;
    ctx.read = await (started ?? route.read({ orgId: state.params.orgId as string, ...input }));
    if (!route.run) return reply({ status: 200, body: ctx.read });
  }
  return reply(await (route.run as (c: typeof ctx) => Promise<Reply>)(ctx));
}
