import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Temporal } from 'temporal-polyfill';
import { count, UsageError } from '../context';
import { table } from '../output';
import type { CommandSpec, Ctx, OptionSpec } from '../spec';
import { TransferMeter, uploadFile } from '../transfer';
import { localFile } from './common';
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

export const CALENDAR_COMMANDS: CommandSpec[] = [
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
    },
    examples: [
      'platform cal add "Design review" --start "2026-12-01 14:00" --duration 45m --attendee ana@example.com',
      'platform cal add "Offsite" --start 2026-12-10 --duration 2d',
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
        },
      });
      const e = res.event;
      const invited = res.notified.sent ? ` Invited ${res.notified.sent} by mail.` : '';
      return c.print(
        res,
        () =>
          `Added ${e.eventId}: ${c.args[0]}, ${e.startLocal.replace('T', ' ')} to ${e.endLocal.replace('T', ' ')} (${e.timeZone}).${invited}`,
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
];
