import * as z from 'zod/mini';

/**
 * The records the agents routes answer, each declared once and registered by its id: lib/openapi.ts names them
 * in `components.schemas`, the typed client declares a type of each. Only documentation
 * (functions/<group>/responses.ts) imports these values, so they stay out of the Lambda bundles; code
 * imports their types.
 */

export const AgentDevice = z
  .object({
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
  })
  .register(z.globalRegistry, { id: 'AgentDevice' });
export type AgentDevice = z.output<typeof AgentDevice>;

/**
 * A device as stored: the fields the answer leaves optional (the spec's) are always written, and it
 * keeps its token's key id and its write counter (`rev`: its writes are conditional on it).
 */
export const DeviceRecord = z.extend(
  z.required(AgentDevice, { status: true, networkMode: true, hosts: true, createdAt: true, updatedAt: true }),
  { keyId: z.string(), rev: z.number() },
);
export type DeviceRecord = z.output<typeof DeviceRecord>;

export const NetworkRequest = z
  .object({
    orgId: z.string(),
    deviceId: z.string(),
    host: z.string(),
    status: z.optional(z.enum(['pending', 'approved', 'denied'])),
    reason: z.optional(z.string()),
    createdAt: z.optional(z.number()),
    updatedAt: z.optional(z.number()),
  })
  .register(z.globalRegistry, { id: 'NetworkRequest' });
export type NetworkRequest = z.output<typeof NetworkRequest>;

export const AgentOk = z.object({ ok: z.literal(true) }).register(z.globalRegistry, { id: 'AgentOk' });
export type AgentOk = z.output<typeof AgentOk>;

export const AgentJob = z
  .object({
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
  })
  .register(z.globalRegistry, { id: 'AgentJob' });
export type AgentJob = z.output<typeof AgentJob>;
