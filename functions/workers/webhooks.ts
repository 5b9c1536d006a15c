import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { attemptDelivery, type DeliveryMessage } from '../../shared/domains/webhooks/deliveries';
import { eachMessage } from '../../shared/ports/queue/batch';

const isDelivery = (x: unknown): x is DeliveryMessage => {
  const m = x as Partial<DeliveryMessage> | null;
  return (
    typeof m?.orgId === 'string' &&
    typeof m.endpointId === 'string' &&
    typeof m.deliveryId === 'string' &&
    typeof m.notBefore === 'number'
  );
};

/**
 * The webhooks worker: one try of each delivery (shared/domains/webhooks/deliveries.ts; the next try is a
 * new message with its wait, so a slow or failing receiver never holds a batch).
 */
export const handler = (event: SQSEvent): Promise<SQSBatchResponse> =>
  eachMessage(event, {
    what: 'a webhook delivery',
    is: isDelivery,
    handle: (m) => attemptDelivery(m),
    describe: (m) => ({ deliveryId: m.deliveryId }),
  });
