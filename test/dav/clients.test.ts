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
// DAV_CLIENTS_FALLBACK=1 runs the tsdav stand-ins even where the programs are installed (to check them).
const fallback = process.env.DAV_CLIENTS_FALLBACK === '1';
const haveVdirsyncer = !fallback && existsSync('/usr/bin/vdirsyncer');
const havePythonCaldav = !fallback && existsSync(PYTHON) && existsSync('/usr/lib/python3/dist-packages/caldav');

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
  const list = await d.w.p.get(
    `${d.api}/events?from=${Date.UTC(2026, 0, 1)}&to=${Date.UTC(2027, 1, 1)}&calendarId=${calendarId}`,
  );
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
    const made = await apiEvent({
      summary: 'Made by the API',
      start: '2026-03-11T09:00',
      end: '2026-03-11T10:00',
      timeZone: 'UTC',
    });
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
    const gone = await client.syncCollection({
      url: calendarUrl,
      props: { 'd:getetag': {} } as never,
      syncLevel: 1,
      syncToken: token,
    });
    expect(gone).toContainEqual(
      expect.objectContaining({ href: new URL(`${calendarUrl}${made.body.event.eventId}.ics`).pathname, status: 404 }),
    );
  });
});

describe(
  havePythonCaldav ? 'python-caldav' : 'tsdav in place of python-caldav (python3-caldav is not installed)',
  () => {
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
            start: (/DTSTART:(\d{8}T\d{6}Z)/.exec(m[0])?.[1] ?? '').replace(
              /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/,
              '$1-$2-$3T$4:$5:$6Z',
            ),
          })),
        );
      }
      const weeklyStarts = occurrences
        .filter((o) => o.summary === 'Weekly in New York')
        .map((o) => o.start)
        .sort();
      // 09:00 in New York: 14:00 UTC before the change, 13:00 after.
      expect(weeklyStarts).toEqual([
        '2026-03-02T14:00:00Z',
        '2026-03-09T13:00:00Z',
        '2026-03-16T13:00:00Z',
        '2026-03-23T13:00:00Z',
      ]);
      expect(occurrences).toContainEqual(
        expect.objectContaining({ uid: 'python-1@test', start: '2026-03-05T09:00:00Z' }),
      );
      // The program's event is the API's.
      const listed = await apiEvents();
      expect(listed).toContainEqual(
        expect.objectContaining({ summary: 'Made by python-caldav', start: Date.UTC(2026, 2, 5, 9) }),
      );
    });
  },
);

/** vdirsyncer's configuration: the calendar and the address book against folders, `conflict` saying who wins. */
function vdirsyncerConfig(dir: string, conflict: 'a wins' | 'b wins') {
  const lines = [
    '[general]',
    `status_path = "${dir}/status/"`,
    '',
    '[pair cal]',
    'a = "cal_local"',
    'b = "cal_remote"',
    'collections = null',
    `conflict_resolution = "${conflict}"`,
    '',
    '[storage cal_local]',
    'type = "filesystem"',
    `path = "${dir}/cal/"`,
    'fileext = ".ics"',
    '',
    '[storage cal_remote]',
    'type = "caldav"',
    `url = "${calendarUrl}"`,
    `username = "${d.email}"`,
    `password = "${d.password}"`,
    '',
    '[pair book]',
    'a = "book_local"',
    'b = "book_remote"',
    'collections = null',
    `conflict_resolution = "${conflict}"`,
    '',
    '[storage book_local]',
    'type = "filesystem"',
    `path = "${dir}/book/"`,
    'fileext = ".vcf"',
    '',
    '[storage book_remote]',
    'type = "carddav"',
    `url = "${bookUrl}"`,
    `username = "${d.email}"`,
    `password = "${d.password}"`,
    '',
  ];
  writeFileSync(join(dir, 'config'), lines.join('\n'));
}

const vdirsyncer = async (dir: string, ...args: string[]) => {
  try {
    return await run('vdirsyncer', ['-c', join(dir, 'config'), ...args], { env: { ...process.env, HOME: dir } });
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string };
    throw new Error(`vdirsyncer ${args.join(' ')} failed:\n${e.stdout}\n${e.stderr}`);
  }
};

const ICS = (uid: string, summary: string) =>
  `BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//local//EN\r\nBEGIN:VEVENT\r\nUID:${uid}\r\nDTSTAMP:20260101T000000Z\r\nDTSTART;TZID=Europe/Paris:20260402T140000\r\nDTEND;TZID=Europe/Paris:20260402T150000\r\nSUMMARY:${summary}\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n`;
