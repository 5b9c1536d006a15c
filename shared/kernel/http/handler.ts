import { createHash } from 'node:crypto';
import middy, { type MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { $ZodType } from 'zod/v4/core';
import { isAudited } from '../audit/actions';
import { recordRequest, rememberActions } from '../audit/record';
import { accessOrg, authenticate } from '../auth/authenticate';
import { type Caller, callerId, type OrgAccess } from '../auth/caller';
import { badRequest, HttpError, type Issue, invalidRequest, notFound } from '../ground/errors';
import { describeError, log } from '../ground/log';
import { notOneLine, TEXT_MESSAGES } from '../ground/text';
import { parseJsonBody } from './body';
import type { Claim } from './idempotency';
import { budgetsOf, type Count, rateHeaders, rateLimitsOn, spend, tooMany } from './rate-limits';
import type { Reply, Route, RouteContext } from './route';
import { isEntry, isWrite, type RouteEntry, type RouteTable } from './route-entry';
import { createRouter } from './router';

// The stack validates through each schema's own Standard Schema interface, so zod's code loads
// with the routes that declare schemas (which set its English messages: shared/kernel/http/route.ts), not
// at a function's start.

type Event = APIGatewayProxyEventV2;
type Result = APIGatewayProxyStructuredResultV2;

/** What the middlewares learn about a request, in the order they learn it. */
interface State {
  route?: Route;
  params: Record<string, string>;
  caller?: Caller;
  access?: OrgAccess;
  input?: { params: unknown; query: unknown; body: unknown };
  /** A read route's data call, started during authorization (see `authorize`). */
  read?: Promise<unknown>;
  /** The idempotency key this request claimed (see `idempotency`). */
  idem?: Claim;
  /** The error's answer is made (by `idempotency`, which keeps it). */
  answered?: boolean;
  /** What the request spent of its budgets (see `rateLimit`). */
  counted?: Count;
  /** The GET route of the same path, for a write's `If-Match` (see `preconditions`). */
  current?: { route: Route; params: Record<string, string> };
  /** Lets go of the resource's lease an `If-Match` write holds (see `preconditions`). */
  release?: () => Promise<void>;
}
type Ctx = Context & { api: State };
type Request = middy.Request<Event, Result, Error, Ctx>;

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' };
export const MALFORMED_PATH = 'Malformed path: invalid percent-encoding.';

export function reply(r: Reply): Result {
  if (r.status === 204 || r.body === undefined) return { statusCode: r.status, headers: { ...r.headers } };
  if (typeof r.body === 'string' || Buffer.isBuffer(r.body)) {
    const bytes = Buffer.isBuffer(r.body);
    return {
      statusCode: r.status,
      headers: { ...r.headers },
      body: bytes ? r.body.toString('base64') : (r.body as string),
      isBase64Encoded: bytes,
    };
  }
  return { statusCode: r.status, headers: { ...JSON_HEADERS, ...r.headers }, body: JSON.stringify(r.body) };
}

/**
 * 1. The route: unknown path → 404 `Not found`; known path, other method → 405 with `Allow`;
 * a path that is not valid percent-encoding → 400 (API Gateway hands it over as it came).
 */
const matchRoute = (routes: RouteTable): MiddlewareObj<Event, Result, Error, Ctx> => {
  const match = createRouter<Route | RouteEntry>(routes);
  return {
    before: async (request: Request) => {
      request.context.api = { params: {} };
      const m = match(request.event.requestContext.http.method, request.event.rawPath);
      if (m.kind === 'malformed') throw badRequest(MALFORMED_PATH);
      if (m.kind === 'none') throw notFound();
      if (m.kind === 'method') throw new HttpError(405, 'Method not allowed', {}, { allow: m.allow.join(', ') });
      request.context.api.route = await routeOf(m.route);
      request.context.api.params = m.params;
      if (request.event.headers['if-match'] !== undefined && isWrite(m.route.method)) {
        const current = match('GET', request.event.rawPath);
        if (current.kind === 'found') {
          request.context.api.current = { route: await routeOf(current.route), params: current.params };
        }
      }
    },
  };
};

/** A route, or the route an index entry names, loaded with the first request that needs it. */
const routeOf = (r: Route | RouteEntry): Route | Promise<Route> => (isEntry(r) ? r.resolve() : r);

/**
 * 2. Authentication, the path's organization and role, the scope check. A read route (`read`)
 * starts its data call as soon as the credential is well formed and the input valid, so it runs
 * together with authentication's round trip; what it finds waits for authorization to pass.
 */
const authorize = (): MiddlewareObj<Event, Result, Error, Ctx> => ({
  before: async (request: Request) => {
    const state = request.context.api;
    const route = state.route as Route;
    if (route.access === 'public') return;
    const orgId = route.orgScoped ? state.params.orgId : undefined;
    const startRead = () => {
      if (!route.read || orgId === undefined) return;
      const input = validInput(request);
      if (!input) return;
      state.input = input;
      state.read = route.read({ orgId, ...input });
      // Refused callers never await it: its failure must not surface as an unhandled rejection.
      state.read.catch(() => undefined);
    };
    const { caller, access } = await authenticate(
      request.event.headers.authorization,
      route.access === 'device',
      orgId,
      startRead,
    );
    state.caller = caller;
    if (access) {
      state.access = access;
      if (route.access === 'scope' && route.scope) {
        const pass = [route.scope, ...(route.allowed ?? [])].some((s) => access.scopes.has(s));
        if (!pass) throw new HttpError(403, `Missing scope ${route.scope}`);
      }
      const roles = route.roles;
      if (roles && access.role === undefined && roles.keyScope) {
        if (!access.scopes.has(roles.keyScope)) throw new HttpError(403, `Missing scope ${roles.keyScope}`);
      } else if (roles && !(access.role && roles.allow.includes(access.role))) {
        throw new HttpError(403, roles.refusal);
      }
      // Suspended by a platform operator (PATCH /v1/platform/orgs/:orgId): reads work, writes don't.
      if (access.org.suspended && isAudited(route)) throw new HttpError(403, 'This organization is suspended.');
    }
  },
});

function issuesOf(
  found: readonly { path?: readonly (PropertyKey | { key: PropertyKey })[]; message: string }[],
  base: string,
): Issue[] {
  return found.map((i) => ({
    path: [base, ...(i.path ?? []).map((p) => String(typeof p === 'object' ? p.key : p))].filter(Boolean).join('.'),
    message: i.message,
  }));
}

function parse(schema: $ZodType | undefined, value: unknown, base: string, issues: Issue[]): unknown {
  if (!schema) return value;
  const r = schema['~standard'].validate(value);
  if (r instanceof Promise) throw new Error('Route schemas are synchronous.');
  if (!r.issues) return r.value;
  issues.push(...issuesOf(r.issues, base));
  return undefined;
}

/** The parsed and validated params, query and body of the request; issues are collected. */
function parseInput(request: Request, issues: Issue[]): NonNullable<State['input']> {
  const state = request.context.api;
  const route = state.route as Route;
  const { event } = request;
  let body: unknown;
  if (event.body !== undefined && event.body !== '') {
    body = parseJsonBody(event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body);
  }
  if (route.body && body === undefined) body = {};
  const rawQuery = { ...event.queryStringParameters };
  for (const path of [...notOneLine(state.params), ...notOneLine(rawQuery)]) {
    issues.push({ path, message: TEXT_MESSAGES.oneLine });
  }
  const params = parse(route.params, state.params, '', issues);
  const query = parse(route.query, rawQuery, '', issues);
  const parsedBody = parse(route.body, body, '', issues);
  return { params, query, body: parsedBody };
}

/** The input when it is valid, else undefined (its 400 comes later, after authorization, as always). */
function validInput(request: Request): State['input'] {
  const issues: Issue[] = [];
  try {
    const input = parseInput(request, issues);
    return issues.length === 0 ? input : undefined;
  } catch {
    return undefined;
  }
}

/**
 * 3. Rate limits (shared/kernel/http/rate-limits.ts) of a caller that passed: decided in memory before
 * anything runs (a refused request does nothing and waits for nothing), written to the table in
 * the background. Every answer of a counted request carries the RateLimit headers.
 */
const rateLimit = (): MiddlewareObj<Event, Result, Error, Ctx> => ({
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

/** 4. JSON body (malformed, too deep or with `__proto__` → 400) and zod validation of params, query and body. */
const validate = (): MiddlewareObj<Event, Result, Error, Ctx> => ({
  before: (request: Request) => {
    const state = request.context.api;
    // Already parsed when a read route started its data call with it.
    if (state.input) return;
    const issues: Issue[] = [];
    const input = parseInput(request, issues);
    if (issues.length > 0) throw invalidRequest(issues);
    state.input = input;
  },
});

/**
 * 6. `Idempotency-Key` on a write (shared/kernel/http/idempotency.ts): claimed once the caller is known
 * and the input valid; a repeat answers the kept response, a mismatch 422, one still running 409.
 * The answer, error or not, is kept below 500; a 5xx lets the key go.
 */
const idempotency = (): MiddlewareObj<Event, Result, Error, Ctx> => ({
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
const keys = () => import('./idempotency');

/** The ETag of a JSON answer: a hash of its body (see `conditionalReads`). */
const etagOf = (body: string) => `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
const listsTag = (header: string, etag: string) =>
  header.trim() === '*' || header.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);

export const PRECONDITION_FAILED = 'The resource changed since that version (If-Match). Reload and try again.';
export const PRECONDITION_BUSY = 'Another write with If-Match is in progress on this resource. Try again.';

/** An `If-Match` write holds its resource at most this long (a holder that died lets go then) and waits this long for it. */
const IF_MATCH_LEASE = { ttlMs: 30_000, waitMs: 15_000 };

/**
 * 5. `If-Match` on a write: the answer of the same path's GET, as the caller may read it now,
 * must carry one of the ETags named (`*`: any, the resource exists), else 412 and nothing is
 * done. The check and the write are one critical section per resource: before reading, the write
 * takes a lease on the GET's route and parameters (shared/kernel/store/lease.ts), held until the answer
 * is made (`httpHandler` lets it go), so of concurrent writes naming the same ETag one runs and
 * the others, waiting for the lease, then read the new ETag and answer 412. A lease not free
 * within 15 s is 409 `PRECONDITION_BUSY`.
 */
const preconditions = (): MiddlewareObj<Event, Result, Error, Ctx> => ({
  before: async (request: Request) => {
    const state = request.context.api;
    const asked = request.event.headers['if-match'];
    if (asked === undefined || !state.current) return;
    const { route, params } = state.current;
    const resource = createHash('sha256')
      .update(`${route.path}\n${JSON.stringify(params)}`)
      .digest('base64url');
    const { takeLease } = await import('../store/lease');
    state.release = await takeLease(`if-match#${resource}`, PRECONDITION_BUSY, IF_MATCH_LEASE);
    const issues: Issue[] = [];
    const input = {
      params: parse(route.params, params, '', issues),
      query: parse(route.query, {}, '', issues),
      body: undefined,
    };
    let answer: Result;
    try {
      // The organization as it is now, under the lease (authentication read it before): the
      // organization's own GET shows it.
      const access = state.access && state.caller ? await accessOrg(state.caller, state.access.org.orgId) : undefined;
      answer = await runRoute(route, input, { ...state, access }, request.event, request.context);
    } catch (err) {
      if (err instanceof HttpError && err.status === 404) throw new HttpError(412, PRECONDITION_FAILED);
      throw err;
    }
    if (answer.statusCode !== 200 || typeof answer.body !== 'string' || !listsTag(asked, etagOf(answer.body))) {
      throw new HttpError(412, PRECONDITION_FAILED);
    }
  },
});

/**
 * 7. Conditional reads: a 200 GET with a JSON body answers an `ETag` (a hash of the body: it changes
 * with the record's version and with anything else the answer shows), and `If-None-Match` naming it
 * answers 304 without the body, as HTTP caches and `gh`-style clients expect.
 */
const conditionalReads = (): MiddlewareObj<Event, Result, Error, Ctx> => ({
  after: (request: Request) => {
    const res = request.response;
    if (request.event.requestContext.http.method !== 'GET' || !res || res.statusCode !== 200) return;
    if (typeof res.body !== 'string' || res.isBase64Encoded || res.headers?.etag) return;
    const etag = etagOf(res.body);
    const asked = request.event.headers['if-none-match'];
    if (asked && listsTag(asked, etag)) {
      request.response = { statusCode: 304, headers: { etag } };
      return;
    }
    request.response = { ...res, headers: { ...res.headers, etag } };
  },
});

/** Every error becomes `{ error }` with its status; anything unexpected is a logged 500. */
const mapErrors = (): MiddlewareObj<Event, Result, Error, Ctx> => ({
  onError: async (request: Request) => {
    if (!request.context.api?.answered) request.response = await errorResult(request);
    // A counted request's error carries the budget too (a 429 has its own).
    const counted = request.context.api?.counted;
    if (counted && request.response && request.response.statusCode !== 429) {
      request.response = { ...request.response, headers: { ...request.response.headers, ...rateHeaders(counted) } };
    }
  },
});

/** The answer to the request's error (logged when it is the backend's or unexpected). */
async function errorResult(request: Request): Promise<Result> {
  const err = request.error;
  let http: HttpError;
  // The backend's errors' table loads with the first error that is not the platform's own.
  const backend = err instanceof HttpError ? undefined : await import('./backend-errors');
  if (err instanceof HttpError) http = err;
  else if (backend?.isBackendError(err)) {
    http = backend.toHttpError(err);
    log.warn('backend error', {
      requestId: request.context.awsRequestId,
      route: routeName(request),
      backend: err.name,
      status: http.status,
    });
  } else {
    log.error('unhandled error', {
      requestId: request.context.awsRequestId,
      route: routeName(request),
      error: describeError(err),
    });
    http = new HttpError(500, 'Internal error');
  }
  return reply({ status: http.status, body: http.toJSON(), headers: http.headers });
}

const routeName = (request: Request) => {
  const route = request.context.api?.route;
  return route ? `${route.method} ${route.path}` : undefined;
};

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

function answer(routes: RouteTable) {
  return middy<Event, Result, Error, Ctx>()
    .use(mapErrors())
    .use(matchRoute(routes))
    .use(authorize())
    .use(rateLimit())
    .use(preconditions())
    .use(validate())
    .use(conditionalReads())
    .use(idempotency())
    .handler(async (event, context) => {
      const state = context.api;
      return runRoute(state.route as Route, state.input as NonNullable<State['input']>, state, event, context);
    });
}

/** Runs a route with its valid input for the caller the stack found; its answer as Lambda's result. */
async function runRoute(
  route: Route,
  input: NonNullable<State['input']>,
  state: State,
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
