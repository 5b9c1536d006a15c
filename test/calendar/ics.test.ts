import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { vtimezone } from '../../shared/domains/calendar/vtimezone';
import { type MailWorld, mailboxFor, startMailWorld } from '../mail/helpers';
import { icalJsOccurrences } from './reference';

/**
 * iCalendar import and export with real files (test/fixtures/calendar/SOURCES.md): each file
 * imported, its occurrences over a window equal ical.js's own expansion of the file; exported and
 * imported again into another mailbox, the same events and occurrences; a second import of the
 * same file updates by UID; chunks continue with `next`.
 */
let w: MailWorld;
let a: string;
/** The files' own import and their export's import (their UIDs differ from file to file). */
let pair: [string, string];

const DIR = join(__dirname, '..', 'fixtures', 'calendar');
const read = (name: string) => readFileSync(join(DIR, name), 'utf8');
/** Evolution's test components are bare VEVENTs: wrapped in a VCALENDAR (ical.js gets the zone they name). */
const wrapped = (names: string[], zone?: string) =>
  [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//test//wrapper//EN',
    ...(zone ? [vtimezone(zone, 2016, 2019)] : []),
    ...names.map((n) => read(n).trim()),
    'END:VCALENDAR',
  ].join('\r\n');

beforeAll(async () => {
  w = await startMailWorld();
  a = await newMailbox();
  pair = [await newMailbox(), await newMailbox()];
});

/** A mailbox of its own (UIDs are the mailbox's: an import of a known one moves and updates it). */
const newMailbox = async () =>
  `/v1/orgs/${w.p.org.orgId}/mail/mailboxes/${(await mailboxFor(w.p, [w.p.owner.userId])).mailboxId}`;
afterAll(async () => {
  await w?.close();
});

const D = 86_400_000;

async function newCalendar(base: string, name: string): Promise<string> {
  const res = await w.p.post(`${base}/calendars`, { name });
  expect(res.status).toBe(201);
  return res.body.calendar.calendarId;
}

async function occurrences(base: string, calendarId: string, from: number, to: number): Promise<[number, number][]> {
  const res = await w.p.get(`${base}/events?from=${from}&to=${to}&calendarId=${calendarId}`);
  expect(res.status).toBe(200);
  return res.body.occurrences.map((o: { start: number; end: number }) => [o.start, o.end]);
}

/** A window of 400 days from a day before each event's DTSTART (files span years). */
function windowsOf(text: string): [number, number][] {
  const starts = text
    .split('BEGIN:VEVENT')
    .slice(1)
    .flatMap((part) => {
      const m = /^DTSTART[^:\r\n]*:(\d{4})(\d{2})(\d{2})/m.exec(part);
      return m ? [Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) - D] : [];
    });
  return [...new Set(starts)].sort((x, y) => x - y).map((s) => [s, s + 400 * D]);
}

const cases: { name: string; text: () => string; zones: string[]; events: number; warnings?: RegExp[] }[] = [
  {
    name: 'google-market-east.ics',
    text: () => read('google-market-east.ics'),
    zones: ['America/New_York'],
    events: 1,
  },
  {
    name: 'google-zurich-weekdays.ics',
    text: () => read('google-zurich-weekdays.ics'),
    zones: ['Europe/Zurich'],
    events: 1,
  },
  {
    name: 'meetup-devopsdc.ics',
    text: () => read('meetup-devopsdc.ics'),
    zones: ['America/New_York', 'America/New_York', 'America/New_York'],
    events: 3,
  },
  {
    name: 'exchange-2010-pacific.ics',
    text: () => read('exchange-2010-pacific.ics'),
    zones: ['America/Los_Angeles'],
    events: 1,
  },
  { name: 'custom-fiji.ics', text: () => read('custom-fiji.ics'), zones: ['Pacific/Fiji'], events: 1 },
  {
    name: 'exdates-floating-and-vienna.ics',
    text: () => read('exdates-floating-and-vienna.ics'),
    zones: ['UTC', 'Europe/Vienna'],
    events: 2,
  },
  {
    name: 'evolution events',
    text: () =>
      wrapped(
        ['evolution-event-1.ics', 'evolution-event-5.ics', 'evolution-event-6.ics', 'evolution-event-6-a.ics'],
        'America/New_York',
      ),
    zones: ['UTC', 'UTC', 'America/New_York'],
    events: 3,
  },
];

