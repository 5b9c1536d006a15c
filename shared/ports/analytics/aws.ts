import { eventLine } from './logs';
import type { AnalyticsEvent, AnalyticsSink } from './port';

/**
 * AWS: one JSON line on stdout (the function's log group), which a subscription filter delivers
 * to the analytics worker. Written directly: the level of the platform's logger does not hide it.
 */
export const awsAnalytics = (): AnalyticsSink => ({
  emit: async (event: AnalyticsEvent) => {
    process.stdout.write(`${eventLine(event)}\n`);
  },
});
