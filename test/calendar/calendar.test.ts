import { type MailWorld, mailboxFor, startMailWorld, unique } from '../mail/helpers';

/**
 * The calendar routes through the local gateway (issue 18, calendar half): calendars (default
 * first, made once under races, 50 at most, the default undeletable), events in their own zone
 * (DST gap forward, overlap first, all-day dates), repeat rules (RFC 5545 400s), one occurrence
 * changed or deleted, ifVersion, moveTo, the listing over a window, and membership on every route.
 */
let w: MailWorld;
let box: { domain: string; address: string; mailboxId: string };
let base: string;

beforeAll(async () => {
  w = await startMailWorld();
  box = await mailboxFor(w.p, [w.p.owner.userId]);
  base = `/v1/orgs/${w.p.org.orgId}/mail/mailboxes/${box.mailboxId}`;
});
afterAll(async () => {
  await w?.close();
});

const H = 3_600_000;
const D = 24 * H;
const err = (message: string) => ({ error: message });

async function defaultCalendar(): Promise<string> {
  const res = await w.p.get(`${base}/calendars`);
  expect(res.status).toBe(200);
  return res.body.calendars[0].calendarId;
}

test('calendars: the default made once under races and listed first; create, patch, delete; 50 at most', async () => {
  const other = await mailboxFor(w.p, [w.p.owner.userId], w.p.org.orgId);
  const path = `/v1/orgs/${w.p.org.orgId}/mail/mailboxes/${other.mailboxId}/calendars`;
  const lists = await Promise.all([w.p.get(path), w.p.get(path), w.p.get(path)]);
  for (const l of lists) {
    expect(l.status).toBe(200);
    expect(l.body.calendars).toEqual([
      {
        calendarId: expect.stringMatching(/^cal_/),
        name: 'Calendar',
        color: 'blue',
        description: '',
        isDefault: true,
        version: 1,
      },
    ]);
  }
  expect(new Set(lists.map((l) => l.body.calendars[0].calendarId)).size).toBe(1);

  const made = await w.p.post(path, { name: '  Team  ', color: 'teal', description: 'Our team' });
  expect(made.status).toBe(201);
  expect(made.body.calendar).toEqual({
    calendarId: expect.stringMatching(/^cal_/),
    name: 'Team',
    color: 'teal',
    description: 'Our team',
    isDefault: false,
    version: 1,
  });
  const id = made.body.calendar.calendarId;
  expect((await w.p.post(path, { name: '' })).status).toBe(400);
  expect((await w.p.post(path, { name: 'x', color: 'purple' })).status).toBe(400);
  expect((await w.p.post(path, { name: 'x', description: 'd'.repeat(1001) })).status).toBe(400);

  const patched = await w.p.patch(`${path}/${id}`, { name: 'Team B', color: 'red' });
  expect(patched.status).toBe(200);
  expect(patched.body.calendar).toMatchObject({ name: 'Team B', color: 'red', description: 'Our team', version: 2 });
  expect((await w.p.patch(`${path}/cal_nope`, { name: 'x' })).body).toEqual(err('Calendar not found'));

  const list = await w.p.get(path);
  expect(list.body.calendars.map((c: { isDefault: boolean }) => c.isDefault)).toEqual([true, false]);

  const defaultId = list.body.calendars[0].calendarId;
  const del = await w.p.delete(`${path}/${defaultId}`);
  expect(del.status).toBe(400);
  expect(del.body).toEqual(err("The default calendar can't be deleted."));
  expect((await w.p.delete(`${path}/cal_nope`)).status).toBe(404);
  expect((await w.p.delete(`${path}/${id}`)).status).toBe(204);
  expect((await w.p.get(path)).body.calendars).toHaveLength(1);

  // 49 more make 50 with the default; the 51st is 409.
  // (One after another: together they would only queue on the mailbox's count.)
  for (let i = 0; i < 49; i++) expect((await w.p.post(path, { name: `C${i}` })).status).toBe(201);
  const over = await w.p.post(path, { name: 'One too many' });
  expect(over.status).toBe(409);
  expect(over.body).toEqual(err('A mailbox can have at most 50 calendars.'));
  expect((await w.p.get(path)).body.calendars).toHaveLength(50);
});

