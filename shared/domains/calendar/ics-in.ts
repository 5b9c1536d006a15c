import { createHash } from 'node:crypto';
import ICAL from 'ical.js';
import { findIana } from 'windows-iana';
import type {
  Attendee,
  AttendeeKind,
  AttendeeRole,
  AttendeeStatus,
  BusyStatus,
  CalEvent,
  EventStatus,
  Exception,
  Sensitivity,
} from './records';
import { canonicalRule, fromRRule } from './recurrence';
import { canonicalZone, instantOf, localOf, plainText, startOfDay, Temporal } from './time';

/**
 * iCalendar text read with ical.js: events grouped by UID (RECURRENCE-ID VEVENTs become the
 * series' exceptions), times as wall-clock in an IANA zone. A TZID is taken as IANA when it is one,
 * else by its VTIMEZONE's X-LIC-LOCATION, by CLDR's Windows names (Exchange's "Pacific Standard
 * Time", windows-iana), by an IANA name at its end (`/mozilla.org/…/Europe/Berlin`,
 * `custom_Pacific/Fiji`) or its TZURL; floating times take the calendar's `X-WR-TIMEZONE`.
 * EXDATEs are matched by instant. What the platform does not keep (RDATE, RANGE=THISANDFUTURE,
 * VTODO, VJOURNAL) becomes a warning.
 */
export type ParsedEvent = Omit<
  CalEvent,
  'mailboxId' | 'eventId' | 'calendarId' | 'version' | 'createdAt' | 'updatedAt' | 'firstStart' | 'lastEnd'
>;

export interface Parsed {
  method: string | null;
  events: ParsedEvent[];
  /** Changed occurrences whose series is not in the text (an invitation's update of one occurrence). */
  occurrences: { uid: string; sequence: number; exception: Exception; attendees: Attendee[] }[];
  warnings: string[];
}

type Comp = InstanceType<typeof ICAL.Component>;
type Prop = InstanceType<typeof ICAL.Property>;
type Time = InstanceType<typeof ICAL.Time>;

const LIMIT = { summary: 1000, description: 64_000, location: 2000, attendees: 200, categories: 30, reminders: 5 };

const ROLES: Record<string, AttendeeRole> = {
  'OPT-PARTICIPANT': 'optional',
  'REQ-PARTICIPANT': 'required',
  CHAIR: 'chair',
  'NON-PARTICIPANT': 'non-participant',
};
const KINDS: Record<string, AttendeeKind> = {
  UNKNOWN: 'unknown',
  RESOURCE: 'resource',
  INDIVIDUAL: 'individual',
  GROUP: 'group',
  ROOM: 'room',
};
const PARTSTATS: Record<string, AttendeeStatus> = {
  ACCEPTED: 'accepted',
  TENTATIVE: 'tentative',
  'NEEDS-ACTION': 'needs-action',
  DECLINED: 'declined',
  DELEGATED: 'delegated',
};

const mailto = (v: unknown) =>
  String(v ?? '')
    .replace(/^mailto:/i, '')
    .trim()
    .toLowerCase();
const text = (v: unknown, max: number) => (typeof v === 'string' ? v : v == null ? '' : String(v)).slice(0, max);

/** An IANA zone for a TZID (see above), or null. */
export function ianaOf(tzid: string, vtimezone?: Comp): string | null {
  const name = tzid.replace(/^"|"$/g, '').trim();
  const direct = canonicalZone(name);
  if (direct) return direct;
  const location = vtimezone?.getFirstPropertyValue('x-lic-location');
  if (typeof location === 'string' && canonicalZone(location)) return canonicalZone(location);
  const windows = findIana(name)[0];
  if (windows && canonicalZone(windows)) return canonicalZone(windows);
  const tail = /([A-Za-z]+(?:\/[A-Za-z0-9_+-]+){1,2})$/.exec(name.replace(/^custom_/i, ''))?.[1];
  if (tail && canonicalZone(tail)) return canonicalZone(tail);
  const url = vtimezone?.getFirstPropertyValue('tzurl');
  const fromUrl = typeof url === 'string' ? /([A-Za-z]+\/[A-Za-z0-9_+-]+)$/.exec(url)?.[1] : undefined;
  if (fromUrl && canonicalZone(fromUrl)) return canonicalZone(fromUrl);
  return null;
}

interface Context {
  zones: Map<string, Comp>;
  calendarZone: string;
  warnings: string[];
  unknownZones: Set<string>;
}

