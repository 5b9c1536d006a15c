import * as z from 'zod/mini';

/**
 * The mail workers' queue messages (lib/workers.ts: each queue row names its schema; the worker's
 * batch parses every message with it before its handler runs, and the senders are typed by it).
 */

/**
 * A received message waiting in a bucket, with its envelope recipients (Bcc ones included, which
 * no header names): the local SMTP server sends `{ bucket, key, recipients }`; on AWS SES's receipt
 * rule writes the object and its notification (SNS, delivered raw to the queue) says where and to
 * whom (`receipt.recipients`, `receipt.action`). Other fields of SES's notification are kept.
 * SES's one setup notification (sent when the rule is made) is a known message with nothing to do.
 */
export const InboundMessage = z.union([
  z.looseObject({ notificationType: z.literal('AMAZON_SES_SETUP_NOTIFICATION') }),
  z.object({ bucket: z.string(), key: z.string(), recipients: z.array(z.string()) }),
  z.looseObject({
    notificationType: z.literal('Received'),
    receipt: z.looseObject({
      recipients: z.array(z.string()),
      action: z.looseObject({ type: z.literal('S3'), bucketName: z.string(), objectKey: z.string() }),
    }),
  }),
]);
export type InboundMessage = z.infer<typeof InboundMessage>;

/**
 * What the mail system says after a send: SES's event publishing (`eventType`, through the
 * configuration set's topic) or identity notifications (`notificationType`); locally the SMTP
 * server says the same for SES's simulator addresses. `mail.source` is the envelope sender: the
 * mailbox that sent it.
 */
export interface MailFeedback {
  eventType?: 'Bounce' | 'Complaint';
  notificationType?: 'Bounce' | 'Complaint';
  mail: {
    messageId: string;
    source: string;
    timestamp?: string;
    commonHeaders?: { messageId?: string; subject?: string };
  };
  bounce?: {
    bounceType: 'Permanent' | 'Transient' | 'Undetermined';
    bounceSubType?: string;
    bouncedRecipients: { emailAddress: string; diagnosticCode?: string }[];
  };
  complaint?: { complainedRecipients: { emailAddress: string }[]; complaintFeedbackType?: string };
}

export const isFeedback = (m: unknown): m is MailFeedback => {
  const f = m as MailFeedback | undefined;
  const kind = f && (f.eventType ?? f.notificationType);
  if (typeof f?.mail?.messageId !== 'string' || typeof f.mail.source !== 'string') return false;
  if (kind === 'Bounce') return Array.isArray(f.bounce?.bouncedRecipients);
  if (kind === 'Complaint') return Array.isArray(f.complaint?.complainedRecipients);
  return false;
};

/** What the mail-feedback worker is sent: a bounce or a complaint, as SES words it (kept whole). */
export const FeedbackMessage = z.custom<MailFeedback>(isFeedback);
export type FeedbackMessage = MailFeedback;