describe.each(cases)('$name', ({ name, text, zones, events }) => {
  it("imported, its occurrences equal ical.js's expansion; exported and imported again, the same", async () => {
    const content = text();
    const [a, b] = pair;
    const cal = await newCalendar(a, name);
    const imported = await w.p.post(`${a}/calendars/${cal}/import`, { content });
    expect(imported.status).toBe(200);
    expect(imported.body).toMatchObject({ imported: events, updated: 0, skipped: 0, next: null, done: true });

    const windows = windowsOf(content);
    const ours: [number, number][][] = [];
    for (const [from, to] of windows) {
      const got = await occurrences(a, cal, from, to);
      expect(got.length).toBeGreaterThan(0);
      expect(got).toEqual(icalJsOccurrences(content, from, to));
      ours.push(got);
    }

    // The events, with the zones the file's TZIDs name as IANA zones.
    const eventsOf = async (base: string, calendarId: string) => {
      const ids = new Set<string>();
      for (const [from, to] of windows) {
        const res = await w.p.get(`${base}/events?from=${from}&to=${to}&calendarId=${calendarId}`);
        for (const o of res.body.occurrences as { eventId: string }[]) ids.add(o.eventId);
      }
      const got = await Promise.all([...ids].map((id) => w.p.get(`${base}/calendars/${calendarId}/events/${id}`)));
      return got.map((g) => g.body.event).sort((x, y) => x.start - y.start || x.uid.localeCompare(y.uid));
    };
    const mine = await eventsOf(a, cal);
    expect(mine.map((e: { timeZone: string }) => e.timeZone).sort()).toEqual([...zones].sort());

    // Export, then import into another mailbox: the same events and occurrences.
    const exported = await w.p.get(`${a}/calendars/${cal}/export`);
    expect(exported.status).toBe(200);
    expect(exported.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    expect(exported.text).toMatch(/^BEGIN:VCALENDAR\r\n/);
    for (const zone of zones.filter((z) => z !== 'UTC'))
      expect(exported.text).toContain(`BEGIN:VTIMEZONE\r\nTZID:${zone}\r\n`);
    for (const [i, [from, to]] of windows.entries())
      expect(icalJsOccurrences(exported.text, from, to)).toEqual(ours[i]);

    const again = await newCalendar(b, name);
    const re = await w.p.post(`${b}/calendars/${again}/import`, { content: exported.text });
    expect(re.body).toMatchObject({ imported: events, updated: 0, skipped: 0, done: true });
    for (const [i, [from, to]] of windows.entries()) expect(await occurrences(b, again, from, to)).toEqual(ours[i]);
    const theirs = await eventsOf(b, again);
    const same = (e: Record<string, unknown>) => {
      const { eventId, calendarId, version, ...rest } = e;
      return rest;
    };
    expect(theirs.map(same)).toEqual(mine.map(same));
  });
});

test('Google: UNTIL and EXDATEs with TZID; Exchange: the Windows zone; Fiji: X-LIC-LOCATION; X-WR-TIMEZONE', async () => {
  const cal = await newCalendar(a, 'checks');
  await w.p.post(`${a}/calendars/${cal}/import`, { content: read('google-market-east.ics') });
  await w.p.post(`${a}/calendars/${cal}/import`, { content: read('exchange-2010-pacific.ics') });
  await w.p.post(`${a}/calendars/${cal}/import`, { content: read('custom-fiji.ics') });
  const list = await w.p.get(`${a}/events?from=${Date.UTC(2013, 8, 1)}&to=${Date.UTC(2013, 10, 1)}&calendarId=${cal}`);
  const market = list.body.occurrences;
  // Fridays and Saturdays from 7 September to 24 October 2013 (UNTIL), 12:00 New York (EDT), less 11 and 12 October.
  expect(market).toHaveLength(11);
  expect(market[0]).toMatchObject({ start: Date.UTC(2013, 8, 7, 16), end: Date.UTC(2013, 8, 7, 21), recurring: true });
  const starts = market.map((o: { start: number }) => o.start);
  expect(starts).not.toContain(Date.UTC(2013, 9, 11, 16));
  expect(starts).not.toContain(Date.UTC(2013, 9, 12, 16));
  expect(starts[starts.length - 1]).toBe(Date.UTC(2013, 9, 19, 16));
  const event = (await w.p.get(`${a}/calendars/${cal}/events/${market[0].eventId}`)).body.event;
  expect(event).toMatchObject({
    uid: 'ak30b02u7858q1oo6ji9dm4mgg@google.com',
    summary: 'Market East Live!',
    timeZone: 'America/New_York',
    startLocal: '2013-09-07T12:00:00',
    rrule: 'FREQ=WEEKLY;UNTIL=20131025T035959Z;BYDAY=FR,SA',
    recurrence: { freq: 'weekly', interval: 1, until: '2013-10-24', byDay: [{ day: 'FR' }, { day: 'SA' }] },
    location: '12th and Market Streets (weather permitting)',
    busyStatus: 'busy',
  });

  const pacific = await w.p.get(
    `${a}/events?from=${Date.UTC(2017, 1, 24)}&to=${Date.UTC(2017, 1, 25)}&calendarId=${cal}`,
  );
  expect(pacific.body.occurrences).toEqual([
    expect.objectContaining({
      summary: 'Test 4',
      start: Date.UTC(2017, 1, 24, 20),
      end: Date.UTC(2017, 1, 24, 20, 30),
    }),
  ]);
  const fiji = await w.p.get(`${a}/events?from=${Date.UTC(2014, 7, 28)}&to=${Date.UTC(2014, 7, 30)}&calendarId=${cal}`);
  // 10:00 Fiji (+12): the second DTSTART of the file wins, as in ical.js.
  expect(fiji.body.occurrences.map((o: { start: number }) => o.start)).toEqual(
    icalJsOccurrences(read('custom-fiji.ics'), Date.UTC(2014, 7, 28), Date.UTC(2014, 7, 30)).map(([s]) => s),
  );
});

test('a second import of the same file updates by UID; chunks of 200 continue with next; warnings', async () => {
  const a = await newMailbox();
  const cal = await newCalendar(a, 'again');
  const content = read('meetup-devopsdc.ics');
  expect((await w.p.post(`${a}/calendars/${cal}/import`, { content })).body).toMatchObject({ imported: 3 });
  expect((await w.p.post(`${a}/calendars/${cal}/import`, { content })).body).toMatchObject({ imported: 0, updated: 3 });

  const many = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//test//many//EN',
    'X-WR-TIMEZONE:Europe/Paris',
    ...Array.from({ length: 205 }, (_, i) =>
      [
        'BEGIN:VEVENT',
        `UID:many-${i}@test`,
        'DTSTAMP:20260101T000000Z',
        `DTSTART:2026${String(1 + (i % 12)).padStart(2, '0')}01T100000`,
        'DURATION:PT1H',
        `SUMMARY:Event ${i}`,
        'END:VEVENT',
      ].join('\r\n'),
    ),
    'BEGIN:VTODO',
    'UID:todo@test',
    'SUMMARY:A task',
    'END:VTODO',
    'BEGIN:VEVENT',
    'UID:rdate@test',
    'DTSTAMP:20260101T000000Z',
    'DTSTART;VALUE=DATE:20260301',
    'RRULE:FREQ=MONTHLY',
    'RDATE;VALUE=DATE:20260315',
    'SUMMARY:With RDATE',
    'END:VEVENT',
    'END:VCALENDAR',
  ].join('\r\n');
  const first = await w.p.post(`${a}/calendars/${cal}/import`, { content: many });
  expect(first.body).toMatchObject({ imported: 200, updated: 0, skipped: 0, done: false, next: expect.any(String) });
  expect(first.body.warnings).toEqual([
    '1 task(s) (VTODO) not imported.',
    'Event rdate@test: extra dates (RDATE) are not kept.',
  ]);
  // Another calendar's token, a forged one, two sources at once: 400.
  const elsewhere = await newCalendar(a, 'elsewhere');
  const foreign = await w.p.post(`${a}/calendars/${elsewhere}/import`, { next: first.body.next });
  expect(foreign.body).toEqual({ error: 'Invalid page cursor. Run the request again.' });
  expect((await w.p.post(`${a}/calendars/${cal}/import`, { next: 'abc.def' })).status).toBe(400);
  const both = await w.p.post(`${a}/calendars/${cal}/import`, { content: many, next: first.body.next });
  expect(both.body).toEqual({ error: 'Send one of `content`, `size` or `next`.' });
  const second = await w.p.post(`${a}/calendars/${cal}/import`, { next: first.body.next });
  expect(second.body).toEqual({ imported: 6, updated: 0, skipped: 0, warnings: [], next: null, done: true });
  // Finished: its file is gone.
  const over = await w.p.post(`${a}/calendars/${cal}/import`, { next: first.body.next });
  expect(over.body).toEqual({ error: 'The file to import is not there: upload it first, or this import is finished.' });
  // Floating times take X-WR-TIMEZONE; all-day with VALUE=DATE.
  const june = await w.p.get(`${a}/events?from=${Date.UTC(2026, 5, 1)}&to=${Date.UTC(2026, 5, 2)}&calendarId=${cal}`);
  const timed = june.body.occurrences.filter((o: { allDay: boolean }) => !o.allDay);
  expect(timed.map((o: { start: number }) => o.start)).toEqual(Array(17).fill(Date.UTC(2026, 5, 1, 8)));
  const rdate = await w.p.get(`${a}/events?from=${Date.UTC(2026, 2, 1)}&to=${Date.UTC(2026, 2, 2)}&calendarId=${cal}`);
  expect(rdate.body.occurrences.filter((o: { allDay: boolean }) => o.allDay)).toEqual([
    expect.objectContaining({ summary: 'With RDATE', startDate: '2026-03-01', endDate: '2026-03-02' }),
  ]);

  expect((await w.p.post(`${a}/calendars/cal_nope/import`, { content })).status).toBe(404);
  expect((await w.p.get(`${a}/calendars/cal_nope/export`)).status).toBe(404);
  const notIcs = await w.p.post(`${a}/calendars/${cal}/import`, { content: 'BEGIN:VCARD\r\nEND:VCARD' });
  expect(notIcs.body).toEqual({ error: 'No iCalendar data (BEGIN:VCALENDAR … END:VCALENDAR) was found.' });
});