const VCF = (uid: string, name: string, email: string) =>
  `BEGIN:VCARD\r\nVERSION:3.0\r\nUID:${uid}\r\nFN:${name}\r\nN:${name.split(' ').reverse().join(';')};;;\r\nEMAIL;TYPE=WORK:${email}\r\nEND:VCARD\r\n`;

const apiContacts = async () =>
  (await d.w.p.get(`${d.api}/contacts?addressBookId=${bookId}&limit=100`)).body.contacts as {
    contactId: string;
    fullName: string;
    emails: { value: string }[];
  }[];
const summaryOf = async (eventId: string) =>
  (await d.w.p.get(`${d.api}/calendars/${calendarId}/events/${eventId}`)).body.event?.summary as string | undefined;

describe(haveVdirsyncer ? 'vdirsyncer' : 'tsdav in place of vdirsyncer (vdirsyncer is not installed)', () => {
  test('syncs a calendar and an address book both ways, with a conflict, losing nothing', async () => {
    const planning = await apiEvent({
      summary: 'Planning',
      start: '2026-04-01T09:00',
      end: '2026-04-01T10:00',
      timeZone: 'Europe/Paris',
    });
    expect(planning.status).toBe(201);
    const planningId = planning.body.event.eventId as string;
    const ada = await d.w.p.post(`${d.api}/address-books/${bookId}/contacts`, {
      fullName: 'Ada Lovelace',
      emails: [{ value: 'ada@example.com', type: 'work' }],
    });
    expect(ada.status).toBe(201);
    const sync = haveVdirsyncer ? await vdirsyncerSide() : await tsdavSide();

    // Down: the API's event and contact reach the program.
    await sync.sync();
    expect(sync.events().some((t) => t.includes('SUMMARY:Planning'))).toBe(true);
    expect(sync.cards().some((t) => t.includes('FN:Ada Lovelace'))).toBe(true);

    // Up: the program's new event and contact, and its edit, reach the API.
    sync.addEvent('local-1.ics', ICS('local-1@test', 'Written locally'));
    sync.addCard('local-2.vcf', VCF('local-2@test', 'Grace Hopper', 'grace@example.com'));
    sync.editEvent('SUMMARY:Planning', 'SUMMARY:Planning (moved)');
    await sync.sync();
    const listed = await apiEvents();
    expect(listed.map((e) => e.summary)).toEqual(expect.arrayContaining(['Written locally', 'Planning (moved)']));
    expect(listed.find((e) => e.summary === 'Written locally')?.start).toBe(Date.UTC(2026, 3, 2, 12));
    expect((await apiContacts()).map((c) => c.fullName)).toEqual(
      expect.arrayContaining(['Ada Lovelace', 'Grace Hopper']),
    );

    // A conflict: both sides change the event; the program's side wins (`a wins`), nothing else is lost.
    const patched = await d.w.p.put(`${d.api}/calendars/${calendarId}/events/${planningId}`, {
      summary: 'Planning (API)',
    });
    expect(patched.status).toBe(200);
    sync.editEvent('SUMMARY:Planning (moved)', 'SUMMARY:Planning (local)');
    await sync.sync();
    expect(await summaryOf(planningId)).toBe('Planning (local)');
    expect(sync.events().filter((t) => t.includes('SUMMARY:Planning')).length).toBe(1);

    // Deletes both ways: the API deletes Ada, the program deletes its event.
    expect((await d.w.p.delete(`${d.api}/address-books/${bookId}/contacts/${ada.body.contact.contactId}`)).status).toBe(
      204,
    );
    sync.removeEvent('local-1.ics');
    await sync.sync();
    expect(sync.cards().some((t) => t.includes('Ada Lovelace'))).toBe(false);
    expect((await apiEvents()).map((e) => e.summary)).not.toContain('Written locally');

    // Both sides hold the same: every API event and contact is in the program, and the reverse.
    await sync.sync();
    const events = await apiEvents();
    expect(sync.events().length).toBe(new Set(events.map((e) => e.eventId)).size);
    const cards = await apiContacts();
    expect(sync.cards().length).toBe(cards.length);
    for (const c of cards) expect(sync.cards().some((t) => t.includes(`FN:${c.fullName}`))).toBe(true);
  });
});

interface SyncSide {
  sync(): Promise<void>;
  events(): string[];
  cards(): string[];
  addEvent(name: string, text: string): void;
  addCard(name: string, text: string): void;
  editEvent(from: string, to: string): void;
  removeEvent(name: string): void;
}

