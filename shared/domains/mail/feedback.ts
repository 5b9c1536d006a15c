import MailComposer from 'nodemailer/lib/mail-composer';
import { log } from '../../kernel/ground/log';
import { PREFIXES } from '../../kernel/store/keys';
import { transact } from '../../kernel/store/ops';
import { putNew, TABLE } from '../../kernel/store/table';
import { deliverTo, mailboxFor } from './deliver';
import type { MailFeedback } from './queue-messages';
import { domainOf } from './records';
import { mailPk } from './threads';
import { usageKeys } from './usage';

export { isFeedback, type MailFeedback } from './queue-messages';

const kindOf = (f: MailFeedback) => f.eventType ?? f.notificationType;

/** The envelope sender, bare (`Name <a@b>` → `a@b`), lower-cased. */
const bare = (source: string) => (source.match(/<([^<>]+)>/)?.[1] ?? source).trim().toLowerCase();

/**
 * Takes one bounce or complaint of a mailbox's send: counted in the mailbox's month (`bounces`,
 * `complaints`: `GET /mail/usage`, the platform's mail usage) once however often it comes (a marker
 * in the same transaction), and a permanent bounce files a delivery failure notice in the sender's
 * INBOX, in the thread of the message that bounced, as Gmail's "Address not found" does. SES keeps
 * the addresses on its suppression list itself (the configuration set).
 */
export async function recordFeedback(
  feedback: MailFeedback,
  now = Date.now(),
): Promise<'recorded' | 'repeat' | 'unknown'> {
  const mailbox = await mailboxFor(bare(feedback.mail.source));
  if (!mailbox) {
    log.warn('mail_feedback_unknown_sender', { kind: kindOf(feedback) });
    return 'unknown';
  }
  const kind = kindOf(feedback) as 'Bounce' | 'Complaint';
  const recipients =
    kind === 'Bounce'
      ? (feedback.bounce?.bouncedRecipients ?? []).map((r) => r.emailAddress)
      : (feedback.complaint?.complainedRecipients ?? []).map((r) => r.emailAddress);
  const counter = kind === 'Bounce' ? 'bounces' : 'complaints';
  try {
    await transact(
      [
        putNew({
          pk: mailPk(mailbox.mailboxId),
          sk: `${PREFIXES.mail.feedback}${kind}#${feedback.mail.messageId}`,
          at: now,
        }),
        {
          Update: {
            TableName: TABLE(),
            Key: usageKeys.month(mailbox.mailboxId, now),
            UpdateExpression: 'ADD #k :n',
            ExpressionAttributeNames: { '#k': counter },
            ExpressionAttributeValues: { ':n': Math.max(1, recipients.length) },
          },
        },
      ],
      [() => new RepeatedFeedback()],
    );
  } catch (err) {
    if (!(err instanceof RepeatedFeedback)) throw err;
    // Counted before; the notice (its own marker) may still be missing after a failure: go on.
  }
  if (kind === 'Bounce' && feedback.bounce?.bounceType === 'Permanent') {
    const notice = await failureNotice(mailbox.address, feedback);
    await deliverTo(mailbox, notice, `feedback/${feedback.mail.messageId}`);
  }
  return 'recorded';
}

class RepeatedFeedback extends Error {}

/** A delivery status notification (RFC 3464's human part), answering the message that bounced. */
async function failureNotice(address: string, feedback: MailFeedback): Promise<Buffer> {
  const original = feedback.mail.commonHeaders?.messageId;
  const subject = feedback.mail.commonHeaders?.subject ?? '';
  const lines = (feedback.bounce?.bouncedRecipients ?? []).map(
    (r) => `  ${r.emailAddress}${r.diagnosticCode ? `\n    ${r.diagnosticCode}` : ''}`,
  );
  return new MailComposer({
    from: `Mail Delivery Subsystem <mailer-daemon@${domainOf(address)}>`,
    to: address,
    subject: `Delivery Status Notification (Failure)${subject ? `: ${subject}` : ''}`,
    text: [
      "Your message wasn't delivered to these addresses: they don't exist or refuse mail.",
      '',
      ...lines,
      '',
      'The platform will not send to them again from this account until they are removed from the suppression list.',
    ].join('\n'),
    headers: { 'Auto-Submitted': 'auto-replied' },
    ...(original ? { inReplyTo: original, references: [original] } : {}),
    messageId: `<feedback-${feedback.mail.messageId}@${domainOf(address)}>`,
  })
    .compile()
    .build();
}
