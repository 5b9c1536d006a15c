import { addCalendar, daysInMonth, fromWall, type Wall, wallAt, weekday } from './zone';

/**
 * Dates in JQL: absolute (`"2024-01-31"`, `"2024/01/31 10:00"`, in the context's time zone),
 * relative to now (`-7d`, `"4w 2d"`, `-1h`, units w d h m), epoch milliseconds, and the date
 * functions (`now()`, `startOfDay("-1d")`, `endOfMonth("+1M")`…). Read with plain character
 * scans, no regular expressions.
 */

const DAY = 86_400_000;
const RELATIVE_UNITS: Record<string, number> = { w: 7 * DAY, d: DAY, h: 3_600_000, m: 60_000 };

const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';

/** Reads `digits` from `text` at `at`: [value, next index] or undefined. */
function readInt(text: string, at: number, min: number, max: number): [number, number] | undefined {
  let end = at;
  while (end < text.length && isDigit(text[end])) end++;
  if (end - at < min || end - at > max) return undefined;
  return [Number(text.slice(at, end)), end];
}

/** `-7d`, `4w 2d`, `+1h 30m`: milliseconds, or undefined when the text is not a period. */
export function parsePeriod(text: string): number | undefined {
  const s = text.trim();
  if (s === '') return undefined;
  let sign = 1;
  let at = 0;
  if (s[0] === '-' || s[0] === '+') {
    sign = s[0] === '-' ? -1 : 1;
    at = 1;
  }
  let total = 0;
  let parts = 0;
  while (at < s.length) {
    while (s[at] === ' ') at++;
    const n = readInt(s, at, 1, 9);
    if (!n) return undefined;
    const unit = RELATIVE_UNITS[s[n[1]] ?? ''];
    if (unit === undefined) return undefined;
    total += n[0] * unit;
    at = n[1] + 1;
    parts++;
    while (s[at] === ' ') at++;
  }
  return parts === 0 ? undefined : sign * total;
}

/** `2024-01-31`, `2024/01/31`, either with ` 10:00`: epoch ms in `timeZone`, or undefined. */
export function parseDate(text: string, timeZone: string): number | undefined {
  const s = text.trim();
  const y = readInt(s, 0, 4, 4);
  if (!y) return undefined;
  const sep = s[y[1]];
  if (sep !== '-' && sep !== '/') return undefined;
  const mo = readInt(s, y[1] + 1, 1, 2);
  if (!mo || s[mo[1]] !== sep) return undefined;
  const d = readInt(s, mo[1] + 1, 1, 2);
  if (!d) return undefined;
  let hour = 0;
  let minute = 0;
  if (d[1] < s.length) {
    let at = d[1];
    if (s[at] !== ' ' && s[at] !== 'T') return undefined;
    while (s[at] === ' ' || s[at] === 'T') at++;
    const h = readInt(s, at, 1, 2);
    if (!h || s[h[1]] !== ':') return undefined;
    const m = readInt(s, h[1] + 1, 2, 2);
    if (!m || m[1] !== s.length) return undefined;
    [hour, minute] = [h[0], m[0]];
  }
  if (mo[0] < 1 || mo[0] > 12 || d[0] < 1 || d[0] > daysInMonth(y[0], mo[0]) || hour > 23 || minute > 59) {
    return undefined;
  }
  return fromWall({ year: y[0], month: mo[0], day: d[0], hour, minute }, timeZone);
}

/** A YYYY-MM-DD field (due date, start date): the start of that day in `timeZone`. */
export function dayStart(isoDate: string, timeZone: string): number | undefined {
  return parseDate(isoDate, timeZone);
}

/** Start of the day holding `ms` in `timeZone`, and the start of the next one. */
export function dayBounds(ms: number, timeZone: string): [number, number] {
  const w = wallAt(ms, timeZone);
  const next = addCalendar(w, { days: 1 });
  return [
    fromWall({ year: w.year, month: w.month, day: w.day }, timeZone),
    fromWall({ year: next.year, month: next.month, day: next.day }, timeZone),
  ];
}

