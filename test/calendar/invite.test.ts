import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ICAL from 'ical.js';
import { createTransport } from 'nodemailer';
import PostalMime from 'postal-mime';
import { receiveItip } from '../../shared/domains/calendar/itip';
import { eventByUid } from '../../shared/domains/calendar/records';
import type { MailboxRecord } from '../../shared/domains/mail/records';
import { setLocalRecord } from '../../shared/ports/dns/local';
import type { Person } from '../helpers/platform';
import { type MailWorld, mailboxFor, startMailWorld, unique, until } from '../mail/helpers';

/**
 * Invitations end to end on the local platform (iMIP over the local SMTP server, the mail-inbound
 * worker filing them): mailbox A invites B; B finds a needs-action event, accepts; A sees
 * `accepted`. A new time asks B again; a removed attendee gets a cancellation; a deleted event
 * cancels B's copy. The sending checks (a removed or unverified domain) answer 409 before anything
 * is written; one's own event can't be answered.
 */
let w: MailWorld;
let b: Person;
let boxA: { domain: string; address: string; mailboxId: string };
let addressB: string;
let boxB: string;
let baseA: string;
let baseB: string;
let calA: string;
let calB: string;

beforeAll(async () => {
  w = await startMailWorld({ smtp: true });
  b = await w.p.person('developer');
  boxA = await mailboxFor(w.p, [w.p.owner.userId]);
  addressB = `b-${unique()}@${boxA.domain}`;
  const res = await w.p.post(`/v1/orgs/${w.p.org.orgId}/mail/admin/mailboxes`, {
    address: addressB,
    name: 'Bea',
    members: [b.userId],
  });
  boxB = res.body.mailbox.mailboxId;
  baseA = `/v1/orgs/${w.p.org.orgId}/mail/mailboxes/${boxA.mailboxId}`;
  baseB = `/v1/orgs/${w.p.org.orgId}/mail/mailboxes/${boxB}`;
  calA = (await w.p.get(`${baseA}/calendars`)).body.calendars[0].calendarId;
  calB = (await w.p.get(`${baseB}/calendars`, { token: b.token })).body.calendars[0].calendarId;
});
afterAll(async () => {
  await w?.close();
});

const WINDOW = `from=${Date.UTC(2026, 6, 1)}&to=${Date.UTC(2026, 8, 1)}`;
const outbox = () => readdirSync(w.outbox).map((f) => readFileSync(join(w.outbox, f), 'utf8'));

/** B's copy of the event named `summary`, once its mail has been delivered and applied. */
const bSees = (summary: string, ok: (e: Record<string, unknown>) => boolean = () => true) =>
  until(async () => {
    const list = await w.p.get(`${baseB}/events?${WINDOW}`, { token: b.token });
    const o = list.body.occurrences?.find((x: { summary: string }) => x.summary === summary);
    if (!o) return undefined;
    const e = (await w.p.get(`${baseB}/calendars/${o.calendarId}/events/${o.eventId}`, { token: b.token })).body.event;
    return ok(e) ? e : undefined;
  });

