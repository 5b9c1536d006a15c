import * as z from 'zod/mini';
import type { ResponseDocs } from '../../shared/http/responses';

/** Success responses of the mail routes (see shared/http/responses.ts): documentation only. */
const PublishRecord = z.object({
  purpose: z.enum(['verification', 'dkim', 'spf', 'dmarc', 'mx']),
  type: z.enum(['TXT', 'CNAME', 'MX']),
  name: z.string(),
  value: z.string(),
  found: z.nullable(z.boolean()),
});
const Domain = z.object({
  domain: z.string(),
  status: z.enum(['pending', 'verified', 'failed']),
  receiving: z.boolean(),
  catchAll: z.nullable(z.string()),
  createdAt: z.number(),
  checkedAt: z.nullable(z.number()),
  verifiedAt: z.nullable(z.number()),
  version: z.number(),
  records: z.array(PublishRecord),
});
const Mailbox = z.object({
  mailboxId: z.string(),
  address: z.string(),
  name: z.string(),
  kind: z.enum(['personal', 'shared']),
  members: z.array(z.string()),
  aliases: z.array(z.string()),
  createdAt: z.number(),
  updatedAt: z.number(),
  version: z.number(),
});
export const Settings = z.object({
  displayName: z.nullable(z.string()),
  signature: z.nullable(z.string()),
  vacation: z.nullable(
    z.object({
      enabled: z.boolean(),
      subject: z.string(),
      text: z.string(),
      startsAt: z.nullable(z.number()),
      endsAt: z.nullable(z.number()),
    }),
  ),
  vipSenders: z.array(z.string()),
});

export const responses: ResponseDocs = {
  'GET /v1/orgs/:orgId/mail/domains': { 200: z.object({ domains: z.array(Domain) }) },
  'POST /v1/orgs/:orgId/mail/domains': { 201: z.object({ domain: Domain }) },
  'POST /v1/orgs/:orgId/mail/domains/:domain/verify': { 200: z.object({ domain: Domain }) },
  'PATCH /v1/orgs/:orgId/mail/domains/:domain': { 200: z.object({ domain: Domain }) },
  'DELETE /v1/orgs/:orgId/mail/domains/:domain': { 204: null },
  'GET /v1/orgs/:orgId/mail/members': {
    200: z.object({
      members: z.array(
        z.object({
          userId: z.string(),
          email: z.nullable(z.string()),
          name: z.nullable(z.string()),
          role: z.string(),
          mailboxes: z.array(z.object({ mailboxId: z.string(), address: z.string() })),
        }),
      ),
    }),
  },
  'GET /v1/orgs/:orgId/mail/admin/mailboxes': { 200: z.object({ mailboxes: z.array(Mailbox) }) },
  'POST /v1/orgs/:orgId/mail/admin/mailboxes': { 201: z.object({ mailbox: Mailbox }) },
  'PATCH /v1/orgs/:orgId/mail/admin/mailboxes/:mailboxId': { 200: z.object({ mailbox: Mailbox }) },
  'DELETE /v1/orgs/:orgId/mail/admin/mailboxes/:mailboxId': { 204: null },
  'POST /v1/orgs/:orgId/mail/admin/mailboxes/:mailboxId/aliases': { 201: z.object({ mailbox: Mailbox }) },
  'DELETE /v1/orgs/:orgId/mail/admin/aliases/:address': { 204: null },
  'GET /v1/orgs/:orgId/mail/mailboxes': {
    200: z.object({ mailboxes: z.array(z.extend(Mailbox, { settings: Settings, unread: z.number() })) }),
  },

  'GET /v1/orgs/:orgId/mail/mailboxes/:mailboxId/limits': {
    200: z.object({
      limits: z.object({
        maxMessageBytes: z.number(),
        maxRecipients: z.number(),
        dailyQuota: z.number(),
        sentToday: z.number(),
        remainingToday: z.number(),
        resetsAt: z.number(),
      }),
    }),
  },
  'GET /v1/orgs/:orgId/mail/usage': {
    200: z.object({
      mailboxes: z.array(
        z.object({
          mailboxId: z.string(),
          address: z.string(),
          bytes: z.number(),
          messages: z.number(),
          sentThisMonth: z.number(),
          receivedThisMonth: z.number(),
          sentToday: z.number(),
          dailyQuota: z.number(),
        }),
      ),
    }),
  },
};
