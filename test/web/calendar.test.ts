import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { type DnsServer, startDnsServer } from '../../lib/local/dns';
import { type SmtpServer, startSmtpServer } from '../../lib/local/smtp';
import { storage } from '../../shared/ports/object-storage';
import type { Person } from '../helpers/platform';
import { startQueueWorker } from '../helpers/sqs';
import { mailboxFor, unique, until } from '../mail/helpers';
import { axe, newPage, ROOT, showingPage, signIn, startWeb, type WebWorld } from './harness';

/**
 * Calendar and contacts in Chromium, the browser in New York (`timezoneId`): an event made in UTC
 * through the API shows at its New York time in the day, week, month and agenda views (an evening
 * event on the day before its UTC date); an invitation made in the form (guests' free/busy shown)
 * travels by mail (the local SMTP server and the mail-inbound worker, as test/calendar/invite.test.ts
 * runs them) to the guest, who accepts it in the app, and the organizer's event shows it; "this and
 * following" from a series' third occurrence splits it (earlier ones kept, the API's expansion says
 * so); a real .ics file imported into a calendar made, renamed and deleted in the app, and exported;
 * contacts: one made with a real PNG photo, shown, removed; a real .vcf imported, searched and
 * exported. Each page through axe at 1440 and 375 px, and no console errors.
 */
let w: WebWorld;
let dns: DnsServer;
let smtp: SmtpServer;
let worker: { stop: () => Promise<void> };
let ctx: BrowserContext;
let page: Page;
let problems: string[];
let b: Person;
let orgId: string;
let boxA: { domain: string; address: string; mailboxId: string };
let addressB: string;
let boxB: string;
let baseA: string;
let baseB: string;
let calA: string;
const tag = Date.now().toString(36);
const NY = 'America/New_York';

beforeAll(async () => {
  // As test/mail/helpers.ts's mail world: a bucket for the mailboxes, DNS for the domain checks,
  // the SMTP server and the mail-inbound worker (invitations are mail). OUTBOX_DIR stays the run's:
  // the sign-in codes are read there.
  process.env.ARTIFACTS_BUCKET = unique('webcal');
  await storage().createBucket(process.env.ARTIFACTS_BUCKET);
  dns = await startDnsServer({ port: 0 });
  process.env.DNS_SERVERS = `127.0.0.1:${dns.port}`;
  smtp = await startSmtpServer({ port: 0 });
  process.env.SMTP_PORT = String(smtp.port);
  worker = await startQueueWorker('mail-inbound');
  w = await startWeb({ deployments: false });
  orgId = w.p.org.orgId;
  b = await w.p.person('developer');
  boxA = await mailboxFor(w.p, [w.p.owner.userId]);
  addressB = `bea-${tag}@${boxA.domain}`;
  const made = await w.p.post(`/v1/orgs/${orgId}/mail/admin/mailboxes`, {
    address: addressB,
    name: 'Bea',
    members: [b.userId],
  });
  boxB = made.body.mailbox.mailboxId;
  baseA = `/v1/orgs/${orgId}/mail/mailboxes/${boxA.mailboxId}`;
  baseB = `/v1/orgs/${orgId}/mail/mailboxes/${boxB}`;
  calA = (await w.p.get(`${baseA}/calendars`)).body.calendars[0].calendarId;
  ctx = await w.browser.newContext({ viewport: { width: 1440, height: 900 }, timezoneId: NY, acceptDownloads: true });
  ({ page, problems } = await newPage(ctx));
  await page.goto(w.app);
  await signIn(page, w.p.owner);
}, 180_000);
afterAll(async () => {
  await w?.close();
  await worker?.stop();
  await smtp?.close();
  await dns?.close();
});

/** A failed step shows what the page said (test/web/harness.ts). */
const shown = (steps: () => Promise<void>) => showingPage(() => page, steps);

