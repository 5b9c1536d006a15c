import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { $ZodType } from 'zod/v4/core';
import { analytics } from '../../ports/analytics/index';
import type { Caller } from '../auth/caller';
import { readEnv } from '../ground/env';
import type { Route } from '../http/route';
import type { RouteTable } from '../http/route-entry';
import { actionOf, areaOf, isAudited } from './actions';
import type { AuditActor, AuditEntry } from './audit';

/** What the middy stack knows of a request once it is answered. */
export interface Answered {
  event: APIGatewayProxyEventV2;
  requestId: string;
  route?: Route;
  params: Record<string, string>;
  caller?: Caller;
  /** The organization the caller reached through the path. */
  orgId?: string;
  status: number;
  /** The answer's body as sent (JSON text), for the id of what a create made. */
  answer?: string;
  /** An idempotent replay: counted, not audited again. */
  replayed?: boolean;
  startedAt: number;
  durationMs: number;
}

/** The request's action: derived once per route (shared/kernel/audit/actions.ts). */
const actions = new Map<string, string>();
/** A collection POST's item parameter: `projectId` for `POST …/projects` beside `GET …/projects/:projectId`. */
const itemParams = new Map<string, string>();
export function rememberActions(routes: RouteTable): void {
  for (const r of routes) {
    actions.set(`${r.method} ${r.path}`, actionOf(r, routes));
    const item = r.method === 'POST' && routes.find((x) => x.path.startsWith(`${r.path}/:`));
    if (item) itemParams.set(r.path, item.path.slice(r.path.length + 2).split('/')[0] as string);
  }
}
const actionFor = (route: Route) => actions.get(`${route.method} ${route.path}`) ?? actionOf(route);

/** Switched off only by the bench, to measure what the audit costs. */
const auditOff = () => readEnv('AUDIT_OFF') === '1';

/**
 * After every answer: one analytics event (no I/O: a log line or an in-memory buffer), and for
 * a write of an authenticated caller its audit entry, awaited before the response leaves, with
 * the platform's total moved by a successful create or delete in the same write.
 */
export async function recordRequest(a: Answered): Promise<void> {
  const route = a.route;
  const action = route ? actionFor(route) : 'unknown';
  const caller = a.caller;
  const orgId = a.orgId ?? (caller && caller.kind !== 'user' ? caller.orgId : undefined) ?? null;
  await analytics().emit({
    at: a.startedAt,
    orgId,
    ...(a.params.projectId ? { projectId: a.params.projectId } : {}),
    group: route ? areaOf(action) : '-',
    route: route ? `${route.method} ${route.path}` : '-',
    action,
    status: a.status,
    durationMs: Math.round(a.durationMs * 10) / 10,
    caller: caller?.kind ?? 'anonymous',
  });
  if (!route || !caller || a.replayed || !isAudited(route) || auditOff()) return;
  // Loaded with the first audited write: reads, most of what a function answers, never need them.
  const [{ writeAudit }, { statOf, statUpdate }, { findPlatformOrg }] = await Promise.all([
    import('./audit'),
    import('./stats'),
    import('../identity/operators'),
  ]);
  const entryOrg = route.path.startsWith('/v1/platform') ? ((await findPlatformOrg())?.orgId ?? orgId) : orgId;
  // As sent (the validated body has the defaults the caller did not send).
  const body = bodyOf(a.event);
  const entry: AuditEntry = {
    orgId: entryOrg,
    at: a.event.requestContext.timeEpoch ?? a.startedAt,
    actor: actorOf(caller),
    action,
    route: `${route.method} ${route.path}`,
    target: { ...targetOf(a.params, entryOrg), ...createdTarget(route, a.params, a.status, a.answer) },
    status: a.status,
    requestId: a.requestId,
    ip: a.event.requestContext.http.sourceIp?.slice(0, 64) || null,
    userAgent: a.event.requestContext.http.userAgent?.slice(0, 512) || null,
    fields: fieldsOf(route, body),
  };
  const stat = statOf(action, a.status, a.params, body);
  await writeAudit(entry, stat ? [statUpdate(stat.kind, stat.delta)] : []);
}