const plainOf = (t: Time) =>
  Temporal.PlainDateTime.from({
    year: t.year,
    month: t.month,
    day: t.day,
    hour: t.isDate ? 0 : t.hour,
    minute: t.isDate ? 0 : t.minute,
    second: t.isDate ? 0 : Math.min(t.second, 59),
  });

/** The zone a property's time is in: its TZID's IANA zone, UTC, or the calendar's (floating, unknown). */
function zoneOfProp(prop: Prop, ctx: Context): string {
  const t = prop.getFirstValue() as Time;
  const tzid = prop.getParameter('tzid');
  if (typeof tzid === 'string' && tzid) {
    const z = ianaOf(tzid, ctx.zones.get(tzid.replace(/^"|"$/g, '')));
    if (z) return z;
    if (!ctx.unknownZones.has(tzid)) {
      ctx.unknownZones.add(tzid);
      ctx.warnings.push(`Unknown time zone ${tzid}: its times were read in ${ctx.calendarZone}.`);
    }
    return ctx.calendarZone;
  }
  if (t && !t.isDate && t.zone?.tzid === 'UTC') return 'UTC';
  return ctx.calendarZone;
}

/** A time value as an instant: a date's start of day or a wall-clock time in `zone`. */
const instantIn = (t: Time, zone: string) =>
  t.isDate ? startOfDay(plainOf(t).toPlainDate(), zone) : instantOf(plainOf(t), zone);

export function parseIcs(content: string, self: string[] = []): Parsed {
  const warnings: string[] = [];
  let root: Comp;
  try {
    root = new ICAL.Component(ICAL.parse(content.replace(/^\uFEFF/, '')) as unknown as unknown[]);
  } catch (err) {
    return { method: null, events: [], occurrences: [], warnings: [`Not iCalendar text: ${(err as Error).message}`] };
  }
  const calendars = root.name === 'vcalendar' ? [root] : root.getAllSubcomponents('vcalendar');
  const out: ParsedEvent[] = [];
  const occurrences: Parsed['occurrences'] = [];
  let method: string | null = null;
  for (const cal of calendars) {
    method ??= (cal.getFirstPropertyValue('method') as string | null)?.toUpperCase() ?? null;
    const wr = cal.getFirstPropertyValue('x-wr-timezone');
    const zones = new Map<string, Comp>();
    for (const z of cal.getAllSubcomponents('vtimezone')) {
      const id = z.getFirstPropertyValue('tzid');
      if (typeof id === 'string') zones.set(id, z);
    }
    const ctx: Context = {
      zones,
      calendarZone: (typeof wr === 'string' && ianaOf(wr)) || 'UTC',
      warnings,
      unknownZones: new Set(),
    };
    for (const kind of ['vtodo', 'vjournal'] as const) {
      const n = cal.getAllSubcomponents(kind).length;
      if (n > 0)
        warnings.push(`${n} ${kind === 'vtodo' ? 'task(s) (VTODO)' : 'journal entries (VJOURNAL)'} not imported.`);
    }
    const masters = new Map<string, ParsedEvent>();
    const changed: Comp[] = [];
    for (const ve of cal.getAllSubcomponents('vevent')) {
      if (ve.hasProperty('recurrence-id')) {
        changed.push(ve);
        continue;
      }
      const e = readEvent(ve, ctx, self);
      if (!e) continue;
      if (masters.has(e.uid)) warnings.push(`Event ${e.uid} appears twice: the last one was kept.`);
      masters.set(e.uid, e);
    }
    for (const ve of changed) {
      const uid = String(ve.getFirstPropertyValue('uid') ?? '');
      const master = masters.get(uid);
      const ex = readException(ve, ctx, self);
      if (!ex) continue;
      if (!master) {
        occurrences.push({
          uid,
          sequence: Number(ve.getFirstPropertyValue('sequence') ?? 0) || 0,
          exception: ex,
          attendees: peopleOf(ve, self, uid, []).attendees,
        });
        warnings.push(`A changed occurrence of ${uid} has no series in the file: skipped.`);
        continue;
      }
      if (!master.rrule) {
        warnings.push(`A changed occurrence of ${uid}, which does not repeat: skipped.`);
        continue;
      }
      master.exceptions = [...master.exceptions.filter((x) => x.recurrenceId !== ex.recurrenceId), ex];
    }
    out.push(...masters.values());
  }
  return { method, events: out, occurrences, warnings };
}

