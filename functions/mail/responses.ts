import * as z from 'zod/mini';
import {
  Draft,
  Mailbox,
  MailDomain,
  MailLabel,
  MailSettings,
  MailThreadSummary,
  Message,
} from '../../shared/domains/mail/record-schemas';
import type { ResponseDocs } from '../../shared/kernel/http/responses';

/** Success responses of the mail routes (see shared/kernel/http/responses.ts): documentation only. */

export const responses: ResponseDocs = {
  'GET /v1/orgs/:orgId/mail/domains': { 200: z.object({ domains: z.array(MailDomain) }) },
  'POST /v1/orgs/:orgId/mail/domains': { 201: z.object({ domain: MailDomain }) },
  'POST /v1/orgs/:orgId/mail/domains/:domain/verify': { 200: z.object({ domain: MailDomain }) },
  'PATCH /v1/orgs/:orgId/mail/domains/:domain': { 200: z.object({ domain: MailDomain }) },
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
    200: z.object({ mailboxes: z.array(z.extend(Mailbox, { settings: MailSettings, unread: z.number() })) }),
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

  'GET /v1/orgs/:orgId/mail/mailboxes/:mailboxId/labels': { 200: z.object({ labels: z.array(MailLabel) }) },
  'POST /v1/orgs/:orgId/mail/mailboxes/:mailboxId/labels': { 201: z.object({ label: MailLabel }) },
  'DELETE /v1/orgs/:orgId/mail/mailboxes/:mailboxId/labels/:labelId': { 204: null },
  'GET /v1/orgs/:orgId/mail/mailboxes/:mailboxId/threads': {
    200: z.object({ threads: z.array(MailThreadSummary), cursor: z.nullable(z.string()) }),
  },
  'POST /v1/orgs/:orgId/mail/mailboxes/:mailboxId/threads/actions': {
    200: z.object({
      results: z.array(z.object({ threadId: z.string(), ok: z.boolean(), error: z.optional(z.string()) })),
    }),
  },
  'GET /v1/orgs/:orgId/mail/mailboxes/:mailboxId/threads/:threadId': {
    200: z.object({ thread: MailThreadSummary, messages: z.array(Message) }),
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
    200: z.object({ message: Message, thread: MailThreadSummary, rejected: z.array(z.string()) }),
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
  'GET /v1/orgs/:orgId/mail/mailboxes/:mailboxId/drafts': {
    200: z.object({ drafts: z.array(Draft), cursor: z.nullable(z.string()) }),
  },
  'POST /v1/orgs/:orgId/mail/mailboxes/:mailboxId/drafts': { 201: z.object({ draft: Draft }) },
  'GET /v1/orgs/:orgId/mail/mailboxes/:mailboxId/drafts/:draftId': { 200: z.object({ draft: Draft }) },
  'PUT /v1/orgs/:orgId/mail/mailboxes/:mailboxId/drafts/:draftId': { 200: z.object({ draft: Draft }) },
  'DELETE /v1/orgs/:orgId/mail/mailboxes/:mailboxId/drafts/:draftId': { 204: null },
  'PATCH /v1/orgs/:orgId/mail/mailboxes/:mailboxId/settings': {
    200: z.object({ settings: MailSettings, version: z.number() }),
  },
};
