import { describeError, log } from '../../kernel/ground/log';
import { mail } from '../../ports/mail-transport';
import { requireSendingDomain } from '../mail/domains';
import { domainOf, type MailboxRecord } from '../mail/records';
import { type IcsPart, type Method, toIcs } from './ics-out';
import type { CalendarNotified } from './record-schemas';
import type { CalEvent } from './records';
import { localOf } from './time';

/**
 * Invitations by mail (iMIP, RFC 6047): a message whose calendar part is
 * `text/calendar; method=REQUEST|REPLY|CANCEL` (the same METHOD inside), built by nodemailer's
 * MailComposer and sent from the mailbox through the mail port. `notified` tells the caller who
 * was mailed; a send that fails after the event was saved is told there, not thrown.
 */
export type Notified = CalendarNotified;

/** The mailbox may send (its domain is there and verified): a 409 before anything is written. */
export const checkSending = (mailbox: MailboxRecord) => requireSendingDomain(mailbox.orgId, domainOf(mailbox.address));

const VERB: Record<Method, string> = {
  PUBLISH: '',
  REQUEST: 'Invitation',
  CANCEL: 'Cancelled',
  REPLY: '',
};

function whenText(e: CalEvent, recurrenceId?: number) {
  const ex = recurrenceId === undefined ? undefined : e.exceptions.find((x) => x.recurrenceId === recurrenceId);
  const local = ex?.startLocal ?? (recurrenceId !== undefined ? localOf(recurrenceId, e.timeZone) : e.startLocal);
  return `${local.replace('T', ' ').replace(/:00$/, '')}${e.allDay ? '' : ` (${e.timeZone})`}`;
}

export async function sendItip(
  mailbox: MailboxRecord,
  method: 'REQUEST' | 'CANCEL' | 'REPLY',
  part: IcsPart,
  to: string[],
  reply?: { status: string; comment?: string },
): Promise<Notified> {
  const recipients = [...new Set(to.map((t) => t.toLowerCase()))].filter(
    (t) => t !== mailbox.address && !mailbox.aliases.includes(t),
  );
  if (recipients.length === 0) return { sent: 0 };
  const e = part.event;
  const ics = toIcs([part], method);
  const who = mailbox.settings.displayName ?? mailbox.name;
  const title = e.summary || '(no title)';
  const subject =
    method === 'REPLY'
      ? `${reply?.status === 'accepted' ? 'Accepted' : reply?.status === 'declined' ? 'Declined' : 'Tentative'}: ${title}`
      : part.recurrenceId === undefined && e.sequence > 0 && method === 'REQUEST'
        ? `Updated invitation: ${title}`
        : `${VERB[method]}: ${title}`;
  const lines =
    method === 'REPLY'
      ? [`${who} <${mailbox.address}> answered ${reply?.status}.`, ...(reply?.comment ? ['', reply.comment] : [])]
      : [
          title,
          `When: ${whenText(e, part.recurrenceId)}`,
          ...(e.location ? [`Where: ${e.location}`] : []),
          ...(e.description ? ['', e.description] : []),
          '',
          method === 'CANCEL' ? 'This event was cancelled.' : `Invited by ${who} <${mailbox.address}>.`,
        ];
  try {
    // Loaded with the first invitation (out of the group's cold start).
    const { default: MailComposer } = await import('nodemailer/lib/mail-composer');
    const raw = await new MailComposer({
      from: { name: who, address: mailbox.address },
      to: recipients,
      subject: subject.replace(/[\r\n]+/g, ' '),
      text: lines.join('\n'),
      icalEvent: { method, content: ics, filename: method === 'REPLY' ? 'reply.ics' : 'invite.ics' },
      date: new Date(),
    })
      .compile()
      .build();
    const sent = await mail().sendRaw({ from: mailbox.address, to: recipients, raw });
    return { sent: recipients.length - sent.rejected.length };
  } catch (err) {
    log.warn('calendar_itip_unsent', { mailboxId: mailbox.mailboxId, method, error: describeError(err) });
    return {
      sent: 0,
      error: `The ${method === 'REPLY' ? 'answer' : 'invitation'} could not be sent: ${(err as Error).message}`,
    };
  }
}
