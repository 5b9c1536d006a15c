import { daysInMonth, fromWall, wallAt } from '../jql/zone';

/** Jira's export dates: `15/Mar/24 10:05 AM` (`dd/MMM/yy h:mm a`, English month names, the exporter's zone). */

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const MONTH_NAMES = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

const int = (s: string | undefined) =>
  s !== undefined && s !== '' && [...s].every((c) => c >= '0' && c <= '9') ? Number(s) : undefined;

interface Parts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
}

/** `15/Mar/24 10:05 AM`, `15/Mar/24`, `2024-03-15`, `2024-03-15 10:05` or `2024-03-15T10:05…`. */
function parts(text: string): Parts | undefined {
  const s = text.trim();
  let date = s;
  let time = '';
  const space = s.indexOf(' ');
  const t = s.indexOf('T');
  if (space > 0) [date, time] = [s.slice(0, space), s.slice(space + 1).trim()];
  else if (t === 10) [date, time] = [s.slice(0, 10), s.slice(11, 16)];
  let year: number | undefined;
  let month: number | undefined;
  let day: number | undefined;
  const slash = date.split('/');
  const dash = date.split('-');
  if (slash.length === 3) {
    day = int(slash[0]);
    month = MONTHS.indexOf((slash[1] ?? '').toLowerCase()) + 1 || int(slash[1]);
    const y = int(slash[2]);
    year = y === undefined ? undefined : (slash[2] ?? '').length <= 2 ? (y < 70 ? 2000 + y : 1900 + y) : y;
  } else if (dash.length === 3) {
    [year, month, day] = [int(dash[0]), int(dash[1]), int(dash[2])];
  }
  if (year === undefined || !month || !day || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  let hour = 0;
  let minute = 0;
  if (time) {
    const [clock = '', meridiem = ''] = time.split(' ');
    const [h, m] = clock.split(':');
    const hh = int(h);
    const mm = int(m);
    if (hh === undefined || mm === undefined || mm > 59) return undefined;
    const am = meridiem.toUpperCase();
    if (am === 'AM' || am === 'PM') {
      if (hh < 1 || hh > 12) return undefined;
      hour = (hh % 12) + (am === 'PM' ? 12 : 0);
    } else if (am === '' && hh <= 23) hour = hh;
    else return undefined;
    minute = mm;
  }
  return { year, month, day, hour, minute };
}

/** Epoch ms of a date cell read in `timeZone`, or undefined. */
export function readDate(text: string, timeZone: string): number | undefined {
  const p = parts(text);
  return p ? fromWall(p, timeZone) : undefined;
}

/** A day (due date, start date) as YYYY-MM-DD, or undefined. */
export function readDay(text: string): string | undefined {
  const p = parts(text);
  if (!p) return undefined;
  return `${p.year}-${String(p.month).padStart(2, '0')}-${String(p.day).padStart(2, '0')}`;
}

/** Epoch ms as Jira writes it: `15/Mar/24 10:05 AM` in `timeZone`. */
export function writeDate(ms: number, timeZone: string): string {
  const w = wallAt(ms, timeZone);
  const hour12 = w.hour % 12 === 0 ? 12 : w.hour % 12;
  const yy = String(w.year % 100).padStart(2, '0');
  return `${String(w.day).padStart(2, '0')}/${MONTH_NAMES[w.month - 1]}/${yy} ${hour12}:${String(w.minute).padStart(2, '0')} ${w.hour < 12 ? 'AM' : 'PM'}`;
}

/** A YYYY-MM-DD day as Jira writes a due date: `15/Mar/24 12:00 AM`. */
export function writeDay(day: string): string {
  const [y, m, d] = day.split('-').map(Number);
  return `${String(d).padStart(2, '0')}/${MONTH_NAMES[(m ?? 1) - 1]}/${String((y ?? 0) % 100).padStart(2, '0')} 12:00 AM`;
}