test('A invites B; B gets it by mail as needs-action, accepts; A sees accepted', async () => {
  const summary = `Design review ${unique()}`;
  const made = await w.p.post(`${baseA}/calendars/${calA}/events`, {
    summary,
    description: 'Bring the drafts.',
    location: 'Room 4',
    start: '2026-07-14T10:00',
    end: '2026-07-14T11:00',
    timeZone: 'Europe/Paris',
    recurrence: { freq: 'weekly', count: 4 },
    attendees: [
      { email: addressB, name: 'Bea' },
      { email: 'carol@outside.example', optional: true },
    ],
  });
  expect(made.status).toBe(201);
  expect(made.body.notified).toEqual({ sent: 2 });
  expect(made.body.event).toMatchObject({
    organizer: { email: boxA.address, name: 'Box' },
    isOrganizer: true,
    attendees: [
      { email: addressB, name: 'Bea', role: 'required', status: 'needs-action', rsvp: true, kind: 'individual' },
      { email: 'carol@outside.example', role: 'optional', status: 'needs-action', rsvp: true, kind: 'individual' },
    ],
  });
  const eventA = made.body.event;

  // The message: text/calendar with method=REQUEST, METHOD:REQUEST inside.
  const mail = outbox().find((m) => m.includes(`Invitation: ${summary}`));
  expect(mail).toBeDefined();
  expect(mail).toMatch(/Content-Type: text\/calendar; charset=utf-8; method=REQUEST/);
  expect(mail).toContain('METHOD:REQUEST');

  const copy = await bSees(summary);
  expect(copy).toMatchObject({
    uid: eventA.uid,
    calendarId: calB,
    isOrganizer: false,
    myStatus: 'needs-action',
    organizer: { email: boxA.address },
    startLocal: '2026-07-14T10:00:00',
    timeZone: 'Europe/Paris',
    rrule: 'FREQ=WEEKLY;COUNT=4',
    location: 'Room 4',
    description: 'Bring the drafts.',
  });
  const occurrences = (await w.p.get(`${baseB}/events?${WINDOW}`, { token: b.token })).body.occurrences.filter(
    (o: { eventId: string }) => o.eventId === copy.eventId,
  );
  expect(occurrences).toHaveLength(4);
  expect(occurrences[0]).toMatchObject({
    start: Date.UTC(2026, 6, 14, 8),
    isOrganizer: false,
    myStatus: 'needs-action',
    attendees: 2,
  });

  // One's own event can't be answered.
  const own = await w.p.post(`${baseA}/calendars/${calA}/events/${eventA.eventId}/respond`, { status: 'accepted' });
  expect(own.status).toBe(400);
  expect(own.body).toEqual({ error: 'You organize this event: there is nothing to respond to.' });

  const answer = await w.p.post(
    `${baseB}/calendars/${calB}/events/${copy.eventId}/respond`,
    { status: 'accepted', comment: 'See you there' },
    { token: b.token },
  );
  expect(answer.status).toBe(200);
  expect(answer.body.notified).toEqual({ sent: 1 });
  expect(answer.body.event).toMatchObject({ myStatus: 'accepted' });
  expect(outbox().find((m) => m.includes(`Accepted: ${summary}`))).toMatch(/method=REPLY/);

  const seen = await until(async () => {
    const e = (await w.p.get(`${baseA}/calendars/${calA}/events/${eventA.eventId}`)).body.event;
    return e.attendees[0].status === 'accepted' ? e : undefined;
  });
  expect(seen.attendees.map((a: { email: string; status: string }) => [a.email, a.status])).toEqual([
    [addressB, 'accepted'],
    ['carol@outside.example', 'needs-action'],
  ]);

  // A new time: B is asked again (needs-action), Carol removed gets a cancellation.
  const moved = await w.p.put(`${baseA}/calendars/${calA}/events/${eventA.eventId}`, {
    start: '2026-07-14T15:00',
    end: '2026-07-14T16:00',
    attendees: [{ email: addressB, name: 'Bea' }],
  });
  expect(moved.status).toBe(200);
  expect(moved.body).toMatchObject({ notified: { sent: 1 }, cancelled: 1 });
  expect(moved.body.event).toMatchObject({ sequence: 1, attendees: [{ email: addressB, status: 'needs-action' }] });
  expect(outbox().find((m) => m.includes(`Cancelled: ${summary}`) && m.includes('carol@outside.example'))).toContain(
    'METHOD:CANCEL',
  );
  const again = await bSees(summary, (e) => e.startLocal === '2026-07-14T15:00:00');
  expect(again).toMatchObject({ eventId: copy.eventId, myStatus: 'needs-action', sequence: 1 });

  // Deleted by A: B's copy is cancelled.
  expect((await w.p.delete(`${baseA}/calendars/${calA}/events/${eventA.eventId}`)).status).toBe(204);
  const cancelled = await bSees(summary, (e) => e.status === 'cancelled');
  expect(cancelled.eventId).toBe(copy.eventId);
  expect((await w.p.get(`${baseA}/calendars/${calA}/events/${eventA.eventId}`)).status).toBe(404);
});

