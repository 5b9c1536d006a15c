import * as z from 'zod/mini';
import { RESOURCE_TYPES } from './kinds';
import { RuleSchema } from './schemas';

/**
 * The records the notifications routes answer, each declared once and registered by its id: lib/openapi.ts names them
 * in `components.schemas`, the typed client declares a type of each. Only documentation
 * (functions/<group>/responses.ts) imports these values, so they stay out of the Lambda bundles; code
 * imports their types.
 */

export const Notice = z
  .object({
    noticeId: z.string(),
    orgId: z.optional(z.string()),
    event: z.string(),
    title: z.string(),
    body: z.optional(z.string()),
    url: z.optional(z.string()),
    read: z.optional(z.boolean()),
    requireAck: z.optional(z.boolean()),
    ackedAt: z.optional(z.number()),
    createdAt: z.optional(z.number()),
  })
  .register(z.globalRegistry, { id: 'Notice' });
export type Notice = z.output<typeof Notice>;

export const NotificationProtocol = z
  .object({
    protocolId: z.string(),
    orgId: z.string(),
    name: z.string(),
    description: z.optional(z.string()),
    enabled: z.boolean(),
    createdBy: z.string(),
    createdAt: z.optional(z.number()),
    updatedAt: z.optional(z.number()),
    version: z.optional(z.number()),
    rules: z.array(RuleSchema),
    attachments: z.array(
      z.object({ resourceType: z.enum(RESOURCE_TYPES), resourceId: z.string(), resourceLabel: z.optional(z.string()) }),
    ),
  })
  .register(z.globalRegistry, { id: 'NotificationProtocol' });
export type NotificationProtocol = z.output<typeof NotificationProtocol>;

export const NotificationSettings = z
  .object({
    phone: z.nullable(z.string()),
    quietHours: z.nullable(z.object({ start: z.string(), end: z.string(), timeZone: z.string() })),
  })
  .register(z.globalRegistry, { id: 'NotificationSettings' });
export type NotificationSettings = z.output<typeof NotificationSettings>;