test('repeat rules past the limits are refused with their reason; a day, a month and a year list in bounds', async () => {
  const box = await mailboxFor(w.p, [w.p.owner.userId]);
  const a = `/v1/orgs/${w.p.org.orgId}/mail/mailboxes/${box.mailboxId}`;
  const cal = await newCalendar(a, 'hostile');
  const res = await w.p.post(`${a}/calendars/${cal}/import`, { content: read('hostile-rules.ics') });
  expect(res.status).toBe(200);
  expect(res.body).toMatchObject({ imported: 2, updated: 0, skipped: 6, done: true });
  const kept = 'only FREQ, INTERVAL, COUNT, UNTIL, BYDAY, BYMONTHDAY, BYMONTH, BYSETPOS and WKST.';
  expect(res.body.warnings).toEqual([
    'Event secondly@hostile.test skipped: Only DAILY, WEEKLY, MONTHLY and YEARLY repeat rules are kept (this one: SECONDLY).',
    "Event huge-count@hostile.test skipped: A repeat rule is held to an event's limits (INTERVAL 1-999, COUNT 1-5000, up to 7 BYDAY, 31 BYMONTHDAY, 12 BYMONTH and 10 BYSETPOS values): this one's COUNT is past them.",
    `Event every-second@hostile.test skipped: Repeat rules with BYSECOND are not kept: ${kept}`,
    'Event hourly@hostile.test skipped: Only DAILY, WEEKLY, MONTHLY and YEARLY repeat rules are kept (this one: HOURLY).',
    `Event yearday@hostile.test skipped: Repeat rules with BYYEARDAY are not kept: ${kept}`,
    "Event never@hostile.test: its repeat rule (FREQ=YEARLY;COUNT=10;BYMONTHDAY=30;BYMONTH=2) can't be read: skipped.",
  ]);

  // A rule stored before the limits held (as an import wrote it then) shows its first occurrence alone.
  const { indexed } = await import('../../shared/domains/calendar/events');
  const { newEventId, putNewEvent } = await import('../../shared/domains/calendar/records');
  const now = Date.now();
  const start = Date.UTC(2026, 2, 2, 12);
  await putNewEvent(
    indexed({
      mailboxId: box.mailboxId,
      eventId: newEventId(now),
      calendarId: cal,
      uid: 'stored-secondly@hostile.test',
      version: 1,
      summary: 'Stored every second',
      description: '',
      location: '',
      allDay: false,
      start,
      end: start + 1000,
      startLocal: '2026-03-02T12:00:00',
      endLocal: '2026-03-02T12:00:01',
      timeZone: 'UTC',
      organizer: null,
      attendees: [],
      isOrganizer: true,
      myStatus: null,
      status: 'confirmed',
      busyStatus: 'busy',
      sensitivity: 'normal',
      reminders: [],
      categories: [],
      url: null,
      recurrence: null,
      rrule: 'FREQ=SECONDLY;BYSECOND=0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20',
      exceptions: [],
      exdates: [],
      sequence: 0,
      createdAt: now,
      updatedAt: now,
      firstStart: 0,
      lastEnd: 0,
    }),
  );

  const count = async (from: number, to: number) => {
    const list = await w.p.get(`${a}/events?from=${from}&to=${to}&calendarId=${cal}`);
    expect(list.status).toBe(200);
    const by = new Map<string, number>();
    for (const o of list.body.occurrences as { summary: string }[]) by.set(o.summary, (by.get(o.summary) ?? 0) + 1);
    return Object.fromEntries(by);
  };
  // 2 March 2026 is a Monday, day 60 of the year (the every-other-day series started on day 0).
  expect(await count(Date.UTC(2026, 2, 2), Date.UTC(2026, 2, 3))).toEqual({
    'Mondays and Wednesdays': 1,
    'Every other day': 1,
    'Stored every second': 1,
  });
  expect(await count(Date.UTC(2026, 2, 1), Date.UTC(2026, 3, 1))).toEqual({
    'Mondays and Wednesdays': 9,
    'Every other day': 15,
    'Stored every second': 1,
  });
  expect(await count(Date.UTC(2026, 0, 1), Date.UTC(2027, 0, 1))).toEqual({
    'Mondays and Wednesdays': 104,
    'Every other day': 183,
    'Stored every second': 1,
  });
  expect(await count(Date.UTC(2027, 0, 1), Date.UTC(2028, 1, 4))).toEqual({
    'Mondays and Wednesdays': 2 * 57,
    'Every other day': 199,
  });
});