/** vdirsyncer between two folders and the platform. */
async function vdirsyncerSide(): Promise<SyncSide> {
  const dir = join(tmp, 'vdirsyncer');
  mkdirSync(join(dir, 'cal'), { recursive: true });
  mkdirSync(join(dir, 'book'), { recursive: true });
  vdirsyncerConfig(dir, 'a wins');
  await vdirsyncer(dir, 'discover');
  const read = (sub: string) => readdirSync(join(dir, sub)).map((f) => readFileSync(join(dir, sub, f), 'utf8'));
  return {
    sync: async () => {
      await vdirsyncer(dir, 'sync');
    },
    events: () => read('cal'),
    cards: () => read('book'),
    addEvent: (name, text) => writeFileSync(join(dir, 'cal', name), text),
    addCard: (name, text) => writeFileSync(join(dir, 'book', name), text),
    editEvent: (from, to) => {
      for (const f of readdirSync(join(dir, 'cal'))) {
        const path = join(dir, 'cal', f);
        const text = readFileSync(path, 'utf8');
        if (text.includes(`${from}\r\n`) || text.includes(`${from}\n`)) writeFileSync(path, text.replace(from, to));
      }
    },
    removeEvent: (name) => unlinkSync(join(dir, 'cal', name)),
  };
}

/**
 * The same two-way sync through tsdav, where vdirsyncer is not installed: a local copy by href
 * with ETags; local changes PUT with If-Match (a 412 is the conflict: the local side wins, put
 * again over the server's ETag), server changes fetched.
 */
async function tsdavSide(): Promise<SyncSide> {
  const client = new DAVClient({
    serverUrl: `${d.w.p.baseUrl}/.well-known/carddav`,
    credentials: { username: d.email, password: d.password },
    authMethod: 'Basic',
    defaultAccountType: 'carddav',
  });
  await client.login();
  const cal = tsdav();
  await cal.login();
  type Item = { text: string; etag?: string; dirty: boolean; deleted: boolean };
  const local = { cal: new Map<string, Item>(), book: new Map<string, Item>() };
  const pull = async (kind: 'cal' | 'book') => {
    const objects =
      kind === 'cal'
        ? await cal.fetchCalendarObjects({ calendar: { url: calendarUrl } as never })
        : await client.fetchVCards({ addressBook: { url: bookUrl } as never });
    const seen = new Set<string>();
    for (const o of objects) {
      const name = decodeURIComponent(new URL(o.url, d.w.p.baseUrl).pathname.split('/').pop() as string);
      seen.add(name);
      const mine = local[kind].get(name);
      if (!mine || (!mine.dirty && mine.etag !== o.etag))
        local[kind].set(name, { text: o.data, etag: o.etag, dirty: false, deleted: false });
    }
    for (const [name, item] of local[kind])
      if (!seen.has(name) && item.etag && !item.dirty && !item.deleted) local[kind].delete(name);
  };
  const push = async (kind: 'cal' | 'book') => {
    const base = kind === 'cal' ? calendarUrl : bookUrl;
    const type = kind === 'cal' ? 'text/calendar; charset=utf-8' : 'text/vcard; charset=utf-8';
    for (const [name, item] of local[kind]) {
      const url = `${base}${encodeURIComponent(name)}`;
      const auth = { authorization: `Basic ${Buffer.from(`${d.email}:${d.password}`).toString('base64')}` };
      if (item.deleted) {
        await fetch(url, { method: 'DELETE', headers: { ...auth, ...(item.etag ? { 'if-match': item.etag } : {}) } });
        local[kind].delete(name);
        continue;
      }
      if (!item.dirty) continue;
      const put = (etag?: string) =>
        fetch(url, {
          method: 'PUT',
          body: item.text,
          headers: { ...auth, 'content-type': type, ...(etag ? { 'if-match': etag } : { 'if-none-match': '*' }) },
        });
      let res = await put(item.etag);
      if (res.status === 412) {
        const now = await fetch(url, { method: 'HEAD', headers: auth });
        res = await put(now.headers.get('etag') ?? undefined);
      }
      expect([201, 204]).toContain(res.status);
      local[kind].delete(name);
    }
  };
  return {
    sync: async () => {
      for (const kind of ['cal', 'book'] as const) {
        await push(kind);
        await pull(kind);
      }
    },
    events: () => [...local.cal.values()].filter((i) => !i.deleted).map((i) => i.text),
    cards: () => [...local.book.values()].filter((i) => !i.deleted).map((i) => i.text),
    addEvent: (name, text) => local.cal.set(name, { text, dirty: true, deleted: false }),
    addCard: (name, text) => local.book.set(name, { text, dirty: true, deleted: false }),
    editEvent: (from, to) => {
      for (const item of local.cal.values())
        if (item.text.includes(`${from}\r\n`)) Object.assign(item, { text: item.text.replace(from, to), dirty: true });
    },
    removeEvent: (name) => {
      const item = local.cal.get(name);
      if (item) item.deleted = true;
    },
  };
}
