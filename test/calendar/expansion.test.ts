import fc from 'fast-check';
import ICAL from 'ical.js';
import { expand, type Recurrence, ruleError, toRRule } from '../../shared/domains/calendar/recurrence';
import { instantOf, localOf, Temporal } from '../../shared/domains/calendar/time';
import { vtimezone } from '../../shared/domains/calendar/vtimezone';
import { icalJsOccurrences } from './reference';

/**
 * The platform's expansion (rrule-temporal over the floating clock, placed in the event's zone)
 * against ical.js's own, on random RFC 5545 rules in zones with DST changes (north and south):
 * the same instants. Starts keep off the small hours, where a DST change can make a local time
 * missing or doubled: there ical.js takes the offset after the change (a 02:30 in the spring gap
 * lands at 01:30, an ambiguous 01:30 at the second one), where RFC 5545 §3.3.5 and the platform
 * move a missing time forward and take the first of two (tested on their own below).
 */
const ZONES = ['America/New_York', 'Europe/Berlin', 'Australia/Sydney', 'America/Santiago', 'Europe/London'];
for (const zone of ZONES) {
  ICAL.TimezoneService.register(new ICAL.Component(ICAL.parse(vtimezone(zone, 2023, 2040)) as unknown as unknown[]));
}

const DAYS = ['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA'] as const;
const D = 86_400_000;

const rule: fc.Arbitrary<Recurrence> = fc
  .record({
    freq: fc.constantFrom('daily', 'weekly', 'monthly', 'yearly'),
    interval: fc.integer({ min: 1, max: 3 }),
    end: fc.oneof(
      fc.record({ count: fc.integer({ min: 1, max: 40 }) }),
      fc.record({ untilDays: fc.integer({ min: 0, max: 500 }) }),
      fc.constant({}),
    ),
    days: fc.uniqueArray(fc.constantFrom(...DAYS), { maxLength: 3 }),
    nth: fc.option(fc.constantFrom(1, 2, 3, -1), { nil: undefined }),
    monthDays: fc.uniqueArray(fc.constantFrom(1, 10, 15, 28, 31, -1), { maxLength: 2 }),
    months: fc.uniqueArray(fc.integer({ min: 1, max: 12 }), { maxLength: 3 }),
    setPos: fc.option(fc.constantFrom(1, 2, -1), { nil: undefined }),
  })
  .map((r) => {
    const out: Recurrence = { freq: r.freq, interval: r.interval };
    if ('count' in r.end) out.count = r.end.count;
    const monthly = r.freq === 'monthly' || r.freq === 'yearly';
    if (r.days.length) out.byDay = r.days.map((day) => (monthly && r.nth ? { day, nth: r.nth } : { day }));
    if (monthly && r.monthDays.length && !r.nth) out.byMonthDay = r.monthDays;
    if (r.freq === 'yearly' && r.months.length) out.byMonth = r.months;
    // Yearly by weekday or month day goes with BYMONTH: without it ical.js finds nothing (seen:
    // YEARLY;BYDAY=SU;BYMONTHDAY=-1 has 31 August 2025) or searches for long.
    if (r.freq === 'yearly' && !out.byMonth) {
      delete out.byDay;
      delete out.byMonthDay;
    }
    // BYSETPOS over weekdays only: beside BYMONTHDAY too, ical.js picks from the wrong set (seen:
    // MONTHLY;BYDAY=WE,MO;BYMONTHDAY=1,31;BYSETPOS=2 gives it 1 April 2026, a set of one).
    if (monthly && r.setPos && r.days.length > 1 && !r.nth && !out.byMonthDay) out.bySetPos = [r.setPos];
    return { out, untilDays: 'untilDays' in r.end ? r.end.untilDays : undefined };
  })
  .map(({ out, untilDays }) => (untilDays === undefined ? out : { ...out, untilDays }) as Recurrence);

