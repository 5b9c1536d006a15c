import { randomUUID } from 'node:crypto';
import { conflict, invalid, notFound } from '../../kernel/ground/errors';
import type { MailboxRecord } from '../mail/records';
import { checkSending, type Notified, sendItip } from './imip';
import type { Occurrence } from './record-schemas';
import {
  type Attendee,
  type AttendeeStatus,
  type BusyStatus,
  CALENDAR_MESSAGES,
  type CalEvent,
  type EventStatus,
  type Exception,
  eventsTouching,
  getCalendar,
  getEvent,
  newEventId,
  putNewEvent,
  deleteEvent as removeEvent,
  replaceEvent,
  type Sensitivity,
} from './records';
import {
  expand,
  lastEndOf,
  RECURRENCE_MESSAGES,
  type Recurrence,
  ruleError,
  type Series,
  toRRule,
  touches,
  usableRule,
} from './recurrence';
import { canonicalZone, localOf, parseLocal, plainText, startOfDay, Temporal, zoned } from './time';

/**
 * Events of a mailbox's calendars: created, changed (the series or one occurrence), deleted and
 * answered, with invitations to attendees (shared/domains/calendar/imip.ts); and the listing of
 * occurrences over a window, series expanded in their own zone.
 */
export interface EventInput {
  summary?: string;
  description?: string;
  location?: string;
  allDay?: boolean;
  start?: string;
  end?: string;
  timeZone?: string;
  recurrence?: Recurrence | null;
  attendees?: { email: string; name?: string; optional?: boolean }[];
  busyStatus?: BusyStatus;
  sensitivity?: Sensitivity;
  reminders?: number[];
  categories?: string[];
  url?: string | null;
  status?: EventStatus;
  notify?: boolean;
}

interface Times {
  allDay: boolean;
  timeZone: string;
  start: number;
  end: number;
  startLocal: string;
  endLocal: string;
}

/** Start and end as wall-clock in `timeZone` (400 on an unknown zone, a bad time, an end before the start). */
export function resolveTimes(allDay: boolean, start: string, end: string, zone: string): Times {
  const timeZone = canonicalZone(zone);
  if (!timeZone) throw invalid(CALENDAR_MESSAGES.badZone(zone));
  const s = parseLocal(start);
  if (!s) throw invalid(CALENDAR_MESSAGES.badTime('start'));
  const e = parseLocal(end);
  if (!e) throw invalid(CALENDAR_MESSAGES.badTime('end'));
  if (allDay) {
    if (s.time || e.time) throw invalid(CALENDAR_MESSAGES.allDayDates);
    if (Temporal.PlainDate.compare(e.date, s.date) <= 0) throw invalid(CALENDAR_MESSAGES.endBeforeStart);
    return {
      allDay,
      timeZone,
      start: startOfDay(s.date, timeZone),
      end: startOfDay(e.date, timeZone),
      startLocal: s.date.toString(),
      endLocal: e.date.toString(),
    };
  }
  if (!s.time || !e.time) throw invalid(CALENDAR_MESSAGES.timedTimes);
  const zs = zoned(s.date.toPlainDateTime(s.time), timeZone);
  const ze = zoned(e.date.toPlainDateTime(e.time), timeZone);
  if (ze.epochMilliseconds < zs.epochMilliseconds) throw invalid(CALENDAR_MESSAGES.endBeforeStart);
  return {
    allDay,
    timeZone,
    start: zs.epochMilliseconds,
    end: ze.epochMilliseconds,
    startLocal: plainText(zs.toPlainDateTime()),
    endLocal: plainText(ze.toPlainDateTime()),
  };
}

export const seriesOf = (
  e: Pick<CalEvent, 'rrule' | 'allDay' | 'timeZone' | 'startLocal' | 'endLocal' | 'start' | 'end'>,
): Series => ({
  rrule: e.rrule as string,
  allDay: e.allDay,
  timeZone: e.timeZone,
  startLocal: e.startLocal,
  endLocal: e.endLocal,
  start: e.start,
  end: e.end,
});

/** The RRULE of a rule given to the API (400 when RFC 5545 refuses it). */
function ruleOf(
  recurrence: Recurrence | null | undefined,
  t: Times,
): { recurrence: Recurrence | null; rrule: string | null } {
  if (!recurrence) return { recurrence: null, rrule: null };
  const r: Recurrence = { ...recurrence, interval: recurrence.interval ?? 1 };
  const why = ruleError(r);
  if (why) throw invalid(why);
  const rrule = toRRule(r, t.allDay, t.timeZone);
  if (!usableRule({ rrule, ...t })) throw invalid(RECURRENCE_MESSAGES.unusable);
  return { recurrence: r, rrule };
}

