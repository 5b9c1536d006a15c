import * as z from 'zod/mini';
import { Notice, NotificationProtocol, NotificationSettings } from '../../shared/domains/notifications/record-schemas';
import { RuleSchema } from '../../shared/domains/notifications/schemas';
import type { ResponseDocs } from '../../shared/kernel/http/responses';

/** Success responses of the notifications routes (see shared/kernel/http/responses.ts): documentation only. */

export const responses: ResponseDocs = {
  'GET /v1/me/notifications': { 200: z.object({ notices: z.array(Notice), cursor: z.nullable(z.string()) }) },
  'POST /v1/me/notifications/read': { 200: z.object({ ok: z.literal(true) }) },
  'POST /v1/me/notifications/:noticeId/ack': { 200: z.object({ acked: z.boolean() }) },
  'GET /v1/me/notifications/settings': { 200: z.object({ settings: NotificationSettings }) },
  'PUT /v1/me/notifications/settings': { 200: z.object({ settings: NotificationSettings }) },
  'GET /v1/orgs/:orgId/notify/protocols/templates': {
    200: z.object({
      templates: z.array(
        z.object({ id: z.string(), name: z.string(), description: z.string(), rules: z.array(RuleSchema) }),
      ),
    }),
  },
  'GET /v1/orgs/:orgId/notify/protocols': { 200: z.object({ protocols: z.array(NotificationProtocol) }) },
  'POST /v1/orgs/:orgId/notify/protocols': { 201: z.object({ protocol: NotificationProtocol }) },
  'GET /v1/orgs/:orgId/notify/protocols/:protocolId': { 200: z.object({ protocol: NotificationProtocol }) },
  'PUT /v1/orgs/:orgId/notify/protocols/:protocolId': { 200: z.object({ protocol: NotificationProtocol }) },
  'DELETE /v1/orgs/:orgId/notify/protocols/:protocolId': { 204: null },
  'POST /v1/orgs/:orgId/notify/protocols/:protocolId/attachments': { 201: z.object({ ok: z.literal(true) }) },
  'DELETE /v1/orgs/:orgId/notify/protocols/:protocolId/attachments/:resourceType/:targetId': { 204: null },
};
