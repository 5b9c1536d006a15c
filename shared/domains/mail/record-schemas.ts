import * as z from 'zod/mini';

/**
 * The records the mail routes answer, each declared once and registered by its id: lib/openapi.ts names them
 * in `components.schemas`, the typed client declares a type of each. Only documentation
 * (functions/<group>/responses.ts) imports these values, so they stay out of the Lambda bundles; code
 * imports their types.
 */

export const MailPublishRecord = z
  .object({
    purpose: z.enum(['verification', 'dkim', 'spf', 'dmarc', 'mx']),
    type: z.enum(['TXT', 'CNAME', 'MX']),
    name: z.string(),
    value: z.string(),
    found: z.nullable(z.boolean()),
  })
  .register(z.globalRegistry, { id: 'MailPublishRecord' });
export type MailPublishRecord = z.output<typeof MailPublishRecord>;

export const MailDomain = z
  .object({
    domain: z.string(),
    status: z.enum(['pending', 'verified', 'failed']),
    receiving: z.boolean(),
    catchAll: z.nullable(z.string()),
    createdAt: z.number(),
    checkedAt: z.nullable(z.number()),
    verifiedAt: z.nullable(z.number()),
    version: z.number(),
    records: z.array(MailPublishRecord),
    /** Why a claim failed: another organization verified the domain first. */
    message: z.optional(z.string()),
  })
  .register(z.globalRegistry, { id: 'MailDomain' });
export type MailDomain = z.output<typeof MailDomain>;

export const Mailbox = z
  .object({
    mailboxId: z.string(),
    address: z.string(),
    name: z.string(),
    kind: z.enum(['personal', 'shared']),
    members: z.array(z.string()),
    aliases: z.array(z.string()),
    createdAt: z.number(),
    updatedAt: z.number(),
    version: z.number(),
  })
  .register(z.globalRegistry, { id: 'Mailbox' });
export type Mailbox = z.output<typeof Mailbox>;

export const MailSettings = z
  .object({
    displayName: z.nullable(z.string()),
    signature: z.nullable(z.string()),
    vacation: z.nullable(
      z.object({
        enabled: z.boolean(),
        subject: z.string(),
        text: z.string(),
        /** UTC ms; null: no bound. */
        startsAt: z.nullable(z.number()),
        endsAt: z.nullable(z.number()),
      }),
    ),
    vipSenders: z.array(z.string()),
  })
  .register(z.globalRegistry, { id: 'MailSettings' });
export type MailSettings = z.output<typeof MailSettings>;

/** One address as a message names it. */
export const Party = z.object({ name: z.string(), address: z.string() }).register(z.globalRegistry, { id: 'Party' });
export type Party = z.output<typeof Party>;

export const MailLabel = z
  .object({
    labelId: z.string(),
    name: z.string(),
    type: z.enum(['system', 'user']),
    /** The parent's name for a nested label (`Work/Clients` → `Work`). */
    parent: z.nullable(z.string()),
    total: z.number(),
    unread: z.number(),
  })
  .register(z.globalRegistry, { id: 'MailLabel' });
export type MailLabel = z.output<typeof MailLabel>;

/**
 * A label's item (`MBX#<mailboxId>` / `LBL#<labelId>`): a user label's is written whole when it is
 * made (its type and parent come from its id and name); a system label's is made by the first move
 * of its counters, so it may hold nothing else (its id is its sort key's). `deleting` while a user
 * label is being removed.
 */
export const MailLabelRecord = z.extend(
  z.partial(z.pick(MailLabel, { labelId: true, name: true, total: true, unread: true })),
  {
    createdAt: z.optional(z.number()),
    deleting: z.optional(z.boolean()),
  },
);
export type MailLabelRecord = z.output<typeof MailLabelRecord>;

export const MailThreadSummary = z
  .object({
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
  })
  .register(z.globalRegistry, { id: 'MailThreadSummary' });
export type MailThreadSummary = z.output<typeof MailThreadSummary>;

export const Message = z
  .object({
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
  })
  .register(z.globalRegistry, { id: 'Message' });
export type Message = z.output<typeof Message>;

export const Draft = z
  .object({
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
  })
  .register(z.globalRegistry, { id: 'Draft' });
export type Draft = z.output<typeof Draft>;
