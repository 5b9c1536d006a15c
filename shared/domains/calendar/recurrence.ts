import { RRuleTemporal } from 'rrule-temporal';
import * as z from 'zod/mini';
import { describeError, log } from '../../kernel/ground/log';
import { instantOf, type PlainDate, type PlainDateTime, parseLocal, startOfDay, Temporal } from './time';

/**
 * Repeat rules (RFC 5545 RRULE) of events: the API's object form, its RRULE text, and the
 * expansion of a series into occurrences with `rrule-temporal`.
 *
 * Expansion runs on wall-clock times: the rule is enumerated over the event's local start as if
 * its zone had no DST (a floating UTC clock), then each local occurrence is placed in the event's
 * own zone with Temporal's `compatible` disambiguation. So a 02:30 series keeps 02:30 all year,
 * an occurrence in a spring-forward gap moves forward by the gap (03:30), one in an autumn overlap
 * takes the first 01:30: RFC 5545 §3.3.5 (rrule-temporal alone would drop the gap's occurrence).
 */
export const WEEKDAYS = ['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA'] as const;
export type Weekday = (typeof WEEKDAYS)[number];
export const FREQS = ['daily', 'weekly', 'monthly', 'yearly'] as const;
export type Freq = (typeof FREQS)[number];

export interface Recurrence {
  freq: Freq;
  interval: number;
  count?: number;
  /** The last day (`YYYY-MM-DD`, inclusive) in the event's zone. */
  until?: string;
  byDay?: { day: Weekday; nth?: number }[];
  byMonthDay?: number[];
  byMonth?: number[];
  bySetPos?: number[];
  weekStart?: Weekday;
}

const WeekdaySchema = z.enum(WEEKDAYS);
const Int = (min: number, max: number) => z.number().check(z.int(), z.minimum(min), z.maximum(max));

/**
 * A repeat rule's limits: the event body's `recurrence`, and what an imported or emailed RRULE is
 * held to (`receivedRuleError` below).
 */
export const RecurrenceSchema = z.object({
  freq: z.enum(['daily', 'weekly', 'monthly', 'yearly']),
  interval: z._default(Int(1, 999), 1),
  count: z.optional(Int(1, 5000)),
  until: z.optional(z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/, 'until must be YYYY-MM-DD.'))),
  byDay: z.optional(z.array(z.object({ day: WeekdaySchema, nth: z.optional(Int(-53, 53)) })).check(z.maxLength(7))),
  byMonthDay: z.optional(z.array(Int(-31, 31)).check(z.maxLength(31))),
  byMonth: z.optional(z.array(Int(1, 12)).check(z.maxLength(12))),
  bySetPos: z.optional(z.array(Int(-366, 366)).check(z.maxLength(10))),
  weekStart: z.optional(WeekdaySchema),
});

export const RECURRENCE_MESSAGES = {
  countAndUntil: 'A repeat rule takes count or until, not both.',
  setPosAlone: 'bySetPos needs byDay, byMonthDay or byMonth beside it.',
  nthNotMonthly: 'A numbered byDay (like the 2nd Tuesday) is only for monthly or yearly rules.',
  zero: 'byDay nth, byMonthDay and bySetPos cannot be 0.',
  badUntil: 'until must be a date (YYYY-MM-DD).',
  unusable: 'This repeat rule gives no occurrences.',
  /** Why a received rule (an import, an invitation) is refused: past what an event's recurrence takes. */
  part: (key: string) =>
    `Repeat rules with ${key} are not kept: only FREQ, INTERVAL, COUNT, UNTIL, BYDAY, BYMONTHDAY, BYMONTH, BYSETPOS and WKST.`,
  freq: (freq: string) =>
    `Only DAILY, WEEKLY, MONTHLY and YEARLY repeat rules are kept (this one: ${freq || 'no FREQ'}).`,
  limit: (part: string) =>
    `A repeat rule is held to an event's limits (INTERVAL 1-999, COUNT 1-5000, up to 7 BYDAY, 31 BYMONTHDAY, 12 BYMONTH and 10 BYSETPOS values): this one's ${part} is past them.`,
  badDay: (value: string) => `BYDAY takes weekdays (like MO or 2TU), not ${value}.`,
  badUntilValue: 'UNTIL must be a date or a date-time.',
} as const;

