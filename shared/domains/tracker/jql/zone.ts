/**
 * Wall-clock time in an IANA zone, with Intl only (no Temporal: this stays small in the bundle
 * and loads under jest's CommonJS transform). Enough for JQL's days, weeks, months and years.
 */

export interface Wall {
  year: number;
  /** 1-12 */
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
}

const formats = new Map<string, Intl.DateTimeFormat>();

function format(timeZone: string): Intl.DateTimeFormat {
  let f = formats.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formats.set(timeZone, f);
  }
  return f;
}

/** The wall clock in `timeZone` at epoch ms `ms`. */
export function wallAt(ms: number, timeZone: string): Wall {
  const parts: Record<string, number> = {};
  for (const p of format(timeZone).formatToParts(ms)) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  return {
    year: parts.year!,
    month: parts.month!,
    day: parts.day!,
    hour: parts.hour! % 24,
    minute: parts.minute!,
    second: parts.second!,
    millisecond: ((ms % 1000) + 1000) % 1000,
  };
}

const asUtc = (w: Wall) => Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second, w.millisecond);

/** The zone's offset from UTC at `ms`, in ms. */
function offsetAt(ms: number, timeZone: string): number {
  return asUtc(wallAt(ms, timeZone)) - ms;
}

/**
 * Epoch ms of a wall-clock time in `timeZone` (fields may overflow: day 32 is next month's 1st).
 * A time skipped by a DST change lands after the change; a repeated one takes its first instance.
 */
export function fromWall(w: Partial<Wall> & Pick<Wall, 'year' | 'month' | 'day'>, timeZone: string): number {
  const full: Wall = { hour: 0, minute: 0, second: 0, millisecond: 0, ...w };
  const guess = asUtc(full);
  const first = guess - offsetAt(guess, timeZone);
  const second = guess - offsetAt(first, timeZone);
  if (first === second) return first;
  // Around a change the two offsets disagree: the earlier instant that shows this wall time, else the later one.
  const candidates = [first, second].sort((a, b) => a - b);
  return candidates.find((t) => asUtc(wallAt(t, timeZone)) === guess) ?? candidates[1]!;
}

export const daysInMonth = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/** ISO weekday (1 = Monday … 7 = Sunday) of a calendar date. */
export const weekday = (year: number, month: number, day: number) => {
  const d = new Date(Date.UTC(year, month - 1, day)).getUTCDay();
  return d === 0 ? 7 : d;
};

/** A calendar date moved by years, months and days (a month's end clamps: Jan 31 + 1 month is Feb 29). */
export function addCalendar(w: Wall, add: { years?: number; months?: number; weeks?: number; days?: number }): Wall {
  const monthIndex = w.year * 12 + (w.month - 1) + (add.years ?? 0) * 12 + (add.months ?? 0);
  const year = Math.floor(monthIndex / 12);
  const month = (monthIndex % 12) + 1;
  const day = Math.min(w.day, daysInMonth(year, month));
  const moved = new Date(Date.UTC(year, month - 1, day + (add.weeks ?? 0) * 7 + (add.days ?? 0)));
  return { ...w, year: moved.getUTCFullYear(), month: moved.getUTCMonth() + 1, day: moved.getUTCDate() };
}