/** The listing index of an event: its earliest start and its last end. */
export function indexed(e: CalEvent): CalEvent {
  const exStarts = e.exceptions.map((x) => x.start);
  const exEnds = e.exceptions.map((x) => x.end);
  const last = e.rrule ? lastEndOf(seriesOf(e)) : e.end;
  return { ...e, firstStart: Math.min(e.start, ...exStarts), lastEnd: Math.max(last, e.end, ...exEnds) };
}

const own = (mailbox: MailboxRecord) => new Set([mailbox.address, ...mailbox.aliases]);

function attendeesOf(
  mailbox: MailboxRecord,
  list: NonNullable<EventInput['attendees']>,
  before: Attendee[] = [],
  reset = false,
) {
  const mine = own(mailbox);
  const seen = new Set<string>();
  const out: Attendee[] = [];
  for (const a of list) {
    const email = a.email.trim().toLowerCase();
    if (mine.has(email) || seen.has(email)) continue;
    seen.add(email);
    const was = before.find((b) => b.email === email);
    out.push({
      email,
      ...(a.name ? { name: a.name } : was?.name ? { name: was.name } : {}),
      role: a.optional ? 'optional' : 'required',
      status: was && !reset ? was.status : 'needs-action',
      rsvp: true,
      kind: was?.kind ?? 'individual',
    });
  }
  return out;
}

const organizerOf = (mailbox: MailboxRecord) => ({
  email: mailbox.address,
  name: mailbox.settings.displayName ?? mailbox.name,
});

export async function createEvent(
  mailbox: MailboxRecord,
  calendarId: string,
  input: EventInput & { start: string; end: string; timeZone: string },
): Promise<{ event: CalEvent; notified: Notified }> {
  await getCalendar(mailbox.mailboxId, calendarId);
  const t = resolveTimes(input.allDay ?? false, input.start, input.end, input.timeZone);
  const rule = ruleOf(input.recurrence, t);
  const attendees = attendeesOf(mailbox, input.attendees ?? []);
  const notify = (input.notify ?? true) && attendees.length > 0;
  if (notify) await checkSending(mailbox);
  const now = Date.now();
  const eventId = newEventId(now);
  const event = indexed({
    mailboxId: mailbox.mailboxId,
    eventId,
    calendarId,
    uid: `${randomUUID()}@${mailbox.domain}`,
    version: 1,
    summary: input.summary ?? '',
    description: input.description ?? '',
    location: input.location ?? '',
    ...t,
    organizer: attendees.length > 0 ? organizerOf(mailbox) : null,
    attendees,
    isOrganizer: true,
    myStatus: null,
    status: input.status ?? 'confirmed',
    busyStatus: input.busyStatus ?? 'busy',
    sensitivity: input.sensitivity ?? 'normal',
    reminders: input.reminders ?? [],
    categories: input.categories ?? [],
    url: input.url ?? null,
    ...rule,
    exceptions: [],
    exdates: [],
    sequence: 0,
    createdAt: now,
    updatedAt: now,
    firstStart: 0,
    lastEnd: 0,
  });
  await putNewEvent(event);
  const notified = notify
    ? await sendItip(
        mailbox,
        'REQUEST',
        { event },
        attendees.map((a) => a.email),
      )
    : { sent: 0 };
  return { event, notified };
}

/** Whether the series has an occurrence (or a changed one) at `recurrenceId`. */
export function hasOccurrence(e: CalEvent, recurrenceId: number): boolean {
  if (!e.rrule) return false;
  if (e.exdates.includes(recurrenceId)) return false;
  if (e.exceptions.some((x) => x.recurrenceId === recurrenceId)) return true;
  return expand(seriesOf(e), recurrenceId - 1, recurrenceId + 1).some((o) => o.start === recurrenceId);
}

function requireOccurrence(e: CalEvent, recurrenceId: number) {
  if (!e.rrule) throw invalid(CALENDAR_MESSAGES.notRecurring);
  if (!hasOccurrence(e, recurrenceId)) throw notFound(CALENDAR_MESSAGES.occurrenceNotFound);
}

