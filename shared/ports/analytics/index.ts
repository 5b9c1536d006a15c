import { definePort } from '../adapter';
import type { AnalyticsSink } from './port';

export type { AnalyticsEvent, AnalyticsSink } from './port';

// Computed: the functions' bundler leaves the local adapter out of the Lambda bundles.
const LOCAL_ADAPTER = './local';

/** The analytics sink for PLATFORM_TARGET: a log line on AWS (no client), an in-memory buffer locally. */
export const analytics = definePort<AnalyticsSink>({
  aws: () => import('./aws').then((m) => m.awsAnalytics()),
  local: () => (import(LOCAL_ADAPTER) as Promise<typeof import('./local')>).then((m) => m.localAnalytics()),
});

/**
 * A visitor's request to a deployed site, for the analytics of its organization and project
 * (`edgeRequests`): emitted by the local edge and the router on AWS, off the request's path.
 */
export function recordEdgeRequest(
  d: { orgId: string; projectId: string },
  status: number,
  startedAt: number,
): Promise<void> {
  return analytics().emit({
    at: startedAt,
    orgId: d.orgId,
    projectId: d.projectId,
    group: 'edge',
    route: '-',
    action: 'edge.request',
    status,
    durationMs: Date.now() - startedAt,
    caller: 'anonymous',
  });
}