test('notify=false mails nobody; a removed or unverified domain is 409 before anything is written', async () => {
  const quiet = await w.p.post(`${baseA}/calendars/${calA}/events`, {
    summary: `Quiet ${unique()}`,
    start: '2026-07-20T10:00',
    end: '2026-07-20T11:00',
    timeZone: 'UTC',
    attendees: [{ email: 'dan@outside.example' }],
    notify: false,
  });
  expect(quiet.body.notified).toEqual({ sent: 0 });
  expect((await w.p.delete(`${baseA}/calendars/${calA}/events/${quiet.body.event.eventId}?notify=false`)).status).toBe(
    204,
  );

  // A domain no longer verified: verified, given a mailbox, removed and added again (pending).
  const domain = `${unique('pend')}.org`;
  const domains = `/v1/orgs/${w.p.org.orgId}/mail/domains`;
  const txt = (await w.p.post(domains, { domain })).body.domain.records[0];
  await setLocalRecord(domain, { name: txt.name, type: 'TXT', value: txt.value });
  expect((await w.p.post(`${domains}/${domain}/verify`)).body.domain.status).toBe('verified');
  const pending = await w.p.post(`/v1/orgs/${w.p.org.orgId}/mail/admin/mailboxes`, {
    address: `p@${domain}`,
    name: 'P',
    members: [w.p.owner.userId],
  });
  expect((await w.p.delete(`${domains}/${domain}`)).status).toBe(204);
  expect((await w.p.post(domains, { domain })).body.domain.status).toBe('pending');
  const base = `/v1/orgs/${w.p.org.orgId}/mail/mailboxes/${pending.body.mailbox.mailboxId}`;
  const cal = (await w.p.get(`${base}/calendars`)).body.calendars[0].calendarId;
  const body = {
    summary: 'Never written',
    start: '2026-07-21T10:00',
    end: '2026-07-21T11:00',
    timeZone: 'UTC',
    attendees: [{ email: 'dan@outside.example' }],
  };
  const unverified = await w.p.post(`${base}/calendars/${cal}/events`, body);
  expect(unverified.status).toBe(409);
  expect(unverified.body).toEqual({ error: `${domain} isn't verified for sending yet.` });
  await w.p.delete(`/v1/orgs/${w.p.org.orgId}/mail/domains/${domain}`);
  const removed = await w.p.post(`${base}/calendars/${cal}/events`, body);
  expect(removed.status).toBe(409);
  expect(removed.body).toEqual({ error: "This mailbox's domain was removed." });
  expect((await w.p.get(`${base}/events?${WINDOW}`)).body.occurrences).toEqual([]);
  // Without attendees nothing is sent, so nothing is checked.
  const { attendees, ...alone } = body;
  expect((await w.p.post(`${base}/calendars/${cal}/events`, alone)).status).toBe(201);
});

test("Evolution's invitation and its update reach a mailbox (iTIP): needs-action, then the new time", async () => {
  const fixtures = join(__dirname, '..', 'fixtures', 'calendar');
  const mailbox = {
    orgId: w.p.org.orgId,
    mailboxId: `mbx_${unique('itip').replace(/-/g, '')}`,
    address: 'user@no.where',
    aliases: [],
  } as unknown as MailboxRecord;
  const invite = readFileSync(join(fixtures, 'evolution-invite-1.ics'), 'utf8');
  const update = readFileSync(join(fixtures, 'evolution-invite-3.ics'), 'utf8');
  // From someone else than the organizer: left alone.
  expect(await receiveItip(mailbox, invite, 'mallory@else.where')).toBe('request:0');
  expect(await eventByUid(mailbox.mailboxId, 'invite')).toBeUndefined();
  expect(await receiveItip(mailbox, invite, 'organizer@no.where')).toBe('request:1');
  expect(await eventByUid(mailbox.mailboxId, 'invite')).toMatchObject({
    summary: 'Invite',
    myStatus: 'needs-action',
    isOrganizer: false,
    start: Date.UTC(2017, 2, 21, 12),
    organizer: { email: 'organizer@no.where', name: 'Organizer' },
    sequence: 1,
  });
  expect(await receiveItip(mailbox, update, 'organizer@no.where')).toBe('request:1');
  expect(await eventByUid(mailbox.mailboxId, 'invite')).toMatchObject({
    summary: 'Invite (modified)',
    start: Date.UTC(2017, 2, 21, 13),
    sequence: 2,
    myStatus: 'needs-action',
  });
  // An older sequence changes nothing.
  expect(await receiveItip(mailbox, invite, 'organizer@no.where')).toBe('request:0');
  expect(await receiveItip(mailbox, 'not a calendar', 'organizer@no.where')).toBe('none:0');
});

