import { config } from '../../kernel/config';
import { awsSink } from './aws';
import { localSink } from './local';
import type { AnalyticsSink } from './port';

export type { AnalyticsEvent, AnalyticsSink } from './port';

let sink: AnalyticsSink | undefined;

/** The analytics sink for PLATFORM_TARGET (both adapters are a few lines, with no client). */
export function analytics(): AnalyticsSink {
  sink ??= config.target === 'aws' ? awsSink() : localSink();
  return sink;
}

/**
 * A visitor's request to a deployed site, for the analytics of its organization and project
 * (`edgeRequests`): emitted by the local edge and the router on AWS, off the request's path.
 */
export function recordEdgeRequest(d: { orgId: string; projectId: string }, status: number, startedAt: number): void {
  analytics().emit({
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
