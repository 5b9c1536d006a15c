/**
 * One request as analytics counts it: emitted by the middy stack at no cost on the request path,
 * delivered in batches to the analytics worker (functions/workers/analytics.ts).
 */
export interface AnalyticsEvent {
  at: number;
  /** The organization it was made in, or null (a person's own routes, `/health`). */
  orgId: string | null;
  /** The project of the path (`:projectId`), when it names one. */
  projectId?: string;
  /** The route's area: the first segment of its action (`projects`, `mail`, `repos` …). */
  group: string;
  /** `METHOD path` of the route, or `-` when none matched. */
  route: string;
  action: string;
  status: number;
  durationMs: number;
  /** `user`, `api_key`, `agent_key`, `device`, or `anonymous`. */
  caller: string;
}

/**
 * Where events go: on AWS one structured log line, locally an in-process buffer. `emit` does no
 * I/O: once the adapter is loaded the event is written before it answers.
 */
export interface AnalyticsSink {
  emit(event: AnalyticsEvent): Promise<void>;
}

/** What a log line of an event starts with, for the subscription filter and the worker. */
export const ANALYTICS_MESSAGE = 'analytics_event';