test('membership: keys and non-members 403, an unknown mailbox 404', async () => {
  const outsider = await w.p.person('developer');
  const key = await w.p.apiKey();
  const paths = [`${base}/calendars`, `${base}/events?from=0&to=1000`];
  for (const path of paths) {
    expect((await w.p.get(path, { token: outsider.token })).body).toEqual(
      err('Mailboxes are only available to members.'),
    );
    expect((await w.p.get(path, { token: key })).status).toBe(403);
    expect((await w.p.get(path, { token: key })).body).toEqual(err('Mailboxes are only available to members.'));
  }
  const unknown = await w.p.get(`/v1/orgs/${w.p.org.orgId}/mail/mailboxes/mbx_nope/calendars`);
  expect(unknown.status).toBe(404);
  expect(unknown.body).toEqual(err('Mailbox not found'));
});

test('events: wall-clock in their zone; a DST gap moves forward, an overlap takes the first; all-day dates', async () => {
  const cal = await defaultCalendar();
  const ev = (body: object) => w.p.post(`${base}/calendars/${cal}/events`, body);

  const plain = await ev({
    summary: '  Planning  ',
    start: '2026-06-01T09:00',
    end: '2026-06-01T10:30',
    timeZone: 'Europe/Berlin',
    location: 'Room 1',
    reminders: [10, 60],
    categories: ['work'],
    url: 'https://example.com/agenda',
  });
  expect(plain.status).toBe(201);
  expect(plain.body.notified).toEqual({ sent: 0 });
  expect(plain.body.event).toMatchObject({
    eventId: expect.stringMatching(/^evt_/),
    calendarId: cal,
    summary: 'Planning',
    start: Date.UTC(2026, 5, 1, 7, 0),
    end: Date.UTC(2026, 5, 1, 8, 30),
    startLocal: '2026-06-01T09:00:00',
    endLocal: '2026-06-01T10:30:00',
    timeZone: 'Europe/Berlin',
    allDay: false,
    organizer: null,
    attendees: [],
    isOrganizer: true,
    myStatus: null,
    status: 'confirmed',
    busyStatus: 'busy',
    sensitivity: 'normal',
    reminders: [10, 60],
    categories: ['work'],
    url: 'https://example.com/agenda',
    recurrence: null,
    rrule: null,
    exceptions: [],
    sequence: 0,
    version: 1,
  });

  // 02:30 on 8 March 2026 does not exist in New York: 03:30 EDT.
  const gap = await ev({ start: '2026-03-08T02:30', end: '2026-03-08T03:45', timeZone: 'America/New_York' });
  expect(gap.body.event).toMatchObject({ start: Date.UTC(2026, 2, 8, 7, 30), startLocal: '2026-03-08T03:30:00' });
  // 01:30 on 1 November 2026 happens twice: the first (EDT, -04:00).
  const overlap = await ev({ start: '2026-11-01T01:30', end: '2026-11-01T02:00', timeZone: 'America/New_York' });
  expect(overlap.body.event.start).toBe(Date.UTC(2026, 10, 1, 5, 30));

  const allDay = await ev({ allDay: true, start: '2026-06-10', end: '2026-06-12', timeZone: 'Asia/Tokyo' });
  expect(allDay.body.event).toMatchObject({
    allDay: true,
    startLocal: '2026-06-10',
    endLocal: '2026-06-12',
    start: Date.UTC(2026, 5, 9, 15),
    end: Date.UTC(2026, 5, 11, 15),
  });

  const bad = async (body: object, message: string) => {
    const res = await ev(body);
    expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: err(message) });
  };
  await bad(
    { start: '2026-06-01T09:00', end: '2026-06-01T10:00', timeZone: 'Mars/Olympus' },
    'Unknown time zone: Mars/Olympus.',
  );
  await bad({ start: '2026-06-01T09:00', end: '2026-06-01T08:00', timeZone: 'UTC' }, 'end must not be before start.');
  await bad({ allDay: true, start: '2026-06-02', end: '2026-06-02', timeZone: 'UTC' }, 'end must not be before start.');
  await bad(
    { allDay: true, start: '2026-06-02T10:00', end: '2026-06-03', timeZone: 'UTC' },
    'All-day events take dates (YYYY-MM-DD) with an exclusive end.',
  );
  await bad(
    { start: '2026-02-30T10:00', end: '2026-03-01T10:00', timeZone: 'UTC' },
    'start must be YYYY-MM-DD, optionally followed by THH:MM or THH:MM:SS.',
  );
  expect((await ev({ start: '2026-06-01T09:00', end: '2026-06-01T10:00' })).status).toBe(400);
  expect(
    (await ev({ start: '2026-06-01T09:00', end: '2026-06-01T10:00', timeZone: 'UTC', url: 'javascript:x' })).status,
  ).toBe(400);
  expect(
    (await ev({ start: '2026-06-01T09:00', end: '2026-06-01T10:00', timeZone: 'UTC', reminders: [1, 2, 3, 4, 5, 6] }))
      .status,
  ).toBe(400);
  expect(
    (
      await w.p.post(`${base}/calendars/cal_nope/events`, {
        start: '2026-06-01',
        end: '2026-06-02',
        allDay: true,
        timeZone: 'UTC',
      })
    ).body,
  ).toEqual(err('Calendar not found'));

  const got = await w.p.get(`${base}/calendars/${cal}/events/${plain.body.event.eventId}`);
  expect(got.status).toBe(200);
  expect(got.body.event).toEqual(plain.body.event);
  expect((await w.p.get(`${base}/calendars/${cal}/events/evt_nope`)).body).toEqual(err('Event not found'));
});

