import * as z from 'zod/mini';
import { EVENT_KINDS } from '../../shared/domains/notifications/kinds';
import type { ResponseDocs } from '../../shared/kernel/http/responses';

/** Success responses of the webhooks routes (see shared/kernel/http/responses.ts): documentation only. */
const Endpoint = z.object({
  endpointId: z.string(),
  orgId: z.string(),
  url: z.string(),
  events: z.array(z.enum(EVENT_KINDS)),
  description: z.optional(z.string()),
  enabled: z.boolean(),
  createdBy: z.string(),
  createdAt: z.number(),
  updatedAt: z.number(),
  version: z.number(),
});
const Delivery = z.object({
  deliveryId: z.string(),
  endpointId: z.string(),
  eventId: z.string(),
  kind: z.string(),
  status: z.enum(['pending', 'succeeded', 'failed']),
  attempts: z.array(
    z.object({ at: z.number(), status: z.optional(z.number()), error: z.optional(z.string()), durationMs: z.number() }),
  ),
  createdAt: z.number(),
  nextAttemptAt: z.optional(z.number()),
  payload: z.optional(z.unknown()),
});
const BASE = '/v1/orgs/:orgId/webhooks';

export const responses: ResponseDocs = {
  [`GET ${BASE}`]: { 200: z.object({ endpoints: z.array(Endpoint) }) },
  [`POST ${BASE}`]: { 201: z.object({ endpoint: Endpoint, secret: z.string() }) },
  [`GET ${BASE}/:endpointId`]: { 200: z.object({ endpoint: Endpoint }) },
  [`PATCH ${BASE}/:endpointId`]: { 200: z.object({ endpoint: Endpoint }) },
  [`DELETE ${BASE}/:endpointId`]: { 204: null },
  [`POST ${BASE}/:endpointId/secret`]: { 200: z.object({ endpoint: Endpoint, secret: z.string() }) },
  [`GET ${BASE}/:endpointId/deliveries`]: {
    200: z.object({ deliveries: z.array(Delivery), cursor: z.nullable(z.string()) }),
  },
  [`GET ${BASE}/:endpointId/deliveries/:deliveryId`]: { 200: z.object({ delivery: Delivery }) },
  [`POST ${BASE}/:endpointId/deliveries/:deliveryId/redeliver`]: { 202: z.object({ delivery: Delivery }) },
};
