import ical, { ICalAlarmType, type ICalAttendeeData, type ICalCalendar, type ICalEventData } from 'ical-generator';
import { foldLines } from './fold';
import type { Attendee, CalEvent, Exception } from './records';
import { localOf, Temporal } from './time';
import { vtimezone } from './vtimezone';

/**
 * iCalendar text of events (ical-generator 10): a VTIMEZONE per zone (from the zone's own
 * transitions), RRULE and EXDATE with TZID, changed occurrences as RECURRENCE-ID VEVENTs, all-day
 * events as VALUE=DATE. Used by exports and by invitations (METHOD REQUEST, REPLY, CANCEL).
 */
export type Method = 'PUBLISH' | 'REQUEST' | 'REPLY' | 'CANCEL';

const ROLE = {
  optional: 'OPT-PARTICIPANT',
  required: 'REQ-PARTICIPANT',
  chair: 'CHAIR',
  'non-participant': 'NON-PARTICIPANT',
};
const KIND = { unknown: 'UNKNOWN', resource: 'RESOURCE', individual: 'INDIVIDUAL', group: 'GROUP', room: 'ROOM' };
const CLASS = { normal: 'PUBLIC', personal: 'PRIVATE', private: 'PRIVATE', confidential: 'CONFIDENTIAL' };
const BUSY = { free: 'FREE', tentative: 'TENTATIVE', busy: 'BUSY', oof: 'OOF' } as const;

const basic = (local: string) => local.replace(/[-:]/g, '');
const isUtc = (zone: string) => zone === 'UTC' || zone === 'Etc/UTC';

/** A wall-clock value as ical-generator takes it: zoned by the event's `timezone`, or UTC. */
const when = (local: string, zone: string) => (isUtc(zone) ? `${local}Z` : local);

const attendeeData = (a: Attendee): ICalAttendeeData => ({
  email: a.email,
  ...(a.name ? { name: a.name } : {}),
  role: ROLE[a.role] as ICalAttendeeData['role'],
  status: a.status.toUpperCase() as ICalAttendeeData['status'],
  rsvp: a.rsvp,
  type: KIND[a.kind] as ICalAttendeeData['type'],
});

export interface IcsPart {
  event: CalEvent;
  /** Only one occurrence: the exception or the plain occurrence at this original start. */
  recurrenceId?: number;
  /** The attendees written (default: all). */
  attendees?: Attendee[];
  /** Written cancelled (CANCEL). */
  cancelled?: boolean;
  /** The answer's note (REPLY): its COMMENT. */
  comment?: string;
}

function yearsOf(parts: IcsPart[]): [number, number] {
  const now = new Date().getUTCFullYear();
  let lo = now;
  let hi = now;
  for (const { event: e } of parts) {
    const y = new Date(e.start).getUTCFullYear();
    lo = Math.min(lo, y);
    hi = Math.max(hi, y, Number.isFinite(e.lastEnd) ? new Date(Math.min(e.lastEnd, 4e12)).getUTCFullYear() : now);
  }
  return [lo - 1, hi + 10];
}

export function toIcs(parts: IcsPart[], method: Method, name?: string): string {
  const { cal, zoneText } = calendarOf(parts, method, name);
  // An all-day occurrence's RECURRENCE-ID is a DATE (ical-generator would write a UTC DATE-TIME);
  // ical-generator writes no COMMENT: an X- property's escaped, folded value is renamed.
  return foldLines(unfolded(cal, zoneText))
    .replace(/^X-PLATFORM-DATE-RID:(\d{8})\r$/gm, 'RECURRENCE-ID;VALUE=DATE:$1\r')
    .replace(/^X-PLATFORM-COMMENT:/gm, 'COMMENT:');
}

