import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { type BenchPlatform, runAlone } from './platform';
import { median, ms, ratio } from './stats';

/**
 * Calendar: the occurrences of 400 days (`GET …/events`, through the local gateway) of a mailbox
 * holding 100 weekly series (each in one of five zones with DST changes, on one weekday, no end), against ical.js expanding the same 100 rules alone (in process, VTIMEZONEs registered,
 * no HTTP, no store) and against the platform's own expansion alone (rrule-temporal over the
 * floating clock, shared/domains/calendar/recurrence.ts).
 */
export interface CalendarFigures {
  runs: number;
  series: number;
  occurrences: number;
  route: number;
  icaljs: number;
  ours: number;
  /** The store read and the expansion, in process (the route without HTTP, auth and JSON). */
  listing: number;
  /** A calendar of `exportEvents` events written as iCalendar in process (`exportBytes`): folded by ./fold.ts. */
  exportEvents: number;
  exportBytes: number;
  exportOurs: number;
  /** The same calendar folded by ical-generator itself (its `toString()`, one round: seconds). */
  exportLibrary: number;
}

const ZONES = ['Europe/Berlin', 'America/New_York', 'Australia/Sydney', 'America/Santiago', 'Asia/Tokyo'];
const DAYS = ['MO', 'TU', 'WE', 'TH', 'FR'];
const D = 86_400_000;