test('a large file by upload; 4 MB + 1 byte in the body is 413; an export by link (303)', async () => {
  const a = await newMailbox();
  const cal = await newCalendar(a, 'upload');
  const tooBig = await w.p.post(`${a}/calendars/${cal}/import`, { content: 'x'.repeat(4 * 1024 * 1024 + 1) });
  expect(tooBig.status).toBe(413);
  expect((await w.p.post(`${a}/calendars/${cal}/import`, { size: 50 * 1024 * 1024 + 1 })).status).toBe(413);

  const bytes = Buffer.from(read('google-zurich-weekdays.ics'), 'utf8');
  const start = await w.p.post(`${a}/calendars/${cal}/import`, { size: bytes.length });
  expect(start.body).toMatchObject({ imported: 0, done: false, upload: { method: 'PUT', url: expect.any(String) } });
  const put = await fetch(start.body.upload.url, { method: 'PUT', headers: start.body.upload.headers, body: bytes });
  expect(put.status).toBe(200);
  const done = await w.p.post(`${a}/calendars/${cal}/import`, { next: start.body.next });
  expect(done.body).toEqual({ imported: 1, updated: 0, skipped: 0, warnings: [], next: null, done: true });

  const inline = await w.p.get(`${a}/calendars/${cal}/export`);
  const linked = await fetch(`${w.p.baseUrl}${a}/calendars/${cal}/export?link=true`, {
    headers: { authorization: `Bearer ${w.p.owner.token}` },
    redirect: 'manual',
  });
  expect(linked.status).toBe(303);
  const file = await fetch(linked.headers.get('location') as string);
  expect(file.status).toBe(200);
  // The same file, but for DTSTAMP (the time it was written).
  const stamp = (t: string) => t.replace(/DTSTAMP:\d{8}T\d{6}Z/g, 'DTSTAMP');
  expect(stamp(await file.text())).toBe(stamp(inline.text));
});

