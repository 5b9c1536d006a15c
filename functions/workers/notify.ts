import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { handleNotifyMessage } from '../../shared/domains/notifications/deliver';
import { NotifyMessage } from '../../shared/domains/notifications/queue-messages';
import { fanOut } from '../../shared/domains/webhooks/deliveries';
import { eachMessage } from '../../shared/ports/queue/batch';

/** The schema its row names (lib/workers.ts); the local runner holds the two the same. */
export const message = NotifyMessage;

/**
 * The notify worker: events raised by routes and workers (shared/domains/notifications/raise.ts) and the timers
 * of later escalation steps (shared/ports/scheduler), one queue. Each message is delivered at least
 * once; shared/domains/notifications/deliver.ts writes conditionally, so a repeat sends nothing twice. A malformed
 * message is logged and left to the dead-letter queue; a failure of the platform's own is retried by SQS.
 */
export const handler = (event: SQSEvent): Promise<SQSBatchResponse> =>
  eachMessage(event, {
    what: 'a notify message',
    message,
    handle: (m) => handleNotifyMessage(m, fanOut),
    describe: (m) => ({ type: m.type }),
  });
