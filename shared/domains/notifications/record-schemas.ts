import * as z from 'zod/mini';
import { EVENT_KINDS, RESOURCE_TYPES } from './kinds';
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

/**
 * A notice as stored (./notices.ts): the answer's fields always written (its event one of the
 * kinds), with its person, its event's id, and its escalation: the steps, the last one sent
 * (`escalationStep`, -1: none yet), when they count from (the event, or with `beforeEvent` the time it
 * is about), the protocol they came from, and what each step sent (`{ step, channels, at }`).
 */
export const NoticeRecord = z.extend(
  z.required(Notice, { orgId: true, read: true, requireAck: true, createdAt: true }),
  {
    pk: z.string(),
    sk: z.string(),
    userId: z.string(),
    eventId: z.string(),
    event: z.enum(EVENT_KINDS),
    steps: RuleSchema.shape.steps,
    escalationStep: z.number(),
    stepsFrom: z.number(),
    beforeEvent: z.boolean(),
    overrideQuietHours: z.boolean(),
    protocolId: z.optional(z.string()),
    sent: z.array(z.object({ step: z.number(), channels: z.array(z.string()), at: z.number() })),
  },
);
export type NoticeRecord = z.output<typeof NoticeRecord>;

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

/** A protocol as stored (./protocols.ts): the answer, its dates and version always written. */
export const ProtocolRecord = z.required(NotificationProtocol, { createdAt: true, updatedAt: true, version: true });
export type ProtocolRecord = z.output<typeof ProtocolRecord>;

export const NotificationSettings = z
  .object({
    phone: z.nullable(z.string()),
    quietHours: z.nullable(z.object({ start: z.string(), end: z.string(), timeZone: z.string() })),
  })
  .register(z.globalRegistry, { id: 'NotificationSettings' });
export type NotificationSettings = z.output<typeof NotificationSettings>;
