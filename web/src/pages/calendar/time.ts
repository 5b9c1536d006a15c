/**
 * Dates in the viewer's time zone (the browser's: `Date`'s local methods) and wall clocks in an
 * event's own zone (Intl), for the views and the event form.
 */
export const viewerZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

const pad = (n: number) => String(n).padStart(2, '0');

/** `YYYY-MM-DD` of a local date. */
export const isoDay = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;

/** The local midnight of `YYYY-MM-DD` (today when absent or malformed). */
export function parseDay(s: string | null): Date {
  const m = s ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(s) : null;
  if (!m) {
    const now = new Date();
    return new Date(now.getFullYear(), now.getMonth(), now.getDate());
  }
  return new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
}

export const addDays = (d: Date, n: number) => new Date(d.getFullYear(), d.getMonth(), d.getDate() + n);
export const addMonths = (d: Date, n: number) => new Date(d.getFullYear(), d.getMonth() + n, 1);
export const startOfWeek = (d: Date) => addDays(d, -d.getDay());
export const sameDay = (a: Date, b: Date) => isoDay(a) === isoDay(b);

export type View = 'day' | 'week' | 'month' | 'agenda';
export const VIEWS: { id: View; label: string }[] = [
  { id: 'day', label: 'Day' },
  { id: 'week', label: 'Week' },
  { id: 'month', label: 'Month' },
  { id: 'agenda', label: 'Agenda' },
];

/** The days a view shows around `day`: [first, last) as local midnights. */
export function rangeOf(view: View, day: Date): { first: Date; end: Date } {
  if (view === 'day') return { first: day, end: addDays(day, 1) };
  if (view === 'week') return { first: startOfWeek(day), end: addDays(startOfWeek(day), 7) };
  if (view === 'agenda') return { first: day, end: addDays(day, 30) };
  const first = startOfWeek(new Date(day.getFullYear(), day.getMonth(), 1));
  const last = new Date(day.getFullYear(), day.getMonth() + 1, 0);
  return { first, end: addDays(startOfWeek(last), 7) };
}

/** Where a step of the view goes from `day`. */
export function step(view: View, day: Date, dir: 1 | -1): Date {
  if (view === 'day') return addDays(day, dir);
  if (view === 'week') return addDays(day, 7 * dir);
  if (view === 'agenda') return addDays(day, 30 * dir);
  return addMonths(day, dir);
}

const timeFmt = new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit' });
const dayFmt = new Intl.DateTimeFormat(undefined, { weekday: 'long', month: 'long', day: 'numeric' });
const shortDayFmt = new Intl.DateTimeFormat(undefined, { weekday: 'short', day: 'numeric' });
const monthFmt = new Intl.DateTimeFormat(undefined, { month: 'long', year: 'numeric' });
const fullFmt = new Intl.DateTimeFormat(undefined, { dateStyle: 'full' });
export const timeOf = (ms: number | Date) => timeFmt.format(ms);
export const dayOf = (d: Date) => dayFmt.format(d);
export const shortDayOf = (d: Date) => shortDayFmt.format(d);
export const monthOf = (d: Date) => monthFmt.format(d);
export const fullDayOf = (d: Date) => fullFmt.format(d);
const hourFmt = new Intl.DateTimeFormat(undefined, { hour: 'numeric' });
export const hourLabel = (h: number) => hourFmt.format(new Date(2000, 0, 1, h));

/** The view's title: the day, the week's span, the month. */
export function titleOf(view: View, day: Date): string {
  if (view === 'day') return fullDayOf(day);
  if (view === 'month') return monthOf(day);
  const { first, end } = rangeOf(view, day);
  const last = addDays(end, -1);
  const f = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', year: 'numeric' });
  return f.formatRange(first, last);
}

/** The viewer zone's name and its offset now (`America/New_York (GMT-4)`). */
export function zoneLabel(zone = viewerZone(), at = Date.now()): string {
  const offset =
    new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'shortOffset' })
      .formatToParts(at)
      .find((p) => p.type === 'timeZoneName')?.value ?? '';
  return `${zone.replace(/_/g, ' ')} (${offset})`;
}

/** The wall clock of an instant in `zone`: `YYYY-MM-DDTHH:MM`. */
export function wallClock(ms: number, zone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(ms)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`;
}

/** The day before a `YYYY-MM-DD` date (calendar arithmetic, no zone). */
export function dayBefore(date: string): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const t = new Date(Date.UTC(y, m - 1, d - 1));
  return t.toISOString().slice(0, 10);
}

/** Minutes since the local midnight of `day` (0–1440), clipped to the day. */
export function minutesInDay(ms: number, day: Date): number {
  const start = day.getTime();
  const end = addDays(day, 1).getTime();
  if (ms <= start) return 0;
  if (ms >= end) return 1440;
  const d = new Date(ms);
  return d.getHours() * 60 + d.getMinutes();
}

/** Time zones to offer in the event form: the browser's list, the viewer's and the event's first. */
export function zoneOptions(...first: string[]): string[] {
  const all =
    (Intl as unknown as { supportedValuesOf?: (k: string) => string[] }).supportedValuesOf?.('timeZone') ?? [];
  return [...new Set([...first.filter(Boolean), 'UTC', ...all])];
}
