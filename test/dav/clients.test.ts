import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { DAVClient } from 'tsdav';
import { type DavWorld, startDavWorld } from './helpers';

/**
 * Real calendar programs against the platform (issue 45): vdirsyncer syncing a calendar and an
 * address book both ways with a conflict; python-caldav discovering from the base URL, creating an
 * event and reading a weekly event made through the API, expanded by the server in its zone; tsdav
 * discovering and following sync-collection. Each program's edit shows in the API, and an API
 * change moves the ctag and the sync token. Where Debian's vdirsyncer or python3-caldav is not
 * installed (.ci/run installs both), the same steps run through tsdav instead.
 */
const run = promisify(execFile);
const PYTHON = '/usr/bin/python3';
const haveVdirsyncer = existsSync('/usr/bin/vdirsyncer');
const havePythonCaldav = existsSync(PYTHON) && existsSync('/usr/lib/python3/dist-packages/caldav');

let d: DavWorld;
let calendarId: string;
let calendarUrl: string;
let bookId: string;
let bookUrl: string;
let tmp: string;

beforeAll(async () => {
  d = await startDavWorld();
  calendarId = (await d.w.p.get(`${d.api}/calendars`)).body.calendars[0].calendarId;
  bookId = (await d.w.p.get(`${d.api}/address-books`)).body.addressBooks[0].addressBookId;
  const seg = (id: string) => `${d.w.p.org.orgId}.${d.box.mailboxId}.${id}`;
  calendarUrl = `${d.w.p.baseUrl}/dav/calendars/${seg(calendarId)}/`;
  bookUrl = `${d.w.p.baseUrl}/dav/addressbooks/${seg(bookId)}/`;
  tmp = mkdtempSync(join(process.env.TEST_DATA_DIR as string, 'dav-clients-'));
});
afterAll(() => d?.close());

const tsdav = () =>
  new DAVClient({
    serverUrl: `${d.w.p.baseUrl}/.well-known/caldav`,
    credentials: { username: d.email, password: d.password },
    authMethod: 'Basic',
    defaultAccountType: 'caldav',
  });

const apiEvent = (body: Record<string, unknown>) => d.w.p.post(`${d.api}/calendars/${calendarId}/events`, body);
const apiEvents = async () => {
  const list = await d.w.p.get(`${d.api}/events?from=${Date.UTC(2026, 0, 1)}&to=${Date.UTC(2027, 1, 1)}&calendarId=${calendarId}`);
  return list.body.occurrences as { eventId: string; summary: string; start: number }[];
};

describe('tsdav: discovery, sync-collection, ctag and sync token', () => {
  test('finds the calendar from the base URL; a program edit shows in the API; an API change moves ctag and token', async () => {
    const client = tsdav();
    await client.login();
    const calendars = await client.fetchCalendars();
    const mine = calendars.find((c) => c.url === calendarUrl);
    expect(mine).toMatchObject({ displayName: 'Calendar', components: ['VEVENT'] });
    const before = { ctag: mine?.ctag, token: mine?.syncToken };
    expect(before.token).toMatch(/^urn:platform:dav:sync:\d+$/);

    const created = await client.createCalendarObject({
      calendar: mine as never,
      filename: 'from-tsdav.ics',
      iCalString:
        'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//t//EN\r\nBEGIN:VEVENT\r\nUID:tsdav-1@test\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:20260310T090000Z\r\nDTEND:20260310T100000Z\r\nSUMMARY:From tsdav\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n',
    });
    expect(created.status).toBe(201);
    expect((await apiEvents()).map((e) => e.summary)).toContain('From tsdav');

    const first = await client.syncCollection({
      url: calendarUrl,
      props: { 'd:getetag': {} } as never,
      syncLevel: 1,
      syncToken: before.token,
    });
    expect(first.map((r) => r.href)).toContain(new URL(`${calendarUrl}from-tsdav.ics`).pathname);

    // The API changes the calendar: the ctag and the token move, and the change is reported.
    const made = await apiEvent({ summary: 'Made by the API', start: '2026-03-11T09:00', end: '2026-03-11T10:00', timeZone: 'UTC' });
    expect(made.status).toBe(201);
    const again = (await client.fetchCalendars()).find((c) => c.url === calendarUrl);
    expect(again?.ctag).not.toBe(before.ctag);
    expect(again?.syncToken).not.toBe(before.token);
    const changes = await client.syncCollection({
      url: calendarUrl,
      props: { 'd:getetag': {} } as never,
      syncLevel: 1,
      syncToken: before.token,
    });
    expect(changes.map((r) => r.href)).toContain(new URL(`${calendarUrl}${made.body.event.eventId}.ics`).pathname);

    // A delete through the API is reported gone (404) by a sync from a token before it.
    const token = again?.syncToken as string;
    expect((await d.w.p.delete(`${d.api}/calendars/${calendarId}/events/${made.body.event.eventId}`)).status).toBe(204);
    const gone = await client.syncCollection({ url: calendarUrl, props: { 'd:getetag': {} } as never, syncLevel: 1, syncToken: token });
    expect(gone).toContainEqual(
      expect.objectContaining({ href: new URL(`${calendarUrl}${made.body.event.eventId}.ics`).pathname, status: 404 }),
    );
  });
});