export async function benchCalendar(
  platform: BenchPlatform,
  options: { runs?: number } = {},
): Promise<CalendarFigures> {
  const runs = options.runs ?? 30;
  const stops: (() => Promise<void> | void)[] = [];
  try {
    const [{ createGateway, listen }, { putItemForBench }, events, recurrence, { vtimezone }, ical] = await Promise.all(
      [
        import('../../lib/local/gateway'),
        benchStore(),
        import('../../shared/domains/calendar/events'),
        import('../../shared/domains/calendar/recurrence'),
        import('../../shared/domains/calendar/vtimezone'),
        import('ical.js'),
      ],
    );
    const ICAL = ical.default;
    const records = await import('../../shared/domains/calendar/records');
    const gateway = createGateway();
    const port = await listen(gateway, 0);
    stops.push(() => {
      gateway.closeAllConnections();
      gateway.close();
    });
    // A mailbox of the bench organization's owner, written as the mail group writes one.
    const mailboxId = `mbx_bench${randomBytes(6).toString('hex')}`;
    const now = Date.now();
    await putItemForBench({
      pk: `ORG#${platform.orgId}`,
      sk: `MBX#${mailboxId}`,
      orgId: platform.orgId,
      mailboxId,
      address: `bench@${mailboxId}.test`,
      domain: `${mailboxId}.test`,
      name: 'Bench',
      kind: 'personal',
      members: [platform.userId],
      aliases: [],
      settings: { displayName: null, signature: null, vacation: null, vipSenders: [] },
      createdAt: now,
      updatedAt: now,
      version: 1,
    });
    const calendarId = (await records.listCalendars(mailboxId))[0]?.calendarId as string;

    // 100 weekly series from 2025, without end.
    const series: { rrule: string; zone: string; startLocal: string; start: number; end: number }[] = [];
    for (let i = 0; i < 100; i++) {
      const zone = ZONES[i % ZONES.length] as string;
      const days = [DAYS[i % DAYS.length] as string];
      const startLocal = `2025-01-${String(6 + (i % 5)).padStart(2, '0')}T${String(8 + (i % 10)).padStart(2, '0')}:30:00`;
      const t = events.resolveTimes(
        false,
        startLocal,
        startLocal.replace(/T(\d\d)/, (_, h) => `T${String(Number(h) + 1).padStart(2, '0')}`),
        zone,
      );
      const rrule = recurrence.toRRule(
        { freq: 'weekly', interval: 1, byDay: days.map((day) => ({ day: day as 'MO' })) },
        false,
        zone,
      );
      series.push({ rrule, zone, startLocal, start: t.start, end: t.end });
      await records.putNewEvent(
        events.indexed({
          mailboxId,
          eventId: records.newEventId(),
          calendarId,
          uid: `bench-${i}@bench.test`,
          version: 1,
          summary: `Series ${i}`,
          description: '',
          location: '',
          ...t,
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
          recurrence: recurrence.fromRRule(rrule, zone),
          rrule,
          exceptions: [],
          exdates: [],
          sequence: 0,
          createdAt: now,
          updatedAt: now,
          firstStart: 0,
          lastEnd: 0,
        }),
      );
    }
    const from = Date.UTC(2026, 0, 1);
    const to = from + 400 * D;

    let count = 0;
    const route = async () => {
      const t = performance.now();
      const res = await fetch(
        `http://127.0.0.1:${port}/v1/orgs/${platform.orgId}/mail/mailboxes/${mailboxId}/events?from=${from}&to=${to}`,
        { headers: { authorization: `Bearer ${platform.jwt}` } },
      );
      const body = (await res.json()) as { occurrences?: unknown[] };
      if (res.status !== 200 || !body.occurrences) throw new Error(`bench events answered ${res.status}`);
      count = body.occurrences.length;
      return performance.now() - t;
    };

    for (const zone of ZONES) {
      ICAL.TimezoneService.register(
        new ICAL.Component(ICAL.parse(vtimezone(zone, 2024, 2028)) as unknown as unknown[]),
      );
    }
    const basic = (s: string) => s.replace(/[-:]/g, '');
    const icsEvents = series.map((s, i) => {
      const text = [
        'BEGIN:VEVENT',
        `UID:bench-${i}`,
        'DTSTAMP:20250101T000000Z',
        `DTSTART;TZID=${s.zone}:${basic(s.startLocal)}`,
        'DURATION:PT1H',
        `RRULE:${s.rrule}`,
        'END:VEVENT',
      ].join('\r\n');
      return new ICAL.Event(new ICAL.Component(ICAL.parse(text) as unknown as unknown[]));
    });
    const icaljs = () => {
      const t = performance.now();
      let n = 0;
      for (const e of icsEvents) {
        const it = e.iterator();
        for (let next = it.next(); next; next = it.next()) {
          const at = next.toUnixTime() * 1000;
          if (at >= to) break;
          if (at + 3_600_000 > from) n++;
        }
      }
      if (n !== count) throw new Error(`ical.js found ${n} occurrences, the route ${count}`);
      return performance.now() - t;
    };
    const ours = () => {
      const t = performance.now();
      let n = 0;
      for (const s of series) {
        n += recurrence.expand(
          {
            rrule: s.rrule,
            allDay: false,
            timeZone: s.zone,
            startLocal: s.startLocal,
            endLocal: s.startLocal,
            start: s.start,
            end: s.end,
          },
          from,
          to,
        ).length;
      }
      if (n !== count) throw new Error(`the expansion alone found ${n} occurrences, the route ${count}`);
      return performance.now() - t;
    };

    const listing = async () => {
      const t = performance.now();
      const n = (await events.listOccurrences(mailboxId, from, to, null)).length;
      if (n !== count) throw new Error(`the listing found ${n} occurrences, the route ${count}`);
      return performance.now() - t;
    };

    const exported = await benchExport();

    const a: number[] = [];
    const b: number[] = [];
    const c: number[] = [];
    const d: number[] = [];
    for (let i = 0; i < runs + 3; i++) {
      const round = [await route(), icaljs(), ours(), await listing()];
      if (i < 3) continue;
      a.push(round[0] as number);
      b.push(round[1] as number);
      c.push(round[2] as number);
      d.push(round[3] as number);
    }
    return {
      runs,
      series: series.length,
      occurrences: count,
      route: median(a),
      icaljs: median(b),
      ours: median(c),
      listing: median(d),
      ...exported,
    };
  } finally {
    for (const s of stops.reverse()) await s();
  }
}

/**
 * A calendar export of about 4 MB (2,000 events, each with a description of 1,400 characters of
 * Latin, CJK and emoji, in a DST zone) written in process: by toIcs (folded in one pass, ./fold.ts)
 * and by ical-generator's own `toString()` (folding character by character, as before).
 */
