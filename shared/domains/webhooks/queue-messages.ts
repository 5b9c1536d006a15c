import * as z from 'zod/mini';

/** What the webhooks worker is sent: one try of a delivery (lib/workers.ts). */
export const DeliveryMessage = z.object({
  orgId: z.string(),
  endpointId: z.string(),
  deliveryId: z.string(),
  /** Not before this time (a wait longer than SQS's 15 minutes goes in several hops). */
  notBefore: z.number(),
});
export type DeliveryMessage = z.infer<typeof DeliveryMessage>;
