import ICAL from 'ical.js';
import { Cli } from '../cli/helpers';
import { type MailWorld, mailboxFor, startMailWorld } from '../mail/helpers';
import { icalJsOccurrences } from './reference';

/**
 * Subscription feeds through the local gateway: made, shown, rotated and revoked by the mailbox's
 * members (audited); the public address read with no token by a real parser (ical.js), with the
 * right occurrences in the event's zone; ETag and 304, HEAD, Cache-Control; 404 for every token
 * that does not serve; 303 past 4 MB; `platform cal feed`.
 */
let w: MailWorld;
let base: string;
let calendarId: string;

const err = (message: string) => ({ error: message });
const H = 3_600_000;
const D = 24 * H;

beforeAll(async () => {
  w = await startMailWorld();
  const box = await mailboxFor(w.p, [w.p.owner.userId]);
  base = `/v1/orgs/${w.p.org.orgId}/mail/mailboxes/${box.mailboxId}`;
  const made = await w.p.post(`${base}/calendars`, { name: 'Team' });
  expect(made.status).toBe(201);
  calendarId = made.body.calendar.calendarId;
});
afterAll(async () => {
  await w?.close();
});

/** The feed's path on the API's address (`/feeds/<token>.ics`). */
const pathOf = (url: string) => new URL(url).pathname;

async function newCalendar(name: string): Promise<string> {
  const res = await w.p.post(`${base}/calendars`, { name });
  expect(res.status).toBe(201);
  return res.body.calendar.calendarId;
}

test('create answers the address once; GET tells only that it exists; a second create is 409', async () => {
  const feed = `${base}/calendars/${calendarId}/feed`;
  expect((await w.p.get(feed)).body).toEqual({ feed: null });
  const made = await w.p.post(feed);
  expect(made.status).toBe(201);
  expect(made.body.feed).toEqual({
    url: expect.stringMatching(new RegExp(`^${w.p.baseUrl}/feeds/[A-Za-z0-9_-]{43}\\.ics$`)),
    webcalUrl: expect.stringMatching(/^webcal:\/\/127\.0\.0\.1:\d+\/feeds\/[A-Za-z0-9_-]{43}\.ics$/),
    createdAt: expect.any(Number),
    rotatedAt: null,
  });
  expect(made.body.feed.webcalUrl.slice('webcal:'.length)).toBe(made.body.feed.url.slice('http:'.length));
  const shown = await w.p.get(feed);
  expect(shown.body).toEqual({ feed: { createdAt: made.body.feed.createdAt, rotatedAt: null } });
  expect(shown.text).not.toContain('/feeds/');
  const again = await w.p.post(feed);
  expect(again.status).toBe(409);
  expect(again.body).toEqual(err('This calendar has a feed already: rotate it for a new address, or revoke it.'));
  await w.p.delete(feed);
});

