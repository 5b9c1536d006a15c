import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Temporal } from 'temporal-polyfill';
import type { Operations } from '../../client';
import { count, UsageError } from '../context';
import { table } from '../output';
import type { CommandSpec, Ctx, OptionSpec } from '../spec';
import { TransferMeter, uploadFile } from '../transfer';
import { intOption, localFile } from './common';
import { MAILBOX, mailboxOf } from './mail';

/**
 * `cal`: the calendars of a mailbox you are a member of: the agenda of a date range, adding an
 * event, answering an invitation, importing and exporting iCalendar files. Times are read and
 * shown in one time zone: --zone, else TZ, else the system's.
 */

const ZONE: OptionSpec = {
  type: 'string',
  value: 'ZONE',
  help: "an IANA time zone (default: TZ, else the system's)",
};
const COLORS = ['blue', 'orange', 'teal', 'amber', 'pink', 'green', 'red', 'gray'] as const;
const CALENDAR: OptionSpec = { type: 'string', value: 'ID', help: 'the calendar (default: the default one)' };

/** What an import body may hold inline (the route's limit); a larger file goes through an upload link. */
const INLINE_IMPORT_BYTES = 4 * 1024 * 1024;

const width = (c: Ctx) => c.io;

function zoneOf(c: Ctx): string {
  const zone = c.str('zone') ?? c.io.env.TZ ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  try {
    return Temporal.Now.zonedDateTimeISO(zone.replace(/^:/, '')).timeZoneId;
  } catch {
    throw new UsageError(`Unknown time zone ${zone}: use an IANA name such as Europe/Paris.`);
  }
}

function dateOf(value: string, name: string): Temporal.PlainDate {
  try {
    return Temporal.PlainDate.from(value);
  } catch {
    throw new UsageError(`--${name} takes a date: YYYY-MM-DD.`);
  }
}

/** `2026-11-27 10:00`, `2026-11-27T10:00` or `2026-11-27` (a date alone: all day). */
function dateTimeOf(value: string, name: string): Temporal.PlainDateTime | Temporal.PlainDate {
  const text = value.trim().replace(' ', 'T');
  try {
    return text.includes('T') ? Temporal.PlainDateTime.from(text) : Temporal.PlainDate.from(text);
  } catch {
    throw new UsageError(`--${name} takes a date and time: YYYY-MM-DD HH:MM (or a date alone, all day).`);
  }
}

/** `30m`, `1h`, `1h30m`, `2d`. */
function durationOf(value: string): Temporal.Duration {
  const m = /^(?:(\d+)d)?(?:(\d+)h)?(?:(\d+)m)?$/.exec(value.trim());
  if (!m || value.trim() === '') throw new UsageError('--duration takes 30m, 1h, 1h30m or 2d.');
  return Temporal.Duration.from({ days: Number(m[1] ?? 0), hours: Number(m[2] ?? 0), minutes: Number(m[3] ?? 0) });
}

const local = (t: Temporal.PlainDateTime) => t.toString({ smallestUnit: 'second' });
const hhmm = (ms: number, zone: string) =>
  Temporal.Instant.fromEpochMilliseconds(ms)
    .toZonedDateTimeISO(zone)
    .toPlainTime()
    .toString({ smallestUnit: 'minute' });
const dayOf = (ms: number, zone: string) => {
  const d = Temporal.Instant.fromEpochMilliseconds(ms).toZonedDateTimeISO(zone);
  return `${d.toLocaleString('en-GB', { weekday: 'short' })} ${d.toPlainDate().toString()}`;
};

async function calendarOf(c: Ctx) {
  const box = await mailboxOf(c);
  const given = c.str('calendar');
  if (given) return { ...box, calendarId: given };
  const { calendars } = await box.api.getMailMailboxesCalendars({ orgId: box.orgId, mailboxId: box.mailboxId });
  const found = calendars.find((k) => k.isDefault) ?? calendars[0];
  if (!found) throw new UsageError('This mailbox has no calendar.');
  return { ...box, calendarId: found.calendarId };
}

const FREQS = ['daily', 'weekly', 'monthly', 'yearly'] as const;
type Recurrence = NonNullable<Operations['postMailMailboxesCalendarsEvents']['body']['recurrence']>;
type Day = NonNullable<Recurrence['byDay']>[number]['day'];
const DAYS: Day[] = ['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA'];

