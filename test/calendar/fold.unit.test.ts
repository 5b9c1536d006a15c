import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import ICAL from 'ical.js';
import { foldLines as libraryFold } from 'ical-generator';
import { FOLD_OCTETS, foldLine, foldLines } from '../../shared/domains/calendar/fold';
import { type ParsedEvent, parseIcs } from '../../shared/domains/calendar/ics-in';
import { calendarOf, type IcsPart, toIcs, unfolded } from '../../shared/domains/calendar/ics-out';
import type { CalEvent } from '../../shared/domains/calendar/records';
import { vtimezone } from '../../shared/domains/calendar/vtimezone';

/**
 * iCalendar line folding (shared/domains/calendar/fold.ts): RFC 5545 §3.1 in one pass, the same
 * output as ical-generator's per-character folding (which took seconds for a feed of a few MB),
 * and the calendar files written with it byte for byte those ical-generator writes itself.
 */

const octets = (s: string) => Buffer.byteLength(s, 'utf8');
/** Every physical line of a folded text, and the text unfolded again (RFC 5545: CRLF + one space removed). */
const physical = (s: string) => s.split('\r\n');
const unfold = (s: string) => s.replace(/\r\n /g, '');

describe('foldLine', () => {
  test('a line of up to 74 octets stays; one of 75 goes on in a continuation line of CRLF and a space', () => {
    const a74 = 'A'.repeat(74);
    expect(FOLD_OCTETS).toBe(74);
    expect(foldLine(a74)).toBe(a74);
    expect(foldLine(`${a74}B`)).toBe(`${a74}\r\n B`);
    expect(foldLine('A'.repeat(74 * 3))).toBe([1, 2, 3].map(() => 'A'.repeat(74)).join('\r\n '));
    expect(foldLine('A'.repeat(74 * 3 + 1))).toBe(`${[1, 2, 3].map(() => 'A'.repeat(74)).join('\r\n ')}\r\n A`);
    expect(foldLine('')).toBe('');
    // Every physical line at most 75 octets, the continuation's space counted.
    for (const line of physical(foldLine('x'.repeat(1000)))) expect(octets(line)).toBeLessThanOrEqual(75);
  });

  test('never inside a UTF-8 sequence: a character that would pass the limit begins the next line', () => {
    const cases: [string, number][] = [
      ['é', 2],
      ['東', 3],
      ['😀', 4],
      ['\u{10FFFF}', 4],
    ];
    for (const [ch, size] of cases) {
      // 73 octets then the character: it fits only when it is 1 octet.
      const line = `${'A'.repeat(73)}${ch}B`;
      expect(foldLine(line)).toBe(`${'A'.repeat(73)}\r\n ${ch}B`);
      expect(size).toBeGreaterThan(1);
      // Exactly at the limit: 74 - size octets then the character, one line.
      const exact = `${'A'.repeat(74 - size)}${ch}`;
      expect(foldLine(exact)).toBe(exact);
      expect(foldLine(`${exact}Z`)).toBe(`${exact}\r\n Z`);
      // A line of the character alone: every piece whole, at most 74 octets of content.
      const folded = foldLine(ch.repeat(200));
      expect(unfold(folded)).toBe(ch.repeat(200));
      const pieces = physical(folded);
      for (const [i, piece] of pieces.entries()) {
        const content = i === 0 ? piece : piece.slice(1);
        expect(content).toBe(ch.repeat(content.length / ch.length));
        expect(octets(content)).toBeLessThanOrEqual(74);
        if (i < pieces.length - 1) expect(octets(content)).toBeGreaterThan(74 - size);
      }
    }
  });

  test('a combining mark is a character of its own (2 octets): the fold may come between it and its letter, never inside it', () => {
    const line = `${'A'.repeat(72)}e\u0301\u0301x`;
    // 72 + 1 (e) = 73, the first U+0301 would make 75.
    expect(foldLine(line)).toBe(`${'A'.repeat(72)}e\r\n \u0301\u0301x`);
    expect(Buffer.from(foldLine(line), 'utf8').toString('utf8')).toBe(foldLine(line));
  });

  test('a lone surrogate (written as U+FFFD, 3 octets) is counted as ical-generator counts it', () => {
    for (const lone of ['\ud800', '\udc00', '\ud800x', '\ud800\ud800']) {
      const line = `${'A'.repeat(72)}${lone}${'B'.repeat(80)}`;
      expect(foldLine(line)).toBe(libraryFold(line));
    }
  });
});