function timesOf(
  ve: Comp,
  ctx: Context,
): { allDay: boolean; zone: string; start: number; end: number; startLocal: string; endLocal: string } | null {
  const dtstart = ve.getFirstProperty('dtstart');
  const st = dtstart?.getFirstValue() as Time | undefined;
  if (!dtstart || !st) return null;
  const allDay = st.isDate;
  // An all-day event takes the calendar's zone, or its own as the platform's exports write it.
  const own = ve.getFirstPropertyValue('x-platform-timezone');
  const zone = allDay ? (typeof own === 'string' && canonicalZone(own)) || ctx.calendarZone : zoneOfProp(dtstart, ctx);
  const start = instantIn(st, zone);
  const dtend = ve.getFirstProperty('dtend');
  const et = dtend?.getFirstValue() as Time | undefined;
  const duration = ve.getFirstPropertyValue('duration') as InstanceType<typeof ICAL.Duration> | null;
  let startLocal: string;
  let endLocal: string;
  let end: number;
  if (allDay) {
    const d = plainOf(st).toPlainDate();
    let endDate = d.add({ days: 1 });
    if (et?.isDate) endDate = plainOf(et).toPlainDate();
    else if (duration) endDate = d.add({ days: Math.max(1, Math.round(duration.toSeconds() / 86400)) });
    if (Temporal.PlainDate.compare(endDate, d) <= 0) endDate = d.add({ days: 1 });
    startLocal = d.toString();
    endLocal = endDate.toString();
    end = startOfDay(endDate, zone);
  } else {
    startLocal = plainText(plainOf(st));
    if (et && dtend) end = instantIn(et, zoneOfProp(dtend, ctx));
    else if (duration) end = start + duration.toSeconds() * 1000;
    else end = start;
    if (end < start) end = start;
    endLocal = localOf(end, zone);
  }
  return { allDay, zone, start, end, startLocal, endLocal };
}

const statusOf = (v: unknown): EventStatus => {
  const s = String(v ?? '').toUpperCase();
  return s === 'CANCELLED' ? 'cancelled' : s === 'TENTATIVE' ? 'tentative' : 'confirmed';
};

function peopleOf(ve: Comp, self: string[], uid: string, warnings: string[]) {
  const org = ve.getFirstProperty('organizer');
  const organizer = org
    ? {
        email: mailto(org.getFirstValue()),
        ...(org.getParameter('cn') ? { name: text(org.getParameter('cn'), 200) } : {}),
      }
    : null;
  const props = ve.getAllProperties('attendee');
  if (props.length > LIMIT.attendees) warnings.push(`Event ${uid}: only the first 200 attendees were kept.`);
  const attendees: Attendee[] = props.slice(0, LIMIT.attendees).flatMap((p) => {
    const email = mailto(p.getFirstValue());
    if (!email.includes('@')) return [];
    const cn = p.getParameter('cn');
    return [
      {
        email,
        ...(cn ? { name: text(cn, 200) } : {}),
        role: ROLES[String(p.getParameter('role') ?? '').toUpperCase()] ?? 'required',
        status: PARTSTATS[String(p.getParameter('partstat') ?? '').toUpperCase()] ?? 'needs-action',
        rsvp: String(p.getParameter('rsvp') ?? '').toUpperCase() === 'TRUE',
        kind: KINDS[String(p.getParameter('cutype') ?? '').toUpperCase()] ?? 'individual',
      },
    ];
  });
  const mine = attendees.find((a) => self.includes(a.email));
  const isOrganizer = !organizer || self.includes(organizer.email);
  return { organizer: organizer?.email ? organizer : null, attendees, myStatus: mine?.status ?? null, isOrganizer };
}