function actorOf(caller: Caller): AuditActor {
  if (caller.kind === 'user') return { kind: 'user', id: caller.userId, email: caller.email?.toLowerCase() ?? null };
  return { kind: caller.kind, id: caller.keyId, email: null };
}

/** The path's ids; the organization's own only where it is the subject (a platform route's). */
function targetOf(params: Record<string, string>, orgId: string | null): Record<string, string> {
  const target: Record<string, string> = {};
  for (const [name, value] of Object.entries(params)) {
    if (name === 'orgId' && value === orgId) continue;
    target[name] = value.slice(0, 256);
  }
  return target;
}

const isRecord = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const isId = (v: unknown): v is string | number =>
  (typeof v === 'string' && v !== '') || (typeof v === 'number' && Number.isFinite(v));

/**
 * The id of what a create (a POST answered 201) made, from its answer: in the record it answers
 * (the first object field of the answer that has one: `{ project: {…} }`), the field named like
 * the collection's item parameter (`projectId`, a repository's `name`), else `<record>Id`, else
 * `id`, `key` or `name` (named `<record>Id`, `<record>Key`, `<record>Name`); in an answer without
 * such a record (`{ jobId, expiresAt }`), the item parameter, the first field ending in `Id`, or
 * `key` (a folder's).
 * Never another field of the answer (a secret is answered once). Where the path already names that
 * id for another record (a redeploy's `deploymentId`), it is `created<Name>`.
 */
export function createdTarget(
  route: Pick<Route, 'method' | 'path'>,
  params: Record<string, string>,
  status: number,
  answer: string | undefined,
): Record<string, string> {
  if (route.method !== 'POST' || status !== 201) return {};
  const item = itemParams.get(route.path);
  let body: unknown;
  try {
    body = answer ? JSON.parse(answer) : undefined;
  } catch {
    return {};
  }
  if (!isRecord(body)) return {};
  const found =
    Object.entries(body)
      .filter((e): e is [string, Record<string, unknown>] => isRecord(e[1]))
      .map(([key, record]) => {
        const field = [item, `${key}Id`, 'id', 'key', 'name'].find((f) => f !== undefined && isId(record[f]));
        if (field === undefined) return undefined;
        const name =
          field === item || field === `${key}Id` ? field : `${key}${field[0]?.toUpperCase()}${field.slice(1)}`;
        return [name, record[field]] as const;
      })
      .find((x) => x !== undefined) ??
    [item, ...Object.keys(body).filter((k) => k.endsWith('Id')), 'key']
      .filter((f): f is string => f !== undefined && isId(body[f]))
      .map((f) => [f, body[f]] as const)[0];
  if (!found) return {};
  const [name, value] = found;
  const id = String(value).slice(0, 256);
  if (params[name] === id) return {};
  const key = params[name] === undefined ? name : `created${name.charAt(0).toUpperCase()}${name.slice(1)}`;
  return { [key]: id };
}

function bodyOf(event: APIGatewayProxyEventV2): unknown {
  if (!event.body || event.isBase64Encoded) return undefined;
  const type = event.headers['content-type'] ?? '';
  if (type && !type.includes('json')) return undefined;
  try {
    return JSON.parse(event.body);
  } catch {
    return undefined;
  }
}

const FIELD_NAME = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

/**
 * The names of the body's top-level fields, never a value: the ones the route's schema declares
 * when it declares an object, else names that look like field names (at most 50).
 */
function fieldsOf(route: Route, body: unknown): string[] {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return [];
  const names = Object.keys(body);
  const shape = (route.body as ($ZodType & { _zod: { def: { shape?: Record<string, unknown> } } }) | undefined)?._zod
    .def.shape;
  const kept = shape ? names.filter((n) => Object.hasOwn(shape, n)) : names.filter((n) => FIELD_NAME.test(n));
  return kept.slice(0, 50).sort();
}
