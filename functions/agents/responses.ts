import * as z from 'zod/mini';
import type { ResponseDocs } from '../../shared/http/responses';

/** Success responses of the agents routes (see shared/http/responses.ts): documentation only. */
const Device = z.object({
  deviceId: z.string(),
  orgId: z.string(),
  userId: z.string(),
  name: z.string(),
  ownerName: z.nullable(z.string()),
  status: z.optional(z.enum(['active', 'revoked'])),
  version: z.optional(z.string()),
  platform: z.optional(z.string()),
  features: z.optional(z.array(z.string())),
  capabilities: z.array(z.enum(['http', 'browser', 'exec'])),
  networkMode: z.optional(z.enum(['allowlist', 'full'])),
  hosts: z.optional(z.array(z.string())),
  lastSeenAt: z.optional(z.number()),
  createdAt: z.optional(z.number()),
  updatedAt: z.optional(z.number()),
});

const NetworkRequest = z.object({
  orgId: z.string(),
  deviceId: z.string(),
  host: z.string(),
  status: z.optional(z.enum(['pending', 'approved', 'denied'])),
  reason: z.optional(z.string()),
  createdAt: z.optional(z.number()),
  updatedAt: z.optional(z.number()),
});

const Ok = z.object({ ok: z.literal(true) });

export const responses: ResponseDocs = {
  'GET /v1/orgs/:orgId/agents': {
    200: z.object({ devices: z.array(Device), requests: z.array(NetworkRequest), jobs: z.array(z.unknown()) }),
  },
  'POST /v1/orgs/:orgId/agents/login': { 200: Ok },
  'PATCH /v1/orgs/:orgId/agents/devices/:deviceId': { 200: Ok },
  'DELETE /v1/orgs/:orgId/agents/devices/:deviceId': { 204: null },
  'POST /v1/orgs/:orgId/agents/requests/:deviceId/:host/:decision': { 200: Ok },
};
