import type middy from '@middy/core';
import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { Caller, OrgAccess } from '../../auth/caller';
import type { Claim } from '../idempotency';
import type { Count } from '../rate-limits';
import type { Reply, Route } from '../route';

/** The types every middleware of the stack shares, and the one way an answer becomes Lambda's result. */
export type Event = APIGatewayProxyEventV2;
export type Result = APIGatewayProxyStructuredResultV2;

/** What the middlewares learn about a request, in the order they learn it. */
export interface RequestState {
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
export type Ctx = Context & { api: RequestState };
export type Request = middy.Request<Event, Result, Error, Ctx>;

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' };
export type Middleware = MiddlewareObj<Event, Result, Error, Ctx>;

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