/** Why the rule is not a valid RFC 5545 rule, or null. */
export function ruleError(r: Recurrence): string | null {
  if (r.count !== undefined && r.until !== undefined) return RECURRENCE_MESSAGES.countAndUntil;
  if (r.bySetPos?.length && !r.byDay?.length && !r.byMonthDay?.length && !r.byMonth?.length)
    return RECURRENCE_MESSAGES.setPosAlone;
  if (r.byDay?.some((d) => d.nth !== undefined) && r.freq !== 'monthly' && r.freq !== 'yearly')
    return RECURRENCE_MESSAGES.nthNotMonthly;
  if (r.byDay?.some((d) => d.nth === 0) || r.byMonthDay?.includes(0) || r.bySetPos?.includes(0))
    return RECURRENCE_MESSAGES.zero;
  if (r.until !== undefined) {
    const p = parseLocal(r.until);
    if (!p || p.time) return RECURRENCE_MESSAGES.badUntil;
  }
  return null;
}

const compact = (s: string) => s.replace(/[-:]/g, '');

/** The RRULE value of a rule; `UNTIL` is the end of its day in `zone` (UTC), or a DATE for all-day events. */
export function toRRule(r: Recurrence, allDay: boolean, zone: string): string {
  const parts = [`FREQ=${r.freq.toUpperCase()}`];
  if (r.interval !== 1) parts.push(`INTERVAL=${r.interval}`);
  if (r.count !== undefined) parts.push(`COUNT=${r.count}`);
  if (r.until !== undefined) {
    const day = Temporal.PlainDate.from(r.until);
    if (allDay) parts.push(`UNTIL=${compact(day.toString())}`);
    else {
      const last = Temporal.Instant.fromEpochMilliseconds(startOfDay(day.add({ days: 1 }), zone) - 1000);
      parts.push(`UNTIL=${compact(last.toString({ smallestUnit: 'second' }))}`);
    }
  }
  if (r.byDay?.length) parts.push(`BYDAY=${r.byDay.map((d) => `${d.nth ?? ''}${d.day}`).join(',')}`);
  if (r.byMonthDay?.length) parts.push(`BYMONTHDAY=${r.byMonthDay.join(',')}`);
  if (r.byMonth?.length) parts.push(`BYMONTH=${r.byMonth.join(',')}`);
  if (r.bySetPos?.length) parts.push(`BYSETPOS=${r.bySetPos.join(',')}`);
  if (r.weekStart) parts.push(`WKST=${r.weekStart}`);
  return parts.join(';');
}

/** The parts of an RRULE value (`KEY=VALUE;…`, an `RRULE:` prefix allowed), keys uppercased. */
export function ruleParts(rrule: string): Map<string, string> {
  const parts = new Map<string, string>();
  for (const p of rrule.replace(/^RRULE:/i, '').split(';')) {
    const i = p.indexOf('=');
    if (i > 0) parts.set(p.slice(0, i).trim().toUpperCase(), p.slice(i + 1).trim());
  }
  return parts;
}

const ORDER = [
  'FREQ',
  'INTERVAL',
  'COUNT',
  'UNTIL',
  'BYSECOND',
  'BYMINUTE',
  'BYHOUR',
  'BYDAY',
  'BYMONTHDAY',
  'BYYEARDAY',
  'BYWEEKNO',
  'BYMONTH',
  'BYSETPOS',
  'WKST',
];
const rank = (key: string) => (ORDER.includes(key) ? ORDER.indexOf(key) : ORDER.length);

/** An RRULE value with its parts in one order (toRRule's), whoever wrote it. */
export const canonicalRule = (rrule: string) =>
  [...ruleParts(rrule)]
    .sort(([a], [b]) => rank(a) - rank(b))
    .map(([k, v]) => `${k}=${v}`)
    .join(';');

