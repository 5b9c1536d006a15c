import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Context } from 'aws-lambda';
import * as z from 'zod/mini';
import { TEXT_MESSAGES } from '../../shared/kernel/ground/text';
import { NOT_JSON } from '../../shared/kernel/http/body';
import { stackOrder } from '../../shared/kernel/http/handler';
import { HttpError, httpErrorOf } from '../../shared/kernel/http/http-error';
import { authorize } from '../../shared/kernel/http/middleware/authorize';
import { conditionalReads, etagOf } from '../../shared/kernel/http/middleware/conditional-reads';
import { idempotency } from '../../shared/kernel/http/middleware/idempotency';
import { mapErrors } from '../../shared/kernel/http/middleware/map-errors';
import { MALFORMED_PATH, matchRoute } from '../../shared/kernel/http/middleware/match-route';
import { preconditions } from '../../shared/kernel/http/middleware/preconditions';
import { rateLimit } from '../../shared/kernel/http/middleware/rate-limit';
import type { Event, Request, RequestState, Result } from '../../shared/kernel/http/middleware/state';
import { validate } from '../../shared/kernel/http/middleware/validate';
import { ok, type Route, route } from '../../shared/kernel/http/route';

/**
 * Each middleware of the stack alone, fed the API Gateway events recorded from real requests
 * (test/fixtures/apigw-events, made by scripts/record-events.ts), with no engine: what it learns,
 * what it answers and what it leaves alone.
 */
const recorded = (name: string): Event =>
  JSON.parse(readFileSync(join(__dirname, '..', 'fixtures', 'apigw-events', `${name}.json`), 'utf8'));

const Org = z.object({ orgId: z.string() });
const routes: Route[] = [
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/projects',
    scope: 'projects:read',
    params: Org,
    query: z.object({ include: z.optional(z.enum(['summary'])) }),
    run: async () => ok({ projects: [] }),
  }),
  route({
    method: 'POST',
    path: '/v1/orgs/:orgId/projects',
    scope: 'projects:write',
    params: Org,
    body: z.object({ name: z.string(), slug: z.string(), framework: z.string() }),
    run: async () => ok({}),
  }),
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/projects/:projectId',
    scope: 'projects:read',
    run: async () => ok({}),
  }),
  route({
    method: 'PATCH',
    path: '/v1/orgs/:orgId/projects/:projectId',
    scope: 'projects:write',
    run: async () => ok({}),
  }),
  route({ method: 'GET', path: '/health', access: 'public', run: async () => ok({ ok: true }) }),
];

const requestOf = (event: Event, api: Partial<RequestState> = {}): Request =>
  ({
    event,
    context: { awsRequestId: 'unit', api: { params: {}, ...api } } as unknown as Context & { api: RequestState },
    response: undefined,
    error: undefined,
    internal: {},
  }) as unknown as Request;

/** What the stack answers for the error `run` throws (a DomainError by its kind, an HttpError as it is). */
async function thrown(run: () => unknown): Promise<HttpError> {
  try {
    await run();
  } catch (err) {
    const http = httpErrorOf(err);
    if (http) return http;
    throw err;
  }
  throw new Error('nothing was thrown');
}

describe('the stack', () => {
  test('is the eight middlewares in the one order handler.ts writes', () => {
    expect(stackOrder(routes)).toHaveLength(8);
  });
});

describe('matchRoute', () => {
  const matching = (event: Event) => {
    const request = requestOf(event);
    return { request, run: () => matchRoute(routes).before?.(request) };
  };
  test('finds the route and its parameters', async () => {
    const { request, run } = matching(recorded('get-projects'));
    await run();
    expect(request.context.api.route?.path).toBe('/v1/orgs/:orgId/projects');
    expect(request.context.api.params).toEqual({ orgId: 'org_01J0000000000000000000000' });
  });
  test('400 for a path that is not valid percent-encoding, 404 for an unknown one, 405 with Allow', async () => {
    expect((await thrown(matching(recorded('malformed-path')).run)).toJSON()).toEqual({ error: MALFORMED_PATH });
    expect((await thrown(matching(recorded('put-object-binary')).run)).status).toBe(404);
    const del = recorded('get-project-if-none-match');
    const err = await thrown(
      matching({
        ...del,
        requestContext: { ...del.requestContext, http: { ...del.requestContext.http, method: 'DELETE' } },
      }).run,
    );
    expect([err.status, err.headers]).toEqual([405, { allow: 'GET, PATCH' }]);
  });
  test("a write with If-Match learns the same path's GET", async () => {
    const { request, run } = matching(recorded('patch-project-if-match'));
    await run();
    expect(request.context.api.current?.route.method).toBe('GET');
    expect(request.context.api.current?.params).toEqual({ orgId: 'org_01J0000000000000000000000', projectId: 'prj_1' });
  });
});

