import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { en } from 'zod/locales';
import { type $ZodType, config, type output } from 'zod/v4/core';
import type { Caller, OrgAccess } from '../auth/caller';
import type { Role, Scope } from '../auth/scopes';
import type { Organization } from '../identity/schema';

// Messages in English. Set here, where routes are declared with their schemas, rather than in the
// stack: a function starts with its route index (shared/kernel/http/route-entry.ts), and zod loads with
// the first route module a request needs. No schema validates before its route is declared.
config(en());

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Who may call: `public` (no token: `GET /health`), `token` (any valid person or key token, no
 * scope), `scope` (the default: `scope` or one of `allowed` in the path's organization), or
 * `device` (agent device tokens only).
 */
export type Access = 'public' | 'token' | 'scope' | 'device';

export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface RouteContext<P, Q, B> {
  params: P;
  query: Q;
  body: B;
  caller: Caller;
  /** The path's organization (routes with `:orgId`); reading it elsewhere throws. */
  org: Organization;
  role: Role | undefined;
  scopes: ReadonlySet<Scope>;
  requestId: string;
  event: APIGatewayProxyEventV2;
  /** The result of the route's `read`, when it has one. */
  read?: unknown;
}

type Out<S> = S extends $ZodType ? output<S> : Record<string, string | undefined>;

export interface RouteSpec<PS, QS, BS> {
  method: Method;
  /** Express-style path, e.g. `/v1/orgs/:orgId/projects/:projectId`. */
  path: string;
  access?: Access;
  scope?: Scope;
  /** Extra scopes that also pass. */
  allowed?: Scope[];
  /**
   * Only callers with one of these roles in the path's organization pass (after the scope check);
   * others, keys included (they have no role), get 403 `refusal`. With `keyScope`, a key passes
   * when it holds that scope too (else 403 `Missing scope <keyScope>`): people by role, keys by
   * scope. Declared here, never checked inside a handler.
   */
  roles?: { allow: Role[]; refusal: string; keyScope?: Scope };
  /**
   * A budget of its own beside the organization's and the key's (shared/kernel/http/rate-limits.ts):
   * `builds`, for what starts a build (deployment creation, redeploy).
   */
  rateBudget?: 'builds';
  /**
   * A POST that changes nothing (a search, a check): the audit log skips it. Derived when absent
   * (shared/kernel/audit/actions.ts: a POST ending in `search`, `check`, `scan`, `query` or `get`).
   */
  readOnly?: boolean;
  /** One line for the reference. */
  summary?: string;
  params?: PS;
  query?: QS;
  body?: BS;
  /** Error statuses and messages the route may answer (for the reference). */
  errors?: Record<number, string[]>;
  /**
   * A read route's data call (it changes nothing): started together with authorization, once the
   * credential is well formed (a JWT's signature holds) and the input is valid, and answered
   * `200` with what it resolves to, only after authorization has passed. A refused caller gets
   * the refusal and nothing of it. With `run` too, `run` answers and finds it in `ctx.read`.
   */
  read?: (input: ReadInput<Out<PS>, Out<QS>, BS extends $ZodType ? output<BS> : undefined>) => Promise<unknown>;
  run?: (ctx: RouteContext<Out<PS>, Out<QS>, BS extends $ZodType ? output<BS> : undefined>) => Promise<Reply>;
}

/** What a read route's data call knows before authorization: the path's organization and the input. */
export interface ReadInput<P, Q, B> {
  orgId: string;
  params: P;
  query: Q;
  body: B;
}

export interface Route extends RouteSpec<$ZodType | undefined, $ZodType | undefined, $ZodType | undefined> {
  access: Access;
  /** Path split into segments; `:name` segments are parameters. */
  segments: string[];
  orgScoped: boolean;
}

/** Declares a route. Routes are data: the OpenAPI document and the authorization tests read them. */
export function route<
  PS extends $ZodType | undefined = undefined,
  QS extends $ZodType | undefined = undefined,
  BS extends $ZodType | undefined = undefined,
>(spec: RouteSpec<PS, QS, BS>): Route {
  const access = spec.access ?? 'scope';
  if (access === 'scope' && !spec.scope) throw new Error(`${spec.method} ${spec.path}: a scope is required`);
  if (!spec.run && !spec.read) throw new Error(`${spec.method} ${spec.path}: run or read is required`);
  const segments = spec.path.split('/').filter(Boolean);
  return { ...(spec as unknown as Route), access, segments, orgScoped: segments.includes(':orgId') };
}

export const ok = (body: unknown, headers?: Record<string, string>): Reply => ({ status: 200, body, headers });
export const created = (body: unknown): Reply => ({ status: 201, body });
export const accepted = (body: unknown): Reply => ({ status: 202, body });
export const noContent = (): Reply => ({ status: 204 });

export type { OrgAccess };
