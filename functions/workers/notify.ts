import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { handleNotifyMessage } from '../../shared/domains/notifications/deliver';
import type { NotifyMessage } from '../../shared/domains/notifications/raise';
import { eachMessage } from '../../shared/ports/queue/batch';

const isMessage = (m: unknown): m is NotifyMessage => {
  const x = m as Partial<NotifyMessage> | undefined;
  if (x?.type === 'event') return typeof (x as { event?: { eventId?: unknown } }).event?.eventId === 'string';
  if (x?.type === 'step') {
    const s = x as { userId?: unknown; noticeId?: unknown; step?: unknown };
    return typeof s.userId === 'string' && typeof s.noticeId === 'string' && Number.isInteger(s.step);
  }
  return false;
};

/**
 * The notify worker: events raised by routes and workers (shared/domains/notifications/raise.ts) and the timers
 * of later escalation steps (shared/ports/scheduler), one queue. Each message is delivered at least
 * once; shared/domains/notifications/deliver.ts writes conditionally, so a repeat sends nothing twice. A message
 * of no known shape is dropped with a log line; a failure of the platform's own is retried by SQS.
 */
export const handler = (event: SQSEvent): Promise<SQSBatchResponse> =>
  eachMessage(event, {
    what: 'a notify message',
    is: isMessage,
    handle: (message) => handleNotifyMessage(message),
    describe: (m) => ({ type: m.type }),
  });