/** A comma list of whole numbers of an RRULE part, checked. */
function numbers(part: string, value: string, min: number, max: number): number[] {
  return value.split(',').map((v) => {
    const n = Number(v);
    if (!/^-?\d+$/.test(v) || n < min || n > max || n === 0)
      throw new UsageError(`RRULE ${part}=${value} is not valid.`);
    return n;
  });
}

/**
 * `--repeat daily|weekly|monthly|yearly` or an RRULE (`FREQ=WEEKLY;BYDAY=MO,WE`, with or without
 * `RRULE:`), with `--until` (a date, the last day it may happen) and `--count`: the API's
 * recurrence fields. Undefined without --repeat.
 */
function recurrenceOf(c: Ctx): Recurrence | undefined {
  const repeat = c.str('repeat');
  const until = c.str('until');
  const count = intOption(c, 'count', 1, 1000);
  if (repeat === undefined) {
    if (until !== undefined || count !== undefined) throw new UsageError('--until and --count go with --repeat.');
    return undefined;
  }
  if (until !== undefined && count !== undefined) throw new UsageError('Give --until or --count, not both.');
  let rule: Recurrence;
  const simple = repeat.toLowerCase();
  if ((FREQS as readonly string[]).includes(simple)) rule = { freq: simple as Recurrence['freq'] };
  else {
    const parts = new Map(
      repeat
        .replace(/^RRULE:/i, '')
        .split(';')
        .filter(Boolean)
        .map((p) => {
          const [k, v] = p.split('=');
          if (!k || v === undefined)
            throw new UsageError(`--repeat takes daily, weekly, monthly, yearly or an RRULE (not ${repeat}).`);
          return [k.toUpperCase(), v.toUpperCase()] as const;
        }),
    );
    const freq = parts.get('FREQ')?.toLowerCase();
    if (!freq || !(FREQS as readonly string[]).includes(freq))
      throw new UsageError(`--repeat takes daily, weekly, monthly, yearly or an RRULE with FREQ (not ${repeat}).`);
    rule = { freq: freq as Recurrence['freq'] };
    for (const [k, v] of parts) {
      if (k === 'FREQ') continue;
      else if (k === 'INTERVAL') rule.interval = numbers(k, v, 1, 1000)[0];
      else if (k === 'COUNT') rule.count = numbers(k, v, 1, 1000)[0];
      else if (k === 'UNTIL') {
        const m = /^(\d{4})(\d\d)(\d\d)/.exec(v);
        if (!m) throw new UsageError(`RRULE UNTIL=${v} is not valid.`);
        rule.until = `${m[1]}-${m[2]}-${m[3]}`;
      } else if (k === 'BYDAY')
        rule.byDay = v.split(',').map((d) => {
          const m = /^([+-]?\d{1,2})?(SU|MO|TU|WE|TH|FR|SA)$/.exec(d);
          if (!m) throw new UsageError(`RRULE BYDAY=${v} is not valid.`);
          return { day: m[2] as Day, ...(m[1] ? { nth: Number(m[1]) } : {}) };
        });
      else if (k === 'BYMONTHDAY') rule.byMonthDay = numbers(k, v, -31, 31);
      else if (k === 'BYMONTH') rule.byMonth = numbers(k, v, 1, 12);
      else if (k === 'BYSETPOS') rule.bySetPos = numbers(k, v, -366, 366);
      else if (k === 'WKST' && DAYS.includes(v as Day)) rule.weekStart = v as Day;
      else throw new UsageError(`RRULE part ${k}=${v} is not supported.`);
    }
  }
  if (until !== undefined) rule.until = dateOf(until, 'until').toString();
  if (count !== undefined) rule.count = count;
  return rule;
}

/** A recurrence in words: `weekly on MO, WE until 2026-12-31`. */
function repeatText(r: Recurrence): string {
  return [
    r.interval && r.interval > 1 ? `every ${r.interval} (${r.freq})` : r.freq,
    ...(r.byDay ? [`on ${r.byDay.map((d) => `${d.nth ?? ''}${d.day}`).join(', ')}`] : []),
    ...(r.byMonthDay ? [`on day ${r.byMonthDay.join(', ')}`] : []),
    ...(r.count ? [`${r.count} times`] : []),
    ...(r.until ? [`until ${r.until}`] : []),
  ].join(' ');
}

