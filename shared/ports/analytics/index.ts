import { config } from '../../kernel/config';
import { awsSink } from './aws';
import type { AnalyticsEvent, AnalyticsSink } from './port';

export type { AnalyticsEvent, AnalyticsSink } from './port';

let sink: AnalyticsSink | undefined;

// As in shared/ports/builds: the local adapter stays out of the Lambda bundles (a computed path).
const LOCAL_ADAPTER = './local';
/** Events emitted before the local adapter has loaded (it loads with the first one). */
const PENDING_MAX = 1_000;

function lazyLocalSink(): AnalyticsSink {
  let local: AnalyticsSink | undefined;
  let pending: AnalyticsEvent[] | undefined;
  return {
    emit: (event) => {
      if (local) return local.emit(event);
      if (pending) {
        if (pending.length < PENDING_MAX) pending.push(event);
        return;
      }
      pending = [event];
      (import(LOCAL_ADAPTER) as Promise<{ localSink: () => AnalyticsSink }>).then((m) => {
        local = m.localSink();
        for (const e of pending ?? []) local.emit(e);
        pending = undefined;
      });
    },
  };
}

/** The analytics sink for PLATFORM_TARGET (the AWS one is a log line, with no client). */
export function analytics(): AnalyticsSink {
  sink ??= config.target === 'aws' ? awsSink() : lazyLocalSink();
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
