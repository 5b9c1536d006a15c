import * as z from 'zod/mini';
import { RESOURCE_TYPES } from '../../shared/domains/notifications/kinds';
import { RuleSchema } from '../../shared/domains/notifications/schemas';
import type { ResponseDocs } from '../../shared/kernel/http/responses';

/** Success responses of the notifications routes (see shared/kernel/http/responses.ts): documentation only. */
const Notice = z.object({
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
});

const Protocol = z.object({
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
});

const Settings = z.object({
  phone: z.nullable(z.string()),
  quietHours: z.nullable(z.object({ start: z.string(), end: z.string(), timeZone: z.string() })),
});

export const responses: ResponseDocs = {
  'GET /v1/me/notifications': { 200: z.object({ notices: z.array(Notice), cursor: z.nullable(z.string()) }) },
  'POST /v1/me/notifications/read': { 200: z.object({ ok: z.literal(true) }) },
  'POST /v1/me/notifications/:noticeId/ack': { 200: z.object({ acked: z.boolean() }) },
  'GET /v1/me/notifications/settings': { 200: z.object({ settings: Settings }) },
  'PUT /v1/me/notifications/settings': { 200: z.object({ settings: Settings }) },
  'GET /v1/orgs/:orgId/notify/protocols/templates': {
    200: z.object({
      templates: z.array(
        z.object({ id: z.string(), name: z.string(), description: z.string(), rules: z.array(RuleSchema) }),
      ),
    }),
  },
  'GET /v1/orgs/:orgId/notify/protocols': { 200: z.object({ protocols: z.array(Protocol) }) },
  'POST /v1/orgs/:orgId/notify/protocols': { 201: z.object({ protocol: Protocol }) },
  'GET /v1/orgs/:orgId/notify/protocols/:protocolId': { 200: z.object({ protocol: Protocol }) },
  'PUT /v1/orgs/:orgId/notify/protocols/:protocolId': { 200: z.object({ protocol: Protocol }) },
  'DELETE /v1/orgs/:orgId/notify/protocols/:protocolId': { 204: null },
  'POST /v1/orgs/:orgId/notify/protocols/:protocolId/attachments': { 201: z.object({ ok: z.literal(true) }) },
  'DELETE /v1/orgs/:orgId/notify/protocols/:protocolId/attachments/:resourceType/:targetId': { 204: null },
};