/** A calendar named by its id or its name (any case), in the mailbox of the command. */
async function namedCalendar(c: Ctx, given: string) {
  const box = await mailboxOf(c);
  const { calendars } = await box.api.getMailMailboxesCalendars({ orgId: box.orgId, mailboxId: box.mailboxId });
  const found =
    calendars.find((k) => k.calendarId === given) ??
    calendars.find((k) => k.name.toLowerCase() === given.trim().toLowerCase());
  if (!found) {
    const names = calendars.map((k) => k.name).join(', ');
    throw new UsageError(`No calendar ${given} in this mailbox (its calendars: ${names}).`);
  }
  return { ...box, calendarId: found.calendarId, name: found.name };
}

const utc = (ms: number) => `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/** The feed's address and what to do with it. */
const feedText = (name: string, feed: { url: string; webcalUrl: string }, what: string) =>
  `${what} of ${name}:\n  ${feed.url}\nSubscribe to it in any calendar application (a subscribe link: ${feed.webcalUrl}).\n` +
  'Anyone with this address can read the calendar: it is shown this once. --rotate replaces it, --revoke ends it.';

/** `cal feed <calendar> [--rotate|--revoke]`: the calendar's subscription feed. */
const FEED_COMMAND: CommandSpec = {
  path: ['cal', 'feed'],
  summary: "a calendar's secret subscription address (.ics): make it, --rotate it or --revoke it",
  details:
    'Without a flag: makes the feed and prints its address, or, when the calendar has one, when it was made\n' +
    '(its address is shown only once). --rotate prints a new address (the old one stops at once).',
  positionals: [{ name: 'calendar', required: true }],
  options: {
    mailbox: MAILBOX,
    rotate: { type: 'boolean', help: 'a new address; the old one answers 404 from now on' },
    revoke: { type: 'boolean', help: 'end the feed: its address answers 404 from now on' },
  },
  examples: [
    'platform cal feed Calendar',
    'platform cal feed Releases --rotate',
    'platform cal feed Releases --revoke',
  ],
  run: async (c) => {
    if (c.flag('rotate') && c.flag('revoke')) throw new UsageError('Give --rotate or --revoke, not both.');
    const { api, orgId, mailboxId, calendarId, name } = await namedCalendar(c, c.args[0] as string);
    const path = { orgId, mailboxId, calendarId };
    if (c.flag('revoke')) {
      await api.deleteMailMailboxesCalendarsFeed(path);
      return c.print({ revoked: true }, () => `Revoked the feed of ${name}: its address answers 404 now.`);
    }
    if (c.flag('rotate')) {
      const res = await api.postMailMailboxesCalendarsFeedRotate(path);
      return c.print(res, () => feedText(name, res.feed, 'New feed address'));
    }
    const now = await api.getMailMailboxesCalendarsFeed(path);
    if (now.feed) {
      const f = now.feed;
      const rotated = f.rotatedAt ? `, its address last changed ${utc(f.rotatedAt)}` : '';
      return c.print(
        now,
        () =>
          `${name} has a feed since ${utc(f.createdAt)}${rotated}. Its address was shown once: ` +
          '--rotate for a new one (the old one stops), --revoke to end it.',
      );
    }
    const res = await api.postMailMailboxesCalendarsFeed(path);
    return c.print(res, () => feedText(name, res.feed, 'Feed'));
  },
};

export const CALENDAR_COMMANDS: CommandSpec[] = [
  {
    path: ['cal', 'calendars', 'create'],
    summary: 'add a calendar to the mailbox',
    positionals: [{ name: 'name', required: true }],
    options: {
      mailbox: MAILBOX,
      color: {
        type: 'string',
        value: 'COLOR',
        help: 'blue, orange, teal, amber, pink, green, red or gray',
        complete: COLORS,
      },
      description: { type: 'string', value: 'TEXT', help: 'what it is for' },
    },
    examples: ['platform cal calendars create Releases --color green'],
    run: async (c) => {
      const color = c.str('color');
      if (color !== undefined && !(COLORS as readonly string[]).includes(color))
        throw new UsageError(`Unknown color ${color}: use ${COLORS.join(', ')}.`);
      const { api, orgId, mailboxId } = await mailboxOf(c);
      const res = await api.postMailMailboxesCalendars({
        orgId,
        mailboxId,
        body: {
          name: c.args[0] as string,
          ...(color ? { color: color as (typeof COLORS)[number] } : {}),
          ...(c.str('description') ? { description: c.str('description') } : {}),
        },
      });
      const k = res.calendar;
      return c.print(
        res,
        () => `Created calendar ${k.name} (${k.calendarId}). Add to it: platform cal add … --calendar ${k.calendarId}`,
      );
    },
  },
  {
    path: ['cal', 'calendars'],
    summary: "the mailbox's calendars, the default first",
    options: { mailbox: MAILBOX },
    examples: ['platform cal calendars', 'platform cal calendars --mailbox team@example.com'],
    run: async (c) => {
      const { api, orgId, mailboxId } = await mailboxOf(c);
      const res = await api.getMailMailboxesCalendars({ orgId, mailboxId });
      return c.print(res, () =>
        table(
          [
            ['ID', 'NAME', 'COLOR', 'DEFAULT'],
            ...res.calendars.map((k) => [k.calendarId, k.name, k.color, k.isDefault ? 'yes' : '']),
          ],
          width(c),
          [0, 2, 3],
        ),
      );
    },
  },
  {
    path: ['cal', 'agenda'],
    summary: 'what is on, day by day (default: 7 days from today), repeating events expanded',
    options: {
      mailbox: MAILBOX,
      from: { type: 'string', value: 'DATE', help: 'the first day, YYYY-MM-DD (default: today)' },
      to: { type: 'string', value: 'DATE', help: 'the last day, YYYY-MM-DD' },
      days: { type: 'string', value: 'N', help: 'how many days (default 7; at most 400)' },
      calendar: { type: 'string', value: 'ID', help: 'only this calendar (a comma list for several)' },
      zone: ZONE,
    },
    examples: ['platform cal agenda', 'platform cal agenda --from 2026-12-01 --to 2026-12-31 --zone Europe/Paris'],
    run: async (c) => {
      const zone = zoneOf(c);
      const from = c.str('from') ? dateOf(c.str('from') as string, 'from') : Temporal.Now.plainDateISO(zone);
      const days = c.str('days');
      if (days !== undefined && c.str('to') !== undefined) throw new UsageError('Give --to or --days, not both.');
      if (days !== undefined && !/^\d{1,3}$/.test(days))
        throw new UsageError('--days takes a whole number from 1 to 400.');
      const end = c.str('to')
        ? dateOf(c.str('to') as string, 'to').add({ days: 1 })
        : from.add({ days: Number(days ?? 7) });
      const startMs = from.toZonedDateTime({ timeZone: zone }).epochMilliseconds;
      const endMs = end.toZonedDateTime({ timeZone: zone }).epochMilliseconds;
      const { api, orgId, mailboxId } = await mailboxOf(c);
      const res = await api.getMailMailboxesEvents({
        orgId,
        mailboxId,
        from: startMs,
        to: endMs,
        calendarId: c.str('calendar'),
      });
      return c.print(res, () => {
        if (res.occurrences.length === 0) return `Nothing from ${from} to ${end.subtract({ days: 1 })} (${zone}).`;
        let day = '';
        const rows = res.occurrences.map((o) => {
          const d = o.allDay ? (o.startDate ?? dayOf(o.start, zone)) : dayOf(o.start, zone);
          const shown = d === day ? '' : d;
          day = d;
          return [
            shown,
            o.allDay ? 'all day' : `${hhmm(o.start, zone)}-${hhmm(o.end, zone)}`,
            `${o.summary || '(no title)'}${o.recurring ? ' ↻' : ''}${o.status === 'cancelled' ? ' (cancelled)' : ''}`,
            o.location,
            o.isOrganizer ? (o.attendees ? 'organizer' : '') : (o.myStatus ?? ''),
            o.eventId,
          ];
        });
        return `${table([['DAY', 'TIME', 'WHAT', 'WHERE', 'YOU', 'EVENT'], ...rows], width(c), [1, 4, 5])}\n(${zone})`;
      });
    },
  },
  {
    path: ['cal', 'add'],
    summary: 'add an event; attendees are invited by mail',
    positionals: [{ name: 'summary', required: true }],
    options: {
      mailbox: MAILBOX,
      calendar: CALENDAR,
      start: { type: 'string', value: 'WHEN', help: 'YYYY-MM-DD HH:MM (a date alone: all day)', required: true },
      end: { type: 'string', value: 'WHEN', help: 'YYYY-MM-DD HH:MM, or HH:MM the same day' },
      duration: { type: 'string', value: '1h', help: 'instead of --end: 30m, 1h30m, 2d (default 1h; 1 day all day)' },
      zone: ZONE,
      location: { type: 'string', value: 'WHERE', help: 'where it takes place' },
      description: { type: 'string', value: 'TEXT', help: 'what it is about' },
      attendee: { type: 'string', value: 'EMAIL', help: 'invite someone (repeat, or a comma list)', multiple: true },
      'no-invites': { type: 'boolean', help: 'add the attendees without mailing them' },
      repeat: {
        type: 'string',
        value: 'FREQ|RRULE',
        help: "repeat it: daily, weekly, monthly, yearly, or an RRULE ('FREQ=WEEKLY;BYDAY=MO,WE')",
        complete: FREQS,
      },
      until: { type: 'string', value: 'DATE', help: 'with --repeat: the last day it may happen, YYYY-MM-DD' },
      count: { type: 'string', value: 'N', help: 'with --repeat: how many times' },
    },
    examples: [
      'platform cal add "Design review" --start "2026-12-01 14:00" --duration 45m --attendee ana@example.com',
      'platform cal add "Offsite" --start 2026-12-10 --duration 2d',
      'platform cal add "Standup" --start "2026-12-01 09:30" --duration 15m --repeat "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR" --until 2026-12-31',
    ],
    run: async (c) => {
      const zone = zoneOf(c);
      const start = dateTimeOf(c.str('start') as string, 'start');
      const allDay = start instanceof Temporal.PlainDate;
      const endText = c.str('end');
      if (endText !== undefined && c.str('duration') !== undefined)
        throw new UsageError('Give --end or --duration, not both.');
      let end: Temporal.PlainDateTime | Temporal.PlainDate;
      if (endText !== undefined) {
        end =
          !allDay && /^\d{1,2}:\d{2}$/.test(endText.trim())
            ? (start as Temporal.PlainDateTime).withPlainTime(Temporal.PlainTime.from(endText.trim().padStart(5, '0')))
            : dateTimeOf(endText, 'end');
        // An all-day event ends the day after its last day (iCalendar's DTEND).
        if (allDay && end instanceof Temporal.PlainDate) end = end.add({ days: 1 });
      } else {
        end = start.add(durationOf(c.str('duration') ?? (allDay ? '1d' : '1h')));
      }
      if (end instanceof Temporal.PlainDate !== allDay) {
        throw new UsageError('--start and --end take both a time, or both a date alone (all day).');
      }
      const recurrence = recurrenceOf(c);
      const attendees = c
        .all('attendee')
        .flatMap((a) => a.split(','))
        .map((a) => a.trim())
        .filter(Boolean)
        .map((email) => ({ email }));
      const { api, orgId, mailboxId, calendarId } = await calendarOf(c);
      const res = await api.postMailMailboxesCalendarsEvents({
        orgId,
        mailboxId,
        calendarId,
        body: {
          summary: c.args[0] as string,
          allDay,
          start: allDay ? start.toString() : local(start as Temporal.PlainDateTime),
          end: allDay ? end.toString() : local(end as Temporal.PlainDateTime),
          timeZone: zone,
          location: c.str('location'),
          description: c.str('description'),
          ...(attendees.length ? { attendees } : {}),
          ...(c.flag('no-invites') ? { notify: false } : {}),
          ...(recurrence ? { recurrence } : {}),
        },
      });
      const e = res.event;
      const invited = res.notified.sent ? ` Invited ${res.notified.sent} by mail.` : '';
      const repeats = recurrence ? `, repeating ${repeatText(recurrence)}` : '';
      return c.print(
        res,
        () =>
          `Added ${e.eventId}: ${c.args[0]}, ${e.startLocal.replace('T', ' ')} to ${e.endLocal.replace('T', ' ')} (${e.timeZone})${repeats}.${invited}`,
      );
    },
  },
  {
    path: ['cal', 'respond'],
    summary: 'answer an invitation: accepted, tentative or declined (the organizer gets your reply by mail)',
    positionals: [
      { name: 'eventId', required: true },
      { name: 'answer', required: true, complete: ['accepted', 'tentative', 'declined'] },
    ],
    options: {
      mailbox: MAILBOX,
      calendar: CALENDAR,
      comment: { type: 'string', value: 'TEXT', help: 'a note to the organizer' },
    },
    examples: ['platform cal respond evt_… accepted', 'platform cal respond evt_… declined --comment "On leave"'],
    run: async (c) => {
      const [eventId, answer] = c.args as [string, string];
      const status =
        ({ accept: 'accepted', decline: 'declined', maybe: 'tentative' } as Record<string, string>)[answer] ?? answer;
      if (!['accepted', 'tentative', 'declined'].includes(status)) {
        throw new UsageError(`Answer accepted, tentative or declined (not ${answer}).`);
      }
      const { api, orgId, mailboxId, calendarId } = await calendarOf(c);
      const res = await api.postMailMailboxesCalendarsEventsRespond({
        orgId,
        mailboxId,
        calendarId,
        eventId,
        body: { status: status as 'accepted', comment: c.str('comment') },
      });
      const told = res.notified.sent ? ' The organizer was told.' : '';
      return c.print(res, () => `You ${status === 'tentative' ? 'answered maybe to' : status} ${eventId}.${told}`);
    },
  },
  {
    path: ['cal', 'import'],
    jsonLast: true,
    summary: 'import an iCalendar (.ics) file into a calendar (nobody is mailed)',
    details:
      'Events are imported 200 a call, a file up to 4 MB inline, a larger one (up to 50 MB) uploaded first.\n' +
      'An event whose UID the mailbox knows is updated, not doubled. With --json, the last answer.',
    positionals: [{ name: 'file', required: true, complete: 'file' }],
    options: { mailbox: MAILBOX, calendar: CALENDAR },
    examples: ['platform cal import holidays.ics'],
    run: async (c) => {
      const name = c.args[0] as string;
      const { file, size } = localFile(c, name);
      const { api, orgId, mailboxId, calendarId } = await calendarOf(c);
      const path = { orgId, mailboxId, calendarId };
      let answer =
        size <= INLINE_IMPORT_BYTES
          ? await api.postMailMailboxesCalendarsImport({ ...path, body: { content: readFileSync(file, 'utf8') } })
          : await api.postMailMailboxesCalendarsImport({ ...path, body: { size } });
      if (answer.upload) {
        const meter = new TransferMeter(`Uploading ${name}`, size, c.io.stderr, c.io.tty);
        await uploadFile(answer.upload.url, file, answer.upload.headers['content-type'] ?? 'text/calendar', meter);
        meter.end();
      }
      const total = { imported: 0, updated: 0, skipped: 0, warnings: [] as string[] };
      for (;;) {
        total.imported += answer.imported;
        total.updated += answer.updated;
        total.skipped += answer.skipped;
        total.warnings.push(...answer.warnings);
        const done = total.imported + total.updated + total.skipped;
        if (!answer.upload) c.io.stderr(`Importing ${name}: ${done} events${answer.done ? '' : ' so far'}\n`);
        if (answer.done || !answer.next) break;
        answer = await api.postMailMailboxesCalendarsImport({ ...path, body: { next: answer.next } });
      }
      const warnings = total.warnings.length ? `\n${total.warnings.map((w) => `  ${w}`).join('\n')}` : '';
      c.io.stdout(`Imported ${total.imported}, updated ${total.updated}, skipped ${total.skipped}.${warnings}\n`);
      return 0;
    },
  },
  {
    path: ['cal', 'export'],
    summary: 'a calendar as an iCalendar file (on stdout, or --output FILE)',
    options: {
      mailbox: MAILBOX,
      calendar: CALENDAR,
      output: { type: 'string', short: 'o', value: 'FILE', help: 'write it to this file', complete: 'file' },
    },
    examples: ['platform cal export -o work.ics'],
    run: async (c) => {
      const { api, orgId, mailboxId, calendarId } = await calendarOf(c);
      // A large calendar answers 303 to a link: fetch follows it to the file.
      const text = await api.getMailMailboxesCalendarsExport({ orgId, mailboxId, calendarId });
      const out = c.str('output');
      if (!out) {
        c.io.stdout(text);
        return 0;
      }
      writeFileSync(resolve(c.io.cwd, out), text);
      const events = (text.match(/^BEGIN:VEVENT\r?$/gm) ?? []).length;
      return c.print(
        { file: out, bytes: Buffer.byteLength(text), events },
        () => `Wrote ${count(events, 'event')} to ${out}.`,
      );
    },
  },
  FEED_COMMAND,
];