const start = fc.record({
  zone: fc.constantFrom(...ZONES),
  day: fc.integer({ min: 0, max: 3 * 365 }),
  hour: fc.integer({ min: 6, max: 22 }),
  minute: fc.constantFrom(0, 15, 30, 45),
  minutes: fc.constantFrom(30, 60, 90),
});

test('random rules in DST zones: our expansion equals ical.js, instant for instant', () => {
  fc.assert(
    fc.property(rule, start, (given, s) => {
      const { untilDays, ...r } = given as Recurrence & { untilDays?: number };
      const day = Temporal.PlainDate.from('2025-01-01').add({ days: s.day });
      if (untilDays !== undefined) r.until = day.add({ days: untilDays }).toString();
      fc.pre(ruleError(r) === null);
      const rrule = toRRule(r, false, s.zone);
      // DTSTART synchronized with its rule (RFC 5545 leaves an unsynchronized one undefined, and
      // ical.js counts it in for DAILY rules with BYDAY only): the rule's first occurrence.
      const seed = day.toPlainDateTime({ hour: s.hour, minute: s.minute });
      const seedMs = instantOf(seed, s.zone);
      const first = expand(
        {
          rrule,
          allDay: false,
          timeZone: s.zone,
          startLocal: seed.toString(),
          endLocal: seed.toString(),
          start: seedMs,
          end: seedMs,
        },
        seedMs,
        seedMs + 800 * D,
      )[0];
      fc.pre(first !== undefined);
      const startMs = first?.start as number;
      const startLocal = localOf(startMs, s.zone);
      const endMs = startMs + s.minutes * 60_000;
      const series = {
        rrule,
        allDay: false,
        timeZone: s.zone,
        startLocal,
        endLocal: localOf(endMs, s.zone),
        start: startMs,
        end: endMs,
      };
      const from = startMs - D;
      const to = startMs + 400 * D;
      const ours = expand(series, from, to).map((o) => [o.start, o.end]);
      const basic = (t: string) => t.replace(/[-:]/g, '');
      const ics = [
        'BEGIN:VCALENDAR',
        'VERSION:2.0',
        'PRODID:-//test//property//EN',
        'BEGIN:VEVENT',
        'UID:p@test',
        'DTSTAMP:20250101T000000Z',
        `DTSTART;TZID=${s.zone}:${basic(startLocal)}`,
        `DTEND;TZID=${s.zone}:${basic(series.endLocal)}`,
        `RRULE:${rrule}`,
        'END:VEVENT',
        'END:VCALENDAR',
      ].join('\r\n');
      expect({ rrule, zone: s.zone, startLocal, ours }).toEqual({
        rrule,
        zone: s.zone,
        startLocal,
        ours: icalJsOccurrences(ics, from, to),
      });
    }),
    { numRuns: 60, seed: 18 },
  );
});

test('a series through the spring gap moves that occurrence forward; through the autumn overlap takes the first', () => {
  const zone = 'America/New_York';
  const series = (startLocal: string) => {
    const startMs = instantOf(Temporal.PlainDateTime.from(startLocal), zone);
    return {
      rrule: 'FREQ=DAILY;COUNT=3',
      allDay: false,
      timeZone: zone,
      startLocal,
      endLocal: localOf(startMs + 3_600_000, zone),
      start: startMs,
      end: startMs + 3_600_000,
    };
  };
  // 7, 8 (no 02:30: 03:30 EDT), 9 March 2026.
  expect(expand(series('2026-03-07T02:30:00'), 0, 4e12).map((o) => o.start)).toEqual([
    Date.UTC(2026, 2, 7, 7, 30),
    Date.UTC(2026, 2, 8, 7, 30),
    Date.UTC(2026, 2, 9, 6, 30),
  ]);
  // 31 October, 1 November (01:30 twice: the first, EDT), 2 November 2026.
  expect(expand(series('2026-10-31T01:30:00'), 0, 4e12).map((o) => o.start)).toEqual([
    Date.UTC(2026, 9, 31, 5, 30),
    Date.UTC(2026, 10, 1, 5, 30),
    Date.UTC(2026, 10, 2, 6, 30),
  ]);
});
