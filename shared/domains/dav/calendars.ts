import { DomainError, forbidden, invalid } from '../../kernel/ground/errors';
import { isPlainText } from '../../kernel/ground/text';
import { db } from '../../kernel/store/client';
import { PutCommand } from '../../kernel/store/commands';
import { getItem, TABLE } from '../../kernel/store/table';
import { CHANGE_KEYS, goneSince, objectNameOf } from '../calendar/changes';
import { deleteEvent, indexed, occurrencesOf, seriesOf } from '../calendar/events';
import { type ParsedEvent, parseIcs } from '../calendar/ics-in';
import { toIcs } from '../calendar/ics-out';
import { checkSending, type Notified, sendItip } from '../calendar/imip';
import {
  type CalEvent,
  eventByUid,
  eventsOf,
  getEvent,
  newEventId,
  putNewEvent,
  replaceEvent,
} from '../calendar/records';
import { receivedRuleError, usableRule } from '../calendar/recurrence';
import type { MailboxRecord } from '../mail/records';
import { NS, qname } from './xml';

/**
 * A calendar's events as CalDAV objects (RFC 4791), the API's records themselves: each event (a
 * series with its changed occurrences) is one `.ics` object named by the program that PUT it, or
 * `<eventId>.ics`. A PUT is read by the calendar's iCalendar reader (the import's: zones, RRULE,
 * EXDATE, RECURRENCE-ID), held to the API's limits (a rule the API takes, plain text, 1 MB), and
 * written with the records' own writes; attendees added by a program are invited by the
 * invitations' mail (iMIP), as the API invites them. An object's ETag moves with its version.
 */
export const MAX_ICS_BYTES = 1024 * 1024;

export const DAV_CALENDAR_MESSAGES = {
  notCalendar: 'The body is not iCalendar text (BEGIN:VCALENDAR … END:VCALENDAR).',
  oneEvent: 'A calendar object holds one event (one UID, with its changed occurrences).',
  onlyEvents: 'This calendar takes events (VEVENT) only.',
  uidChanged: "An object's UID can't change: PUT the event under a new name.",
  uidTaken: 'An event with this UID is already in this mailbox, at another URL.',
  control: 'Control characters are not allowed in an event.',
  tooLarge: `A calendar object can be at most ${MAX_ICS_BYTES} bytes.`,
  badName: 'An object name is one path segment of plain text, at most 255 characters.',
  notFound: 'No such calendar object.',
  stale: 'The object changed: its ETag is not the one given (If-Match), or it exists (If-None-Match).',
} as const;

/** A precondition element of RFC 4791 for a DomainError's extra. */
const cond = (name: string) => ({ condition: qname(NS.caldav, name) });

export const etagOfEvent = (e: Pick<CalEvent, 'version' | 'updatedAt'>) => `"${e.version}-${e.updatedAt.toString(36)}"`;

export { objectNameOf };

export const eventsIn = (mailboxId: string, calendarId: string) => eventsOf(mailboxId, [calendarId]);

const EVENT_NAME = /^(evt_[0-9a-z]{26})\.ics$/;

export function checkName(name: string): void {
  if (!name || name.length > 255 || name.includes('/') || !isPlainText(name) || /[\r\n]/.test(name))
    throw invalid(DAV_CALENDAR_MESSAGES.badName);
}

/** The event named `name` in the calendar, or undefined. */
export async function eventNamed(mailboxId: string, calendarId: string, name: string): Promise<CalEvent | undefined> {
  const own = EVENT_NAME.exec(name);
  if (own) {
    const e = await getEvent(mailboxId, own[1] as string, calendarId).catch(() => undefined);
    return e && objectNameOf(e) === name ? e : undefined;
  }
  const pointer = await getItem<{ eventId: string }>(CHANGE_KEYS.name(mailboxId, calendarId, name), true);
  if (!pointer) return undefined;
  const e = await getEvent(mailboxId, pointer.eventId, calendarId).catch(() => undefined);
  return e && objectNameOf(e) === name ? e : undefined;
}

