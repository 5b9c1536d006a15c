import { describeError, log } from '../../kernel/ground/log';
import type { MailboxRecord } from '../mail/records';
import { answersFor, exceptionAt, hasOccurrence, indexed } from './events';
import { type Parsed, type ParsedEvent, parseIcs } from './ics-in';
import {
  type Attendee,
  type CalEvent,
  defaultCalendarId,
  eventByUid,
  listCalendars,
  newEventId,
  putNewEvent,
  replaceEvent,
} from './records';
import { RECURRENCE_MESSAGES, receivedRuleError, usableRule } from './recurrence';

/**
 * Invitations received by a platform mailbox (iTIP, RFC 5546), called by the mail inbound delivery
 * for a message with a `text/calendar` part:
 * - REQUEST from an organizer: a new event in the default calendar, `needs-action` for the mailbox
 *   (`myStatus`); a later REQUEST of the same UID from the same organizer updates it (its answer
 *   kept unless the time changed);
 * - CANCEL from the organizer: the event (or the one occurrence) is cancelled;
 * - REPLY from an attendee of an event the mailbox organizes: that attendee's status, for the
 *   series (and each occurrence), or with a RECURRENCE-ID for that occurrence alone (its own
 *   attendees, `exceptions[].attendees`).
 * Anything else, or a message from someone else than the organizer (REQUEST, CANCEL) or the
 * attendee (REPLY), is left alone. Never throws: the message is filed whatever happens here.
 */
export async function receiveItip(mailbox: MailboxRecord, ics: string, from: string | undefined): Promise<string> {
  try {
    return await apply(mailbox, ics, (from ?? '').toLowerCase());
  } catch (err) {
    log.warn('calendar_itip_failed', { mailboxId: mailbox.mailboxId, error: describeError(err) });
    return 'failed';
  }
}

const sender = (from: string, email: string | undefined) => !!email && from === email.toLowerCase();

async function apply(mailbox: MailboxRecord, ics: string, from: string): Promise<string> {
  const self = [mailbox.address, ...mailbox.aliases];
  const parsed = parseIcs(ics, self);
  const method = parsed.method ?? '';
  let done = 0;
  for (const p of parsed.events) {
    const existing = await eventByUid(mailbox.mailboxId, p.uid);
    if (method === 'REQUEST') done += Number(await request(mailbox, p, existing, from));
    else if (method === 'CANCEL') done += Number(await cancel(existing, from, p));
    else if (method === 'REPLY') done += Number(await reply(existing, p, from));
  }
  for (const o of parsed.occurrences) {
    const existing = await eventByUid(mailbox.mailboxId, o.uid);
    if (method === 'REPLY') {
      done += Number(await replyForOccurrence(existing, o, from));
      continue;
    }
    if (!existing || existing.isOrganizer || !sender(from, existing.organizer?.email)) continue;
    if (method !== 'REQUEST' && method !== 'CANCEL') continue;
    const ex = { ...o.exception, ...(method === 'CANCEL' ? { status: 'cancelled' as const } : {}) };
    const kept = existing.exceptions.find((x) => x.recurrenceId === ex.recurrenceId);
    await replaceEvent(
      indexed({
        ...existing,
        exceptions: [
          ...existing.exceptions.filter((x) => x.recurrenceId !== ex.recurrenceId),
          { ...ex, myStatus: kept?.myStatus ?? existing.myStatus },
        ],
        version: existing.version + 1,
        updatedAt: Date.now(),
      }),
      existing.version,
    );
    done++;
  }
  log.info('calendar_itip', { mailboxId: mailbox.mailboxId, method, applied: done });
  return `${method.toLowerCase() || 'none'}:${done}`;
}

