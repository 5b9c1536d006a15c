import { createHash } from 'node:crypto';
import { conflict, invalid, notFound } from '../../kernel/ground/errors';
import { db } from '../../kernel/store/client';
import { GetCommand, PutCommand } from '../../kernel/store/commands';
import { newId } from '../../kernel/store/ids';
import { PREFIXES } from '../../kernel/store/keys';
import { deleteMany, queryAll, queryPrefix, transact, updateVersioned } from '../../kernel/store/ops';
import { getItem, TABLE } from '../../kernel/store/table';
import { type DavName, recordGone } from './changes';
import type { Attendee, Calendar } from './record-schemas';
import { type Recurrence, RecurrenceSchema } from './recurrence';

export { RecurrenceSchema };

/**
 * Calendar records of a mailbox, in the mailbox's partition (`MBX#<mailboxId>`, removed with the
 * mailbox), under sort keys of their own (`CALS#…`):
 *
 * | record | sk | notes |
 * |---|---|---|
 * | the count of calendars | `CALS#META` | `calendars`, raised in the transaction that creates one (at most 50) |
 * | a calendar | `CALS#CAL#<calendarId>` | the default's id is derived from the mailbox's: created once under races |
 * | an event (a series with its exceptions) | `CALS#EVT#<eventId>` | GSI1: `CALEV#<mailboxId>` / its last end, for listings |
 * | an event's UID | `CALS#UID#<sha256(uid)>` | unique per mailbox: imports and invitations find events by UID |
 */
export const calPk = (mailboxId: string) => `${PREFIXES.mail.mailbox}${mailboxId}`;
const P = PREFIXES.calendar;
export const calKeys = {
  meta: (mailboxId: string) => ({ pk: calPk(mailboxId), sk: `${PREFIXES.calendar.calendars}META` }),
  calendar: (mailboxId: string, calendarId: string) => ({ pk: calPk(mailboxId), sk: `${P.calendar}${calendarId}` }),
  event: (mailboxId: string, eventId: string) => ({ pk: calPk(mailboxId), sk: `${P.event}${eventId}` }),
  uid: (mailboxId: string, uid: string) => ({
    pk: calPk(mailboxId),
    sk: `${P.uid}${createHash('sha256').update(uid).digest('hex')}`,
  }),
};

export const CALENDAR_MESSAGES = {
  calendarNotFound: 'Calendar not found',
  eventNotFound: 'Event not found',
  occurrenceNotFound: 'This event has no occurrence at recurrenceId.',
  tooMany: 'A mailbox can have at most 50 calendars.',
  defaultUndeletable: "The default calendar can't be deleted.",
  stale: 'This event changed since it was read. Reload and try again.',
  staleCalendar: 'This calendar changed since it was read. Reload and try again.',
  endBeforeStart: 'end must not be before start.',
  badZone: (zone: string) => `Unknown time zone: ${zone}.`,
  badTime: (field: string) => `${field} must be YYYY-MM-DD, optionally followed by THH:MM or THH:MM:SS.`,
  allDayDates: 'All-day events take dates (YYYY-MM-DD) with an exclusive end.',
  timedTimes: 'Events that are not all-day take times (YYYY-MM-DDTHH:MM).',
  ownEvent: 'You organize this event: there is nothing to respond to.',
  noOrganizer: 'This event has no organizer to answer.',
  moveTo: 'moveTo must be the id of another calendar of this mailbox.',
  window: 'from and to must be at most 400 days apart, from before to.',
  tooManyOccurrences: 'This window holds more than 10,000 occurrences: ask for a shorter one, or fewer calendars.',
  notRecurring: 'recurrenceId is only for recurring events.',
  uidTaken: 'An event with this UID is already in this mailbox.',
} as const;

export const COLORS = ['blue', 'orange', 'teal', 'amber', 'pink', 'green', 'red', 'gray'] as const;
export type Color = (typeof COLORS)[number];
export const MAX_CALENDARS = 50;

/** A calendar as stored: the answered record (its schema, ./record-schemas.ts, is the source) and its mailbox. */
export type CalendarRecord = Calendar & { mailboxId: string; createdAt: number };

