import { PREFIXES } from '../../kernel/store/keys';
import { queryAll, transact } from '../../kernel/store/ops';
import { TABLE } from '../../kernel/store/table';
import type { AnalyticsEvent } from '../../ports/analytics/port';

/**
 * Hourly counters of the API's traffic, per organization and per project, and daily ones per
 * route (for top routes), added by the analytics worker a batch at a time. Each batch is one
 * transaction per hundred counters, with a marker of its own: a batch delivered again finds its
 * marker and counts nothing twice. The platform-wide figures live under the organization `*`.
 */
export const PLATFORM = '*';
/** The `group` of the edge's events (lib/local/edge.ts, shared/domains/serving/router.ts). */
export const EDGE = 'edge' as const;

/** What a counter holds; `durationMs` is a sum (the answer divides). */
export const FIELDS = [
  'requests',
  'clientErrors',
  'serverErrors',
  'durationMs',
  'deploymentsCreated',
  'issuesCreated',
  'mailSent',
  'mailReceived',
  'edgeRequests',
  'buildsSucceeded',
  'buildsFailed',
  'buildSeconds',
] as const;
export type Field = (typeof FIELDS)[number];
type Counts = Partial<Record<Field, number>>;

const hourOf = (at: number) => new Date(at).toISOString().slice(0, 13);
const dayOf = (at: number) => new Date(at).toISOString().slice(0, 10);
const MARK_KEEP_SECONDS = 7 * 24 * 3600;

/** The domain counts a request adds, from its action and status. */
function domainOf(e: AnalyticsEvent): Counts {
  if (e.status < 200 || e.status >= 300) return {};
  if (e.action === 'projects.deployments.create' || e.action === 'deployments.redeploy')
    return { deploymentsCreated: 1 };
  if (e.action === 'repos.issues.create' || e.action === 'issues.create') return { issuesCreated: 1 };
  if (e.action === 'mail.mailboxes.send') return { mailSent: 1 };
  return {};
}

/** The counters a batch moves: `pk\0sk` → counts. */
export function aggregate(events: AnalyticsEvent[]): Map<string, Counts> {
  const out = new Map<string, Counts>();
  const add = (pk: string, sk: string, counts: Counts) => {
    const key = `${pk}\0${sk}`;
    const c = out.get(key) ?? {};
    for (const [f, n] of Object.entries(counts) as [Field, number][]) c[f] = (c[f] ?? 0) + n;
    out.set(key, c);
  };
  for (const e of events) {
    // A visitor's request to a deployed site (the edge, the router): counted apart from the API's.
    if (e.group === EDGE) {
      for (const org of e.orgId ? [e.orgId, PLATFORM] : [PLATFORM])
        add(`${PREFIXES.insights.metrics}${org}`, `${PREFIXES.insights.hour}${hourOf(e.at)}`, { edgeRequests: 1 });
      if (e.orgId && e.projectId)
        add(
          `${PREFIXES.insights.metrics}${e.orgId}`,
          `${PREFIXES.insights.project}${e.projectId}#${PREFIXES.insights.hour}${hourOf(e.at)}`,
          { edgeRequests: 1 },
        );
      continue;
    }
    const counts: Counts = {
      requests: 1,
      ...(e.status >= 500 ? { serverErrors: 1 } : e.status >= 400 ? { clientErrors: 1 } : {}),
      durationMs: Math.max(0, Math.round(e.durationMs)),
      ...domainOf(e),
    };
    const hour = hourOf(e.at);
    const day = dayOf(e.at);
    const route = e.route.slice(0, 300);
    const owners = e.orgId ? [e.orgId, PLATFORM] : [PLATFORM];
    for (const org of owners) {
      add(`${PREFIXES.insights.metrics}${org}`, `${PREFIXES.insights.hour}${hour}`, counts);
      add(`${PREFIXES.insights.metrics}${org}`, `${PREFIXES.insights.route}${day}#${route}`, counts);
    }
    if (e.orgId && e.projectId) {
      add(
        `${PREFIXES.insights.metrics}${e.orgId}`,
        `${PREFIXES.insights.project}${e.projectId}#${PREFIXES.insights.hour}${hour}`,
        counts,
      );
      add(
        `${PREFIXES.insights.metrics}${e.orgId}`,
        `${PREFIXES.insights.projectRoute}${e.projectId}#${day}#${route}`,
        counts,
      );
    }
  }
  return out;
}

const update = (key: string, counts: Counts) => {
  const [pk, sk] = key.split('\0') as [string, string];
  const fields = Object.entries(counts).filter(([, n]) => n !== 0);
  return {
    Update: {
      TableName: TABLE(),
      Key: { pk, sk },
      UpdateExpression: `ADD ${fields.map((_, i) => `#f${i} :v${i}`).join(', ')}`,
      ExpressionAttributeNames: Object.fromEntries(fields.map(([f], i) => [`#f${i}`, f])),
      ExpressionAttributeValues: Object.fromEntries(fields.map(([, n], i) => [`:v${i}`, n])),
    },
  };
};

/**
 * Adds a batch once: `batchId` names it the same on every delivery. Returns how many parts were
 * counted now (0: all counted before).
 */
export function addBatch(batchId: string, events: AnalyticsEvent[], now = Date.now()): Promise<number> {
  return addCounters(batchId, aggregate(events), now);
}