async function benchExport() {
  const { toIcs, calendarOf } = await import('../../shared/domains/calendar/ics-out');
  const { resolveTimes } = await import('../../shared/domains/calendar/events');
  const events = Array.from({ length: 2000 }, (_, i) => {
    const day = String(1 + (i % 28)).padStart(2, '0');
    const t = resolveTimes(false, `2026-03-${day}T09:00:00`, `2026-03-${day}T10:00:00`, 'Europe/Berlin');
    return {
      mailboxId: 'mbx_bench',
      eventId: `evt_${i}`,
      calendarId: 'cal_bench',
      uid: `export-${i}@bench.test`,
      version: 1,
      summary: `Meeting ${i}: Planung, 会議 🗓️`,
      description: `Agenda ${i}: ${'Lorem ipsum dolor sit amet, café 東京 😀 '.repeat(36)}`,
      location: 'Room 4, Building B',
      ...t,
      organizer: null,
      attendees: [],
      isOrganizer: true,
      myStatus: null,
      status: 'confirmed' as const,
      busyStatus: 'busy' as const,
      sensitivity: 'normal' as const,
      reminders: [],
      categories: [],
      url: null,
      recurrence: null,
      rrule: null,
      exceptions: [],
      exdates: [],
      sequence: 0,
      createdAt: 0,
      updatedAt: 0,
      firstStart: t.start,
      lastEnd: t.end,
    };
  });
  const parts = events.map((event) => ({ event }));
  let text = '';
  const times: number[] = [];
  for (let i = 0; i < 4; i++) {
    const t = performance.now();
    text = toIcs(parts, 'PUBLISH', 'Bench');
    if (i > 0) times.push(performance.now() - t);
  }
  const t = performance.now();
  const library = calendarOf(parts, 'PUBLISH', 'Bench').cal.toString();
  const exportLibrary = performance.now() - t;
  const stamps = (s: string) => s.replace(/^DTSTAMP:\d{8}T\d{6}Z\r$/gm, 'DTSTAMP');
  if (stamps(library) !== stamps(text)) throw new Error('the export differs from the one ical-generator folds');
  return {
    exportEvents: events.length,
    exportBytes: Buffer.byteLength(text),
    exportOurs: median(times),
    exportLibrary,
  };
}

/** A put of one item in the platform table (after the environment is set). */
async function benchStore() {
  const [{ PutCommand }, { db }, { TABLE }] = await Promise.all([
    import('@aws-sdk/lib-dynamodb'),
    import('../../shared/kernel/store/client'),
    import('../../shared/kernel/store/table'),
  ]);
  return {
    putItemForBench: async (Item: Record<string, unknown>) => {
      await db.send(new PutCommand({ TableName: TABLE(), Item }));
    },
  };
}

export function renderCalendar(f: CalendarFigures): string {
  return [
    `The occurrences of 400 days of ${f.series} weekly series in five DST zones (${f.occurrences.toLocaleString('en')} ` +
      `occurrences), median of ${f.runs} rounds:`,
    '',
    '| what | time | vs ical.js alone |',
    '|---|--:|--:|',
    `| \`GET …/events\` through the local gateway (store read, expansion, JSON) | ${ms(f.route)} | ${ratio(f.route, f.icaljs)} |`,
    `| ical.js expanding the same rules alone, in process | ${ms(f.icaljs)} | 1.00× |`,
    `| the listing in process (index read of 100 series, expansion, exceptions, sort) | ${ms(f.listing)} | ${ratio(f.listing, f.icaljs)} |`,
    `| the platform's expansion alone (rrule-temporal, floating clock), in process | ${ms(f.ours)} | ${ratio(f.ours, f.icaljs)} |`,
    '',
    `A calendar export of ${f.exportEvents.toLocaleString('en')} events (${(f.exportBytes / 1024 / 1024).toFixed(1)} MB of iCalendar), ` +
      'written in process (median of 3; the former path once):',
    '',
    '| what | time |',
    '|---|--:|',
    `| the export as written (lines folded in one pass) | ${ms(f.exportOurs)} |`,
    `| the same folded by ical-generator per character (the former path) | ${ms(f.exportLibrary)} |`,
    '',
  ].join('\n');
}

// `npx tsx scripts/bench/calendar.ts`: this figure alone.
if (require.main === module) runAlone(async (platform) => renderCalendar(await benchCalendar(platform)));
