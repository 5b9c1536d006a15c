import type { Email } from 'postal-mime';
import { describeError, log } from '../../kernel/ground/log';
import { PREFIXES } from '../../kernel/store/keys';
import { putOnce } from '../../kernel/store/ops';
import { mail } from '../../ports/mail-transport';
import { domainOf, getDomain, type MailboxRecord } from './records';
import { mailPk } from './threads';

/** Automatic or list mail, which a vacation reply never answers (RFC 3834). */
const automatic = (email: Email) =>
  email.headers.some(
    (h) =>
      (h.key === 'auto-submitted' && h.value.toLowerCase() !== 'no') ||
      (h.key === 'precedence' && /bulk|list|junk/i.test(h.value)) ||
      h.key === 'list-id' ||
      h.key === 'list-unsubscribe',
  );

/**
 * The mailbox's vacation reply to a received message: while it is on (and within its dates),
 * once per sender per vacation (a conditional put of `VAC#<vacation>#<sender>`), never to
 * automatic or list mail nor to the mailbox itself, from a verified domain only; marked
 * `Auto-Submitted: auto-replied`. A failure is logged, never the delivery's.
 */
export async function vacationReply(
  mailbox: MailboxRecord,
  email: Email,
  sender: string,
  headerId: string,
): Promise<boolean> {
  const v = mailbox.settings.vacation;
  const now = Date.now();
  if (!v?.enabled || (v.startsAt !== null && now < v.startsAt) || (v.endsAt !== null && now > v.endsAt)) return false;
  if (automatic(email) || sender === mailbox.address || mailbox.aliases.includes(sender)) return false;
  if (/^(mailer-daemon|postmaster|no-?reply)@/i.test(sender)) return false;
  try {
    const domain = await getDomain(mailbox.orgId, domainOf(mailbox.address));
    if (domain?.status !== 'verified') return false;
    const marker = {
      pk: mailPk(mailbox.mailboxId),
      sk: `${PREFIXES.mail.vacation}${v.startsAt ?? 0}#${mailbox.version}#${sender}`,
    };
    try {
      await putOnce({ Item: { ...marker, at: now }, ConditionExpression: 'attribute_not_exists(pk)' });
    } catch (err) {
      if ((err as Error).name === 'ConditionalCheckFailedException') return false;
      throw err;
    }
    const { default: MailComposer } = await import('nodemailer/lib/mail-composer');
    const raw = await new MailComposer({
      from: { name: mailbox.settings.displayName ?? mailbox.name, address: mailbox.address },
      to: sender,
      subject: v.subject || `Re: ${email.subject ?? ''}`,
      text: v.text,
      inReplyTo: `<${headerId}>`,
      references: [`<${headerId}>`],
      headers: { 'Auto-Submitted': 'auto-replied' },
    })
      .compile()
      .build();
    await mail().sendRaw({ from: mailbox.address, to: [sender], raw });
    return true;
  } catch (err) {
    log.warn('mail_vacation_unsent', { mailboxId: mailbox.mailboxId, error: describeError(err) });
    return false;
  }
}