/** The parts as an ical-generator calendar, and the VTIMEZONE text of a zone (null: none, UTC). */
export function calendarOf(parts: IcsPart[], method: Method, name?: string) {
  const [fromYear, toYear] = yearsOf(parts);
  const zoneText = (zone: string) => (isUtc(zone) ? null : vtimezone(zone, fromYear, toYear));
  const cal = ical({ prodId: '//Platform//Calendar//EN', method: method as never, ...(name ? { name } : {}) });
  cal.timezone({ name: '', generator: zoneText } as never);
  const stamp = new Date();
  for (const part of parts) {
    const e = part.event;
    const base = common(e, stamp, part);
    if (part.recurrenceId !== undefined) {
      const ex = e.exceptions.find((x) => x.recurrenceId === part.recurrenceId);
      const occ = occurrence(e, part.recurrenceId, ex, part);
      cal.createEvent(withOccurrence(base, part.cancelled ? { ...occ, status: 'CANCELLED' as never } : occ));
      continue;
    }
    const exdates = e.exdates.map((ms) => exdateValue(e, ms));
    const repeating = e.rrule ? [`RRULE:${e.rrule}`, ...exdates.map((v) => exdateLine(e, v))].join('\n') : undefined;
    cal.createEvent({
      ...base,
      allDay: e.allDay,
      start: e.allDay ? e.startLocal : when(e.startLocal, e.timeZone),
      end: e.allDay ? e.endLocal : when(e.endLocal, e.timeZone),
      ...(repeating ? { repeating } : {}),
      status: (part.cancelled ? 'CANCELLED' : e.status.toUpperCase()) as never,
    });
    if (method === 'PUBLISH' || method === 'REQUEST') {
      for (const ex of e.exceptions) cal.createEvent(withOccurrence(base, occurrence(e, ex.recurrenceId, ex, part)));
    }
  }
  return { cal, zoneText };
}

/**
 * The calendar's text as ical-generator's `toString()` writes it for the options set above (PRODID,
 * METHOD, NAME, a VTIMEZONE per zone of its events), less its folding: ical-generator folds the
 * whole file character by character (a TextEncoder each, seconds for a few MB), ./fold.ts does it
 * in one pass with the same output (test/calendar/fold.unit.test.ts holds the two equal).
 */
export function unfolded(cal: ICalCalendar, zoneText: (zone: string) => string | null): string {
  let g = `BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-${cal.prodId()}\r\n`;
  const method = cal.method();
  if (method) g += `METHOD:${method}\r\n`;
  const name = cal.name();
  // A TEXT value (RFC 5545 3.3.11): backslash, semicolon and comma escaped (ical-generator writes the
  // name as given, so a name such as `Ops, on call` read back as something else).
  const text = name?.replace(/[\\;,]/g, (c) => `\\${c}`).replace(/\r?\n/g, '\\n');
  if (text) g += `NAME:${text}\r\nX-WR-CALNAME:${text}\r\n`;
  const events = cal.events();
  const zones = new Set(events.map((e) => e.timezone()));
  for (const zone of zones) {
    if (zone === null || zone.startsWith('/')) continue;
    const text = zoneText(zone);
    if (text) g += `${text.replace(/\r\n/g, '\n').replace(/\n/g, '\r\n').trim()}\r\n`;
  }
  for (const e of events) g += e.toString();
  return `${g}END:VCALENDAR`;
}