test("the platform's own events (all-day and timed series, a moved and a deleted occurrence) export and import the same", async () => {
  const [from, to] = [Date.UTC(2026, 0, 1), Date.UTC(2026, 11, 1)];
  const a = await newMailbox();
  const b = await newMailbox();
  const cal = await newCalendar(a, 'own');
  const add = async (body: object) => {
    const res = await w.p.post(`${a}/calendars/${cal}/events`, body);
    expect(res.status).toBe(201);
    return res.body.event;
  };
  const offsite = await add({
    summary: 'Offsite',
    allDay: true,
    start: '2026-03-02',
    end: '2026-03-04',
    timeZone: 'Europe/Berlin',
    recurrence: { freq: 'monthly', byDay: [{ day: 'MO', nth: 1 }], count: 6 },
    categories: ['team', 'travel'],
    busyStatus: 'oof',
  });
  const standup = await add({
    summary: 'Standup',
    start: '2026-03-23T09:15',
    end: '2026-03-23T09:30',
    timeZone: 'Europe/Berlin',
    recurrence: { freq: 'weekly', byDay: [{ day: 'MO' }, { day: 'TH' }], until: '2026-05-01' },
    reminders: [5],
    sensitivity: 'personal',
    busyStatus: 'workingElsewhere',
    url: 'https://example.com/standup',
    description: 'Line one\nLine two; with, punctuation',
  });
  await add({
    summary: 'Launch',
    start: '2026-06-01T12:00',
    end: '2026-06-01T13:00',
    timeZone: 'UTC',
    status: 'tentative',
  });
  // The offsite of April moves a day later; the standup of 26 March (09:15 CET) is deleted.
  const april = Date.UTC(2026, 3, 5, 22);
  const moved = await w.p.put(`${a}/calendars/${cal}/events/${offsite.eventId}`, {
    recurrenceId: april,
    start: '2026-04-07',
    end: '2026-04-09',
    summary: 'Offsite (moved)',
  });
  expect(moved.status).toBe(200);
  const deleted = Date.UTC(2026, 2, 26, 8, 15);
  expect((await w.p.delete(`${a}/calendars/${cal}/events/${standup.eventId}?recurrenceId=${deleted}`)).status).toBe(
    204,
  );
  const ours = await occurrences(a, cal, from, to);
  expect(ours).not.toContainEqual([deleted, deleted + 15 * 60_000]);
  expect(ours).toContainEqual([Date.UTC(2026, 3, 6, 22), Date.UTC(2026, 3, 8, 22)]);

  const exported = await w.p.get(`${a}/calendars/${cal}/export`);
  expect(exported.text).toContain('RECURRENCE-ID;VALUE=DATE:20260406');
  expect(exported.text).toContain('EXDATE;TZID=Europe/Berlin:20260326T091500');
  // ical.js places all-day dates at UTC midnight (floating), the platform in the event's zone: the
  // same occurrences, counted.
  expect(icalJsOccurrences(exported.text, from, to)).toHaveLength(ours.length);
  const again = await newCalendar(b, 'own');
  expect((await w.p.post(`${b}/calendars/${again}/import`, { content: exported.text })).body).toMatchObject({
    imported: 3,
  });
  expect(await occurrences(b, again, from, to)).toEqual(ours);
  const fields = async (base: string, calendarId: string) => {
    const res = await w.p.get(`${base}/events?from=${from}&to=${to}&calendarId=${calendarId}`);
    const ids = [...new Set<string>(res.body.occurrences.map((o: { eventId: string }) => o.eventId))];
    const events = await Promise.all(ids.map((id) => w.p.get(`${base}/calendars/${calendarId}/events/${id}`)));
    return events
      .map((e) => {
        const { eventId, calendarId: _c, version, uid, ...rest } = e.body.event;
        return rest;
      })
      .sort((x, y) => x.start - y.start);
  };
  expect(await fields(b, again)).toEqual(await fields(a, cal));
});