/** The object's text: the event as the platform writes iCalendar, without METHOD (RFC 4791 4.1). */
export const icsOfEvent = (e: CalEvent) => toIcs([{ event: e }], 'PUBLISH').replace(/^METHOD:PUBLISH\r\n/m, '');

const utc = (ms: number) =>
  `${new Date(ms)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '')}`;
const escapeIcs = (s: string) =>
  s.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r?\n/g, '\\n');
const dateValue = (d: string) => d.replace(/-/g, '');

/**
 * The event's occurrences in `[from, to)` as separate VEVENTs in UTC (RFC 4791 9.6.5, `expand`):
 * each occurrence of a series with its RECURRENCE-ID, no RRULE, no VTIMEZONE.
 */
export function expandedIcs(e: CalEvent, from: number, to: number): string {
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Platform//Calendar//EN'];
  const stamp = utc(e.updatedAt);
  for (const o of occurrencesOf(e, from, to)) {
    const ex = o.recurrenceId !== null ? e.exceptions.find((x) => x.recurrenceId === o.recurrenceId) : undefined;
    lines.push('BEGIN:VEVENT', `UID:${escapeIcs(e.uid)}`, `DTSTAMP:${stamp}`);
    if (o.recurrenceId !== null) {
      lines.push(
        e.allDay ? `RECURRENCE-ID;VALUE=DATE:${dateValue(o.startDate ?? '')}` : `RECURRENCE-ID:${utc(o.recurrenceId)}Z`,
      );
    }
    if (e.allDay) {
      lines.push(
        `DTSTART;VALUE=DATE:${dateValue(o.startDate ?? '')}`,
        `DTEND;VALUE=DATE:${dateValue(o.endDate ?? '')}`,
      );
    } else lines.push(`DTSTART:${utc(o.start)}Z`, `DTEND:${utc(o.end)}Z`);
    lines.push(`SUMMARY:${escapeIcs(o.summary)}`);
    if (o.location) lines.push(`LOCATION:${escapeIcs(o.location)}`);
    if (e.description) lines.push(`DESCRIPTION:${escapeIcs(e.description)}`);
    lines.push(`STATUS:${o.status.toUpperCase()}`, `SEQUENCE:${e.sequence}`);
    if (ex && e.rrule) lines.push(`X-PLATFORM-CHANGED:TRUE`);
    lines.push('END:VEVENT');
  }
  lines.push('END:VCALENDAR');
  return `${lines.join('\r\n')}\r\n`;
}

/** A calendar-query's filter (RFC 4791 9.7), what the platform answers of it. */
export interface CalendarFilter {
  /** The component asked for: events, or another (tasks, journals: none here). */
  component: 'VEVENT' | 'OTHER' | 'ANY';
  range?: { from: number; to: number };
  /** Property text matches (`UID`, `SUMMARY`, …): substring, case-insensitive unless `collation` says octet. */
  props: { name: string; text?: string; negate: boolean; defined: boolean }[];
}

const PROP_OF: Record<string, (e: CalEvent) => string | undefined> = {
  UID: (e) => e.uid,
  SUMMARY: (e) => e.summary,
  LOCATION: (e) => e.location || undefined,
  DESCRIPTION: (e) => e.description || undefined,
  STATUS: (e) => e.status.toUpperCase(),
  RRULE: (e) => e.rrule ?? undefined,
};

export function matchesFilter(e: CalEvent, f: CalendarFilter): boolean {
  if (f.component === 'OTHER') return false;
  if (f.range && occurrencesOf(e, f.range.from, f.range.to).length === 0) return false;
  for (const p of f.props) {
    const value = PROP_OF[p.name]?.(e);
    if (!p.defined) {
      if (value !== undefined) return false;
      continue;
    }
    if (value === undefined) return false;
    if (p.text !== undefined) {
      const hit = value.toLowerCase().includes(p.text.toLowerCase());
      if (hit === p.negate) return false;
    }
  }
  return true;
}