test('a real parser reads the feed: a VTIMEZONE per zone, a weekly series across DST at 09:00 in its zone', async () => {
  const cal = await newCalendar('Zones');
  const events = `${base}/calendars/${cal}/events`;
  // Weekly on Monday 09:00 in Berlin from 16 March 2026: Europe moves to summer time on 29 March.
  const weekly = await w.p.post(events, {
    summary: 'Standup',
    start: '2026-03-16T09:00',
    end: '2026-03-16T09:15',
    timeZone: 'Europe/Berlin',
    recurrence: { freq: 'weekly', count: 4 },
  });
  expect(weekly.status).toBe(201);
  // One occurrence moved, and one in New York (summer time from 8 March there).
  const moved = await w.p.put(`${events}/${weekly.body.event.eventId}`, {
    recurrenceId: Date.UTC(2026, 2, 30, 7),
    start: '2026-03-30T11:00',
    end: '2026-03-30T11:15',
  });
  expect(moved.status).toBe(200);
  expect(
    (
      await w.p.post(events, {
        summary: 'Call',
        start: '2026-03-10T10:00',
        end: '2026-03-10T11:00',
        timeZone: 'America/New_York',
      })
    ).status,
  ).toBe(201);

  const url = (await w.p.post(`${base}/calendars/${cal}/feed`)).body.feed.url as string;
  const res = await w.p.get(pathOf(url), { token: null });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
  expect(res.headers.get('cache-control')).toBe('private, max-age=300');
  expect(res.headers.get('etag')).toMatch(/^W\/"[A-Za-z0-9_-]{27}"$/);
  const text = res.text;
  expect(text).toMatch(/^BEGIN:VCALENDAR\r\nVERSION:2\.0\r\nREFRESH-INTERVAL;VALUE=DURATION:PT1H\r\n/);
  expect(text).toContain('X-WR-CALNAME:Zones\r\n');
  expect(text).toContain('METHOD:PUBLISH\r\n');

  const root = new ICAL.Component(ICAL.parse(text) as unknown as unknown[]);
  const zones = root.getAllSubcomponents('vtimezone').map((z) => z.getFirstPropertyValue('tzid'));
  expect(zones.sort()).toEqual(['America/New_York', 'Europe/Berlin']);
  const used = [...new Set([...text.matchAll(/;TZID=([^:;]+)[:;]/g)].map((m) => m[1]))].sort();
  expect(used).toEqual(['America/New_York', 'Europe/Berlin']);

  // The file's own VTIMEZONEs (the reference registers them before anything else).
  const from = Date.UTC(2026, 2, 1);
  const expected: [number, number][] = [
    [Date.UTC(2026, 2, 10, 14), Date.UTC(2026, 2, 10, 15)], // 10:00 EDT
    [Date.UTC(2026, 2, 16, 8), Date.UTC(2026, 2, 16, 8, 15)], // 09:00 CET
    [Date.UTC(2026, 2, 23, 8), Date.UTC(2026, 2, 23, 8, 15)],
    [Date.UTC(2026, 2, 30, 9), Date.UTC(2026, 2, 30, 9, 15)], // moved to 11:00 CEST
    [Date.UTC(2026, 3, 6, 7), Date.UTC(2026, 3, 6, 7, 15)], // 09:00 CEST
  ];
  expect(icalJsOccurrences(text, from, from + 60 * D)).toEqual(expected);
  // The same as the API's own listing.
  const listed = await w.p.get(`${base}/events?from=${from}&to=${from + 60 * D}&calendarId=${cal}`);
  expect(listed.body.occurrences.map((o: { start: number; end: number }) => [o.start, o.end])).toEqual(expected);
});

