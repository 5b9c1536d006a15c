import { RRuleTemporal } from 'rrule-temporal';
import type { Temporal as T } from 'temporal-polyfill';

/**
 * Wall-clock times of events, in their own IANA zone. A time that does not exist (a DST gap)
 * moves forward by the gap, an ambiguous one (a DST overlap) takes the first of its two instants:
 * RFC 5545 §3.3.5, Temporal's `disambiguation: 'compatible'`.
 *
 * The Temporal classes are temporal-polyfill's, as rrule-temporal carries them inside its own
 * build (CommonJS and ES module both): one copy of the polyfill in the bundle instead of two
 * (temporal-polyfill on its own adds ~56 KB minified). Taken once from an occurrence of a one-day
 * rule; the types are temporal-polyfill's own.
 */
const probe = new RRuleTemporal({
  rruleString: 'DTSTART;TZID=UTC:20000101T000000\nRRULE:FREQ=DAILY;COUNT=1',
}).all()[0] as T.ZonedDateTime;
export const Temporal = {
  ZonedDateTime: probe.constructor as typeof T.ZonedDateTime,
  PlainDateTime: probe.toPlainDateTime().constructor as typeof T.PlainDateTime,
  PlainDate: probe.toPlainDate().constructor as typeof T.PlainDate,
  PlainTime: probe.toPlainTime().constructor as typeof T.PlainTime,
  Instant: probe.toInstant().constructor as typeof T.Instant,
};
export type ZonedDateTime = T.ZonedDateTime;
export type PlainDateTime = T.PlainDateTime;
export type PlainDate = T.PlainDate;
export type PlainTime = T.PlainTime;

const zoneCache = new Map<string, string | null>();

/** The zone's canonical IANA name, or null for a name Temporal does not know. */
export function canonicalZone(name: string): string | null {
  const cached = zoneCache.get(name);
  if (cached !== undefined) return cached;
  let found: string | null = null;
  if (name.length > 0 && name.length <= 64 && !/^[+-]/.test(name)) {
    try {
      found = Temporal.ZonedDateTime.from({ year: 2000, month: 1, day: 1, timeZone: name }).timeZoneId;
    } catch {
      found = null;
    }
  }
  zoneCache.set(name, found);
  return found;
}

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2}))?)?$/;

/** `YYYY-MM-DD` with an optional `THH:MM` or `THH:MM:SS`: its parts, or null when not a real date/time. */
export function parseLocal(text: string): { date: PlainDate; time: PlainTime | null } | null {
  const m = LOCAL.exec(text);
  if (!m) return null;
  try {
    const date = Temporal.PlainDate.from(
      { year: Number(m[1]), month: Number(m[2]), day: Number(m[3]) },
      { overflow: 'reject' },
    );
    const time =
      m[4] === undefined
        ? null
        : Temporal.PlainTime.from(
            { hour: Number(m[4]), minute: Number(m[5]), second: Number(m[6] ?? 0) },
            { overflow: 'reject' },
          );
    return { date, time };
  } catch {
    return null;
  }
}

/** A wall-clock time in `zone` as a zoned time (gap forward, overlap first). */
export const zoned = (local: PlainDateTime, zone: string) =>
  local.toZonedDateTime(zone, { disambiguation: 'compatible' });

/** UTC ms of a wall-clock time in `zone`. */
export const instantOf = (local: PlainDateTime, zone: string) => zoned(local, zone).epochMilliseconds;

/** The wall-clock text of an instant in `zone` (`YYYY-MM-DDTHH:MM:SS`). */
export const localOf = (ms: number, zone: string) =>
  Temporal.Instant.fromEpochMilliseconds(ms).toZonedDateTimeISO(zone).toPlainDateTime().toString({
    smallestUnit: 'second',
  });

/** The start of a day in `zone` (midnight, or the first instant after a gap at midnight). */
export const startOfDay = (date: PlainDate, zone: string) => date.toZonedDateTime({ timeZone: zone }).epochMilliseconds;

export const plainText = (p: PlainDateTime) => p.toString({ smallestUnit: 'second' });