/** An UNTIL value as an instant (UTC or a DATE-TIME in `zone`) or a date. */
function untilOf(value: string, zone: string): { date: PlainDate; ms: number | null } | null {
  const m = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})(Z)?)?$/.exec(value);
  if (!m) return null;
  try {
    const date = Temporal.PlainDate.from(
      { year: Number(m[1]), month: Number(m[2]), day: Number(m[3]) },
      { overflow: 'reject' },
    );
    if (m[4] === undefined) return { date, ms: null };
    const local = date.toPlainDateTime({ hour: +m[4], minute: +(m[5] ?? 0), second: +(m[6] ?? 0) });
    const ms = m[7] ? local.toZonedDateTime('UTC').epochMilliseconds : instantOf(local, zone);
    return { date: Temporal.Instant.fromEpochMilliseconds(ms).toZonedDateTimeISO(zone).toPlainDate(), ms };
  } catch {
    return null;
  }
}

/** The API's object form of an RRULE value (for imported events), or null when it has none (HOURLY…). */
export function fromRRule(rrule: string, zone: string): Recurrence | null {
  const p = ruleParts(rrule);
  const freq = (p.get('FREQ') ?? '').toLowerCase() as Freq;
  if (!FREQS.includes(freq)) return null;
  const nums = (key: string) => p.get(key)?.split(',').map(Number);
  const r: Recurrence = { freq, interval: Number(p.get('INTERVAL') ?? 1) || 1 };
  if (p.has('COUNT')) r.count = Number(p.get('COUNT'));
  if (p.has('UNTIL')) {
    const u = untilOf(p.get('UNTIL') as string, zone);
    if (u) r.until = u.date.toString();
  }
  const byDay = p.get('BYDAY');
  if (byDay) {
    r.byDay = byDay.split(',').flatMap((d) => {
      const m = /^([+-]?\d{1,2})?(SU|MO|TU|WE|TH|FR|SA)$/.exec(d.trim().toUpperCase());
      if (!m) return [];
      return [m[1] ? { day: m[2] as Weekday, nth: Number(m[1]) } : { day: m[2] as Weekday }];
    });
  }
  if (p.has('BYMONTHDAY')) r.byMonthDay = nums('BYMONTHDAY');
  if (p.has('BYMONTH')) r.byMonth = nums('BYMONTH');
  if (p.has('BYSETPOS')) r.bySetPos = nums('BYSETPOS');
  const wkst = p.get('WKST')?.toUpperCase();
  if (wkst && (WEEKDAYS as readonly string[]).includes(wkst)) r.weekStart = wkst as Weekday;
  return r;
}

/** The RRULE parts an event's `recurrence` has: a received rule with another is refused. */
const KEPT = new Set(['FREQ', 'INTERVAL', 'COUNT', 'UNTIL', 'BYDAY', 'BYMONTHDAY', 'BYMONTH', 'BYSETPOS', 'WKST']);

/**
 * Why a received RRULE (an imported `.ics`, an emailed invitation) is refused, or null: it is held
 * to what the event body takes (RecurrenceSchema: daily to yearly, `INTERVAL` 1-999, `COUNT`
 * 1-5000, at most 7 BYDAY, 31 BYMONTHDAY, 12 BYMONTH, 10 BYSETPOS; no BYHOUR, BYMINUTE, BYSECOND,
 * BYYEARDAY, BYWEEKNO, RSCALE…), so it is whole in its `recurrence` and gives at most one
 * occurrence a day. The expansion holds stored rules to it too (a rule stored before: its first
 * occurrence only).
 */
export function receivedRuleError(rrule: string, zone: string): string | null {
  const p = ruleParts(rrule);
  for (const key of p.keys()) if (!KEPT.has(key)) return RECURRENCE_MESSAGES.part(key);
  const freq = (p.get('FREQ') ?? '').toUpperCase();
  if (!(FREQS as readonly string[]).includes(freq.toLowerCase())) return RECURRENCE_MESSAGES.freq(freq);
  const bad = p
    .get('BYDAY')
    ?.split(',')
    .find((d) => !/^([+-]?\d{1,2})?(SU|MO|TU|WE|TH|FR|SA)$/i.test(d.trim()));
  if (bad !== undefined) return RECURRENCE_MESSAGES.badDay(bad);
  const until = p.get('UNTIL');
  if (until !== undefined && !untilOf(until, zone)) return RECURRENCE_MESSAGES.badUntilValue;
  const r = fromRRule(rrule, zone) as Recurrence;
  if (p.has('INTERVAL')) r.interval = Number(p.get('INTERVAL'));
  const checked = z.safeParse(RecurrenceSchema, r);
  if (!checked.success) {
    const field = String(checked.error.issues[0]?.path[0] ?? '');
    return RECURRENCE_MESSAGES.limit(field.toUpperCase() || 'rule');
  }
  return ruleError(r);
}

