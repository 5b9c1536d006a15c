import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { describeError, log } from '../../shared/ground/log';
import { handleNotifyMessage } from '../../shared/notify/deliver';
import type { NotifyMessage } from '../../shared/notify/raise';

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
 * The notify worker: events raised by routes and workers (shared/notify/raise.ts) and the timers
 * of later escalation steps (shared/scheduler), one queue. Each message is delivered at least
 * once; shared/notify/deliver.ts writes conditionally, so a repeat sends nothing twice. A message
 * of no known shape is dropped with a log line; a failure of the platform's own is retried by SQS.
 */
export async function handler(event: SQSEvent): Promise<SQSBatchResponse> {
  const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
  await Promise.all(
    event.Records.map(async (record) => {
      let message: unknown;
      try {
        message = JSON.parse(record.body);
      } catch {
        message = undefined;
      }
      if (!isMessage(message)) {
        log.error('a notify message of no known shape was dropped', { messageId: record.messageId });
        return;
      }
      try {
        await handleNotifyMessage(message);
      } catch (err) {
        log.warn('a notify message failed', { type: message.type, error: describeError(err) });
        batchItemFailures.push({ itemIdentifier: record.messageId });
      }
    }),
  );
  return { batchItemFailures };
}
