import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { mailboxFor, until } from '../mail/helpers';
import { type DavWorld, hrefsOf, PROPFIND, startDavWorld, XML } from './helpers';

/**
 * CalDAV and CardDAV through the local gateway, request by request (issue 45): discovery, the
 * properties programs read, every error (401 with WWW-Authenticate, 429 after wrong sign-ins, 403
 * for a read-only password or a password without the scope, 404, 412, 415, 400 for bad XML or bad
 * iCalendar and vCard, the RFCs' preconditions), reports, ETags, MKCALENDAR and PROPPATCH through
 * to the API, and invitations mailed when a program adds an attendee.
 */
let d: DavWorld;
let calendarId: string;
let calPath: string;
let bookId: string;
let bookPath: string;

beforeAll(async () => {
  d = await startDavWorld();
  calendarId = (await d.w.p.get(`${d.api}/calendars`)).body.calendars[0].calendarId;
  bookId = (await d.w.p.get(`${d.api}/address-books`)).body.addressBooks[0].addressBookId;
  calPath = `/dav/calendars/${d.w.p.org.orgId}.${d.box.mailboxId}.${calendarId}/`;
  bookPath = `/dav/addressbooks/${d.w.p.org.orgId}.${d.box.mailboxId}.${bookId}/`;
});
afterAll(() => d?.close());

const ics = (uid: string, summary: string, extra: string[] = []) =>
  [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//test//protocol//EN',
    'BEGIN:VEVENT',
    `UID:${uid}`,
    'DTSTAMP:20260101T000000Z',
    'DTSTART:20260601T090000Z',
    'DTEND:20260601T100000Z',
    `SUMMARY:${summary}`,
    ...extra,
    'END:VEVENT',
    'END:VCALENDAR',
    '',
  ].join('\r\n');
const CAL = { 'content-type': 'text/calendar; charset=utf-8' };
const CARD = { 'content-type': 'text/vcard; charset=utf-8' };
const putIcs = (name: string, body: string, headers: Record<string, string> = {}) =>
  d.dav('PUT', `${calPath}${name}`, { body, headers: { ...CAL, ...headers } });

describe('discovery', () => {
  test('OPTIONS names the DAV classes without a sign-in; the well-known addresses lead to /dav/', async () => {
    const options = await d.dav('OPTIONS', '/dav/', { auth: null });
    expect(options.status).toBe(200);
    expect(options.headers.get('dav')).toBe('1, 3, calendar-access, addressbook');
    expect(options.headers.get('allow')).toContain('MKCALENDAR');
    for (const path of ['/.well-known/caldav', '/.well-known/carddav']) {
      const res = await d.dav('PROPFIND', path, { auth: null });
      expect(res.status).toBe(301);
      expect(res.headers.get('location')).toBe('/dav/');
    }
  });

  test('the principal names its homes and addresses; a default namespace reads as well as prefixes', async () => {
    const body =
      '<propfind xmlns="DAV:"><prop><current-user-principal/><C:calendar-home-set xmlns:C="urn:ietf:params:xml:ns:caldav"/><A:addressbook-home-set xmlns:A="urn:ietf:params:xml:ns:carddav"/><x:unknown xmlns:x="urn:x"/></prop></propfind>';
    const root = await d.dav('PROPFIND', '/dav/', { body, headers: { ...XML, depth: '0' } });
    expect(root.status).toBe(207);
    const principal = /<D:current-user-principal><D:href>([^<]+)</.exec(root.text)?.[1] as string;
    expect(principal).toBe(`/dav/principals/${d.w.p.owner.userId}/`);
    expect(root.text).toContain('<C:calendar-home-set><D:href>/dav/calendars/</D:href></C:calendar-home-set>');
    expect(root.text).toContain(
      '<CR:addressbook-home-set><D:href>/dav/addressbooks/</D:href></CR:addressbook-home-set>',
    );
    expect(root.text).toMatch(/<X:unknown xmlns:X="urn:x"\/><\/D:prop><D:status>HTTP\/1.1 404 Not Found/);
    const me = await d.dav('PROPFIND', principal, {
      body: PROPFIND('<c:calendar-user-address-set/><d:resourcetype/>'),
      headers: { ...XML, depth: '0' },
    });
    expect(me.text).toContain(`<D:href>mailto:${d.email}</D:href>`);
    expect(me.text).toContain('<D:principal/>');
  });

  test('a calendar shows its name, color, components, ctag and sync token; depth 1 lists its objects', async () => {
    const made = await d.w.p.post(`${d.api}/calendars/${calendarId}/events`, {
      summary: 'Listed',
      start: '2026-05-01T09:00',
      end: '2026-05-01T10:00',
      timeZone: 'Europe/Berlin',
    });
    const res = await d.dav('PROPFIND', calPath, {
      body: PROPFIND(
        '<d:displayname/><d:getetag/><cs:getctag/><d:sync-token/><c:supported-calendar-component-set/><x:calendar-color xmlns:x="http://apple.com/ns/ical/"/><d:current-user-privilege-set/>',
      ),
      headers: { ...XML, depth: '1' },
    });
    expect(res.status).toBe(207);
    expect(res.text).toContain('<D:displayname>Calendar</D:displayname>');
    expect(res.text).toContain('<A:calendar-color>#3B82F6FF</A:calendar-color>');
    expect(res.text).toContain('<C:supported-calendar-component-set><C:comp name="VEVENT"/>');
    expect(res.text).toContain('<D:privilege><D:write/></D:privilege>');
    expect(hrefsOf(res.text)).toContain(`${calPath}${made.body.event.eventId}.ics`);
    expect(res.text).toMatch(/<D:getetag>&quot;1-[0-9a-z]+&quot;<\/D:getetag>/);
  });

  test('Depth: infinity is refused (propfind-finite-depth)', async () => {
    const res = await d.dav('PROPFIND', '/dav/calendars/', { headers: { depth: 'infinity' } });
    expect(res.status).toBe(403);
    expect(res.text).toContain('<D:propfind-finite-depth/>');
  });
});