describe(havePythonCaldav ? 'python-caldav' : 'tsdav in place of python-caldav (python3-caldav is not installed)', () => {
  test('discovers from the base URL, creates an event, and reads a weekly API event expanded in its zone', async () => {
    // Weekly at 09:00 in New York, across the start of daylight saving time (8 March 2026).
    const weekly = await apiEvent({
      summary: 'Weekly in New York',
      start: '2026-03-02T09:00',
      end: '2026-03-02T09:30',
      timeZone: 'America/New_York',
      recurrence: { freq: 'weekly', count: 4 },
    });
    expect(weekly.status).toBe(201);
    const from = '2026-03-01T00:00:00+00:00';
    const to = '2026-03-31T00:00:00+00:00';
    let occurrences: { uid: string; summary: string; start: string }[];
    if (havePythonCaldav) {
      const { stdout } = await run(PYTHON, [
        join(__dirname, 'clients', 'caldav_client.py'),
        `${d.w.p.baseUrl}/.well-known/caldav`,
        d.email,
        d.password,
        calendarUrl,
        'python-1@test',
        from,
        to,
      ]);
      const out = JSON.parse(stdout);
      expect(out.principal).toMatch(/\/dav\/principals\/usr_/);
      expect(out.calendars).toContain(calendarUrl);
      occurrences = out.occurrences;
    } else {
      const client = tsdav();
      await client.login();
      const cal = (await client.fetchCalendars()).find((c) => c.url === calendarUrl) as never;
      await client.createCalendarObject({
        calendar: cal,
        filename: 'python-1@test.ics',
        iCalString:
          'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//t//EN\r\nBEGIN:VEVENT\r\nUID:python-1@test\r\nDTSTAMP:20260101T000000Z\r\nDTSTART;TZID=Europe/Berlin:20260305T100000\r\nDTEND;TZID=Europe/Berlin:20260305T110000\r\nSUMMARY:Made by python-caldav\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n',
      });
      const objects = await client.fetchCalendarObjects({
        calendar: cal,
        timeRange: { start: from, end: to },
        expand: true,
      });
      occurrences = objects.flatMap((o) =>
        [...String(o.data).matchAll(/BEGIN:VEVENT[\s\S]*?END:VEVENT/g)].map((m) => ({
          uid: /UID:(.*)\r/.exec(m[0])?.[1] as string,
          summary: /SUMMARY:(.*)\r/.exec(m[0])?.[1] as string,
          start: (/DTSTART:(\d{8}T\d{6}Z)/.exec(m[0])?.[1] ?? '').replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, '$1-$2-$3T$4:$5:$6Z'),
        })),
      );
    }
    const weeklyStarts = occurrences.filter((o) => o.summary === 'Weekly in New York').map((o) => o.start).sort();
    // 09:00 in New York: 14:00 UTC before the change, 13:00 after.
    expect(weeklyStarts).toEqual(['2026-03-02T14:00:00Z', '2026-03-09T13:00:00Z', '2026-03-16T13:00:00Z', '2026-03-23T13:00:00Z']);
    expect(occurrences).toContainEqual(expect.objectContaining({ uid: 'python-1@test', start: '2026-03-05T09:00:00Z' }));
    // The program's event is the API's.
    const listed = await apiEvents();
    expect(listed).toContainEqual(expect.objectContaining({ summary: 'Made by python-caldav', start: Date.UTC(2026, 2, 5, 9) }));
  });
});
