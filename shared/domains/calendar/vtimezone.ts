import { type PlainDateTime, Temporal, type ZonedDateTime } from './time';

/**
 * A VTIMEZONE for an IANA zone over some years, from the zone's own transitions (Temporal): one
 * STANDARD or DAYLIGHT observance per kind of change, its instants as DTSTART and RDATEs, so any
 * calendar program (ical.js, Outlook, Apple Calendar) places times exactly as the platform does.
 */
const offsetText = (ns: number) => {
  const total = Math.round(ns / 1e9);
  const sign = total < 0 ? '-' : '+';
  const abs = Math.abs(total);
  const h = Math.floor(abs / 3600);
  const m = Math.floor((abs % 3600) / 60);
  const s = abs % 60;
  return `${sign}${String(h).padStart(2, '0')}${String(m).padStart(2, '0')}${s ? String(s).padStart(2, '0') : ''}`;
};
const basic = (p: PlainDateTime) => p.toString({ smallestUnit: 'second' }).replace(/[-:]/g, '');

export function vtimezone(zone: string, fromYear: number, toYear: number): string {
  const start = Temporal.PlainDate.from({ year: fromYear, month: 1, day: 1 }).toZonedDateTime({ timeZone: zone });
  const end = Temporal.PlainDate.from({ year: toYear + 1, month: 1, day: 1 }).toZonedDateTime({ timeZone: zone });
  const groups = new Map<string, { kind: string; from: number; to: number; dates: string[] }>();
  const add = (kind: string, from: number, to: number, local: PlainDateTime) => {
    const key = `${kind}|${from}|${to}`;
    const g = groups.get(key) ?? { kind, from, to, dates: [] };
    g.dates.push(basic(local));
    groups.set(key, g);
  };
  // The offset the range opens with, as a standard observance of its own.
  add('STANDARD', start.offsetNanoseconds, start.offsetNanoseconds, start.toPlainDateTime());
  let at: ZonedDateTime | null = start;
  for (let i = 0; i < 1000 && at; i++) {
    const next: ZonedDateTime | null = at.getTimeZoneTransition('next');
    if (!next || Temporal.ZonedDateTime.compare(next, end) >= 0) break;
    const before = next.subtract({ nanoseconds: 1 }).offsetNanoseconds;
    const after = next.offsetNanoseconds;
    // The local time of the change, on the clock before it (as RFC 5545 writes DTSTART).
    const local = next.toInstant().toZonedDateTimeISO(offsetIso(before)).toPlainDateTime();
    add(after > before ? 'DAYLIGHT' : 'STANDARD', before, after, local);
    at = next;
  }
  const lines = ['BEGIN:VTIMEZONE', `TZID:${zone}`, `X-LIC-LOCATION:${zone}`];
  for (const g of groups.values()) {
    lines.push(
      `BEGIN:${g.kind}`,
      `TZOFFSETFROM:${offsetText(g.from)}`,
      `TZOFFSETTO:${offsetText(g.to)}`,
      `DTSTART:${g.dates[0]}`,
    );
    // One RDATE a line: ical.js reads only the first value of a list.
    for (const d of g.dates.slice(1)) lines.push(`RDATE:${d}`);
    lines.push(`END:${g.kind}`);
  }
  lines.push('END:VTIMEZONE');
  return lines.join('\r\n');
}

/** A fixed-offset zone id (`+05:30`) for an offset in nanoseconds (to the minute; seconds dropped). */
function offsetIso(ns: number): string {
  const total = Math.round(ns / 6e10);
  const sign = total < 0 ? '-' : '+';
  const abs = Math.abs(total);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}