describe('sign-in', () => {
  test("401 with WWW-Authenticate: none, a wrong password, an unknown person, another person's password, a revoked one", async () => {
    const other = await d.w.p.person('developer');
    const theirs = await d.w.p.post('/v1/me/app-passwords', { name: 'theirs' }, { token: other.token });
    const cases = [
      null,
      `${d.email}:wrong`,
      `nobody@example.com:${d.password}`,
      `${d.email}:${theirs.body.password}`,
      // The last character changed (to `y` when it is an `x`: the password is random).
      `${d.email}:${d.password.slice(0, -1)}${d.password.endsWith('x') ? 'y' : 'x'}`,
    ];
    for (const auth of cases) {
      const res = await d.dav('PROPFIND', '/dav/', { auth, headers: { depth: '0' } });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe(
        'Basic realm="Platform calendars and contacts", charset="UTF-8"',
      );
    }
    // Their own works; revoked, it stops at once.
    expect(
      (await d.dav('PROPFIND', '/dav/', { auth: `${other.email}:${theirs.body.password}`, headers: { depth: '0' } }))
        .status,
    ).toBe(207);
    expect(
      (await d.w.p.delete(`/v1/me/app-passwords/${theirs.body.appPassword.passwordId}`, { token: other.token })).status,
    ).toBe(204);
    expect(
      (await d.dav('PROPFIND', '/dav/', { auth: `${other.email}:${theirs.body.password}`, headers: { depth: '0' } }))
        .status,
    ).toBe(401);
  });

  test('429 with Retry-After after 10 wrong sign-ins of one name from one address, the right password too', async () => {
    const other = await d.w.p.person('developer');
    const right = (await d.w.p.post('/v1/me/app-passwords', { name: 'x' }, { token: other.token })).body.password;
    for (let i = 0; i < 10; i++) {
      expect(
        (await d.dav('PROPFIND', '/dav/', { auth: `${other.email}:nope-${i}`, headers: { depth: '0' } })).status,
      ).toBe(401);
    }
    const locked = await d.dav('PROPFIND', '/dav/', { auth: `${other.email}:${right}`, headers: { depth: '0' } });
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another name from the same address is not held back.
    expect((await d.dav('PROPFIND', '/dav/', { headers: { depth: '0' } })).status).toBe(207);
  });

  test('403: a read-only password writing, a contacts-only password on calendars', async () => {
    const read = (await d.w.p.post('/v1/me/app-passwords', { name: 'ro', access: 'read' })).body.password;
    expect((await d.dav('PROPFIND', calPath, { auth: `${d.email}:${read}`, headers: { depth: '0' } })).status).toBe(
      207,
    );
    const put = await d.dav('PUT', `${calPath}ro.ics`, {
      auth: `${d.email}:${read}`,
      body: ics('ro@test', 'x'),
      headers: CAL,
    });
    expect(put.status).toBe(403);
    expect(put.text).toContain('This app password is read-only.');
    const contacts = (await d.w.p.post('/v1/me/app-passwords', { name: 'c', scopes: ['contacts'] })).body.password;
    const cal = await d.dav('PROPFIND', calPath, { auth: `${d.email}:${contacts}`, headers: { depth: '0' } });
    expect(cal.status).toBe(403);
    expect(cal.text).toContain('This app password is not for calendars.');
    expect(
      (await d.dav('PROPFIND', bookPath, { auth: `${d.email}:${contacts}`, headers: { depth: '0' } })).status,
    ).toBe(207);
  });

  test("403 for a viewer writing to a mailbox they are a member of; 404 for a mailbox that isn't theirs", async () => {
    const viewer = await d.w.p.person('viewer');
    const shared = await mailboxFor(d.w.p, [d.w.p.owner.userId, viewer.userId]);
    const cal = (await d.w.p.get(`/v1/orgs/${d.w.p.org.orgId}/mail/mailboxes/${shared.mailboxId}/calendars`)).body
      .calendars[0];
    const path = `/dav/calendars/${d.w.p.org.orgId}.${shared.mailboxId}.${cal.calendarId}/`;
    const pw = (await d.w.p.post('/v1/me/app-passwords', { name: 'v' }, { token: viewer.token })).body.password;
    expect((await d.dav('PROPFIND', path, { auth: `${viewer.email}:${pw}`, headers: { depth: '0' } })).status).toBe(
      207,
    );
    const put = await d.dav('PUT', `${path}v.ics`, {
      auth: `${viewer.email}:${pw}`,
      body: ics('v@test', 'x'),
      headers: CAL,
    });
    expect(put.status).toBe(403);
    expect((await d.dav('PROPFIND', calPath, { auth: `${viewer.email}:${pw}`, headers: { depth: '0' } })).status).toBe(
      404,
    );
  });
});