function readEvent(ve: Comp, ctx: Context, self: string[]): ParsedEvent | null {
  const uid =
    String(ve.getFirstPropertyValue('uid') ?? '').trim() ||
    `${createHash('sha256').update(ve.toString()).digest('hex').slice(0, 32)}@import`;
  const times = timesOf(ve, ctx);
  if (!times) {
    ctx.warnings.push(`Event ${uid} has no start: skipped.`);
    return null;
  }
  if (ve.hasProperty('rdate')) ctx.warnings.push(`Event ${uid}: extra dates (RDATE) are not kept.`);
  const rules = ve.getAllProperties('rrule');
  if (rules.length > 1) ctx.warnings.push(`Event ${uid}: only its first repeat rule (RRULE) was kept.`);
  const rrule = rules[0] ? canonicalRule(String(rules[0].getFirstValue())) : null;
  const exdates = ve.getAllProperties('exdate').flatMap((p) => {
    const zone = times.allDay ? times.zone : zoneOfProp(p, ctx);
    return (p.getValues() as Time[]).map((t) => instantIn(t, zone));
  });
  const busyX = String(ve.getFirstPropertyValue('x-microsoft-cdo-busystatus') ?? '').toUpperCase();
  const transp = String(ve.getFirstPropertyValue('transp') ?? '').toUpperCase();
  const busyStatus: BusyStatus =
    busyX === 'FREE'
      ? 'free'
      : busyX === 'TENTATIVE'
        ? 'tentative'
        : busyX === 'OOF'
          ? 'oof'
          : busyX === 'WORKINGELSEWHERE'
            ? 'workingElsewhere'
            : busyX === 'BUSY' || transp !== 'TRANSPARENT'
              ? 'busy'
              : 'free';
  const klass = String(ve.getFirstPropertyValue('class') ?? '').toUpperCase();
  const sensitivity: Sensitivity =
    ve.getFirstPropertyValue('x-platform-sensitivity') === 'personal'
      ? 'personal'
      : klass === 'PRIVATE'
        ? 'private'
        : klass === 'CONFIDENTIAL'
          ? 'confidential'
          : 'normal';
  const categories = [
    ...new Set(
      ve
        .getAllProperties('categories')
        .flatMap((p) => p.getValues().map((v) => text(v, 100).trim()))
        .filter(Boolean),
    ),
  ].slice(0, LIMIT.categories);
  const reminders = ve
    .getAllSubcomponents('valarm')
    .flatMap((a) => {
      const trigger = a.getFirstPropertyValue('trigger');
      return trigger instanceof ICAL.Duration ? [Math.round(-trigger.toSeconds() / 60)] : [];
    })
    .filter((m) => m >= -10080 && m <= 40320)
    .slice(0, LIMIT.reminders);
  const url = ve.getFirstPropertyValue('url');
  const people = peopleOf(ve, self, uid, ctx.warnings);
  return {
    uid,
    summary: text(ve.getFirstPropertyValue('summary'), LIMIT.summary).trim(),
    description: text(ve.getFirstPropertyValue('description'), LIMIT.description),
    location: text(ve.getFirstPropertyValue('location'), LIMIT.location),
    allDay: times.allDay,
    start: times.start,
    end: times.end,
    startLocal: times.startLocal,
    endLocal: times.endLocal,
    timeZone: times.zone,
    ...people,
    status: statusOf(ve.getFirstPropertyValue('status')),
    busyStatus,
    sensitivity,
    reminders,
    categories,
    url: typeof url === 'string' && url.length <= 2000 ? url : null,
    rrule,
    recurrence: rrule ? fromRRule(rrule, times.zone) : null,
    exdates,
    exceptions: [],
    sequence: Number(ve.getFirstPropertyValue('sequence') ?? 0) || 0,
  };
}

/** A RECURRENCE-ID VEVENT as an exception of its series (keyed by the original start's instant). */
export function readException(ve: Comp, ctx: Context, self: string[]): Exception | null {
  const uid = String(ve.getFirstPropertyValue('uid') ?? '');
  const ridProp = ve.getFirstProperty('recurrence-id') as Prop;
  const rid = ridProp.getFirstValue() as Time;
  if (String(ridProp.getParameter('range') ?? '').toUpperCase() === 'THISANDFUTURE')
    ctx.warnings.push(
      `Event ${uid}: a change to this and future occurrences (RANGE=THISANDFUTURE) was kept for one occurrence only.`,
    );
  const times = timesOf(ve, ctx);
  if (!times) {
    ctx.warnings.push(`A changed occurrence of ${uid} has no start: skipped.`);
    return null;
  }
  const recurrenceId = instantIn(rid, rid.isDate ? times.zone : zoneOfProp(ridProp, ctx));
  const people = peopleOf(ve, self, uid, []);
  return {
    recurrenceId,
    start: times.start,
    end: times.end,
    startLocal: times.startLocal,
    endLocal: times.endLocal,
    summary: text(ve.getFirstPropertyValue('summary'), LIMIT.summary).trim(),
    location: text(ve.getFirstPropertyValue('location'), LIMIT.location),
    status: statusOf(ve.getFirstPropertyValue('status')),
    myStatus: people.myStatus,
  };
}

/** The parse context of a lone VEVENT of an invitation (for iTIP). */
export type { Context as ParseContext };