describe('foldLines', () => {
  test('folds each CRLF line apart; a CRLF is never counted, a bare LF is a character of its line', () => {
    const text = `BEGIN:VCALENDAR\r\n${'D'.repeat(80)}\r\n\r\nSHORT\r\n${'x'.repeat(70)}\n${'y'.repeat(10)}\r\nEND`;
    expect(foldLines(text)).toBe(
      `BEGIN:VCALENDAR\r\n${'D'.repeat(74)}\r\n ${'D'.repeat(6)}\r\n\r\nSHORT\r\n${'x'.repeat(70)}\n${'yyy'}\r\n ${'y'.repeat(7)}\r\nEND`,
    );
    expect(foldLines('')).toBe('');
    expect(foldLines('\r\n')).toBe('\r\n');
  });

  test("the same text as ical-generator's own folding, whatever the characters", () => {
    const pieces = [
      'a',
      'Z',
      ' ',
      ';',
      'é',
      'ß',
      '東',
      '語',
      '😀',
      '👩‍👩‍👧',
      'e\u0301',
      '\u{10FFFF}',
      '\r\n',
      '\n',
      '\ud800',
      '\udc00',
    ];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 400 }), (parts) => {
        const text = parts.join('');
        expect(foldLines(text)).toBe(libraryFold(text));
      }),
      { numRuns: 500 },
    );
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (text) => {
        expect(foldLines(text)).toBe(libraryFold(text));
      }),
      { numRuns: 300 },
    );
  });
});

// --- The calendar files written with it.

const FIXTURES = join(__dirname, '..', 'fixtures', 'calendar');
const asEvent = (p: ParsedEvent, i: number): CalEvent => ({
  ...p,
  mailboxId: 'mbx_test',
  eventId: `evt_${i}`,
  calendarId: 'cal_test',
  version: 1,
  createdAt: 0,
  updatedAt: 0,
  firstStart: p.start,
  lastEnd: p.end,
});
/** Every event of the fixtures (Evolution's bare VEVENTs wrapped together, a series and its changed occurrence). */
function fixtureEvents(): CalEvent[] {
  const texts = readdirSync(FIXTURES)
    .filter((f) => f.endsWith('.ics'))
    .map((f) => readFileSync(join(FIXTURES, f), 'utf8'));
  const bare = texts.filter((t) => !t.includes('BEGIN:VCALENDAR')).map((t) => t.trim());
  const files = [
    ...texts.filter((t) => t.includes('BEGIN:VCALENDAR')),
    [
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'PRODID:-//test//wrapper//EN',
      vtimezone('America/New_York', 2016, 2019),
      ...bare,
      'END:VCALENDAR',
    ].join('\r\n'),
  ];
  const events = files.flatMap((t) => parseIcs(t).events).map(asEvent);
  // And the platform's own kinds: an all-day series with a moved occurrence, a private event
  // working elsewhere with reminders and categories, in UTC.
  const base = events[0] as CalEvent;
  const day = Date.UTC(2026, 3, 6);
  events.push(
    {
      ...base,
      uid: 'all-day@test',
      allDay: true,
      timeZone: 'Europe/Berlin',
      startLocal: '2026-03-30',
      endLocal: '2026-03-31',
      start: Date.UTC(2026, 2, 29, 22),
      end: Date.UTC(2026, 2, 30, 22),
      rrule: 'FREQ=WEEKLY;BYDAY=MO',
      exdates: [Date.UTC(2026, 3, 12, 22)],
      exceptions: [
        {
          recurrenceId: day - 2 * 3_600_000,
          startLocal: '2026-04-07',
          endLocal: '2026-04-08',
          start: day + 22 * 3_600_000,
          end: day + 46 * 3_600_000,
          summary: 'Moved a day',
        } as CalEvent['exceptions'][number],
      ],
    },
    {
      ...base,
      uid: 'utc@test',
      allDay: false,
      timeZone: 'UTC',
      rrule: null,
      exceptions: [],
      exdates: [],
      busyStatus: 'workingElsewhere',
      sensitivity: 'personal',
      reminders: [15, -5],
      categories: ['Work', 'Ärger, viel'],
      url: 'https://example.test/a/very/long/url/that/goes/on/and/on/past/the/seventy/four/octets/of/a/line',
      organizer: { email: 'chef@example.test', name: 'Der Chef – 東京' },
    },
  );
  return events;
}

/** The file as ical-generator folds it itself (the former path), with the renames toIcs makes. */
function byLibrary(parts: IcsPart[], method: Parameters<typeof toIcs>[1], name?: string): [string, string] {
  const { cal, zoneText } = calendarOf(parts, method, name);
  const renamed = (t: string) =>
    t
      .replace(/^X-PLATFORM-DATE-RID:(\d{8})\r$/gm, 'RECURRENCE-ID;VALUE=DATE:$1\r')
      .replace(/^X-PLATFORM-COMMENT:/gm, 'COMMENT:');
  // The library writes the calendar's name unescaped; ours escapes it as TEXT (a test below).
  const escapedName = (t: string) =>
    t.replace(
      /^((?:NAME|X-WR-CALNAME):)(.*)\r$/gm,
      (_, key: string, v: string) => `${key}${v.replace(/[\\;,]/g, (c) => `\\${c}`)}\r`,
    );
  return [escapedName(renamed(cal.toString())), renamed(foldLines(unfolded(cal, zoneText)))];
}