const withinLimits = (s: Series) => {
  const key = `${s.rrule}\n${s.timeZone}`;
  let ok = limitsCache.get(key);
  if (ok === undefined) {
    ok = receivedRuleError(s.rrule, s.timeZone) === null;
    if (limitsCache.size > 2000) limitsCache.clear();
    limitsCache.set(key, ok);
  }
  return ok;
};
const limitsCache = new Map<string, boolean>();

/** What the expansion needs of a series. */
export interface Series {
  /** The RRULE value. */
  rrule: string;
  allDay: boolean;
  timeZone: string;
  /** Wall-clock start (`YYYY-MM-DDTHH:MM:SS`, or `YYYY-MM-DD` all-day). */
  startLocal: string;
  endLocal: string;
  start: number;
  end: number;
}

export interface Instance {
  /** The occurrence's original start (its recurrence id), UTC ms. */
  start: number;
  end: number;
  /** All-day: its dates (end exclusive). */
  startDate?: string;
  endDate?: string;
}

const FLOAT = 'UTC';
const localStart = (s: Series) =>
  s.allDay ? Temporal.PlainDate.from(s.startLocal).toPlainDateTime() : Temporal.PlainDateTime.from(s.startLocal);

const ruleCache = new Map<string, RRuleTemporal>();

/**
 * rrule-temporal's work on one rule, in steps: a rule within the limits needs at most about 35,000
 * (daily by one weekday, 5,000 times); one that needs more (its occurrences too rare to be found,
 * or none) is refused when written (RM.unusable), and never runs longer than this when read.
 */
const MAX_ITERATIONS = 50_000;

/** The rule over the floating clock (UNTIL moved onto it), cached by its inputs. */
function floatingRule(s: Series): RRuleTemporal {
  const key = `${s.rrule}\n${s.startLocal}\n${s.timeZone}\n${s.allDay}`;
  const cached = ruleCache.get(key);
  if (cached) return cached;
  const parts = ruleParts(s.rrule);
  const until = parts.get('UNTIL');
  if (until) {
    const u = untilOf(until, s.timeZone);
    if (!u) parts.delete('UNTIL');
    else {
      const local =
        u.ms === null
          ? u.date.toPlainDateTime({ hour: 23, minute: 59, second: 59 })
          : Temporal.Instant.fromEpochMilliseconds(u.ms).toZonedDateTimeISO(s.timeZone).toPlainDateTime();
      parts.set('UNTIL', `${compact(local.toString({ smallestUnit: 'second' }))}Z`);
    }
  }
  const text = [...parts].map(([k, v]) => `${k}=${v}`).join(';');
  const rule = new RRuleTemporal({
    rruleString: text,
    dtstart: localStart(s).toZonedDateTime(FLOAT),
    maxIterations: MAX_ITERATIONS,
  });
  if (ruleCache.size > 2000) ruleCache.clear();
  ruleCache.set(key, rule);
  return rule;
}

/**
 * Whether rrule-temporal takes the rule and works out where it ends within its steps (an import
 * skips one it refuses, the routes answer RM.unusable). A rule past the limits is left to
 * receivedRuleError (the routes' schema keeps them out).
 */
export function usableRule(s: Series): boolean {
  try {
    floatingRule(s).between(
      localStart(s).toZonedDateTime(FLOAT),
      localStart(s).toZonedDateTime(FLOAT).add({ days: 1 }),
      true,
    );
    if (ruleParts(s.rrule).has('COUNT')) countedEnd(s);
    return true;
  } catch {
    return false;
  }
}