describe('objects', () => {
  test('PUT, GET with its ETag, If-Match and If-None-Match (412), DELETE; the API sees each step', async () => {
    const created = await putIcs('meeting.ics', ics('meeting@test', 'Meeting'), { 'if-none-match': '*' });
    expect(created.status).toBe(201);
    const got = await d.dav('GET', `${calPath}meeting.ics`);
    expect(got.status).toBe(200);
    expect(got.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    expect(got.text).toContain('UID:meeting@test');
    expect(got.text).not.toContain('METHOD:');
    const etag = got.headers.get('etag') as string;
    expect((await d.dav('HEAD', `${calPath}meeting.ics`)).headers.get('etag')).toBe(etag);

    expect((await putIcs('meeting.ics', ics('meeting@test', 'Again'), { 'if-none-match': '*' })).status).toBe(412);
    expect((await putIcs('meeting.ics', ics('meeting@test', 'Stale'), { 'if-match': '"9-zz"' })).status).toBe(412);
    expect((await putIcs('absent.ics', ics('absent@test', 'x'), { 'if-match': etag })).status).toBe(412);
    expect((await putIcs('meeting.ics', ics('meeting@test', 'Moved'), { 'if-match': etag })).status).toBe(204);
    const list = await d.w.p.get(
      `${d.api}/events?from=${Date.UTC(2026, 5, 1)}&to=${Date.UTC(2026, 5, 2)}&calendarId=${calendarId}`,
    );
    expect(list.body.occurrences.map((o: { summary: string }) => o.summary)).toEqual(['Moved']);
    const eventId = list.body.occurrences[0].eventId;

    // The API's change moves the ETag: the program's old one no longer matches.
    const after = (await d.dav('GET', `${calPath}meeting.ics`)).headers.get('etag') as string;
    expect(after).not.toBe(etag);
    expect(
      (await d.w.p.put(`${d.api}/calendars/${calendarId}/events/${eventId}`, { summary: 'By the API' })).status,
    ).toBe(200);
    expect((await d.dav('DELETE', `${calPath}meeting.ics`, { headers: { 'if-match': after } })).status).toBe(412);
    expect((await d.dav('GET', `${calPath}meeting.ics`)).text).toContain('SUMMARY:By the API');
    expect((await d.dav('DELETE', `${calPath}meeting.ics`)).status).toBe(204);
    expect((await d.w.p.get(`${d.api}/calendars/${calendarId}/events/${eventId}`)).status).toBe(404);
    expect((await d.dav('GET', `${calPath}meeting.ics`)).status).toBe(404);
    expect((await d.dav('DELETE', `${calPath}meeting.ics`)).status).toBe(404);
  });

  test('404: an unknown collection, an unknown object, a path outside the tree', async () => {
    for (const path of [
      `/dav/calendars/${d.w.p.org.orgId}.${d.box.mailboxId}.cal_0000000000000000000000000/`,
      `/dav/calendars/nothing-here/`,
      `${calPath}missing.ics`,
      '/dav/elsewhere/',
      `/dav/principals/usr_someone_else/`,
    ]) {
      expect((await d.dav('PROPFIND', path, { headers: { depth: '0' } })).status).toBe(404);
    }
  });

  test('415 for a body of the wrong type; 400 for bad XML (a DOCTYPE too), bad iCalendar and bad vCard', async () => {
    expect((await putIcs('j.ics', '{}', { 'content-type': 'application/json' })).status).toBe(415);
    expect((await d.dav('PUT', `${bookPath}j.vcf`, { body: 'x', headers: CAL })).status).toBe(415);
    const notXml = await d.dav('PROPFIND', calPath, { body: '<d:propfind', headers: { ...XML, depth: '0' } });
    expect(notXml.status).toBe(400);
    expect(notXml.text).toContain('Not well-formed XML');
    const undeclared = await d.dav('PROPFIND', calPath, {
      body: '<d:propfind><d:prop/></d:propfind>',
      headers: { ...XML, depth: '0' },
    });
    expect(undeclared.status).toBe(400);
    const doctype =
      '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa">]><d:propfind xmlns:d="DAV:"><d:allprop/></d:propfind>';
    expect((await d.dav('PROPFIND', calPath, { body: doctype, headers: { ...XML, depth: '0' } })).status).toBe(400);
    const typed = await d.dav('PROPFIND', calPath, {
      body: PROPFIND('<d:displayname/>'),
      headers: { 'content-type': 'text/plain', depth: '0' },
    });
    expect(typed.status).toBe(415);

    const broken = await putIcs('b.ics', 'BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nDTSTART:nonsense\r\n');
    expect(broken.status).toBe(400);
    expect(broken.text).toContain('<C:valid-calendar-data/>');
    expect((await putIcs('n.ics', 'hello')).status).toBe(400);
    const control = await putIcs('c.ics', ics('c@test', 'Bell\u0007'));
    expect(control.status).toBe(400);
    expect(control.text).toContain('Control characters are not allowed in an event.');
    const hourly = await putIcs('h.ics', ics('h@test', 'Hourly', ['RRULE:FREQ=HOURLY']));
    expect(hourly.status).toBe(400);
    expect(hourly.text).toContain('Only DAILY, WEEKLY, MONTHLY and YEARLY repeat rules are kept');
    const many = await putIcs('m.ics', ics('m@test', 'Many', ['RRULE:FREQ=DAILY;COUNT=6000']));
    expect(many.status).toBe(400);
    const todo = await putIcs(
      't.ics',
      'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VTODO\r\nUID:t@test\r\nSUMMARY:Task\r\nEND:VTODO\r\nEND:VCALENDAR\r\n',
    );
    expect(todo.status).toBe(403);
    expect(todo.text).toContain('<C:supported-calendar-component/>');
    const big = await putIcs('big.ics', ics('big@test', 'Big', [`DESCRIPTION:${'x'.repeat(1024 * 1024)}`]));
    expect(big.status).toBe(403);
    expect(big.text).toContain('<C:max-resource-size/>');

    const noName = await d.dav('PUT', `${bookPath}x.vcf`, {
      body: 'BEGIN:VCARD\r\nVERSION:3.0\r\nUID:x@test\r\nEND:VCARD\r\n',
      headers: CARD,
    });
    expect(noName.status).toBe(400);
    expect(noName.text).toContain('A contact needs at least a name');
    const noUid = await d.dav('PUT', `${bookPath}y.vcf`, {
      body: 'BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Y\r\nEND:VCARD\r\n',
      headers: CARD,
    });
    expect(noUid.status).toBe(400);
    expect(noUid.text).toContain('<CR:valid-address-data/>');
  });

  test('403 no-uid-conflict: a UID already at another URL, or a UID changed under one URL', async () => {
    expect((await putIcs('first.ics', ics('same@test', 'First'))).status).toBe(201);
    const again = await putIcs('second.ics', ics('same@test', 'Second'));
    expect(again.status).toBe(403);
    expect(again.text).toContain('<C:no-uid-conflict/>');
    const changed = await putIcs('first.ics', ics('other@test', 'Changed'));
    expect(changed.status).toBe(403);
  });

  test('413 past the 6 MB a request may carry', async () => {
    const res = await putIcs('huge.ics', 'x'.repeat(6 * 1024 * 1024 + 10));
    expect(res.status).toBe(413);
  });
});

describe('reports', () => {
  test('calendar-query by time range, calendar-multiget (a missing href 404), unsupported reports refused', async () => {
    await putIcs('june-2.ics', ics('june-2@test', 'Second of June').replace(/20260601/g, '20260602'));
    await putIcs('june-9.ics', ics('june-9@test', 'Ninth of June').replace(/20260601/g, '20260609'));
    const query = `<c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/><c:calendar-data/></d:prop><c:filter><c:comp-filter name="VCALENDAR"><c:comp-filter name="VEVENT"><c:time-range start="20260602T000000Z" end="20260603T000000Z"/></c:comp-filter></c:comp-filter></c:filter></c:calendar-query>`;
    const res = await d.dav('REPORT', calPath, { body: query, headers: { ...XML, depth: '1' } });
    expect(res.status).toBe(207);
    expect(hrefsOf(res.text)).toEqual([`${calPath}june-2.ics`]);
    expect(res.text).toContain('SUMMARY:Second of June');

    const tasks = query.replace('name="VEVENT"', 'name="VTODO"');
    expect(hrefsOf((await d.dav('REPORT', calPath, { body: tasks, headers: XML })).text)).toEqual([]);

    const multiget = `<c:calendar-multiget xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/></d:prop><d:href>${calPath}june-9.ics</d:href><d:href>${calPath}nope.ics</d:href></c:calendar-multiget>`;
    const got = await d.dav('REPORT', calPath, { body: multiget, headers: XML });
    expect(got.text).toMatch(/june-9\.ics<\/D:href><D:propstat><D:prop><D:getetag>/);
    expect(got.text).toContain(`<D:href>${calPath}nope.ics</D:href><D:status>HTTP/1.1 404 Not Found</D:status>`);

    const other = await d.dav('REPORT', calPath, { body: '<d:expand-property xmlns:d="DAV:"/>', headers: XML });
    expect(other.status).toBe(403);
    expect(other.text).toContain('<D:supported-report/>');
    const badToken = await d.dav('REPORT', calPath, {
      body: '<d:sync-collection xmlns:d="DAV:"><d:sync-token>urn:other:1</d:sync-token><d:sync-level>1</d:sync-level><d:prop><d:getetag/></d:prop></d:sync-collection>',
      headers: XML,
    });
    expect(badToken.status).toBe(403);
    expect(badToken.text).toContain('<D:valid-sync-token/>');
  });

  test("addressbook-query and -multiget over the API's contacts; a program's card shows in the API", async () => {
    const card =
      'BEGIN:VCARD\r\nVERSION:3.0\r\nUID:lin@test\r\nFN:Lin Chen\r\nN:Chen;Lin;;;\r\nEMAIL;TYPE=WORK:lin@example.com\r\nTEL;TYPE=CELL:+33 6 12 34 56 78\r\nEND:VCARD\r\n';
    expect((await d.dav('PUT', `${bookPath}lin.vcf`, { body: card, headers: CARD })).status).toBe(201);
    const listed = await d.w.p.get(`${d.api}/contacts?addressBookId=${bookId}`);
    expect(listed.body.contacts).toContainEqual(
      expect.objectContaining({
        fullName: 'Lin Chen',
        uid: 'lin@test',
        emails: [{ value: 'lin@example.com', type: 'work' }],
      }),
    );
    await d.w.p.post(`${d.api}/address-books/${bookId}/contacts`, { fullName: 'Mo Ali' });
    const query = `<card:addressbook-query xmlns:d="DAV:" xmlns:card="urn:ietf:params:xml:ns:carddav"><d:prop><d:getetag/><card:address-data/></d:prop><card:filter><card:prop-filter name="EMAIL"><card:text-match match-type="contains">lin@</card:text-match></card:prop-filter></card:filter></card:addressbook-query>`;
    const res = await d.dav('REPORT', bookPath, { body: query, headers: { ...XML, depth: '1' } });
    expect(hrefsOf(res.text)).toEqual([`${bookPath}lin.vcf`]);
    expect(res.text).toContain('FN:Lin Chen');
    const v4 = `<card:addressbook-multiget xmlns:d="DAV:" xmlns:card="urn:ietf:params:xml:ns:carddav"><d:prop><card:address-data content-type="text/vcard" version="4.0"/></d:prop><d:href>${bookPath}lin.vcf</d:href></card:addressbook-multiget>`;
    expect((await d.dav('REPORT', bookPath, { body: v4, headers: XML })).text).toContain('VERSION:4.0');
  });
});

describe('sync-collection', () => {
  const sync = (path: string, token: string) =>
    d.dav('REPORT', path, {
      body: `<d:sync-collection xmlns:d="DAV:"><d:sync-token>${token}</d:sync-token><d:sync-level>1</d:sync-level><d:prop><d:getetag/></d:prop></d:sync-collection>`,
      headers: XML,
    });
  const tokenOf = (xml: string) => /<D:sync-token>([^<]+)<\/D:sync-token>/.exec(xml)?.[1] as string;

  test('an event the API moves to another calendar is gone from the first and new in the second', async () => {
    const other = (await d.w.p.post(`${d.api}/calendars`, { name: 'Elsewhere' })).body.calendar.calendarId;
    const otherPath = `/dav/calendars/${d.w.p.org.orgId}.${d.box.mailboxId}.${other}/`;
    expect((await putIcs('moving.ics', ics('moving@test', 'Moving'))).status).toBe(201);
    const tokenA = tokenOf((await sync(calPath, '')).text);
    const tokenB = tokenOf((await sync(otherPath, '')).text);
    const eventId = (
      await d.w.p.get(`${d.api}/events?from=${Date.UTC(2026, 5, 1)}&to=${Date.UTC(2026, 5, 2)}`)
    ).body.occurrences.find((o: { summary: string }) => o.summary === 'Moving').eventId;
    const moved = await d.w.p.put(`${d.api}/calendars/${calendarId}/events/${eventId}`, { moveTo: other });
    expect(moved.status).toBe(200);
    const fromA = await sync(calPath, tokenA);
    expect(fromA.text).toContain(`<D:href>${calPath}moving.ics</D:href><D:status>HTTP/1.1 404 Not Found</D:status>`);
    expect(hrefsOf((await sync(otherPath, tokenB)).text)).toContain(`${otherPath}${eventId}.ics`);
    expect((await d.dav('GET', `${calPath}moving.ics`)).status).toBe(404);
  });

  test('an address book: a contact deleted through the API is reported gone; the token moves', async () => {
    const made = await d.w.p.post(`${d.api}/address-books/${bookId}/contacts`, { fullName: 'Short Lived' });
    const first = await sync(bookPath, '');
    expect(hrefsOf(first.text)).toContain(`${bookPath}${made.body.contact.contactId}.vcf`);
    const token = tokenOf(first.text);
    expect(
      (await d.w.p.delete(`${d.api}/address-books/${bookId}/contacts/${made.body.contact.contactId}`)).status,
    ).toBe(204);
    const after = await sync(bookPath, token);
    expect(after.text).toContain(
      `<D:href>${bookPath}${made.body.contact.contactId}.vcf</D:href><D:status>HTTP/1.1 404 Not Found</D:status>`,
    );
    expect(tokenOf(after.text)).not.toBe(token);
  });
});

describe('collections and scheduling', () => {
  test('MKCALENDAR makes a calendar the API lists, at the URL the program chose; PROPPATCH renames it', async () => {
    const body =
      '<c:mkcalendar xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav" xmlns:a="http://apple.com/ns/ical/"><d:set><d:prop><d:displayname>Team</d:displayname><a:calendar-color>#EF4444</a:calendar-color></d:prop></d:set></c:mkcalendar>';
    // The owner is a member of two mailboxes by now: a bare name doesn't say which.
    const which = await d.dav('MKCALENDAR', '/dav/calendars/3F2C-team/', { body, headers: XML });
    expect(which.status).toBe(403);
    expect(which.text).toContain('You are a member of several mailboxes');
    const url = `/dav/calendars/${d.w.p.org.orgId}.${d.box.mailboxId}.3F2C-team/`;
    const made = await d.dav('MKCALENDAR', url, { body, headers: XML });
    expect(made.status).toBe(201);
    expect((await d.dav('MKCALENDAR', url, { body, headers: XML })).status).toBe(405);
    const api = (await d.w.p.get(`${d.api}/calendars`)).body.calendars;
    expect(api).toContainEqual(expect.objectContaining({ name: 'Team', color: 'red' }));
    const home = await d.dav('PROPFIND', '/dav/calendars/', {
      body: PROPFIND('<d:displayname/>'),
      headers: { ...XML, depth: '1' },
    });
    expect(hrefsOf(home.text)).toContain(url);
    const patch =
      '<d:propertyupdate xmlns:d="DAV:"><d:set><d:prop><d:displayname>Team B</d:displayname></d:prop></d:set></d:propertyupdate>';
    const patched = await d.dav('PROPPATCH', url, { body: patch, headers: XML });
    expect(patched.status).toBe(207);
    expect(patched.text).toContain('HTTP/1.1 200 OK');
    expect((await d.w.p.get(`${d.api}/calendars`)).body.calendars).toContainEqual(
      expect.objectContaining({ name: 'Team B' }),
    );
    const refused = await d.dav('PROPPATCH', calPath, {
      body: '<d:propertyupdate xmlns:d="DAV:"><d:set><d:prop><d:displayname>X</d:displayname><d:getetag>1</d:getetag></d:prop></d:set></d:propertyupdate>',
      headers: XML,
    });
    expect(refused.text).toContain('HTTP/1.1 424 Failed Dependency');
    expect(refused.text).toContain('HTTP/1.1 403 Forbidden');
    expect((await d.dav('DELETE', url)).status).toBe(204);
    expect((await d.w.p.get(`${d.api}/calendars`)).body.calendars).not.toContainEqual(
      expect.objectContaining({ name: 'Team B' }),
    );
    expect((await d.dav('PROPFIND', url, { headers: { depth: '0' } })).status).toBe(404);
    const defaultDelete = await d.dav('DELETE', calPath);
    expect(defaultDelete.status).toBe(403);
  });

  test('an attendee added by a program is invited by mail (iMIP), as through the API', async () => {
    const outbox = () => readdirSync(d.w.outbox).map((f) => readFileSync(join(d.w.outbox, f), 'utf8'));
    const res = await putIcs(
      'invite.ics',
      ics('invite@test', 'Review', [
        `ORGANIZER;CN=Box:mailto:${d.box.address}`,
        'ATTENDEE;RSVP=TRUE;PARTSTAT=NEEDS-ACTION:mailto:bob@outside.example',
      ]),
    );
    expect(res.status).toBe(201);
    const mail = await until(() => outbox().find((m) => m.includes('Invitation: Review')));
    expect(mail).toMatch(/method=REQUEST/);
    expect(mail).toContain('bob@outside.example');
  });

  test("the mailbox's answer to an invitation, given in a program (its PARTSTAT), goes to the organizer (REPLY)", async () => {
    const outbox = () => readdirSync(d.w.outbox).map((f) => readFileSync(join(d.w.outbox, f), 'utf8'));
    const invited = (partstat: string) =>
      ics('asked@test', 'Offsite', [
        'ORGANIZER:mailto:alice@outside.example',
        `ATTENDEE;PARTSTAT=${partstat}:mailto:${d.box.address}`,
      ]);
    expect((await putIcs('asked.ics', invited('NEEDS-ACTION'))).status).toBe(201);
    expect((await putIcs('asked.ics', invited('ACCEPTED'))).status).toBe(204);
    const reply = await until(() => outbox().find((m) => m.includes('Accepted: Offsite')));
    expect(reply).toMatch(/method=REPLY/);
    expect(reply).toContain('alice@outside.example');
    const listed = await d.w.p.get(`${d.api}/events?from=${Date.UTC(2026, 5, 1)}&to=${Date.UTC(2026, 5, 2)}`);
    expect(listed.body.occurrences).toContainEqual(
      expect.objectContaining({ summary: 'Offsite', myStatus: 'accepted' }),
    );
  });
});