async function request(mailbox: MailboxRecord, p: ParsedEvent, existing: CalEvent | undefined, from: string) {
  if (!p.organizer || p.isOrganizer || !sender(from, p.organizer.email)) return false;
  if (p.rrule) {
    // Anyone can mail a mailbox: a rule is held to what the event body takes, or the invitation stays mail.
    const refused =
      receivedRuleError(p.rrule, p.timeZone) ??
      (usableRule({ ...p, rrule: p.rrule }) ? null : RECURRENCE_MESSAGES.unusable);
    if (refused) {
      log.info('calendar_itip_refused', { mailboxId: mailbox.mailboxId, uid: p.uid, reason: refused });
      return false;
    }
  }
  const now = Date.now();
  if (existing) {
    if (existing.isOrganizer || !sender(from, existing.organizer?.email) || p.sequence < existing.sequence)
      return false;
    const retimed =
      existing.start !== p.start ||
      existing.end !== p.end ||
      existing.rrule !== p.rrule ||
      existing.allDay !== p.allDay;
    await replaceEvent(
      indexed({
        ...existing,
        ...p,
        calendarId: existing.calendarId,
        myStatus: retimed ? 'needs-action' : existing.myStatus,
        isOrganizer: false,
        version: existing.version + 1,
        updatedAt: now,
      }),
      existing.version,
    );
    return true;
  }
  await listCalendars(mailbox.mailboxId);
  await putNewEvent(
    indexed({
      ...p,
      mailboxId: mailbox.mailboxId,
      eventId: newEventId(now),
      calendarId: defaultCalendarId(mailbox.mailboxId),
      version: 1,
      isOrganizer: false,
      myStatus: 'needs-action',
      createdAt: now,
      updatedAt: now,
      firstStart: 0,
      lastEnd: 0,
    }),
  );
  return true;
}

async function cancel(existing: CalEvent | undefined, from: string, p: ParsedEvent) {
  if (!existing || existing.isOrganizer || !sender(from, existing.organizer?.email)) return false;
  if (p.sequence < existing.sequence) return false;
  await replaceEvent(
    indexed({
      ...existing,
      status: 'cancelled',
      sequence: p.sequence,
      version: existing.version + 1,
      updatedAt: Date.now(),
    }),
    existing.version,
  );
  return true;
}

async function reply(existing: CalEvent | undefined, p: ParsedEvent, from: string) {
  if (!existing?.isOrganizer) return false;
  const answer = p.attendees.find((a) => sender(from, a.email));
  if (!answer || !existing.attendees.some((a) => a.email === answer.email)) return false;
  const answered = (a: Attendee) => (a.email === answer.email ? { ...a, status: answer.status } : a);
  await replaceEvent(
    indexed({
      ...existing,
      attendees: existing.attendees.map(answered),
      // An answer for the series is its answer for every occurrence (the latest answer holds).
      exceptions: existing.exceptions.map((x) => (x.attendees ? { ...x, attendees: x.attendees.map(answered) } : x)),
      version: existing.version + 1,
      updatedAt: Date.now(),
    }),
    existing.version,
  );
  return true;
}

/** An attendee's answer for one occurrence (a REPLY with RECURRENCE-ID): its status there alone. */
async function replyForOccurrence(existing: CalEvent | undefined, o: Parsed['occurrences'][number], from: string) {
  if (!existing?.isOrganizer) return false;
  const answer = o.attendees.find((a) => sender(from, a.email));
  if (!answer || !existing.attendees.some((a) => a.email === answer.email)) return false;
  const rid = o.exception.recurrenceId;
  if (!hasOccurrence(existing, rid)) return false;
  const ex = exceptionAt(existing, rid);
  const attendees = answersFor(existing.attendees, ex.attendees ?? []).map((a) =>
    a.email === answer.email ? { ...a, status: answer.status } : a,
  );
  await replaceEvent(
    indexed({
      ...existing,
      exceptions: [...existing.exceptions.filter((x) => x.recurrenceId !== rid), { ...ex, attendees }].sort(
        (a, b) => a.recurrenceId - b.recurrenceId,
      ),
      version: existing.version + 1,
      updatedAt: Date.now(),
    }),
    existing.version,
  );
  return true;
}