test('one occurrence: moved by A, B sees the change; B declines it alone; deleted by A, B sees it cancelled', async () => {
  const summary = `Weekly sync ${unique()}`;
  const made = await w.p.post(`${baseA}/calendars/${calA}/events`, {
    summary,
    start: '2026-07-06T16:00',
    end: '2026-07-06T16:30',
    timeZone: 'America/New_York',
    recurrence: { freq: 'weekly', count: 5 },
    attendees: [{ email: addressB }],
  });
  expect(made.body.notified).toEqual({ sent: 1 });
  const eventA = made.body.event;
  const copy = await bSees(summary);
  const second = Date.UTC(2026, 6, 13, 20);
  const third = Date.UTC(2026, 6, 20, 20);

  const moved = await w.p.put(`${baseA}/calendars/${calA}/events/${eventA.eventId}`, {
    recurrenceId: second,
    start: '2026-07-14T09:00',
    end: '2026-07-14T09:30',
  });
  expect(moved.body.notified).toEqual({ sent: 1 });
  const withMove = await bSees(summary, (e) => (e.exceptions as unknown[]).length === 1);
  expect(withMove.exceptions).toEqual([
    expect.objectContaining({
      recurrenceId: second,
      start: Date.UTC(2026, 6, 14, 13),
      startLocal: '2026-07-14T09:00:00',
    }),
  ]);

  const comment = 'Away that week; back on the 27th, promise.';
  const declined = await w.p.post(
    `${baseB}/calendars/${calB}/events/${copy.eventId}/respond`,
    { status: 'declined', recurrenceId: third, comment },
    { token: b.token },
  );
  expect(declined.status).toBe(200);
  expect(declined.body.event.myStatus).toBe('needs-action');
  expect(declined.body.event.exceptions).toContainEqual(
    expect.objectContaining({ recurrenceId: third, myStatus: 'declined' }),
  );
  const listB = (await w.p.get(`${baseB}/events?${WINDOW}`, { token: b.token })).body.occurrences.filter(
    (o: { eventId: string }) => o.eventId === copy.eventId,
  );
  expect(listB.map((o: { start: number; myStatus: string }) => [o.start, o.myStatus])).toEqual([
    [Date.UTC(2026, 6, 6, 20), 'needs-action'],
    [Date.UTC(2026, 6, 14, 13), 'needs-action'],
    [third, 'declined'],
    [Date.UTC(2026, 6, 27, 20), 'needs-action'],
    [Date.UTC(2026, 7, 3, 20), 'needs-action'],
  ]);
  const reply = outbox().find((m) => m.includes(`Declined: ${summary}`));
  expect(reply).toContain('METHOD:REPLY');
  // The REPLY as a calendar reads it: one occurrence, B declined, the comment as its COMMENT.
  const parsedReply = await PostalMime.parse(reply as string);
  const part = parsedReply.attachments.find((a) => a.mimeType === 'text/calendar');
  const vevent = new ICAL.Component(
    ICAL.parse(Buffer.from(part?.content as ArrayBuffer).toString('utf8')),
  ).getFirstSubcomponent('vevent');
  expect(vevent?.getFirstPropertyValue('comment')).toBe(comment);
  expect(vevent?.getFirstProperty('recurrence-id')).toBeTruthy();
  expect(vevent?.getFirstProperty('attendee')?.getParameter('partstat')).toBe('DECLINED');

  // A, the organizer, sees B's answer for that occurrence alone.
  const answeredA = await until(async () => {
    const e = (await w.p.get(`${baseA}/calendars/${calA}/events/${eventA.eventId}`)).body.event;
    return e.exceptions.some((x: { recurrenceId: number }) => x.recurrenceId === third) ? e : undefined;
  });
  expect(answeredA.attendees).toEqual([expect.objectContaining({ email: addressB, status: 'needs-action' })]);
  expect(answeredA.exceptions.find((x: { recurrenceId: number }) => x.recurrenceId === third)).toMatchObject({
    start: third,
    status: 'confirmed',
    attendees: [expect.objectContaining({ email: addressB, status: 'declined' })],
  });
  expect(
    answeredA.exceptions.find((x: { recurrenceId: number }) => x.recurrenceId === second).attendees,
  ).toBeUndefined();
  // A's export writes it as that occurrence's ATTENDEE.
  const exported = (await w.p.get(`${baseA}/calendars/${calA}/export`)).text;
  const occurrenceOfA = new ICAL.Component(ICAL.parse(exported))
    .getAllSubcomponents('vevent')
    .find(
      (v) =>
        v.getFirstPropertyValue('uid') === eventA.uid &&
        (v.getFirstPropertyValue('recurrence-id') as ICAL.Time | null)?.toJSDate().getTime() === third,
    );
  expect(occurrenceOfA?.getFirstProperty('attendee')?.getParameter('partstat')).toBe('DECLINED');

  // A deletes the fourth: B's copy shows it cancelled.
  const fourth = Date.UTC(2026, 6, 27, 20);
  expect((await w.p.delete(`${baseA}/calendars/${calA}/events/${eventA.eventId}?recurrenceId=${fourth}`)).status).toBe(
    204,
  );
  const cancelled = await bSees(summary, (e) =>
    (e.exceptions as { recurrenceId: number; status: string }[]).some(
      (x) => x.recurrenceId === fourth && x.status === 'cancelled',
    ),
  );
  expect(cancelled.status).toBe('confirmed');
  const listA = (await w.p.get(`${baseA}/events?${WINDOW}`)).body.occurrences.filter(
    (o: { eventId: string }) => o.eventId === eventA.eventId,
  );
  expect(listA.map((o: { start: number }) => o.start)).not.toContain(fourth);
  expect((await w.p.delete(`${baseA}/calendars/${calA}/events/${eventA.eventId}?recurrenceId=${fourth}`)).body).toEqual(
    { error: 'This event has no occurrence at recurrenceId.' },
  );
});