/** An occurrence as an exception: the stored one, else the series' values at that start. */
export function exceptionAt(e: CalEvent, recurrenceId: number): Exception {
  const found = e.exceptions.find((x) => x.recurrenceId === recurrenceId);
  if (found) return found;
  const [o] = expand(seriesOf(e), recurrenceId - 1, recurrenceId + 1).filter((x) => x.start === recurrenceId);
  const end = o?.end ?? recurrenceId + (e.end - e.start);
  return {
    recurrenceId,
    start: recurrenceId,
    end,
    startLocal: o?.startDate ?? localOf(recurrenceId, e.timeZone),
    endLocal: o?.endDate ?? localOf(end, e.timeZone),
    summary: e.summary,
    location: e.location,
    status: e.status,
    myStatus: e.myStatus,
  };
}

const sameTimes = (a: CalEvent, b: CalEvent) =>
  a.start === b.start && a.end === b.end && a.timeZone === b.timeZone && a.allDay === b.allDay && a.rrule === b.rrule;

export interface UpdateInput extends EventInput {
  recurrenceId?: number;
  ifVersion?: number;
  moveTo?: unknown;
}

export async function updateEvent(
  mailbox: MailboxRecord,
  calendarId: string,
  eventId: string,
  input: UpdateInput,
): Promise<{ event: CalEvent; notified: Notified; cancelled: number }> {
  await getCalendar(mailbox.mailboxId, calendarId);
  const e = await getEvent(mailbox.mailboxId, eventId, calendarId);
  if (input.ifVersion !== undefined && input.ifVersion !== e.version) throw conflict(CALENDAR_MESSAGES.stale);
  let target = e.calendarId;
  if (input.moveTo !== undefined && input.moveTo !== null) {
    if (typeof input.moveTo !== 'string' || input.moveTo.length > 64) throw invalid(CALENDAR_MESSAGES.moveTo);
    await getCalendar(mailbox.mailboxId, input.moveTo).catch(() => {
      throw invalid(CALENDAR_MESSAGES.moveTo);
    });
    target = input.moveTo;
  }
  const notifyWanted = (input.notify ?? true) && e.isOrganizer;
  const now = Date.now();

  if (input.recurrenceId !== undefined) {
    requireOccurrence(e, input.recurrenceId);
    const ex = exceptionAt(e, input.recurrenceId);
    let changed: Exception = {
      ...ex,
      ...(input.summary !== undefined ? { summary: input.summary } : {}),
      ...(input.location !== undefined ? { location: input.location } : {}),
      ...(input.status !== undefined ? { status: input.status } : {}),
    };
    if (input.start !== undefined || input.end !== undefined || input.timeZone !== undefined) {
      const zone = input.timeZone ?? e.timeZone;
      const t = resolveTimes(e.allDay, input.start ?? ex.startLocal, input.end ?? ex.endLocal, zone);
      // Kept as wall-clock of the series' zone.
      changed = {
        ...changed,
        start: t.start,
        end: t.end,
        startLocal: e.allDay ? t.startLocal : localOf(t.start, e.timeZone),
        endLocal: e.allDay ? t.endLocal : localOf(t.end, e.timeZone),
      };
    }
    const notify = notifyWanted && e.attendees.length > 0;
    if (notify) await checkSending(mailbox);
    const next = indexed({
      ...e,
      calendarId: target,
      exceptions: [...e.exceptions.filter((x) => x.recurrenceId !== ex.recurrenceId), changed].sort(
        (a, b) => a.recurrenceId - b.recurrenceId,
      ),
      sequence: e.sequence + 1,
      version: e.version + 1,
      updatedAt: now,
    });
    await replaceEvent(next, e.version);
    const notified = notify
      ? await sendItip(
          mailbox,
          changed.status === 'cancelled' ? 'CANCEL' : 'REQUEST',
          { event: next, recurrenceId: ex.recurrenceId },
          next.attendees.map((a) => a.email),
        )
      : { sent: 0 };
    return { event: next, notified, cancelled: 0 };
  }

  const timesGiven =
    input.start !== undefined || input.end !== undefined || input.timeZone !== undefined || input.allDay !== undefined;
  const allDay = input.allDay ?? e.allDay;
  const t: Times = timesGiven
    ? resolveTimes(allDay, input.start ?? e.startLocal, input.end ?? e.endLocal, input.timeZone ?? e.timeZone)
    : {
        allDay: e.allDay,
        timeZone: e.timeZone,
        start: e.start,
        end: e.end,
        startLocal: e.startLocal,
        endLocal: e.endLocal,
      };
  const rule =
    input.recurrence !== undefined
      ? ruleOf(input.recurrence, t)
      : timesGiven && e.recurrence
        ? ruleOf(e.recurrence, t)
        : { recurrence: e.recurrence, rrule: e.rrule };
  const draft: CalEvent = { ...e, ...t, ...rule };
  const retimed = !sameTimes(e, draft);
  const attendees = e.isOrganizer
    ? input.attendees !== undefined
      ? attendeesOf(mailbox, input.attendees, e.attendees, retimed)
      : retimed
        ? e.attendees.map((a) => ({ ...a, status: 'needs-action' as AttendeeStatus }))
        : e.attendees
    : e.attendees;
  const removed = e.attendees.filter((a) => !attendees.some((b) => b.email === a.email));
  const notify = notifyWanted && attendees.length + removed.length > 0;
  if (notify) await checkSending(mailbox);
  const next = indexed({
    ...draft,
    calendarId: target,
    summary: input.summary ?? e.summary,
    description: input.description ?? e.description,
    location: input.location ?? e.location,
    attendees,
    organizer: e.isOrganizer ? (attendees.length > 0 ? organizerOf(mailbox) : null) : e.organizer,
    status: input.status ?? e.status,
    busyStatus: input.busyStatus ?? e.busyStatus,
    sensitivity: input.sensitivity ?? e.sensitivity,
    reminders: input.reminders ?? e.reminders,
    categories: input.categories ?? e.categories,
    url: input.url !== undefined ? input.url : e.url,
    // A new time or rule drops the changed and deleted occurrences (their instants no longer hold).
    exceptions: retimed
      ? []
      : e.exceptions.map((x) => (x.attendees ? { ...x, attendees: answersFor(attendees, x.attendees) } : x)),
    exdates: retimed ? [] : e.exdates,
    sequence: e.sequence + (retimed || input.status === 'cancelled' ? 1 : 0),
    version: e.version + 1,
    updatedAt: now,
  });
  await replaceEvent(next, e.version);
  let notified: Notified = { sent: 0 };
  let cancelled = 0;
  if (notify) {
    if (attendees.length > 0) {
      notified = await sendItip(
        mailbox,
        next.status === 'cancelled' ? 'CANCEL' : 'REQUEST',
        { event: next },
        attendees.map((a) => a.email),
      );
    }
    if (removed.length > 0) {
      const sent = await sendItip(
        mailbox,
        'CANCEL',
        { event: next, attendees: removed, cancelled: true },
        removed.map((a) => a.email),
      );
      cancelled = sent.sent;
      if (sent.error && !notified.error) notified = { ...notified, error: sent.error };
    }
  }
  return { event: next, notified, cancelled };
}