export const shownCalendar = (c: CalendarRecord) => ({
  calendarId: c.calendarId,
  name: c.name,
  color: c.color,
  description: c.description,
  isDefault: c.isDefault,
  version: c.version,
});

/** The default calendar's id: one per mailbox, whoever creates it first. */
export const defaultCalendarId = (mailboxId: string) => `cal_${mailboxId.replace(/^mbx_/, '')}`;

const countUp = (mailboxId: string) => ({
  Update: {
    TableName: TABLE(),
    Key: calKeys.meta(mailboxId),
    UpdateExpression: 'SET calendars = if_not_exists(calendars, :zero) + :one',
    ConditionExpression: 'attribute_not_exists(calendars) OR calendars < :max',
    ExpressionAttributeValues: { ':zero': 0, ':one': 1, ':max': MAX_CALENDARS },
  },
});

async function putCalendar(c: CalendarRecord): Promise<void> {
  await transact(
    [
      countUp(c.mailboxId),
      {
        Put: {
          TableName: TABLE(),
          Item: { ...calKeys.calendar(c.mailboxId, c.calendarId), ...c },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    ],
    [CALENDAR_MESSAGES.tooMany, () => conflict('This calendar exists already.')],
  );
}

/** The mailbox's calendars, the default first (created with the first read), then by creation. */
export async function listCalendars(mailboxId: string): Promise<CalendarRecord[]> {
  let list = await queryPrefix<CalendarRecord>(calPk(mailboxId), P.calendar);
  if (!list.some((c) => c.isDefault)) {
    const now = Date.now();
    await putCalendar({
      mailboxId,
      calendarId: defaultCalendarId(mailboxId),
      name: 'Calendar',
      color: 'blue',
      description: '',
      isDefault: true,
      createdAt: now,
      version: 1,
    }).catch(() => undefined); // Another request created it first (or the mailbox is full: it then exists).
    list = await queryAll<CalendarRecord>({
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
      ExpressionAttributeValues: { ':pk': calPk(mailboxId), ':p': P.calendar },
      ConsistentRead: true,
    });
  }
  return list.sort((a, b) => Number(b.isDefault) - Number(a.isDefault) || a.createdAt - b.createdAt);
}

export async function getCalendar(mailboxId: string, calendarId: string): Promise<CalendarRecord> {
  if (calendarId === defaultCalendarId(mailboxId)) {
    const found = (await listCalendars(mailboxId)).find((c) => c.calendarId === calendarId);
    if (found) return found;
  }
  const c = await getItem<CalendarRecord>(calKeys.calendar(mailboxId, calendarId));
  if (!c) throw notFound(CALENDAR_MESSAGES.calendarNotFound);
  return c;
}

export async function createCalendar(
  mailboxId: string,
  input: { name: string; color?: Color; description?: string },
): Promise<CalendarRecord> {
  await listCalendars(mailboxId); // The default comes first, and counts.
  const now = Date.now();
  const c: CalendarRecord = {
    mailboxId,
    calendarId: newId('cal_', now),
    name: input.name,
    color: input.color ?? 'blue',
    description: input.description ?? '',
    isDefault: false,
    createdAt: now,
    version: 1,
  };
  await putCalendar(c);
  return c;
}

export async function updateCalendar(
  mailboxId: string,
  calendarId: string,
  input: { name?: string; color?: Color; description?: string },
): Promise<CalendarRecord> {
  await getCalendar(mailboxId, calendarId);
  const fields = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
  return updateVersioned<CalendarRecord>(
    calKeys.calendar(mailboxId, calendarId),
    undefined,
    fields,
    CALENDAR_MESSAGES.staleCalendar,
  );
}

/** Deletes a calendar (not the default) with its events and their UIDs. */
export async function deleteCalendar(mailboxId: string, calendarId: string): Promise<void> {
  const c = await getCalendar(mailboxId, calendarId);
  if (c.isDefault) throw invalid(CALENDAR_MESSAGES.defaultUndeletable);
  const events = await eventsOf(mailboxId, [calendarId]);
  await deleteMany(events.flatMap((e) => [calKeys.event(mailboxId, e.eventId), calKeys.uid(mailboxId, e.uid)]));
  await transact([
    {
      Delete: {
        TableName: TABLE(),
        Key: calKeys.calendar(mailboxId, calendarId),
        ConditionExpression: 'attribute_exists(pk)',
      },
    },
    {
      Update: {
        TableName: TABLE(),
        Key: calKeys.meta(mailboxId),
        UpdateExpression: 'SET calendars = calendars - :one',
        ExpressionAttributeValues: { ':one': 1 },
      },
    },
  ]).catch((err: Error) => {
    if (err.name === 'TransactionCanceledException') throw notFound(CALENDAR_MESSAGES.calendarNotFound);
    throw err;
  });
}

/** An event's attendee, as stored and answered: its record schema (./record-schemas.ts) is the source. */
export type { Attendee };
export type AttendeeStatus = Attendee['status'];
export type AttendeeRole = Attendee['role'];
export type AttendeeKind = Attendee['kind'];

export interface Exception {
  /** The original start of the occurrence it changes (UTC ms). */
  recurrenceId: number;
  start: number;
  end: number;
  startLocal: string;
  endLocal: string;
  summary: string;
  location: string;
  status: EventStatus;
  myStatus: AttendeeStatus | null;
  /**
   * The occurrence's own attendees, once one of them answered for it alone (a REPLY with its
   * RECURRENCE-ID to the organizer); else the series' attendees hold for it.
   */
  attendees?: Attendee[];
}

export type EventStatus = 'confirmed' | 'tentative' | 'cancelled';
export type BusyStatus = 'free' | 'tentative' | 'busy' | 'oof' | 'workingElsewhere';
export type Sensitivity = 'normal' | 'personal' | 'private' | 'confidential';

export interface CalEvent {
  mailboxId: string;
  eventId: string;
  calendarId: string;
  uid: string;
  version: number;
  summary: string;
  description: string;
  location: string;
  allDay: boolean;
  start: number;
  end: number;
  startLocal: string;
  endLocal: string;
  timeZone: string;
  organizer: { email: string; name?: string } | null;
  attendees: Attendee[];
  isOrganizer: boolean;
  myStatus: AttendeeStatus | null;
  status: EventStatus;
  busyStatus: BusyStatus;
  sensitivity: Sensitivity;
  reminders: number[];
  categories: string[];
  url: string | null;
  recurrence: Recurrence | null;
  rrule: string | null;
  exceptions: Exception[];
  /** Deleted occurrences (EXDATE), by original start. */
  exdates: number[];
  sequence: number;
  createdAt: number;
  updatedAt: number;
  /** The listing index: the earliest start and the last end (Infinity: no end) of anything it shows. */
  firstStart: number;
  lastEnd: number;
  /** A calendar program's name for it (CalDAV: ./changes.ts). */
  dav?: DavName;
}

/** The event as the API shows it. */
export const shownEvent = (e: CalEvent) => ({
  eventId: e.eventId,
  calendarId: e.calendarId,
  uid: e.uid,
  version: e.version,
  summary: e.summary,
  description: e.description,
  location: e.location,
  allDay: e.allDay,
  start: e.start,
  end: e.end,
  startLocal: e.startLocal,
  endLocal: e.endLocal,
  timeZone: e.timeZone,
  organizer: e.organizer,
  attendees: e.attendees,
  isOrganizer: e.isOrganizer,
  myStatus: e.myStatus,
  status: e.status,
  busyStatus: e.busyStatus,
  sensitivity: e.sensitivity,
  reminders: e.reminders,
  categories: e.categories,
  url: e.url,
  recurrence: e.recurrence,
  rrule: e.rrule,
  exceptions: e.exceptions,
  sequence: e.sequence,
});

const NO_END = 9_000_000_000_000_000; // Below Number.MAX_SAFE_INTEGER: DynamoDB numbers stay exact.
const OFFSET = 100_000_000_000_000; // Instants before 1970 sort too.
const sortable = (ms: number) => String(Math.min(Math.max(ms + OFFSET, 0), NO_END)).padStart(16, '0');

/** The stored item of an event: its keys and its listing index entry. */
export const eventItem = (e: CalEvent) => ({
  ...calKeys.event(e.mailboxId, e.eventId),
  ...e,
  lastEnd: Number.isFinite(e.lastEnd) ? e.lastEnd : NO_END,
  gsi1pk: `${PREFIXES.calendar.events}${e.mailboxId}`,
  gsi1sk: `${Number.isFinite(e.lastEnd) ? sortable(e.lastEnd) : String(NO_END)}#${e.eventId}`,
});

export async function getEvent(mailboxId: string, eventId: string, calendarId?: string): Promise<CalEvent> {
  const out = await db.send(new GetCommand({ TableName: TABLE(), Key: calKeys.event(mailboxId, eventId) }));
  const e = out.Item as CalEvent | undefined;
  if (!e || (calendarId !== undefined && e.calendarId !== calendarId)) throw notFound(CALENDAR_MESSAGES.eventNotFound);
  return e;
}

export async function eventByUid(mailboxId: string, uid: string): Promise<CalEvent | undefined> {
  const pointer = await getItem<{ eventId: string }>(calKeys.uid(mailboxId, uid), true);
  if (!pointer) return undefined;
  return (await getItem<CalEvent>(calKeys.event(mailboxId, pointer.eventId), true)) ?? undefined;
}

/** Every event of the mailbox's calendars `calendarIds` (for deletes and exports). */
export async function eventsOf(mailboxId: string, calendarIds: string[]): Promise<CalEvent[]> {
  const all = await queryPrefix<CalEvent>(calPk(mailboxId), P.event);
  return all.filter((e) => calendarIds.includes(e.calendarId));
}

/** The events that can touch `[from, to)`: read by the index on last end, filtered on first start. */
export async function eventsTouching(mailboxId: string, from: number, to: number): Promise<CalEvent[]> {
  const items = await queryAll<CalEvent>({
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk >= :from',
    FilterExpression: 'firstStart < :to',
    ExpressionAttributeValues: { ':pk': `${PREFIXES.calendar.events}${mailboxId}`, ':from': sortable(from), ':to': to },
  });
  return items.map((e) => ({ ...e, lastEnd: e.lastEnd >= NO_END ? Number.POSITIVE_INFINITY : e.lastEnd }));
}

/** Writes a new event with its UID (a UID already in the mailbox is a 409). */
export async function putNewEvent(e: CalEvent): Promise<void> {
  await transact(
    [
      { Put: { TableName: TABLE(), Item: eventItem(e), ConditionExpression: 'attribute_not_exists(pk)' } },
      {
        Put: {
          TableName: TABLE(),
          Item: { ...calKeys.uid(e.mailboxId, e.uid), eventId: e.eventId },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    ],
    [undefined, CALENDAR_MESSAGES.uidTaken],
  );
}

/**
 * Replaces an event at `expected` version (the stored one's, or the caller's `ifVersion`); an
 * event that changed calendar leaves a tombstone in the one it left (./changes.ts).
 */
export async function replaceEvent(e: CalEvent, expected: number): Promise<void> {
  let before: CalEvent | undefined;
  try {
    const out = await db.send(
      new PutCommand({
        TableName: TABLE(),
        Item: eventItem(e),
        ConditionExpression: 'attribute_exists(pk) AND #v = :v',
        ExpressionAttributeNames: { '#v': 'version' },
        ExpressionAttributeValues: { ':v': expected },
        ReturnValues: 'ALL_OLD',
      }),
    );
    before = out.Attributes as CalEvent | undefined;
  } catch (err) {
    if ((err as Error).name === 'ConditionalCheckFailedException') throw conflict(CALENDAR_MESSAGES.stale);
    throw err;
  }
  if (before && before.calendarId !== e.calendarId) await recordGone(before);
}

/** Deletes an event with its UID, leaving a tombstone in its calendar (./changes.ts). */
export async function deleteEvent(e: CalEvent): Promise<void> {
  await deleteMany([calKeys.event(e.mailboxId, e.eventId), calKeys.uid(e.mailboxId, e.uid)]);
  await recordGone(e);
}

export const newEventId = (now = Date.now()) => newId('evt_', now);
