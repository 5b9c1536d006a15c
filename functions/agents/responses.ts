import * as z from 'zod/mini';
import type { ResponseDocs } from '../../shared/kernel/http/responses';

/** Success responses of the agents routes (see shared/kernel/http/responses.ts): documentation only. */
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

const Job = z.object({
  jobId: z.string(),
  orgId: z.string(),
  type: z.enum(['http.batch', 'exec', 'browser.batch']),
  status: z.string(),
  createdBy: z.string(),
  expiresAt: z.number(),
  label: z.optional(z.string()),
  hosts: z.optional(z.array(z.string())),
  input: z.optional(z.unknown()),
  error: z.optional(z.string()),
  deviceId: z.optional(z.string()),
  cancelRequestedAt: z.optional(z.number()),
  canceledBy: z.optional(z.string()),
  heartbeatAt: z.optional(z.number()),
  queueTtl: z.optional(z.number()),
  callbackUrl: z.optional(z.string()),
  claimedAt: z.optional(z.number()),
  completedAt: z.optional(z.number()),
  updatedAt: z.optional(z.number()),
  createdAt: z.optional(z.number()),
  waiting: z.optional(
    z.nullable(
      z.object({ reason: z.enum(['no_devices', 'offline', 'blocked']), devices: z.optional(z.array(z.unknown())) }),
    ),
  ),
});

export const responses: ResponseDocs = {
  'GET /v1/orgs/:orgId/agents': {
    200: z.object({ devices: z.array(Device), requests: z.array(NetworkRequest), jobs: z.array(Job) }),
  },
  'POST /v1/orgs/:orgId/agents/jobs': { 201: z.object({ jobId: z.string(), expiresAt: z.number() }) },
  'GET /v1/orgs/:orgId/agents/jobs/:jobId': { 200: z.object({ job: Job, resultsUrl: z.nullable(z.string()) }) },
  'POST /v1/orgs/:orgId/agents/jobs/:jobId/request-access': {
    200: z.object({
      requested: z.array(z.string()),
      notified: z.boolean(),
      missing: z.optional(
        z.object({
          capability: z.optional(z.enum(['http', 'browser', 'exec'])),
          hosts: z.optional(z.array(z.string())),
          network: z.optional(z.literal('allowlist')),
        }),
      ),
    }),
  },
  'POST /v1/orgs/:orgId/agents/jobs/:jobId/cancel': { 200: z.object({ status: z.enum(['canceled', 'canceling']) }) },
  'POST /v1/orgs/:orgId/agents/login': { 200: Ok },
  'PATCH /v1/orgs/:orgId/agents/devices/:deviceId': { 200: Ok },
  'DELETE /v1/orgs/:orgId/agents/devices/:deviceId': { 204: null },
  'POST /v1/orgs/:orgId/agents/requests/:deviceId/:host/:decision': { 200: Ok },
};
