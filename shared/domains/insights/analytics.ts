import { readSeries } from './counters';

/** The answer of an analytics route: the series with averages, the totals, the top routes. */
export async function analyticsOf(
  orgId: string,
  q: { from: number; to: number; interval: 'hour' | 'day'; projectId?: string },
) {
  const { series, totals, topRoutes } = await readSeries({ orgId, ...q });
  const avg = (c: { requests: number; durationMs: number }) =>
    c.requests === 0 ? 0 : Math.round((c.durationMs / c.requests) * 10) / 10;
  return {
    from: new Date(q.from).toISOString(),
    to: new Date(q.to).toISOString(),
    interval: q.interval,
    projectId: q.projectId ?? null,
    series: series.map((p) => ({ ...p, avgDurationMs: avg(p) })),
    totals: { ...totals, avgDurationMs: avg(totals) },
    topRoutes,
  };
}