function common(e: CalEvent, stamp: Date, part: IcsPart): Omit<ICalEventData, 'start'> {
  const attendees = part.attendees ?? e.attendees;
  const busy = e.busyStatus === 'workingElsewhere' ? null : BUSY[e.busyStatus];
  const x: [string, string][] = [];
  if (e.busyStatus === 'workingElsewhere') x.push(['X-MICROSOFT-CDO-BUSYSTATUS', 'WORKINGELSEWHERE']);
  if (e.sensitivity === 'personal') x.push(['X-PLATFORM-SENSITIVITY', 'personal']);
  // An all-day event's dates carry no zone: its own, for the platform reading it back.
  if (e.allDay) x.push(['X-PLATFORM-TIMEZONE', e.timeZone]);
  if (part.comment) x.push(['X-PLATFORM-COMMENT', part.comment]);
  return {
    id: e.uid,
    sequence: e.sequence,
    stamp,
    ...(e.allDay || isUtc(e.timeZone) ? {} : { timezone: e.timeZone }),
    summary: e.summary,
    ...(e.description ? { description: e.description } : {}),
    ...(e.location ? { location: e.location } : {}),
    ...(e.url ? { url: e.url } : {}),
    ...(e.organizer ? { organizer: { email: e.organizer.email, name: e.organizer.name || e.organizer.email } } : {}),
    attendees: attendees.map(attendeeData),
    busystatus: busy as never,
    transparency: (e.busyStatus === 'free' ? 'TRANSPARENT' : 'OPAQUE') as never,
    class: CLASS[e.sensitivity] as never,
    categories: e.categories.map((c) => ({ name: c })),
    alarms: e.reminders.map((m) =>
      m >= 0
        ? { type: ICalAlarmType.display, triggerBefore: m * 60 }
        : { type: ICalAlarmType.display, triggerAfter: -m * 60 },
    ),
    x,
  };
}

const withOccurrence = (base: Omit<ICalEventData, 'start'>, occ: ICalEventData): ICalEventData => ({
  ...base,
  ...occ,
  x: [...((base.x ?? []) as [string, string][]), ...((occ.x ?? []) as [string, string][])],
});

/** One occurrence as its own VEVENT (RECURRENCE-ID): the exception's values (attendees too, unless the part names its own), else the series'. */
function occurrence(e: CalEvent, recurrenceId: number, ex: Exception | undefined, part: IcsPart): ICalEventData {
  const rid = e.allDay ? dateOf(recurrenceId, e.timeZone) : when(localOf(recurrenceId, e.timeZone), e.timeZone);
  const duration = e.end - e.start;
  const start = ex?.startLocal ?? (e.allDay ? rid : localOf(recurrenceId, e.timeZone));
  const end =
    ex?.endLocal ??
    (e.allDay
      ? Temporal.PlainDate.from(start)
          .add({ days: Temporal.PlainDate.from(e.startLocal).until(Temporal.PlainDate.from(e.endLocal)).days })
          .toString()
      : localOf(recurrenceId + duration, e.timeZone));
  return {
    allDay: e.allDay,
    ...(e.allDay ? { x: [['X-PLATFORM-DATE-RID', rid.replace(/-/g, '')] as [string, string]] } : { recurrenceId: rid }),
    start: e.allDay ? start : when(start, e.timeZone),
    end: e.allDay ? end : when(end, e.timeZone),
    summary: ex?.summary ?? e.summary,
    ...((ex?.location ?? e.location) ? { location: ex?.location ?? e.location } : {}),
    status: (ex?.status ?? e.status).toUpperCase() as never,
    ...(ex?.attendees && !part.attendees ? { attendees: ex.attendees.map(attendeeData) } : {}),
  };
}

const dateOf = (ms: number, zone: string) =>
  Temporal.Instant.fromEpochMilliseconds(ms).toZonedDateTimeISO(zone).toPlainDate().toString();

function exdateValue(e: CalEvent, ms: number): string {
  if (e.allDay) return basic(dateOf(ms, e.timeZone));
  if (isUtc(e.timeZone)) return `${basic(localOf(ms, 'UTC'))}Z`;
  return basic(localOf(ms, e.timeZone));
}

/** One EXDATE a line (some readers take only the first value of a list). */
function exdateLine(e: CalEvent, value: string): string {
  if (e.allDay) return `EXDATE;VALUE=DATE:${value}`;
  if (isUtc(e.timeZone)) return `EXDATE:${value}`;
  return `EXDATE;TZID=${e.timeZone}:${value}`;
}
