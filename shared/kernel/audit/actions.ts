import type { Route } from '../http/route';

/**
 * What the audit log and analytics call a route, derived from its method and path, so no route
 * is annotated: the path's literal segments (without `v1` and the `orgs/:orgId` of tenant routes)
 * joined by dots, then a verb. `POST /v1/orgs/:orgId/projects` is `projects.create`,
 * `PATCH …/projects/:projectId` `projects.update`, `DELETE …/projects/:projectId`
 * `projects.delete`, `PUT …/pages/:pageId/content` `pages.content.update`. A POST creates when
 * its path is a collection (the group reads it with a GET too); otherwise its last segment names
 * what it does: `POST …/projects/:projectId/transfer` is `projects.transfer`.
 */
export function actionOf(
  route: Pick<Route, 'method' | 'segments' | 'path'>,
  group: readonly Pick<Route, 'method' | 'path'>[] = [],
): string {
  const segs = route.segments;
  const literals: string[] = [];
  for (let i = 0; i < segs.length; i++) {
    const s = segs[i] as string;
    if (i === 0 && s === 'v1') continue;
    // `orgs/:orgId` is the tenant, not the subject, unless nothing follows it.
    if (s === 'orgs' && segs[i + 1] === ':orgId' && literals.length === 0 && segs.length > i + 2) continue;
    if (!s.startsWith(':')) literals.push(s);
  }
  const last = segs[segs.length - 1] ?? '';
  const base = literals.join('.') || 'root';
  switch (route.method) {
    case 'GET':
      return `${base}.read`;
    case 'DELETE':
      return `${base}.delete`;
    case 'PUT':
    case 'PATCH':
      return `${base}.update`;
    default: {
      if (last.startsWith(':')) return `${base}.create`;
      const collection = group.some((r) => r.method === 'GET' && r.path === route.path);
      return collection || !VERBS.test(last) ? `${base}.create` : base;
    }
  }
}

/** What a POST's last segment looks like when it names what the POST does rather than what it makes. */
const VERBS =
  /^(search|check|scan|query|get|delete|verify|authorize|oauth|callback|start|actions|send|read|ack|poll|token|login|test|archive|redeliver|rotate|transfer|redeploy|promote|rename|cancel|request-access|merge|close|reopen|approval|secret|heartbeat|complete|upload-url|network-requests|dns-provider|uploads|folders|blobs|restore)$/;

/**
 * POSTs that change nothing (`…/issues/search`, `…/recipients/check`, a database's `scan`,
 * `query` and `items/get`): not audited. A route says so with `readOnly`, or it is derived from
 * its last segment.
 */
const READ_ONLY = new Set(['search', 'check', 'scan', 'query', 'get']);

/** Whether a request of this route is a write the audit log keeps. */
export function isAudited(route: Pick<Route, 'method' | 'segments'> & { readOnly?: boolean }): boolean {
  if (route.method === 'GET') return false;
  if (route.readOnly !== undefined) return !route.readOnly;
  if (route.method !== 'POST') return true;
  return !READ_ONLY.has(route.segments[route.segments.length - 1] ?? '');
}

/** The area of the API a route belongs to: the first segment of its action (`projects`, `mail`, …). */
export const areaOf = (action: string) => action.split('.')[0] as string;