describe('authorize', () => {
  test('a public route needs no credential; any other answers 401 without one', async () => {
    const health = requestOf(recorded('get-no-auth'), { route: routes[4] });
    await authorize().before?.(health);
    expect(health.context.api.caller).toBeUndefined();
    const scoped = requestOf(recorded('get-no-auth'), { route: routes[0], params: { orgId: 'org_1' } });
    expect((await thrown(() => authorize().before?.(scoped))).status).toBe(401);
  });
});

describe('validate', () => {
  test('parses the JSON body, params and query into the input', async () => {
    const request = requestOf(recorded('post-project-json'), { route: routes[1], params: { orgId: 'org_1' } });
    await validate().before?.(request);
    expect(request.context.api.input).toEqual({
      params: { orgId: 'org_1' },
      query: {},
      body: { name: 'Site', slug: 'site', framework: 'static' },
    });
  });
  test('400 for a body that is not JSON, and for a control character in a query string', async () => {
    const bad = requestOf(recorded('post-project-bad-json'), { route: routes[1], params: { orgId: 'org_1' } });
    expect((await thrown(() => validate().before?.(bad))).toJSON()).toEqual({ error: NOT_JSON });
    const event = recorded('get-projects');
    const escaped = requestOf(
      { ...event, queryStringParameters: { include: 'summary', note: 'a\u001bb' } },
      { route: routes[0], params: { orgId: 'org_1' } },
    );
    const err = await thrown(() => validate().before?.(escaped));
    expect(err.toJSON()).toMatchObject({
      error: 'Invalid request',
      issues: expect.arrayContaining([{ path: 'note', message: TEXT_MESSAGES.oneLine }]),
    });
  });
});

describe('rateLimit, preconditions and idempotency leave alone what is not theirs', () => {
  test('no organization access: nothing counted; no If-Match: no lease; a GET: no key claimed', async () => {
    const request = requestOf(recorded('get-projects'), { route: routes[0] });
    rateLimit().before?.(request);
    await preconditions().before?.(request);
    const event = recorded('get-projects');
    const withKey = requestOf(
      { ...event, headers: { ...event.headers, 'idempotency-key': 'k' } },
      { route: routes[0] },
    );
    expect(await idempotency().before?.(withKey)).toBeUndefined();
    expect(request.context.api).toEqual({ params: {}, route: routes[0] });
    expect(withKey.context.api.idem).toBeUndefined();
  });
  test("a counted request's answer carries the RateLimit headers", () => {
    const request = requestOf(recorded('get-projects'), {
      counted: { over: false, limit: 100, remaining: 99, reset: 60 },
    });
    request.response = { statusCode: 200, headers: {}, body: '{}' };
    rateLimit().after?.(request);
    expect(Object.keys(request.response.headers ?? {}).some((h) => h.toLowerCase().startsWith('ratelimit'))).toBe(true);
  });
});

describe('conditionalReads', () => {
  const answered = (name: string, body: string) => {
    const request = requestOf(recorded(name));
    request.response = { statusCode: 200, headers: {}, body } as Result;
    conditionalReads().after?.(request);
    return request.response as Result;
  };
  test('a 200 GET answers its ETag; If-None-Match naming it is 304 without the body', () => {
    const body = JSON.stringify({ project: { projectId: 'prj_1' } });
    expect(answered('get-projects', body).headers?.etag).toBe(etagOf(body));
    expect(answered('get-project-if-none-match', body).statusCode).toBe(200);
    const same = recorded('get-project-if-none-match');
    const request = requestOf({ ...same, headers: { ...same.headers, 'if-none-match': etagOf(body) } });
    request.response = { statusCode: 200, headers: {}, body };
    conditionalReads().after?.(request);
    expect(request.response).toEqual({ statusCode: 304, headers: { etag: etagOf(body) } });
  });
});

describe('mapErrors', () => {
  const mapped = async (error: unknown) => {
    const request = requestOf(recorded('get-projects'));
    (request as { error: unknown }).error = error;
    await mapErrors().onError?.(request);
    return request.response as Result;
  };
  test("the platform's own error, the backend's throttling, anything unexpected", async () => {
    const own = await mapped(new HttpError(404, 'Project not found'));
    expect([own.statusCode, JSON.parse(own.body as string)]).toEqual([404, { error: 'Project not found' }]);
    const throttled = await mapped(
      Object.assign(new Error('slow down'), { name: 'ThrottlingException', $metadata: { httpStatusCode: 400 } }),
    );
    expect([throttled.statusCode, JSON.parse(throttled.body as string).error]).toEqual([
      429,
      'The backend is throttling requests. Try again in a moment.',
    ]);
    const bug = await mapped(new TypeError('x is undefined'));
    expect([bug.statusCode, JSON.parse(bug.body as string)]).toEqual([500, { error: 'Internal error' }]);
  });
});