/** The series' attendees with the answers one occurrence got (an occurrence's own attendees). */
export const answersFor = (series: Attendee[], occurrence: Attendee[]): Attendee[] =>
  series.map((a) => ({ ...a, status: occurrence.find((o) => o.email === a.email)?.status ?? a.status }));

export async function deleteEvent(
  mailbox: MailboxRecord,
  calendarId: string,
  eventId: string,
  options: { recurrenceId?: number; notify: boolean },
): Promise<Notified> {
  await getCalendar(mailbox.mailboxId, calendarId);
  const e = await getEvent(mailbox.mailboxId, eventId, calendarId);
  const notify = options.notify && e.isOrganizer && e.attendees.length > 0;
  const to = e.attendees.map((a) => a.email);
  if (options.recurrenceId !== undefined) {
    requireOccurrence(e, options.recurrenceId);
    if (notify) await checkSending(mailbox);
    const rid = options.recurrenceId;
    const next = indexed({
      ...e,
      exdates: [...new Set([...e.exdates, rid])].sort((a, b) => a - b),
      exceptions: e.exceptions.filter((x) => x.recurrenceId !== rid),
      sequence: e.sequence + 1,
      version: e.version + 1,
      updatedAt: Date.now(),
    });
    await replaceEvent(next, e.version);
    return notify ? sendItip(mailbox, 'CANCEL', { event: e, recurrenceId: rid, cancelled: true }, to) : { sent: 0 };
  }
  if (notify) await checkSending(mailbox);
  await removeEvent(e);
  return notify
    ? sendItip(mailbox, 'CANCEL', { event: { ...e, sequence: e.sequence + 1 }, cancelled: true }, to)
    : { sent: 0 };
}