test('repeat rules: RFC 5545 400s; a weekly series in its zone across DST; one occurrence changed, one deleted', async () => {
  const cal = await defaultCalendar();
  const ev = (recurrence: object) =>
    w.p.post(`${base}/calendars/${cal}/events`, {
      start: '2026-03-02T09:00',
      end: '2026-03-02T10:00',
      timeZone: 'Europe/Berlin',
      recurrence,
    });
  const bad = async (recurrence: object, message: string) => {
    const res = await ev(recurrence);
    expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: err(message) });
  };
  await bad({ freq: 'weekly', count: 3, until: '2026-05-01' }, 'A repeat rule takes count or until, not both.');
  await bad({ freq: 'monthly', bySetPos: [1] }, 'bySetPos needs byDay, byMonthDay or byMonth beside it.');
  await bad(
    { freq: 'weekly', byDay: [{ day: 'MO', nth: 2 }] },
    'A numbered byDay (like the 2nd Tuesday) is only for monthly or yearly rules.',
  );
  // No occurrence ever (its end can't be worked out): 400, not a 500 after seconds of search.
  await bad({ freq: 'yearly', byMonth: [2], byMonthDay: [30], count: 10 }, 'This repeat rule gives no occurrences.');
  expect((await ev({ freq: 'hourly' })).status).toBe(400);
  expect((await ev({ freq: 'daily', interval: 0 })).status).toBe(400);

  const series = await ev({ freq: 'weekly', byDay: [{ day: 'MO' }], count: 6 });
  expect(series.status).toBe(201);
  expect(series.body.event).toMatchObject({
    recurrence: { freq: 'weekly', interval: 1, count: 6, byDay: [{ day: 'MO' }] },
    rrule: 'FREQ=WEEKLY;COUNT=6;BYDAY=MO',
  });
  const { eventId } = series.body.event;
  const window = `from=${Date.UTC(2026, 2, 1)}&to=${Date.UTC(2026, 4, 1)}&calendarId=${cal}`;
  const list = async () =>
    (await w.p.get(`${base}/events?${window}`)).body.occurrences.filter(
      (o: { eventId: string }) => o.eventId === eventId,
    );
  const before = await list();
  // 09:00 Berlin: 08:00 UTC in March (CET), 07:00 UTC from 30 March (CEST).
  expect(before.map((o: { start: number }) => o.start)).toEqual([
    Date.UTC(2026, 2, 2, 8),
    Date.UTC(2026, 2, 9, 8),
    Date.UTC(2026, 2, 16, 8),
    Date.UTC(2026, 2, 23, 8),
    Date.UTC(2026, 2, 30, 7),
    Date.UTC(2026, 3, 6, 7),
  ]);
  expect(before[0]).toEqual({
    eventId,
    calendarId: cal,
    recurrenceId: Date.UTC(2026, 2, 2, 8),
    start: Date.UTC(2026, 2, 2, 8),
    end: Date.UTC(2026, 2, 2, 9),
    allDay: false,
    summary: '',
    location: '',
    status: 'confirmed',
    busyStatus: 'busy',
    recurring: true,
    isException: false,
    isOrganizer: true,
    attendees: 0,
    myStatus: null,
  });

  // The third occurrence moves to 14:00 with a new title; the fourth is deleted.
  const third = Date.UTC(2026, 2, 16, 8);
  const moved = await w.p.put(`${base}/calendars/${cal}/events/${eventId}`, {
    recurrenceId: third,
    start: '2026-03-17T14:00',
    end: '2026-03-17T15:00',
    summary: 'Moved',
  });
  expect(moved.status).toBe(200);
  expect(moved.body.event.exceptions).toEqual([
    {
      recurrenceId: third,
      start: Date.UTC(2026, 2, 17, 13),
      end: Date.UTC(2026, 2, 17, 14),
      startLocal: '2026-03-17T14:00:00',
      endLocal: '2026-03-17T15:00:00',
      summary: 'Moved',
      location: '',
      status: 'confirmed',
      myStatus: null,
    },
  ]);
  expect(
    (await w.p.put(`${base}/calendars/${cal}/events/${eventId}`, { recurrenceId: third + 60_000, summary: 'x' })).body,
  ).toEqual(err('This event has no occurrence at recurrenceId.'));
  const fourth = Date.UTC(2026, 2, 23, 8);
  expect((await w.p.delete(`${base}/calendars/${cal}/events/${eventId}?recurrenceId=${fourth}`)).status).toBe(204);
  const after = await list();
  expect(
    after.map((o: { start: number; isException: boolean; summary: string }) => [o.start, o.isException, o.summary]),
  ).toEqual([
    [Date.UTC(2026, 2, 2, 8), false, ''],
    [Date.UTC(2026, 2, 9, 8), false, ''],
    [Date.UTC(2026, 2, 17, 13), true, 'Moved'],
    [Date.UTC(2026, 2, 30, 7), false, ''],
    [Date.UTC(2026, 3, 6, 7), false, ''],
  ]);

  // ifVersion: a stale one is 409.
  const current = (await w.p.get(`${base}/calendars/${cal}/events/${eventId}`)).body.event;
  const stale = await w.p.put(`${base}/calendars/${cal}/events/${eventId}`, {
    summary: 'x',
    ifVersion: current.version - 1,
  });
  expect(stale.status).toBe(409);
  expect(stale.body).toEqual(err('This event changed since it was read. Reload and try again.'));

  // A new time for the series drops its changed and deleted occurrences and raises sequence.
  const retimed = await w.p.put(`${base}/calendars/${cal}/events/${eventId}`, {
    start: '2026-03-02T11:00',
    end: '2026-03-02T12:00',
    ifVersion: current.version,
  });
  expect(retimed.status).toBe(200);
  expect(retimed.body.event).toMatchObject({
    exceptions: [],
    sequence: current.sequence + 1,
    version: current.version + 1,
  });
  expect((await list()).map((o: { start: number }) => o.start)).toHaveLength(6);

  // moveTo another calendar; then the old path no longer finds it.
  const other = await w.p.post(`${base}/calendars`, { name: `Other ${unique()}` });
  const otherId = other.body.calendar.calendarId;
  expect((await w.p.put(`${base}/calendars/${cal}/events/${eventId}`, { moveTo: 42 })).body).toEqual(
    err('moveTo must be the id of another calendar of this mailbox.'),
  );
  const movedCal = await w.p.put(`${base}/calendars/${cal}/events/${eventId}`, { moveTo: otherId });
  expect(movedCal.body.event.calendarId).toBe(otherId);
  expect((await w.p.get(`${base}/calendars/${cal}/events/${eventId}`)).status).toBe(404);
  const inOther = await w.p.get(
    `${base}/events?from=${Date.UTC(2026, 2, 1)}&to=${Date.UTC(2026, 4, 1)}&calendarId=${otherId}`,
  );
  expect(inOther.body.occurrences).toHaveLength(6);

  // Deleting the calendar deletes its events.
  expect((await w.p.delete(`${base}/calendars/${otherId}`)).status).toBe(204);
  expect((await w.p.get(`${base}/calendars/${otherId}/events/${eventId}`)).status).toBe(404);
});

