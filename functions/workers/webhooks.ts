import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { attemptDelivery } from '../../shared/domains/webhooks/deliveries';
import { DeliveryMessage } from '../../shared/domains/webhooks/queue-messages';
import { eachMessage } from '../../shared/ports/queue/batch';

/** The schema its row names (lib/workers.ts); the local runner holds the two the same. */
export const message = DeliveryMessage;

/**
 * The webhooks worker: one try of each delivery (shared/domains/webhooks/deliveries.ts; the next try is a
 * new message with its wait, so a slow or failing receiver never holds a batch).
 */
export const handler = (event: SQSEvent): Promise<SQSBatchResponse> =>
  eachMessage(event, {
    what: 'a webhook delivery',
    message,
    handle: (m) => attemptDelivery(m),
    describe: (m) => ({ deliveryId: m.deliveryId }),
  });