function placed(s: Series, local: PlainDateTime, days: number, durationMs: number): Instance {
  if (s.allDay) {
    const d = local.toPlainDate();
    const endDate = d.add({ days });
    return {
      start: startOfDay(d, s.timeZone),
      end: startOfDay(endDate, s.timeZone),
      startDate: d.toString(),
      endDate: endDate.toString(),
    };
  }
  const start = instantOf(local, s.timeZone);
  return { start, end: start + durationMs };
}

const dayCount = (s: Series) =>
  s.allDay ? Temporal.PlainDate.from(s.startLocal).until(Temporal.PlainDate.from(s.endLocal)).days : 0;

/** Whether an occurrence touches `[from, to)` (one with no length, when it starts inside). */
export const touches = (o: { start: number; end: number }, from: number, to: number) =>
  o.end > o.start ? o.start < to && o.end > from : o.start >= from && o.start < to;

/** The series' first occurrence alone (a stored rule past the limits is not followed). */
const firstOnly = (s: Series): Instance[] => [
  s.allDay
    ? { start: s.start, end: s.end, startDate: s.startLocal, endDate: s.endLocal }
    : { start: s.start, end: s.end },
];

/** The occurrences of a series that touch `[from, to)`, by their original start. */
export function expand(s: Series, from: number, to: number): Instance[] {
  if (!withinLimits(s)) return firstOnly(s).filter((o) => touches(o, from, to));
  const duration = s.end - s.start;
  const days = dayCount(s);
  const floatOf = (ms: number) =>
    Temporal.Instant.fromEpochMilliseconds(ms).toZonedDateTimeISO(s.timeZone).toPlainDateTime().toZonedDateTime(FLOAT);
  // The window on the floating clock, a day wider each side (zone offsets are under a day).
  const lo = floatOf(from - Math.max(duration, 0)).subtract({ days: 1 });
  const hi = floatOf(to).add({ days: 1 });
  let found: ReturnType<RRuleTemporal['between']>;
  try {
    found = floatingRule(s).between(lo, hi, true);
  } catch (err) {
    // Only a rule written before the limits held gets here: the window goes on without it.
    log.warn('calendar_rule_unexpanded', { rrule: s.rrule, error: describeError(err) });
    return [];
  }
  const out: Instance[] = [];
  for (const d of found) {
    const o = placed(s, d.toPlainDateTime(), days, duration);
    if (touches(o, from, to)) out.push(o);
  }
  return out;
}

/** Every occurrence of a bounded series (COUNT), for its last end. */
export function allOf(s: Series, limit = 5000): Instance[] {
  if (!withinLimits(s)) return firstOnly(s);
  const duration = s.end - s.start;
  const days = dayCount(s);
  return floatingRule(s)
    .all((_, i) => i < limit)
    .map((d) => placed(s, d.toPlainDateTime(), days, duration));
}

const endCache = new Map<string, number>();

/** The end of a COUNT series' last occurrence (rrule-temporal throws past its steps), cached by its inputs. */
function countedEnd(s: Series): number {
  const key = `${s.rrule}\n${s.startLocal}\n${s.endLocal}\n${s.timeZone}\n${s.allDay}`;
  const cached = endCache.get(key);
  if (cached !== undefined) return cached;
  const end = Math.max(s.end, ...allOf(s).map((o) => o.end));
  if (endCache.size > 2000) endCache.clear();
  endCache.set(key, end);
  return end;
}

/** The end of a series' last occurrence: Infinity for a rule without COUNT or UNTIL. */
export function lastEndOf(s: Series): number {
  if (!withinLimits(s)) return s.end;
  const parts = ruleParts(s.rrule);
  const until = parts.get('UNTIL');
  if (until) {
    const u = untilOf(until, s.timeZone);
    if (u) return (u.ms ?? startOfDay(u.date.add({ days: 1 }), s.timeZone)) + Math.max(s.end - s.start, 0) + 86_400_000;
  }
  if (parts.has('COUNT')) {
    try {
      return countedEnd(s);
    } catch {
      // A rule written before the limits held, too costly to follow to its end: listed as endless.
      return Number.POSITIVE_INFINITY;
    }
  }
  return Number.POSITIVE_INFINITY;
}