test('listing: from/to required, at most 400 days; an endless series, an all-day event, sorted by start', async () => {
  const mine = await mailboxFor(w.p, [w.p.owner.userId]);
  const b = `/v1/orgs/${w.p.org.orgId}/mail/mailboxes/${mine.mailboxId}`;
  const cal = (await w.p.get(`${b}/calendars`)).body.calendars[0].calendarId;
  const add = (body: object) => w.p.post(`${b}/calendars/${cal}/events`, body);
  await add({
    summary: 'Daily',
    start: '2020-01-01T08:00',
    end: '2020-01-01T08:15',
    timeZone: 'Australia/Sydney',
    recurrence: { freq: 'daily' },
  });
  await add({ summary: 'Holiday', allDay: true, start: '2026-04-03', end: '2026-04-04', timeZone: 'Australia/Sydney' });
  await add({ summary: 'Past', start: '2019-01-01T08:00', end: '2019-01-01T09:00', timeZone: 'UTC' });

  const from = Date.UTC(2026, 3, 2, 12);
  const to = from + 3 * D;
  const res = await w.p.get(`${b}/events?from=${from}&to=${to}`);
  expect(res.status).toBe(200);
  const got = res.body.occurrences.map((o: { summary: string; start: number; startDate?: string }) => [
    o.summary,
    o.start,
    o.startDate,
  ]);
  // 08:00 Sydney is 21:00 UTC the day before (AEDT, +11) until 5 April 2026, then 22:00 (AEST, +10).
  expect(got).toEqual([
    ['Holiday', Date.UTC(2026, 3, 2, 13), '2026-04-03'],
    ['Daily', Date.UTC(2026, 3, 2, 21), undefined],
    ['Daily', Date.UTC(2026, 3, 3, 21), undefined],
    ['Daily', Date.UTC(2026, 3, 4, 22), undefined],
  ]);
  const bad = async (query: string) => {
    const r = await w.p.get(`${b}/events?${query}`);
    expect(r.status).toBe(400);
    return r.body;
  };
  expect(await bad(`from=0&to=${401 * D}`)).toEqual(err('from and to must be at most 400 days apart, from before to.'));
  expect(await bad(`from=${to}&to=${from}`)).toEqual(
    err('from and to must be at most 400 days apart, from before to.'),
  );
  await bad(`from=${from}`);
  await bad(`from=0x10&to=100`);
  const none = await w.p.get(`${b}/events?from=${from}&to=${to}&calendarId=cal_other`);
  expect(none.body.occurrences).toEqual([]);

  // 26 daily series make 10,400 occurrences in 400 days: 400.
  const daily = (uid: string) => [
    'BEGIN:VEVENT',
    `UID:${uid}`,
    'DTSTAMP:20260101T000000Z',
    'DTSTART:20260101T000000Z',
    'DURATION:PT10M',
    'RRULE:FREQ=DAILY',
    'END:VEVENT',
  ];
  const busy = (await w.p.post(`${b}/calendars`, { name: 'Busy' })).body.calendar.calendarId;
  const content = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//test//daily//EN',
    ...Array.from({ length: 26 }, (_, i) => daily(`d${i}@test`)).flat(),
    'END:VCALENDAR',
  ];
  expect((await w.p.post(`${b}/calendars/${busy}/import`, { content: content.join('\r\n') })).body).toMatchObject({
    imported: 26,
  });
  const tooMany = await w.p.get(`${b}/events?from=${Date.UTC(2026, 0, 1)}&to=${Date.UTC(2026, 0, 1) + 400 * D}`);
  expect(tooMany.status).toBe(400);
  expect(tooMany.body).toEqual(
    err('This window holds more than 10,000 occurrences: ask for a shorter one, or fewer calendars.'),
  );
  const day = await w.p.get(`${b}/events?from=${Date.UTC(2026, 0, 1)}&to=${Date.UTC(2026, 0, 2)}&calendarId=${busy}`);
  expect(day.body.occurrences).toHaveLength(26);
});