describe('calendar files', () => {
  test('the fixtures written byte for byte as ical-generator writes them, in every method', () => {
    const events = fixtureEvents();
    expect(events.length).toBeGreaterThan(10);
    expect(events.some((e) => e.exceptions.length > 0)).toBe(true);
    expect(events.some((e) => e.allDay)).toBe(true);
    const parts = events.map((event) => ({ event }));
    const [library, ours] = byLibrary(parts, 'PUBLISH', 'Fixtures, all of them');
    expect(ours).toBe(library);
    expect(ours).toMatch(/\r\n [^\r\n]/); // some lines were folded
    for (const e of events) {
      for (const method of ['REQUEST', 'CANCEL'] as const) {
        const [a, b] = byLibrary([{ event: e, ...(method === 'CANCEL' ? { cancelled: true } : {}) }], method);
        expect(b).toBe(a);
      }
      const rid = e.exceptions[0]?.recurrenceId;
      if (rid !== undefined) {
        const [a, b] = byLibrary(
          [
            {
              event: e,
              recurrenceId: rid,
              attendees: e.attendees.slice(0, 1),
              comment: `Désolé — ${'非常に'.repeat(30)}`,
            },
          ],
          'REPLY',
        );
        expect(b).toBe(a);
      }
    }
  });

  test('a long DESCRIPTION of emoji, CJK and combining marks is folded within its sequences and reads back the same with ical.js', () => {
    const [event] = fixtureEvents();
    const description = `Agenda 👩‍💻 会议 e\u0301\u0301; a, b\\c\n${'東京😀é\u0301a'.repeat(150)}\nend ✅`;
    const text = toIcs([{ event: { ...(event as CalEvent), description } }], 'PUBLISH', 'Tokyo 東京');
    const lines = physical(text);
    expect(lines.some((l) => l.startsWith('DESCRIPTION:'))).toBe(true);
    for (const line of lines) expect(octets(line)).toBeLessThanOrEqual(75);
    // No line break inside a UTF-8 sequence: every line is valid UTF-8 on its own.
    for (const line of lines) expect(Buffer.from(line, 'utf8').toString('utf8')).toBe(line);
    const comp = new ICAL.Component(ICAL.parse(text) as unknown as unknown[]);
    expect(comp.getFirstSubcomponent('vevent')?.getFirstPropertyValue('description')).toBe(description);
    expect(comp.getFirstPropertyValue('x-wr-calname')).toBe('Tokyo 東京');
  });

  test('the calendar name is written as TEXT: commas, semicolons and backslashes read back the same', () => {
    const [event] = fixtureEvents();
    const name = 'Ops, on call; A\\B';
    const text = toIcs([{ event: event as CalEvent }], 'PUBLISH', name);
    expect(text).toContain('\r\nNAME:Ops\\, on call\\; A\\\\B\r\n');
    expect(text).toContain('\r\nX-WR-CALNAME:Ops\\, on call\\; A\\\\B\r\n');
    // Read back as a TEXT value (ical.js keeps properties it has no type for raw).
    const comp = new ICAL.Component(ICAL.parse(text) as unknown as unknown[]);
    const raw = comp.getFirstPropertyValue('name') as string;
    expect(ICAL.design.icalendar.value.text?.fromICAL?.(raw)).toBe(name);
  });

  test('a large calendar (3 MB of events) is written whole', () => {
    const [first] = fixtureEvents();
    const base = first as CalEvent;
    const events = Array.from({ length: 2000 }, (_, i) => ({
      ...base,
      uid: `large-${i}@test`,
      summary: `Event ${i} — 会議 😀`,
      description: `${i}: ${'Lorem ipsum, café 東京 😀 e\u0301. '.repeat(40)}`,
    }));
    const text = toIcs(
      events.map((event) => ({ event })),
      'PUBLISH',
      'Large',
    );
    expect(octets(text)).toBeGreaterThan(3_000_000);
    expect(text.match(/^BEGIN:VEVENT\r$/gm)).toHaveLength(2000 + 2000 * base.exceptions.length);
    expect(text.endsWith('\r\nEND:VCALENDAR')).toBe(true);
    const comp = new ICAL.Component(ICAL.parse(text) as unknown as unknown[]);
    const vevents = comp.getAllSubcomponents('vevent');
    expect(vevents[1999]?.getFirstPropertyValue('description')).toBe(events[1999]?.description);
  });
});