test('ETag and If-None-Match (304), HEAD, read-only; a change moves the tag', async () => {
  const cal = await newCalendar('Tags');
  const url = (await w.p.post(`${base}/calendars/${cal}/feed`)).body.feed.url as string;
  const path = pathOf(url);
  const first = await w.p.get(path, { token: null });
  const etag = first.headers.get('etag') as string;
  const second = await w.p.get(path, { token: null });
  expect(second.headers.get('etag')).toBe(etag);

  const unchanged = await w.p.get(path, { token: null, headers: { 'if-none-match': etag } });
  expect(unchanged.status).toBe(304);
  expect(unchanged.text).toBe('');
  expect(unchanged.headers.get('etag')).toBe(etag);
  // The strong form of the same tag, and a list, match too (weak comparison).
  expect((await w.p.get(path, { token: null, headers: { 'if-none-match': etag.slice(2) } })).status).toBe(304);
  expect((await w.p.get(path, { token: null, headers: { 'if-none-match': `"x", ${etag}` } })).status).toBe(304);
  expect((await w.p.get(path, { token: null, headers: { 'if-none-match': '"other"' } })).status).toBe(200);

  const head = await fetch(url, { method: 'HEAD' });
  expect(head.status).toBe(200);
  expect(await head.text()).toBe('');
  expect(head.headers.get('etag')).toBe(etag);
  expect(head.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
  expect(Number(head.headers.get('content-length'))).toBe(Buffer.byteLength(first.text));
  expect((await fetch(url, { method: 'HEAD', headers: { 'if-none-match': etag } })).status).toBe(304);

  for (const method of ['POST', 'PUT', 'DELETE']) {
    const res = await w.p.call(method, path, { token: null });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET');
  }

  const added = await w.p.post(`${base}/calendars/${cal}/events`, {
    summary: 'New',
    start: '2026-05-01T09:00',
    end: '2026-05-01T10:00',
    timeZone: 'Asia/Tokyo',
  });
  expect(added.status).toBe(201);
  const after = await w.p.get(path, { token: null, headers: { 'if-none-match': etag } });
  expect(after.status).toBe(200);
  expect(after.headers.get('etag')).not.toBe(etag);
  expect(after.text).toContain('SUMMARY:New');
  expect(after.text).toContain('BEGIN:VTIMEZONE\r\nTZID:Asia/Tokyo');
});

test('rotate and revoke: the old address is 404 at once; errors of each route; audited without the address', async () => {
  const cal = await newCalendar('Rotating');
  const feed = `${base}/calendars/${cal}/feed`;
  const noFeed = err('This calendar has no feed.');
  expect((await w.p.post(`${feed}/rotate`)).body).toEqual(noFeed);
  expect((await w.p.delete(feed)).status).toBe(404);

  const made = await w.p.post(feed);
  const old = pathOf(made.body.feed.url);
  expect((await w.p.get(old, { token: null })).status).toBe(200);
  const rotated = await w.p.post(`${feed}/rotate`);
  expect(rotated.status).toBe(200);
  expect(rotated.body.feed).toEqual({
    url: expect.stringMatching(/\/feeds\/[A-Za-z0-9_-]{43}\.ics$/),
    webcalUrl: expect.stringMatching(/^webcal:/),
    createdAt: made.body.feed.createdAt,
    rotatedAt: expect.any(Number),
  });
  const now = pathOf(rotated.body.feed.url);
  expect(now).not.toBe(old);
  const gone = await w.p.get(old, { token: null });
  expect(gone.status).toBe(404);
  expect(gone.body).toEqual(err('Not found'));
  expect((await w.p.get(now, { token: null })).status).toBe(200);
  expect((await w.p.get(feed)).body.feed).toEqual({
    createdAt: made.body.feed.createdAt,
    rotatedAt: rotated.body.feed.rotatedAt,
  });

  const revoked = await w.p.delete(feed);
  expect(revoked.status).toBe(204);
  expect((await w.p.get(now, { token: null })).status).toBe(404);
  expect((await w.p.get(feed)).body).toEqual({ feed: null });
  const twice = await w.p.delete(feed);
  expect(twice.status).toBe(404);
  expect(twice.body).toEqual(noFeed);
  expect((await w.p.post(`${feed}/rotate`)).body).toEqual(noFeed);

  // Each write once in the audit log, named by what it did, with the calendar's id and never the address.
  const audit = await w.p.get(`/v1/orgs/${w.p.org.orgId}/audit?target=${cal}&action=mail.mailboxes.calendars.feed`);
  expect(audit.status).toBe(200);
  const entries = audit.body.entries as { action: string; status: number; target: Record<string, string> }[];
  expect(entries.map((e) => `${e.action} ${e.status}`).sort()).toEqual([
    'mail.mailboxes.calendars.feed.create 201',
    'mail.mailboxes.calendars.feed.delete 204',
    'mail.mailboxes.calendars.feed.delete 404',
    'mail.mailboxes.calendars.feed.delete 404',
    'mail.mailboxes.calendars.feed.rotate 200',
    'mail.mailboxes.calendars.feed.rotate 404',
    'mail.mailboxes.calendars.feed.rotate 404',
  ]);
  expect(entries[0]?.target).toMatchObject({ calendarId: cal });
  const token = (p: string) => p.slice('/feeds/'.length, -'.ics'.length);
  for (const secret of [token(old), token(now)]) expect(audit.text).not.toContain(secret);
});

test('membership and unknown calendars on every owner route; tokens that serve nothing are 404', async () => {
  const outsider = await w.p.person('developer');
  const key = await w.p.apiKey();
  const feed = `${base}/calendars/${calendarId}/feed`;
  const calls = [
    (o: object) => w.p.get(feed, o),
    (o: object) => w.p.post(feed, undefined, o),
    (o: object) => w.p.post(`${feed}/rotate`, undefined, o),
    (o: object) => w.p.delete(feed, o),
  ];
  for (const call of calls) {
    for (const token of [outsider.token, key]) {
      const res = await call({ token });
      expect(res.status).toBe(403);
      expect(res.body).toEqual(err('Mailboxes are only available to members.'));
    }
    expect((await call({ token: null })).status).toBe(401);
  }
  for (const [method, path] of [
    ['GET', `${base}/calendars/cal_nope/feed`],
    ['POST', `${base}/calendars/cal_nope/feed`],
    ['POST', `${base}/calendars/cal_nope/feed/rotate`],
    ['DELETE', `${base}/calendars/cal_nope/feed`],
  ] as const) {
    const res = await w.p.call(method, path);
    expect(res.status).toBe(404);
    expect(res.body).toEqual(err('Calendar not found'));
  }
  const unknownBox = await w.p.post(`/v1/orgs/${w.p.org.orgId}/mail/mailboxes/mbx_nope/calendars/${calendarId}/feed`);
  expect(unknownBox.body).toEqual(err('Mailbox not found'));

  for (const path of [
    '/feeds/x.ics',
    `/feeds/${'A'.repeat(43)}.ics`,
    `/feeds/${'A'.repeat(43)}`,
    `/feeds/${'A'.repeat(44)}.ics`,
    `/feeds/${'%41'.repeat(43)}.ics`,
    '/feeds',
    `/feeds/${'a'.repeat(200)}.ics`,
  ]) {
    const res = await w.p.get(path, { token: null });
    expect({ path, status: res.status, body: res.body }).toEqual({ path, status: 404, body: err('Not found') });
  }

  // A deleted calendar's feed serves nothing.
  const cal = await newCalendar('Doomed');
  const url = (await w.p.post(`${base}/calendars/${cal}/feed`)).body.feed.url as string;
  expect((await w.p.get(pathOf(url), { token: null })).status).toBe(200);
  expect((await w.p.delete(`${base}/calendars/${cal}`)).status).toBe(204);
  expect((await w.p.get(pathOf(url), { token: null })).status).toBe(404);
});

test('a feed past the inline limit answers 303 to a link to the whole file; unchanged, still 304', async () => {
  // The limit is 4 MB; this test lowers it (FEED_INLINE_BYTES, read with each request) and checks
  // the same path on 300 KB (the events of a 4 MB file would take long to write through the API).
  process.env.FEED_INLINE_BYTES = '200000';
  try {
    const cal = await newCalendar('Large');
    const description = 'x'.repeat(60_000);
    for (let i = 0; i < 5; i++) {
      const res = await w.p.post(`${base}/calendars/${cal}/events`, {
        summary: `Event ${i}`,
        description,
        start: '2026-06-01T09:00',
        end: '2026-06-01T10:00',
        timeZone: 'Europe/Paris',
      });
      expect(res.status).toBe(201);
    }
    const url = (await w.p.post(`${base}/calendars/${cal}/feed`)).body.feed.url as string;
    const linked = await fetch(url, { redirect: 'manual' });
    expect(linked.status).toBe(303);
    expect(await linked.text()).toBe('');
    const etag = linked.headers.get('etag') as string;
    expect(etag).toMatch(/^W\//);
    expect(linked.headers.get('cache-control')).toBe('private, max-age=300');
    const file = await fetch(linked.headers.get('location') as string);
    expect(file.status).toBe(200);
    const text = await file.text();
    expect(Buffer.byteLength(text)).toBeGreaterThan(300_000);
    expect(text.match(/^BEGIN:VEVENT\r$/gm)).toHaveLength(5);
    expect(text).toContain('BEGIN:VTIMEZONE\r\nTZID:Europe/Paris');
    expect((await fetch(url, { redirect: 'manual', headers: { 'if-none-match': etag } })).status).toBe(304);
    // Followed, as calendar applications do: the same file but for when it was written (DTSTAMP).
    const stamps = (t: string) => t.replace(/^DTSTAMP:\d{8}T\d{6}Z\r$/gm, 'DTSTAMP');
    expect(stamps((await w.p.get(pathOf(url), { token: null })).text)).toBe(stamps(text));
  } finally {
    delete process.env.FEED_INLINE_BYTES;
  }
});

describe('platform cal feed', () => {
  let cli: Cli;
  beforeAll(async () => {
    cli = new Cli();
    expect((await cli.run(['login', '--url', w.p.baseUrl, '--token', w.p.owner.token])).code).toBe(0);
  });

  it('makes the feed by name, then says it exists; --rotate, --revoke; usage mistakes', async () => {
    const cal = await newCalendar('Releases');
    const made = await cli.run(['cal', 'feed', 'releases']);
    expect(made.code).toBe(0);
    const url = /^ {2}(http:\/\/\S+\.ics)$/m.exec(made.stdout)?.[1] as string;
    expect(made.stdout).toBe(
      `Feed of Releases:\n  ${url}\nSubscribe to it in any calendar application (a subscribe link: ${url.replace(/^http:/, 'webcal:')}).\n` +
        'Anyone with this address can read the calendar: it is shown this once. --rotate replaces it, --revoke ends it.\n',
    );
    expect((await fetch(url)).status).toBe(200);

    const shown = await cli.run(['cal', 'feed', cal]);
    expect(shown.stdout).toMatch(
      /^Releases has a feed since \d{4}-\d\d-\d\d \d\d:\d\d UTC\. Its address was shown once: --rotate for a new one \(the old one stops\), --revoke to end it\.\n$/,
    );
    const json = JSON.parse((await cli.run(['cal', 'feed', cal, '--json'])).stdout);
    expect(json).toEqual({ feed: { createdAt: expect.any(Number), rotatedAt: null } });

    const rotated = await cli.run(['cal', 'feed', 'Releases', '--rotate']);
    expect(rotated.stdout).toMatch(/^New feed address of Releases:\n {2}http:\/\/\S+\/feeds\/[A-Za-z0-9_-]{43}\.ics\n/);
    expect((await fetch(url)).status).toBe(404);
    const rotatedUrl = /^ {2}(\S+)$/m.exec(rotated.stdout)?.[1] as string;
    expect((await fetch(rotatedUrl)).status).toBe(200);

    const revoked = await cli.run(['cal', 'feed', 'Releases', '--revoke']);
    expect(revoked).toMatchObject({ code: 0, stdout: 'Revoked the feed of Releases: its address answers 404 now.\n' });
    expect((await fetch(rotatedUrl)).status).toBe(404);
    const again = await cli.run(['cal', 'feed', 'Releases', '--revoke']);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toContain('This calendar has no feed.');

    const both = await cli.run(['cal', 'feed', 'Releases', '--rotate', '--revoke']);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/^Error: Give --rotate or --revoke, not both\./);
    const unknown = await cli.run(['cal', 'feed', 'Nope']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^Error: No calendar Nope in this mailbox \(its calendars: Calendar, Team, /);
  });
});