/** If-Match / If-None-Match against the object (undefined: none there). */
export function checkPreconditions(etag: string | undefined, ifMatch?: string, ifNoneMatch?: string): void {
  const tags = (h: string) => h.split(',').map((t) => t.trim().replace(/^W\//, ''));
  if (ifMatch !== undefined) {
    const ok = etag !== undefined && (ifMatch.trim() === '*' || tags(ifMatch).includes(etag));
    if (!ok) throw new DomainError('precondition', DAV_CALENDAR_MESSAGES.stale);
  }
  if (ifNoneMatch !== undefined && etag !== undefined) {
    if (ifNoneMatch.trim() === '*' || tags(ifNoneMatch).includes(etag))
      throw new DomainError('precondition', DAV_CALENDAR_MESSAGES.stale);
  }
}

/** The one event of a PUT's text, held to the API's limits. */
export function readObject(mailbox: MailboxRecord, text: string): ParsedEvent {
  if (Buffer.byteLength(text) > MAX_ICS_BYTES)
    throw new DomainError('forbidden', DAV_CALENDAR_MESSAGES.tooLarge, cond('max-resource-size'));
  if (!/BEGIN:VCALENDAR/i.test(text)) throw invalid(DAV_CALENDAR_MESSAGES.notCalendar, cond('valid-calendar-data'));
  const parsed = parseIcs(text, [mailbox.address, ...mailbox.aliases]);
  const broken = parsed.warnings.find((w) => w.startsWith('Not iCalendar text'));
  if (broken) throw invalid(broken, cond('valid-calendar-data'));
  if (parsed.events.length === 0) {
    if (parsed.occurrences.length > 0)
      throw invalid(DAV_CALENDAR_MESSAGES.oneEvent, cond('valid-calendar-object-resource'));
    throw new DomainError('forbidden', DAV_CALENDAR_MESSAGES.onlyEvents, cond('supported-calendar-component'));
  }
  if (parsed.events.length > 1 || parsed.occurrences.length > 0)
    throw invalid(DAV_CALENDAR_MESSAGES.oneEvent, cond('valid-calendar-object-resource'));
  const p = parsed.events[0] as ParsedEvent;
  const texts = [
    p.uid,
    p.summary,
    p.description,
    p.location,
    ...p.categories,
    ...p.attendees.map((a) => a.name ?? ''),
    ...p.exceptions.flatMap((x) => [x.summary, x.location]),
  ];
  if (texts.some((t) => !isPlainText(t))) throw invalid(DAV_CALENDAR_MESSAGES.control, cond('valid-calendar-data'));
  if (p.rrule) {
    const why = receivedRuleError(p.rrule, p.timeZone);
    if (why) throw invalid(why, cond('valid-calendar-data'));
    if (!usableRule(seriesOf(p))) throw invalid('This repeat rule gives no occurrences.', cond('valid-calendar-data'));
  }
  return p;
}

const ANSWERS = new Set(['accepted', 'tentative', 'declined']);

/** Whether attendees must hear of the change from `before` to `after` (times, rule, what, who). */
const significant = (before: CalEvent, after: CalEvent) =>
  before.start !== after.start ||
  before.end !== after.end ||
  before.rrule !== after.rrule ||
  before.summary !== after.summary ||
  before.location !== after.location ||
  before.status !== after.status ||
  JSON.stringify(before.exdates) !== JSON.stringify(after.exdates) ||
  JSON.stringify(before.exceptions.map((x) => [x.recurrenceId, x.start, x.end, x.status])) !==
    JSON.stringify(after.exceptions.map((x) => [x.recurrenceId, x.start, x.end, x.status])) ||
  before.attendees.map((a) => a.email).join() !== after.attendees.map((a) => a.email).join();

/**
 * Writes a PUT's event at `name` in the calendar: a new event (its UID not yet in the mailbox),
 * or the one already there (same UID). Returns whether it was created, and who was mailed.
 */
export async function putEventObject(
  mailbox: MailboxRecord,
  calendarId: string,
  name: string,
  p: ParsedEvent,
  conditions: { ifMatch?: string; ifNoneMatch?: string },
): Promise<{ created: boolean; event: CalEvent; notified: Notified }> {
  checkName(name);
  const existing = await eventNamed(mailbox.mailboxId, calendarId, name);
  checkPreconditions(existing ? etagOfEvent(existing) : undefined, conditions.ifMatch, conditions.ifNoneMatch);
  if (existing && existing.uid !== p.uid)
    throw new DomainError('forbidden', DAV_CALENDAR_MESSAGES.uidChanged, cond('no-uid-conflict'));
  if (!existing) {
    const other = await eventByUid(mailbox.mailboxId, p.uid);
    if (other) throw new DomainError('forbidden', DAV_CALENDAR_MESSAGES.uidTaken, cond('no-uid-conflict'));
  }
  const now = Date.now();
  const eventId = existing?.eventId ?? newEventId(now);
  const named = EVENT_NAME.exec(name)?.[1] === eventId;
  const next = indexed({
    ...p,
    mailboxId: mailbox.mailboxId,
    eventId,
    calendarId,
    version: (existing?.version ?? 0) + 1,
    createdAt: existing?.createdAt ?? now,
    updatedAt: now,
    firstStart: 0,
    lastEnd: 0,
    ...(named ? {} : { dav: { calendarId, name } }),
  });
  const changed = existing ? significant(existing, next) : next.attendees.length > 0;
  if (existing && changed && next.sequence <= existing.sequence) next.sequence = existing.sequence + 1;
  const removed = existing ? existing.attendees.filter((a) => !next.attendees.some((b) => b.email === a.email)) : [];
  const notify = next.isOrganizer && changed && next.attendees.length + removed.length > 0;
  // RFC 6638's attendee side: the mailbox answered an invitation in the program (its PARTSTAT).
  const answered =
    existing &&
    !next.isOrganizer &&
    next.organizer &&
    next.myStatus !== existing.myStatus &&
    ANSWERS.has(next.myStatus ?? '')
      ? next.attendees.find((a) => a.email === mailbox.address || mailbox.aliases.includes(a.email))
      : undefined;
  if (notify || answered) await checkSending(mailbox);
  if (existing) await replaceEvent(next, existing.version);
  else {
    if (!named) {
      await db.send(
        new PutCommand({
          TableName: TABLE(),
          Item: { ...CHANGE_KEYS.name(mailbox.mailboxId, calendarId, name), eventId },
        }),
      );
    }
    await putNewEvent(next);
  }
  let notified: Notified = { sent: 0 };
  if (notify) {
    if (next.attendees.length > 0) {
      notified = await sendItip(
        mailbox,
        next.status === 'cancelled' ? 'CANCEL' : 'REQUEST',
        { event: next },
        next.attendees.map((a) => a.email),
      );
    }
    if (removed.length > 0) {
      await sendItip(
        mailbox,
        'CANCEL',
        { event: next, attendees: removed, cancelled: true },
        removed.map((a) => a.email),
      );
    }
  }
  if (answered && next.organizer) {
    notified = await sendItip(mailbox, 'REPLY', { event: next, attendees: [answered] }, [next.organizer.email], {
      status: next.myStatus as string,
    });
  }
  return { created: !existing, event: next, notified };
}

/** Deletes the object at `name`: the API's delete (attendees of the mailbox's own event are told). */
export async function deleteEventObject(
  mailbox: MailboxRecord,
  calendarId: string,
  name: string,
  conditions: { ifMatch?: string },
): Promise<void> {
  const existing = await eventNamed(mailbox.mailboxId, calendarId, name);
  if (!existing) {
    if (conditions.ifMatch !== undefined) throw new DomainError('precondition', DAV_CALENDAR_MESSAGES.stale);
    throw new DomainError('notFound', DAV_CALENDAR_MESSAGES.notFound);
  }
  checkPreconditions(etagOfEvent(existing), conditions.ifMatch);
  await deleteEvent(mailbox, calendarId, existing.eventId, { notify: true });
}

/** A calendar's changes since `since`: the events updated since, and the names that left it. */
export async function calendarChanges(mailboxId: string, calendarId: string, since: number) {
  const [events, gone] = await Promise.all([eventsIn(mailboxId, calendarId), goneSince(mailboxId, calendarId, since)]);
  const changed = events.filter((e) => e.updatedAt >= since);
  const present = new Set(events.map(objectNameOf));
  return { changed, gone: [...new Set(gone.map((g) => g.name))].filter((n) => !present.has(n)) };
}

export const notAllowedToWrite = (why: string) => forbidden(why);
