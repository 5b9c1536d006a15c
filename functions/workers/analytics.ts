import { addBatch } from '../../shared/domains/insights/counters';
import { log } from '../../shared/kernel/ground/log';
import { type LogsEvent, readLogsEvent } from '../../shared/ports/analytics/logs';

/**
 * Adds the API's analytics events to the hourly counters (its row in lib/workers.ts): on AWS the
 * route groups' log lines delivered by a subscription filter, locally the in-process buffer handed
 * over every second in the same shape. A batch delivered again counts nothing twice (a marker per
 * batch, in the counters' transaction); a failure throws, so the delivery is tried again.
 */
export async function handler(event: LogsEvent): Promise<{ events: number; counted: number }> {
  const { batchId, events } = readLogsEvent(event);
  if (events.length === 0) return { events: 0, counted: 0 };
  const counted = await addBatch(batchId, events);
  if (counted === 0) log.info('analytics batch counted before', { batchId, events: events.length });
  return { events: events.length, counted };
}
