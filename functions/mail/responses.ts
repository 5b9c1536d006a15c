import * as z from 'zod/mini';
import type { ResponseDocs } from '../../shared/kernel/http/responses';

/** Success responses of the mail routes (see shared/kernel/http/responses.ts): documentation only. */
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
  /** Why a claim failed: another organization verified the domain first. */
  message: z.optional(z.string()),
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

const Party = z.object({ name: z.string(), address: z.string() });
const Label = z.object({
  labelId: z.string(),
  name: z.string(),
  type: z.enum(['system', 'user']),
  parent: z.nullable(z.string()),
  total: z.number(),
  unread: z.number(),
});
const ThreadSummary = z.object({
  threadId: z.string(),
  subject: z.string(),
  snippet: z.string(),
  from: z.array(Party),
  to: z.array(Party),
  labels: z.array(z.string()),
  unread: z.boolean(),
  lastAt: z.number(),
  hasAttachment: z.boolean(),
  messageCount: z.number(),
});
const Message = z.object({
  messageId: z.string(),
  threadId: z.string(),
  direction: z.enum(['in', 'out']),
  from: z.nullable(Party),
  to: z.array(Party),
  cc: z.array(Party),
  bcc: z.array(Party),
  replyTo: z.array(Party),
  subject: z.string(),
  date: z.number(),
  headerId: z.string(),
  inReplyTo: z.nullable(z.string()),
  references: z.array(z.string()),
  snippet: z.string(),
  size: z.number(),
  attachments: z.array(
    z.object({
      index: z.number(),
      filename: z.string(),
      contentType: z.string(),
      size: z.number(),
      contentId: z.nullable(z.string()),
      inline: z.boolean(),
    }),
  ),
});

const Draft = z.object({
  draftId: z.string(),
  to: z.array(z.string()),
  cc: z.array(z.string()),
  bcc: z.array(z.string()),
  subject: z.string(),
  text: z.string(),
  html: z.nullable(z.string()),
  attachments: z.array(
    z.union([z.object({ uploadId: z.string() }), z.object({ messageId: z.string(), index: z.number() })]),
  ),
  inReplyTo: z.nullable(z.string()),
  createdAt: z.number(),
  updatedAt: z.number(),
  version: z.number(),
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
          bouncesThisMonth: z.number(),
          complaintsThisMonth: z.number(),
          sentToday: z.number(),
          dailyQuota: z.number(),
        }),
      ),
    }),
  },

  'GET /v1/orgs/:orgId/mail/mailboxes/:mailboxId/labels': { 200: z.object({ labels: z.array(Label) }) },
  'POST /v1/orgs/:orgId/mail/mailboxes/:mailboxId/labels': { 201: z.object({ label: Label }) },
  'DELETE /v1/orgs/:orgId/mail/mailboxes/:mailboxId/labels/:labelId': { 204: null },
  'GET /v1/orgs/:orgId/mail/mailboxes/:mailboxId/threads': {
    200: z.object({ threads: z.array(ThreadSummary), cursor: z.nullable(z.string()) }),
  },
  'POST /v1/orgs/:orgId/mail/mailboxes/:mailboxId/threads/actions': {
    200: z.object({
      results: z.array(z.object({ threadId: z.string(), ok: z.boolean(), error: z.optional(z.string()) })),
    }),
  },
  'GET /v1/orgs/:orgId/mail/mailboxes/:mailboxId/threads/:threadId': {
    200: z.object({ thread: ThreadSummary, messages: z.array(Message) }),
  },
  'GET /v1/orgs/:orgId/mail/mailboxes/:mailboxId/threads/:threadId/messages/:messageId/body': {
    200: z.object({
      text: z.string(),
      html: z.nullable(z.string()),
      remoteImagesBlocked: z.number(),
      truncated: z.boolean(),
    }),
  },
  'GET /v1/orgs/:orgId/mail/mailboxes/:mailboxId/messages/:messageId/attachments/:index': {
    200: z.object({
      url: z.string(),
      filename: z.string(),
      contentType: z.string(),
      size: z.number(),
      expiresAt: z.number(),
    }),
  },
  'GET /v1/orgs/:orgId/mail/mailboxes/:mailboxId/messages/:messageId/raw': {
    200: z.object({ url: z.string(), size: z.number(), expiresAt: z.number() }),
  },
  'POST /v1/orgs/:orgId/mail/mailboxes/:mailboxId/send': {
    200: z.object({ message: Message, thread: ThreadSummary, rejected: z.array(z.string()) }),
  },

  'POST /v1/orgs/:orgId/mail/mailboxes/:mailboxId/uploads': {
    201: z.object({
      upload: z.object({
        uploadId: z.string(),
        filename: z.string(),
        contentType: z.string(),
        size: z.number(),
        url: z.string(),
        method: z.literal('PUT'),
        headers: z.record(z.string(), z.string()),
        expiresAt: z.number(),
      }),
    }),
  },

  'POST /v1/orgs/:orgId/mail/mailboxes/:mailboxId/recipients/check': {
    200: z.object({
      recipients: z.array(
        z.object({
          address: z.string(),
          valid: z.boolean(),
          internal: z.boolean(),
          contact: z.boolean(),
          suppressed: z.boolean(),
        }),
      ),
    }),
  },
  'POST /v1/orgs/:orgId/mail/mailboxes/:mailboxId/drafts': { 201: z.object({ draft: Draft }) },
  'GET /v1/orgs/:orgId/mail/mailboxes/:mailboxId/drafts/:draftId': { 200: z.object({ draft: Draft }) },
  'PUT /v1/orgs/:orgId/mail/mailboxes/:mailboxId/drafts/:draftId': { 200: z.object({ draft: Draft }) },
  'DELETE /v1/orgs/:orgId/mail/mailboxes/:mailboxId/drafts/:draftId': { 204: null },
  'PATCH /v1/orgs/:orgId/mail/mailboxes/:mailboxId/settings': {
    200: z.object({ settings: Settings, version: z.number() }),
  },
};