test('an invitation mailed from outside with rules past the limits: those events refused, the listing in bounds', async () => {
  const tag = unique('hostile');
  const mallory = `mallory-${tag}@outside.example`;
  const hours = Array.from({ length: 24 }, (_, i) => i).join(',');
  const sixty = Array.from({ length: 60 }, (_, i) => i).join(',');
  const vevent = (uid: string, summary: string, rrule: string) =>
    [
      'BEGIN:VEVENT',
      `UID:${uid}-${tag}@outside.example`,
      'DTSTAMP:20260101T000000Z',
      'DTSTART:20270104T090000Z',
      'DTEND:20270104T093000Z',
      `SUMMARY:${summary} ${tag}`,
      `RRULE:${rrule}`,
      `ORGANIZER;CN=Mallory:mailto:${mallory}`,
      `ATTENDEE;PARTSTAT=NEEDS-ACTION;RSVP=TRUE:mailto:${addressB}`,
      'END:VEVENT',
    ].join('\r\n');
  const client = createTransport({ host: '127.0.0.1', port: w.smtp?.port, secure: false, ignoreTLS: true });
  // One message a rule; each ends with a plain weekly event, applied after the one before it.
  const rules: [string, string][] = [
    ['secondly', 'FREQ=SECONDLY'],
    ['count', 'FREQ=DAILY;COUNT=2000000000'],
    ['by-parts', `FREQ=DAILY;BYHOUR=${hours};BYMINUTE=${sixty};BYSECOND=${sixty}`],
  ];
  for (const [name, rrule] of rules) {
    await client.sendMail({
      from: `Mallory <${mallory}>`,
      to: addressB,
      subject: `Invitation: ${name} ${tag}`,
      text: 'Come.',
      icalEvent: {
        method: 'REQUEST',
        content: [
          'BEGIN:VCALENDAR',
          'VERSION:2.0',
          'PRODID:-//outside//hostile//EN',
          'METHOD:REQUEST',
          vevent(name, `Hostile ${name}`, rrule),
          vevent(`${name}-weekly`, `Weekly after ${name}`, 'FREQ=WEEKLY;BYDAY=MO'),
          'END:VCALENDAR',
        ].join('\r\n'),
      },
    });
  }
  client.close();

  const count = async (from: number, to: number) => {
    const list = await w.p.get(`${baseB}/events?from=${from}&to=${to}`, { token: b.token });
    expect(list.status).toBe(200);
    const by = new Map<string, number>();
    for (const o of list.body.occurrences as { summary: string }[]) {
      if (o.summary.endsWith(tag)) by.set(o.summary, (by.get(o.summary) ?? 0) + 1);
    }
    return Object.fromEntries(by);
  };
  const weekly = Object.fromEntries(rules.map(([name]) => [`Weekly after ${name} ${tag}`, 1]));
  // 4 January 2027 is a Monday: each weekly event once, once all three messages were applied.
  const day: [number, number] = [Date.UTC(2027, 0, 4), Date.UTC(2027, 0, 5)];
  await until(async () => Object.keys(await count(...day)).length === rules.length, 60_000);
  expect(await count(...day)).toEqual(weekly);
  const times = (n: number) => Object.fromEntries(Object.keys(weekly).map((k) => [k, n]));
  expect(await count(Date.UTC(2027, 0, 1), Date.UTC(2027, 1, 1))).toEqual(times(4));
  expect(await count(Date.UTC(2027, 0, 1), Date.UTC(2028, 0, 1))).toEqual(times(52));
});