/** axe at 1440 px and at 375 px, where nothing may be wider than the screen; no console error. */
async function clean(p = page, found = problems) {
  expect(await axe(p)).toEqual([]);
  await p.setViewportSize({ width: 375, height: 800 });
  expect(await p.evaluate(() => (globalThis as any).document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  expect(await axe(p)).toEqual([]);
  await p.setViewportSize({ width: 1440, height: 900 });
  expect(found).toEqual([]);
}

const h1 = (name: string | RegExp, p = page) => p.getByRole('heading', { level: 1, name });
const calendarAt = (view: string, date: string, mailboxId = boxA.mailboxId) =>
  `${w.app}orgs/${orgId}/calendar?mailbox=${mailboxId}&view=${view}&date=${date}`;

type Occ = {
  eventId: string;
  calendarId: string;
  summary: string;
  start: number;
  end: number;
  recurrenceId: number | null;
};
const occurrences = async (base: string, from: number, to: number, token?: string): Promise<Occ[]> => {
  const res = await w.p.get(`${base}/events?from=${from}&to=${to}`, token ? { token } : undefined);
  expect(res.status).toBe(200);
  return res.body.occurrences;
};

it(
  'day, week, month and agenda views show an event made in UTC at its New York time',
  shown(async () => {
    const standup = `Standup ${tag}`;
    const late = `Late call ${tag}`;
    const offsite = `Offsite ${tag}`;
    for (const body of [
      { summary: standup, start: '2026-07-14T14:00', end: '2026-07-14T15:00', timeZone: 'UTC' },
      // 02:30 UTC on the 15th is 22:30 on the 14th in New York (EDT, UTC-4).
      { summary: late, start: '2026-07-15T02:30', end: '2026-07-15T03:00', timeZone: 'UTC' },
      { summary: offsite, start: '2026-07-15', end: '2026-07-16', timeZone: NY, allDay: true },
    ]) {
      const made = await w.p.post(`${baseA}/calendars/${calA}/events`, body);
      expect(made.status).toBe(201);
    }

    await page.goto(calendarAt('week', '2026-07-14'));
    await h1('Calendar').waitFor();
    await page.getByText('Times in America/New York (GMT-4)').waitFor();
    const tuesday = page.getByRole('list', { name: 'Tuesday, July 14', exact: true });
    const event = tuesday.getByRole('link', { name: `${standup}, 10:00 AM to 11:00 AM` });
    await event.waitFor();
    // Positioned by its time: its top is the 10 AM line.
    const atTen = async () => {
      const box = await event.boundingBox();
      const label = await page.locator('[data-hour="10"]').boundingBox();
      expect(box && label).toBeTruthy();
      expect(Math.abs((box?.y ?? 0) - ((label?.y ?? 0) + (label?.height ?? 0) / 2))).toBeLessThan(3);
    };
    await atTen();
    await tuesday.getByRole('link', { name: `${late}, 10:30 PM to 11:00 PM` }).waitFor();
    expect(await page.getByRole('list', { name: 'Wednesday, July 15', exact: true }).getByRole('link').count()).toBe(0);
    await page
      .getByRole('list', { name: 'All day, Wednesday, July 15' })
      .getByRole('link', { name: `${offsite}, all day` })
      .waitFor();
    await clean();

    await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Day' }).click();
    await page.getByRole('heading', { level: 2, name: 'Tuesday, July 14, 2026' }).waitFor();
    await event.waitFor();
    await atTen();
    await clean();

    await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Month' }).click();
    await page.getByRole('heading', { level: 2, name: 'July 2026' }).waitFor();
    const cell14 = page
      .getByRole('listitem')
      .filter({ has: page.getByRole('link', { name: 'Tuesday, July 14', exact: true }) });
    await cell14.getByRole('link', { name: `${standup}, 10:00 AM to 11:00 AM` }).waitFor();
    await cell14.getByRole('link', { name: `${late}, 10:30 PM to 11:00 PM` }).waitFor();
    await clean();

    await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Agenda' }).click();
    const day14 = page.getByRole('region', { name: 'Tuesday, July 14' });
    await day14.getByRole('link', { name: new RegExp(`^${standup}`) }).waitFor();
    expect(await day14.getByText('10:00 AM – 11:00 AM').count()).toBe(1);
    expect(await day14.getByText('10:30 PM – 11:00 PM').count()).toBe(1);
    await clean();
  }),
  180_000,
);

it(
  'an invitation made in the form reaches the guest, who accepts; the organizer sees it',
  shown(async () => {
    const summary = `Design review ${tag}`;
    // A Tuesday about two months ahead (the invitations list shows what is to come).
    const ahead = new Date(Date.now() + 60 * 86_400_000);
    ahead.setUTCDate(ahead.getUTCDate() + ((9 - ahead.getUTCDay()) % 7));
    const day = ahead.toISOString().slice(0, 10);
    const window = [ahead.getTime() - 3 * 86_400_000, ahead.getTime() + 3 * 86_400_000] as const;
    const busy = await w.p.post(`${baseA}/calendars/${calA}/events`, {
      summary: `Busy ${tag}`,
      start: `${day}T13:30`,
      end: `${day}T15:00`,
      timeZone: NY,
    });
    expect(busy.status).toBe(201);
    await page.goto(calendarAt('week', day));
    await page.getByRole('link', { name: 'New event' }).click();
    await h1('New event').waitFor();
    await page.getByRole('textbox', { name: 'Title' }).fill(summary);
    await page.getByLabel('Start date').fill(day);
    await page.getByLabel('Start time').fill('13:00');
    await page.getByLabel('End date').fill(day);
    await page.getByLabel('End time').fill('14:00');
    expect(await page.getByRole('combobox', { name: 'Time zone' }).inputValue()).toBe(NY);
    await page.getByRole('textbox', { name: 'Location' }).fill('Room 4');
    await page.getByRole('textbox', { name: 'Add guests (email addresses)' }).fill(addressB);
    await page.getByRole('button', { name: 'Add guest' }).click();
    // Free/busy: the organizer's own busy time that day shows beside the proposed time.
    await page.getByLabel('Start time').fill('13:15');
    const fb = page.getByRole('region', { name: 'Free/busy on this day' });
    await fb.getByText('Busy 1:30 PM–3:00 PM (conflict)').waitFor();
    await page.getByLabel('Start time').fill('13:00');
    await clean();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('link', { name: `${summary}, 1:00 PM to 2:00 PM, Room 4` }).waitFor();

    const mine = (await occurrences(baseA, ...window)).find((o) => o.summary === summary);
    const organizerEvent = async () =>
      (await w.p.get(`${baseA}/calendars/${mine?.calendarId}/events/${mine?.eventId}`)).body.event;
    expect(await organizerEvent()).toMatchObject({
      startLocal: `${day}T13:00:00`,
      endLocal: `${day}T14:00:00`,
      timeZone: NY,
      location: 'Room 4',
      attendees: [{ email: addressB, status: 'needs-action' }],
    });

    // The guest: the invitation arrives by mail, in Bea's calendar as needs-action.
    const copy = await until(async () =>
      (await occurrences(baseB, ...window, b.token)).find((o) => o.summary === summary),
    );
    const theirs = await w.browser.newContext({ viewport: { width: 1440, height: 900 }, timezoneId: NY });
    const guest = await newPage(theirs);
    await guest.page.goto(`${w.app}orgs/${orgId}/calendar`);
    await signIn(guest.page, b);
    await h1('Calendar', guest.page).waitFor();
    const invitations = guest.page.getByRole('region', { name: 'Invitations' });
    await invitations.getByRole('link', { name: summary }).waitFor();
    await clean(guest.page, guest.problems);
    await invitations.getByRole('button', { name: `Accept ${summary}` }).click();
    await invitations.getByText('No invitations waiting.').waitFor();
    const answered = await w.p.get(`${baseB}/calendars/${copy.calendarId}/events/${copy.eventId}`, { token: b.token });
    expect(answered.body.event.myStatus).toBe('accepted');
    await theirs.close();

    // The organizer's event: Bea's answer came back as a REPLY.
    const seen = await until(async () => {
      const e = await organizerEvent();
      return e.attendees[0]?.status === 'accepted' ? e : undefined;
    });
    expect(seen.attendees).toMatchObject([{ email: addressB, status: 'accepted' }]);
    await page.getByRole('link', { name: `${summary}, 1:00 PM to 2:00 PM, Room 4` }).click();
    await h1(summary).waitFor();
    const guests = page.getByRole('region', { name: 'Guests' });
    await guests.getByRole('listitem').filter({ hasText: addressB }).getByText('Accepted').waitFor();
    await clean();
  }),
  180_000,
);

it(
  '"this and following" from the third occurrence: earlier ones unchanged, later ones changed',
  shown(async () => {
    const summary = `Series ${tag}`;
    const made = await w.p.post(`${baseA}/calendars/${calA}/events`, {
      summary,
      start: '2026-08-03T09:00',
      end: '2026-08-03T10:00',
      timeZone: NY,
      recurrence: { freq: 'daily', count: 6 },
    });
    expect(made.status).toBe(201);
    await page.goto(calendarAt('week', '2026-08-05'));
    await page
      .getByRole('list', { name: 'Wednesday, August 5', exact: true })
      .getByRole('link', { name: new RegExp(`^${summary}, 9:00 AM`) })
      .click();
    await h1(summary).waitFor();
    await page.getByRole('radio', { name: 'This and following events' }).check();
    await page.getByRole('textbox', { name: 'Title' }).fill(`${summary} later`);
    await page.getByLabel('Start time').fill('11:00');
    await page.getByLabel('End time').fill('12:00');
    await clean();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page
      .getByRole('list', { name: 'Wednesday, August 5', exact: true })
      .getByRole('link', { name: new RegExp(`^${summary} later, 11:00 AM`) })
      .waitFor();

    const all = (await occurrences(baseA, Date.UTC(2026, 7, 1), Date.UTC(2026, 7, 20))).filter((o) =>
      o.summary.startsWith(summary),
    );
    expect(all.map((o) => [o.summary, new Date(o.start).toISOString()])).toEqual([
      [summary, '2026-08-03T13:00:00.000Z'],
      [summary, '2026-08-04T13:00:00.000Z'],
      [`${summary} later`, '2026-08-05T15:00:00.000Z'],
      [`${summary} later`, '2026-08-06T15:00:00.000Z'],
      [`${summary} later`, '2026-08-07T15:00:00.000Z'],
      [`${summary} later`, '2026-08-08T15:00:00.000Z'],
    ]);
    // The first two are still the original series; the rest a new one.
    expect(all[0]?.eventId).toBe(made.body.event.eventId);
    expect(all[1]?.eventId).toBe(made.body.event.eventId);
    expect(all[2]?.eventId).not.toBe(made.body.event.eventId);
    await clean();
  }),
  180_000,
);

it(
  'a calendar made, renamed, filled from a real .ics file, exported and deleted',
  shown(async () => {
    await page.goto(calendarAt('week', '2012-07-12'));
    await h1('Calendar').waitFor();
    const mineList = page.getByRole('region', { name: 'My calendars' });
    await mineList.getByRole('textbox', { name: 'New calendar' }).fill(`Imports ${tag}`);
    await mineList.getByRole('combobox', { name: 'Color' }).selectOption('teal');
    await mineList.getByRole('button', { name: 'Create calendar' }).click();
    await mineList.getByRole('checkbox', { name: `Imports ${tag}` }).waitFor();
    const listed = async () =>
      (await w.p.get(`${baseA}/calendars`)).body.calendars as { calendarId: string; name: string; color: string }[];
    const created = (await listed()).find((c) => c.name === `Imports ${tag}`);
    expect(created).toMatchObject({ color: 'teal' });

    await mineList.getByRole('button', { name: `Edit Imports ${tag}` }).click();
    await mineList.getByRole('textbox', { name: `Name of Imports ${tag}` }).fill(`Meetups ${tag}`);
    await mineList.getByRole('button', { name: 'Save' }).click();
    await mineList.getByRole('checkbox', { name: `Meetups ${tag}` }).waitFor();
    expect((await listed()).find((c) => c.calendarId === created?.calendarId)?.name).toBe(`Meetups ${tag}`);

    const importer = page.getByRole('region', { name: 'Import' });
    await importer
      .getByLabel('iCalendar file (.ics)')
      .setInputFiles(join(ROOT, 'test/fixtures/calendar/meetup-devopsdc.ics'));
    await importer.getByRole('combobox', { name: 'Into calendar' }).selectOption({ label: `Meetups ${tag}` });
    await importer.getByRole('button', { name: 'Import' }).click();
    await importer.getByRole('status').filter({ hasText: 'Imported 3, updated 0, skipped 0.' }).waitFor();
    const meetup = page
      .getByRole('list', { name: 'Thursday, July 12', exact: true })
      .getByRole('link', { name: 'DevOps DC Meetup, 6:30 PM to 9:30 PM' });
    await meetup.waitFor();
    const imported = (
      await w.p.get(
        `${baseA}/events?from=${Date.UTC(2012, 0, 1)}&to=${Date.UTC(2012, 11, 31)}&calendarId=${created?.calendarId}`,
      )
    ).body.occurrences as Occ[];
    expect(imported.map((o) => new Date(o.start).toISOString())).toEqual([
      '2012-07-12T22:30:00.000Z',
      '2012-09-11T22:30:00.000Z',
      '2012-11-13T23:30:00.000Z',
    ]);
    // Hidden with its toggle (by keyboard), shown again.
    const toggle = mineList.getByRole('checkbox', { name: `Meetups ${tag}` });
    await toggle.focus();
    await toggle.press('Space');
    await meetup.waitFor({ state: 'detached' });
    expect(await toggle.isChecked()).toBe(false);
    await toggle.press('Space');
    await meetup.waitFor();
    await clean();

    await mineList.getByRole('button', { name: `Edit Meetups ${tag}` }).click();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      mineList.getByRole('button', { name: `Export Meetups ${tag} (.ics)` }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`Meetups ${tag}.ics`);
    const ics = readFileSync((await download.path()) as string, 'utf8');
    expect(ics).toContain('BEGIN:VCALENDAR');
    expect(ics.match(/SUMMARY:DevOps DC Meetup/g)).toHaveLength(3);
    expect(ics).toContain('DTSTART;TZID=America/New_York:20120712T183000');

    await mineList.getByRole('button', { name: 'Delete…' }).click();
    await mineList.getByRole('button', { name: 'Delete calendar' }).click();
    await mineList.getByRole('checkbox', { name: `Meetups ${tag}` }).waitFor({ state: 'detached' });
    expect((await listed()).some((c) => c.calendarId === created?.calendarId)).toBe(false);
    expect(problems).toEqual([]);
  }),
  180_000,
);

it(
  'contacts: one made with a real PNG photo (shown, then removed), a real .vcf imported, searched and exported',
  shown(async () => {
    const contacts = `/v1/orgs/${orgId}/mail/mailboxes/${boxA.mailboxId}/contacts`;
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Contacts' }).click();
    await h1('Contacts').waitFor();
    await page.getByText('No contacts yet.').waitFor();
    await clean();

    // An address book of its own.
    const books = page.getByRole('navigation', { name: 'Address books' });
    await books.getByRole('textbox', { name: 'New address book' }).fill(`Friends ${tag}`);
    await books.getByRole('button', { name: 'Create address book' }).click();
    await books.getByRole('link', { name: `Friends ${tag}` }).waitFor();
    const bookList = (await w.p.get(`/v1/orgs/${orgId}/mail/mailboxes/${boxA.mailboxId}/address-books`)).body
      .addressBooks;
    const friends = bookList.find((x: { name: string }) => x.name === `Friends ${tag}`);
    expect(friends).toBeDefined();

    await page.getByRole('link', { name: 'New contact' }).click();
    await h1('New contact').waitFor();
    await page.getByRole('combobox', { name: 'Address book' }).selectOption({ label: `Friends ${tag}` });
    await page
      .getByLabel('Photo (JPEG, PNG, GIF or WebP, up to 1 MB)')
      .setInputFiles(join(ROOT, 'test/fixtures/contacts/images/python.png'));
    await page.getByRole('textbox', { name: 'First name' }).fill('Ada');
    await page.getByRole('textbox', { name: 'Last name' }).fill(`Lovelace ${tag}`);
    await page.getByRole('textbox', { name: 'Company' }).fill('Analytical Engines');
    await page.getByRole('textbox', { name: 'Email 1' }).fill('ada@example.com');
    await page.getByRole('textbox', { name: 'Phone 1' }).fill('+44 20 7946 0100');
    await page.getByRole('button', { name: 'Add address' }).click();
    await page.getByRole('textbox', { name: 'City (address 1)' }).fill('London');
    await page.getByRole('textbox', { name: 'Notes' }).fill('Wrote the first program.');
    await clean();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await h1(`Ada Lovelace ${tag}`).waitFor();
    const photo = page.getByRole('img', { name: `Ada Lovelace ${tag}` });
    await photo.waitFor();
    expect(await photo.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBeGreaterThan(0);
    const made = (await w.p.get(`${contacts}?q=lovelace`)).body.contacts;
    expect(made).toHaveLength(1);
    expect(made[0]).toMatchObject({
      addressBookId: friends.addressBookId,
      hasPhoto: true,
      organization: 'Analytical Engines',
      emails: [{ value: 'ada@example.com' }],
      phones: [{ value: '+44 20 7946 0100' }],
      addresses: [{ locality: 'London' }],
      notes: 'Wrote the first program.',
    });
    await clean();
    await page.getByRole('button', { name: 'Remove photo' }).click();
    await photo.waitFor({ state: 'detached' });
    expect((await w.p.get(`${contacts}?q=lovelace`)).body.contacts[0].hasPhoto).toBe(false);

    // A real vCard file into the default book, then found by search.
    await page.getByRole('link', { name: 'Back to contacts' }).click();
    await h1('Contacts').waitFor();
    const importer = page.getByRole('region', { name: 'Import' });
    await importer
      .getByLabel('vCard file (.vcf)')
      .setInputFiles(join(ROOT, 'test/fixtures/contacts/rolo/contacts.vcf'));
    await importer.getByRole('button', { name: 'Import' }).click();
    await importer
      .getByRole('status')
      .filter({ hasText: /^Imported [1-9]\d*, updated 0/ })
      .waitFor();
    await page.getByRole('textbox', { name: 'Search contacts' }).fill('public');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('link', { name: 'Mr. John Q. Public, Esq.' }).waitFor();
    expect(await page.getByRole('list').filter({ hasText: 'Ada' }).count()).toBe(0);
    const found = (await w.p.get(`${contacts}?q=public`)).body.contacts;
    expect(found.map((c: { displayName: string }) => c.displayName)).toEqual(['Mr. John Q. Public, Esq.']);
    await clean();

    // Export of the new book (photo back on, so it travels inline).
    const again = await w.p.put(`${contacts}/${made[0].contactId}/photo`, {
      contentType: 'image/png',
      data: readFileSync(join(ROOT, 'test/fixtures/contacts/images/python.png')).toString('base64'),
    });
    expect(again.status).toBe(200);
    await books.getByRole('button', { name: `Edit Friends ${tag}` }).click();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      books.getByRole('button', { name: `Export Friends ${tag} (.vcf)` }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`Friends ${tag}.vcf`);
    const vcf = readFileSync((await download.path()) as string, 'utf8');
    expect(vcf).toContain(`FN:Ada Lovelace ${tag}`);
    expect(vcf).toContain('VERSION:3.0');
    expect(vcf.replace(/\r\n[ \t]/g, '')).toMatch(/PHOTO;ENCODING=b;TYPE=PNG:iVBORw0KGgo/);
    expect(problems).toEqual([]);
  }),
  180_000,
);