/**
 * Domain counts of one occurrence (a build that ended), named by `batchId` so a repeat of it adds
 * nothing: to the organization's and the platform's hour, and the project's.
 */
export function addDomainCounts(
  batchId: string,
  of: { orgId: string; projectId?: string; at: number },
  counts: Counts,
): Promise<number> {
  const hour = hourOf(of.at);
  const out = new Map<string, Counts>([
    [`${PREFIXES.insights.metrics}${of.orgId}\0${PREFIXES.insights.hour}${hour}`, counts],
    [`${PREFIXES.insights.metrics}${PLATFORM}\0${PREFIXES.insights.hour}${hour}`, counts],
  ]);
  if (of.projectId)
    out.set(
      `${PREFIXES.insights.metrics}${of.orgId}\0${PREFIXES.insights.project}${of.projectId}#${PREFIXES.insights.hour}${hour}`,
      counts,
    );
  return addCounters(batchId, out);
}

async function addCounters(batchId: string, counters: Map<string, Counts>, now = Date.now()): Promise<number> {
  const entries = [...counters]
    .filter(([, c]) => Object.values(c).some((n) => n !== 0))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  let counted = 0;
  for (let part = 0; part * 99 < entries.length; part++) {
    const chunk = entries.slice(part * 99, part * 99 + 99);
    const marker = {
      Put: {
        TableName: TABLE(),
        Item: {
          pk: `${PREFIXES.insights.batch}${batchId}#${part}`,
          sk: 'MARK',
          ttl: Math.floor(now / 1000) + MARK_KEEP_SECONDS,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    };
    try {
      await transact([marker, ...chunk.map(([k, c]) => update(k, c))], [() => new CountedBefore()]);
      counted++;
    } catch (err) {
      if (!(err instanceof CountedBefore)) throw err;
    }
  }
  return counted;
}

class CountedBefore extends Error {}

export interface SeriesPoint extends Record<Field, number> {
  at: string;
}

const zero = (): Record<Field, number> => Object.fromEntries(FIELDS.map((f) => [f, 0])) as Record<Field, number>;

/** Hourly or daily points from `from` to `to` (every bucket, zeros included), and the top routes. */
export async function readSeries(input: {
  orgId: string;
  projectId?: string;
  from: number;
  to: number;
  interval: 'hour' | 'day';
  top?: number;
}): Promise<{
  series: SeriesPoint[];
  totals: Record<Field, number>;
  topRoutes: { route: string; requests: number; clientErrors: number; serverErrors: number }[];
}> {
  const pk = `${PREFIXES.insights.metrics}${input.orgId}`;
  const hourPrefix = input.projectId
    ? `${PREFIXES.insights.project}${input.projectId}#${PREFIXES.insights.hour}`
    : PREFIXES.insights.hour;
  const routePrefix = input.projectId
    ? `${PREFIXES.insights.projectRoute}${input.projectId}#`
    : PREFIXES.insights.route;
  const [hours, routes] = await Promise.all([
    queryRange(pk, `${hourPrefix}${hourOf(input.from)}`, `${hourPrefix}${hourOf(input.to)}`),
    queryRange(pk, `${routePrefix}${dayOf(input.from)}#`, `${routePrefix}${dayOf(input.to)}#~`),
  ]);
  const bucketOf = (at: number) => (input.interval === 'hour' ? hourOf(at) : dayOf(at));
  const points = new Map<string, Record<Field, number>>();
  const step = input.interval === 'hour' ? 3_600_000 : 86_400_000;
  const first =
    input.interval === 'hour'
      ? Date.parse(`${hourOf(input.from)}:00:00Z`)
      : Date.parse(`${dayOf(input.from)}T00:00:00Z`);
  for (let t = first; t <= input.to; t += step) points.set(bucketOf(t), zero());
  const totals = zero();
  for (const item of hours) {
    const hour = (item.sk as string).slice(hourPrefix.length);
    const point = points.get(input.interval === 'hour' ? hour : hour.slice(0, 10));
    if (!point) continue;
    for (const f of FIELDS) {
      const n = Number(item[f] ?? 0);
      point[f] += n;
      totals[f] += n;
    }
  }
  const byRoute = new Map<string, { route: string; requests: number; clientErrors: number; serverErrors: number }>();
  for (const item of routes) {
    const route = (item.sk as string).slice(routePrefix.length + 11);
    const r = byRoute.get(route) ?? { route, requests: 0, clientErrors: 0, serverErrors: 0 };
    r.requests += Number(item.requests ?? 0);
    r.clientErrors += Number(item.clientErrors ?? 0);
    r.serverErrors += Number(item.serverErrors ?? 0);
    byRoute.set(route, r);
  }
  const topRoutes = [...byRoute.values()]
    .sort((a, b) => b.requests - a.requests || (a.route < b.route ? -1 : 1))
    .slice(0, input.top ?? 10);
  const series = [...points].map(([at, counts]) => ({
    at: input.interval === 'hour' ? `${at}:00:00.000Z` : `${at}T00:00:00.000Z`,
    ...counts,
  }));
  return { series, totals, topRoutes };
}

const queryRange = (pk: string, lo: string, hi: string) =>
  queryAll<Record<string, unknown>>({
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :lo AND :hi',
    ExpressionAttributeValues: { ':pk': pk, ':lo': lo, ':hi': hi },
  });