/** A date operand: absolute, relative to now, or epoch milliseconds. */
export function dateValue(text: string, now: number, timeZone: string): number | undefined {
  const absolute = parseDate(text, timeZone);
  if (absolute !== undefined) return absolute;
  const period = parsePeriod(text);
  if (period !== undefined) return now + period;
  const ms = readInt(text.trim(), 0, 10, 15);
  if (ms && ms[1] === text.trim().length) return ms[0];
  return undefined;
}

type CalendarUnit = 'day' | 'week' | 'month' | 'year';

export interface Increment {
  unit: 'years' | 'months' | 'weeks' | 'days' | 'hours' | 'minutes';
  amount: number;
}

const INCREMENT_UNITS: Record<string, Increment['unit']> = {
  y: 'years',
  M: 'months',
  w: 'weeks',
  d: 'days',
  h: 'hours',
  m: 'minutes',
};

/** `"-1d"`, `"+2w"`, `"1M"`: an increment, or undefined. */
export function parseIncrement(text: string): Increment | undefined {
  const s = text.trim();
  let at = 0;
  let sign = 1;
  if (s[0] === '-' || s[0] === '+') {
    sign = s[0] === '-' ? -1 : 1;
    at = 1;
  }
  const n = readInt(s, at, 1, 6);
  if (!n || n[1] !== s.length - 1) return undefined;
  const unit = INCREMENT_UNITS[s[n[1]]!];
  if (!unit) return undefined;
  return { unit, amount: sign * n[0] };
}

/** The first day of the period holding the calendar date `w`. */
function periodStart(w: Wall, unit: CalendarUnit): Wall {
  if (unit === 'day') return w;
  if (unit === 'week') return addCalendar(w, { days: 1 - weekday(w.year, w.month, w.day) });
  if (unit === 'month') return { ...w, day: 1 };
  return { ...w, month: 1, day: 1 };
}

const ONE: Record<CalendarUnit, { days?: number; weeks?: number; months?: number; years?: number }> = {
  day: { days: 1 },
  week: { weeks: 1 },
  month: { months: 1 },
  year: { years: 1 },
};

/**
 * `startOfDay`, `endOfWeek`… at `now` in `timeZone` (weeks start on Monday), moved by an optional
 * increment: a calendar increment (`-1d`, `+1M`) picks another day/week/month/year, an hour or
 * minute increment moves the result (`startOfDay("+9h")` is 09:00 today). `end…` is the last
 * millisecond of the period.
 */
export function calendarDate(
  edge: 'start' | 'end',
  unit: CalendarUnit,
  increment: Increment | undefined,
  now: number,
  timeZone: string,
): number {
  let w = wallAt(now, timeZone);
  const clock = increment && (increment.unit === 'hours' || increment.unit === 'minutes');
  if (increment && !clock) w = addCalendar(w, { [increment.unit]: increment.amount });
  const start = periodStart(w, unit);
  const day = edge === 'start' ? start : addCalendar(start, ONE[unit]);
  let result = fromWall({ year: day.year, month: day.month, day: day.day }, timeZone);
  if (edge === 'end') result -= 1;
  if (increment && clock) result += increment.amount * (increment.unit === 'hours' ? 3_600_000 : 60_000);
  return result;
}

export const DATE_FUNCTIONS: Record<string, [edge: 'start' | 'end', unit: CalendarUnit]> = {
  startofday: ['start', 'day'],
  endofday: ['end', 'day'],
  startofweek: ['start', 'week'],
  endofweek: ['end', 'week'],
  startofmonth: ['start', 'month'],
  endofmonth: ['end', 'month'],
  startofyear: ['start', 'year'],
  endofyear: ['end', 'year'],
};
