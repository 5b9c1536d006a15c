import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Route } from '../../shared/kernel/http/route';

/**
 * `node --import tsx scripts/bench/first-requests.ts <group…>`: prints, as one JSON line, the first
 * request of each group's cold start (scripts/bench/cold.ts): the group's sample API Gateway event
 * (test/events/<group>.json) sent to its first route that needs a credential, without one, so that
 * it is answered 401 with no I/O once the stack has loaded that route's module.
 */
function firstRequestOf(group: string): unknown {
  const text = readFileSync(join(__dirname, '..', '..', 'test', 'events', `${group}.json`), 'utf8');
  const event = JSON.parse(text.replace(/\$\{[A-Z_]+\}/g, 'bench')) as {
    rawPath: string;
    headers: Record<string, string>;
    requestContext: { http: { method: string; path: string } };
  };
  const { routes } = require(`../../functions/${group}/routes`) as { routes: Route[] };
  const route = routes.find((r) => r.access !== 'public');
  if (!route) throw new Error(`${group} has no route that needs a credential`);
  const path = `/${route.segments.map((s) => (s.startsWith(':') ? 'bench' : s)).join('/')}`;
  delete event.headers.authorization;
  event.rawPath = path;
  event.requestContext.http = { ...event.requestContext.http, method: route.method, path };
  return event;
}

const groups = process.argv.slice(2);
process.stdout.write(`\n${JSON.stringify(Object.fromEntries(groups.map((g) => [g, firstRequestOf(g)])))}\n`);