/** The mailbox's answer to an invitation: its status, sent to the organizer (REPLY). */
export async function respond(
  mailbox: MailboxRecord,
  calendarId: string,
  eventId: string,
  input: { status: 'accepted' | 'tentative' | 'declined'; recurrenceId?: number; comment?: string },
): Promise<{ event: CalEvent; notified: Notified }> {
  await getCalendar(mailbox.mailboxId, calendarId);
  const e = await getEvent(mailbox.mailboxId, eventId, calendarId);
  if (e.isOrganizer) throw invalid(CALENDAR_MESSAGES.ownEvent);
  if (input.recurrenceId !== undefined) requireOccurrence(e, input.recurrenceId);
  const mine = own(mailbox);
  const me: Attendee = e.attendees.find((a) => mine.has(a.email)) ?? {
    email: mailbox.address,
    name: mailbox.settings.displayName ?? mailbox.name,
    role: 'required',
    status: 'needs-action',
    rsvp: true,
    kind: 'individual',
  };
  const answered: Attendee = { ...me, status: input.status };
  const organizer = e.organizer?.email;
  if (organizer) await checkSending(mailbox);
  let next: CalEvent;
  if (input.recurrenceId !== undefined) {
    const ex = { ...exceptionAt(e, input.recurrenceId), myStatus: input.status };
    next = indexed({
      ...e,
      exceptions: [...e.exceptions.filter((x) => x.recurrenceId !== ex.recurrenceId), ex].sort(
        (a, b) => a.recurrenceId - b.recurrenceId,
      ),
      version: e.version + 1,
      updatedAt: Date.now(),
    });
  } else {
    next = indexed({
      ...e,
      myStatus: input.status,
      attendees: e.attendees.some((a) => a.email === me.email)
        ? e.attendees.map((a) => (a.email === me.email ? answered : a))
        : e.attendees,
      version: e.version + 1,
      updatedAt: Date.now(),
    });
  }
  await replaceEvent(next, e.version);
  const notified = organizer
    ? await sendItip(
        mailbox,
        'REPLY',
        { event: next, attendees: [answered], recurrenceId: input.recurrenceId, comment: input.comment },
        [organizer],
        { status: input.status, comment: input.comment },
      )
    : { sent: 0 };
  return { event: next, notified };
}

export const MAX_OCCURRENCES = 10_000;

/** The occurrences of an event in `[from, to)`: its series expanded, exceptions and EXDATEs applied. */
export function occurrencesOf(e: CalEvent, from: number, to: number): Occurrence[] {
  const base = {
    eventId: e.eventId,
    calendarId: e.calendarId,
    allDay: e.allDay,
    busyStatus: e.busyStatus,
    isOrganizer: e.isOrganizer,
    attendees: e.attendees.length,
    recurring: !!e.rrule,
  };
  if (!e.rrule) {
    if (!touches(e, from, to)) return [];
    return [
      {
        ...base,
        recurrenceId: null,
        start: e.start,
        end: e.end,
        ...(e.allDay ? { startDate: e.startLocal, endDate: e.endLocal } : {}),
        summary: e.summary,
        location: e.location,
        status: e.status,
        isException: false,
        myStatus: e.myStatus,
      },
    ];
  }
  const skip = new Set([...e.exdates, ...e.exceptions.map((x) => x.recurrenceId)]);
  const out: Occurrence[] = [];
  for (const o of expand(seriesOf(e), from, to)) {
    if (skip.has(o.start)) continue;
    out.push({
      ...base,
      recurrenceId: o.start,
      start: o.start,
      end: o.end,
      ...(e.allDay ? { startDate: o.startDate, endDate: o.endDate } : {}),
      summary: e.summary,
      location: e.location,
      status: e.status,
      isException: false,
      myStatus: e.myStatus,
    });
  }
  for (const x of e.exceptions) {
    if (!touches(x, from, to)) continue;
    out.push({
      ...base,
      recurrenceId: x.recurrenceId,
      start: x.start,
      end: x.end,
      ...(e.allDay ? { startDate: x.startLocal.slice(0, 10), endDate: x.endLocal.slice(0, 10) } : {}),
      summary: x.summary,
      location: x.location,
      status: x.status,
      isException: true,
      myStatus: x.myStatus,
    });
  }
  return out;
}

export async function listOccurrences(
  mailboxId: string,
  from: number,
  to: number,
  calendarIds: string[] | null,
): Promise<Occurrence[]> {
  const events = await eventsTouching(mailboxId, from, to);
  const wanted = calendarIds ? new Set(calendarIds) : null;
  const out = events.filter((e) => !wanted || wanted.has(e.calendarId)).flatMap((e) => occurrencesOf(e, from, to));
  // About 350 bytes each: past this the answer nears what a Lambda response can carry (6 MB).
  if (out.length > MAX_OCCURRENCES) throw invalid(CALENDAR_MESSAGES.tooManyOccurrences);
  return out.sort((a, b) => a.start - b.start || a.end - b.end || a.eventId.localeCompare(b.eventId));
}
