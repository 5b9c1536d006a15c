import ICAL from 'ical.js';
import { vtimezone } from '../../shared/domains/calendar/vtimezone';

/**
 * The reference expansion: ical.js's own, of every VEVENT of an iCalendar text (its VTIMEZONEs
 * registered first), changed occurrences related to their series and EXDATEs applied. Answers
 * each occurrence's start and end (UTC ms) touching `[from, to)`, sorted. An IANA TZID the text
 * names without its VTIMEZONE (allowed by RFC 7809, and ical.js would read it as floating) gets
 * one from the zone's own transitions.
 */
export function icalJsOccurrences(text: string, from: number, to: number): [number, number][] {
  const root = new ICAL.Component(ICAL.parse(text) as unknown as unknown[]);
  for (const tz of root.getAllSubcomponents('vtimezone')) {
    const id = tz.getFirstPropertyValue('tzid');
    if (typeof id === 'string' && !ICAL.TimezoneService.has(id)) ICAL.TimezoneService.register(tz);
  }
  for (const [, id] of text.matchAll(/;TZID=([A-Za-z]+\/[A-Za-z_]+)[;:]/g)) {
    if (id && !ICAL.TimezoneService.has(id)) {
      ICAL.TimezoneService.register(new ICAL.Component(ICAL.parse(vtimezone(id, 1990, 2040)) as unknown as unknown[]));
    }
  }
  const events = root.getAllSubcomponents('vevent');
  const masters = events.filter((e) => !e.hasProperty('recurrence-id'));
  const out: [number, number][] = [];
  const ms = (t: InstanceType<typeof ICAL.Time>) => t.toUnixTime() * 1000;
  const touches = (s: number, e: number) => (e > s ? s < to && e > from : s >= from && s < to);
  for (const m of masters) {
    const event = new ICAL.Event(m);
    for (const ex of events) {
      if (ex.hasProperty('recurrence-id') && ex.getFirstPropertyValue('uid') === event.uid) event.relateException(ex);
    }
    if (!event.isRecurring()) {
      const s = ms(event.startDate);
      const e = event.endDate ? ms(event.endDate) : s;
      if (touches(s, e)) out.push([s, e]);
      continue;
    }
    const it = event.iterator();
    for (let next = it.next(), n = 0; next && n < 20_000; next = it.next(), n++) {
      const details = event.getOccurrenceDetails(next);
      const s = ms(details.startDate);
      const e = ms(details.endDate);
      if (ms(next) >= to + 2 * 86_400_000 && s >= to) break;
      if (touches(s, e)) out.push([s, e]);
    }
  }
  return out.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
}
