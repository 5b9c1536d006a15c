import type { AnalyticsEvent, AnalyticsSink } from './port';

/**
 * One machine: events wait in memory until the local worker runner takes them (every second) for
 * the analytics worker. Without a runner (a test without one) they are dropped, and the buffer
 * never holds more than `MAX` (the oldest go first).
 */
const MAX = 50_000;
let buffer: AnalyticsEvent[] = [];
let draining = false;

export const localAnalytics = (): AnalyticsSink => ({
  emit: async (event: AnalyticsEvent) => {
    if (!draining) return;
    buffer.push(event);
    if (buffer.length > MAX) buffer.splice(0, buffer.length - MAX);
  },
});

/** The runner's side: starts keeping events; returns the stop. */
export function keepAnalytics(): () => void {
  draining = true;
  return () => {
    draining = false;
    buffer = [];
  };
}

/** Everything kept since the last call. */
export function takeAnalytics(): AnalyticsEvent[] {
  const taken = buffer;
  buffer = [];
  return taken;
}
