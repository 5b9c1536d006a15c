import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { routeGroups } from '../../lib/route-groups';
import type { ResponseDocs, ResponseEntry } from '../../shared/kernel/http/responses';
import type { Route } from '../../shared/kernel/http/route';
import type { RouteEntry } from '../../shared/kernel/http/route-entry';
import { createRouter } from '../../shared/kernel/http/router';

export interface GroupRoutes {
  group: string;
  routes: Route[];
  /** The group's documented success responses (functions/<group>/responses.ts). */
  responses: ResponseDocs;
}

let cache:
  | {
      groups: GroupRoutes[];
      match: (method: string, path: string) => Route | undefined;
      /** The documented answer for `status` of `route` (see ResponseEntry), or undefined (undocumented). */
      responseOf: (route: Route, status: number) => ResponseEntry | undefined;
    }
  | undefined;

/** Every route of every group in the route table, read from the groups' `routes.ts`. */
export function allRoutes() {
  if (!cache) {
    const groups = routeGroups.map((g) => ({
      group: g.name,
      routes: (require(`../../functions/${g.name}/routes`) as { routes: Route[] }).routes,
      responses: (require(`../../functions/${g.name}/responses`) as { responses: ResponseDocs }).responses,
    }));
    const docs = new Map<Route, Partial<Record<number, ResponseEntry>>>();
    for (const g of groups) for (const r of g.routes) docs.set(r, g.responses[`${r.method} ${r.path}`] ?? {});
    const routers = groups.map((g) => createRouter(g.routes));
    cache = {
      groups,
      match: (method, path) => {
        for (const r of routers) {
          const m = r(method, path);
          if (m.kind === 'found') return m.route;
        }
        return undefined;
      },
      responseOf: (route, status) => docs.get(route)?.[status],
    };
  }
  return cache;
}

/** A route a call reached, as its group's generated index names it. */
export interface CalledRoute {
  group: string;
  /** `METHOD path`, e.g. `GET /v1/orgs/:orgId`. */
  key: string;
}

let index: { match: (method: string, path: string) => CalledRoute | undefined } | undefined;
const responsesOf = new Map<string, ResponseDocs>();

/**
 * The route of a call, matched (as allRoutes().match does) against the groups' generated route
 * indexes (functions/<group>/route-index.ts: method and path, nothing of the code a route runs), so
 * that a test file loads only the route groups it calls, as each Lambda loads only its own.
 */
export function calledRoute(method: string, path: string): CalledRoute | undefined {
  if (!index) {
    const routers = routeGroups.map((g) => ({
      group: g.name,
      match: createRouter(
        (require(`../../functions/${g.name}/route-index`) as { routeIndex: RouteEntry[] }).routeIndex,
      ),
    }));
    index = {
      match: (m, p) => {
        for (const r of routers) {
          const found = r.match(m, p);
          if (found.kind === 'found') return { group: r.group, key: `${found.route.method} ${found.route.path}` };
        }
        return undefined;
      },
    };
  }
  return index.match(method, path);
}

/** The documented answer for `status` of a called route (see ResponseEntry), or undefined (undocumented). */
export function documentedResponse(route: CalledRoute, status: number): ResponseEntry | undefined {
  let docs = responsesOf.get(route.group);
  if (!docs) {
    docs = (require(`../../functions/${route.group}/responses`) as { responses: ResponseDocs }).responses;
    responsesOf.set(route.group, docs);
  }
  return docs[route.key]?.[status];
}

/** The table's own attributes: its keys and its indexes' keys (`pk`, `sk`, `gsi1pk`, `gsi2sk`, …). */
const TABLE_KEY = /^(pk|sk|gsi\d*(pk|sk))$/;

/**
 * Where `body` carries the table's own attributes (`issue.gsi1pk`, `items[0].sk`): string values
 * under a key the table uses for its keys, which no answer shows (a database item's attributes are
 * in DynamoDB's form, `{ pk: { S: … } }`, so a customer's own `pk` is not one of them).
 */
export function tableKeysIn(body: unknown, at = ''): string[] {
  if (Array.isArray(body)) return body.flatMap((v, i) => tableKeysIn(v, `${at}[${i}]`));
  if (!body || typeof body !== 'object') return [];
  return Object.entries(body).flatMap(([k, v]) => {
    const here = at ? `${at}.${k}` : k;
    if (TABLE_KEY.test(k) && typeof v === 'string') return [here];
    return tableKeysIn(v, here);
  });
}

/** `METHOD path` of every route the test processes called (see TestPlatform.call). */
export function calledRoutes(dir: string): Set<string> {
  const seen = new Set<string>();
  for (const f of readdirSync(dir).filter((n) => n.startsWith('calls-'))) {
    for (const line of readFileSync(join(dir, f), 'utf8').split('\n')) if (line) seen.add(line);
  }
  return seen;
}
