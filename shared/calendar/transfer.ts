import { createHash } from 'node:crypto';
import type { Mailbox } from '../mailboxes/records';
import { decodeCursor, encodeCursor } from '../store/cursor';
import { indexed, seriesOf } from './events';
import { type ParsedEvent, parseIcs } from './ics-in';
import { toIcs } from './ics-out';
import { type CalEvent, eventByUid, eventsOf, getCalendar, newEventId, putNewEvent, replaceEvent } from './records';
import { usableRule } from './recurrence';

/**
 * iCalendar import and export of one calendar. An import reads `content` (up to 4 MB) and writes
 * up to CHUNK events a call: the answer's `next` continues it (send the same content with it)
 * until `done`. A UID already in the mailbox updates that event (and brings it to this calendar);
 * nobody is emailed.
 */
export const CHUNK = 200;

export interface ImportResult {
  imported: number;
  updated: number;
  skipped: number;
  warnings: string[];
  next: string | null;
  done: boolean;
}

const scopeOf = (mailbox: Mailbox, calendarId: string, content: string) =>
  `${mailbox.mailboxId}:${calendarId}:ics:${createHash('sha256').update(content).digest('base64url')}`;

export async function importIcs(
  mailbox: Mailbox,
  calendarId: string,
  content: string,
  next?: string,
): Promise<ImportResult> {
  await getCalendar(mailbox.mailboxId, calendarId);
  const scope = scopeOf(mailbox, calendarId, content);
  const offset = decodeCursor<{ i: number }>(scope, next)?.i ?? 0;
  const self = [mailbox.address, ...mailbox.aliases];
  const parsed = parseIcs(content, self);
  const warnings = offset === 0 ? [...parsed.warnings] : [];
  const chunk = parsed.events.slice(offset, offset + CHUNK);
  let imported = 0;
  let updated = 0;
  let skipped = 0;
  // Ten at a time: each is a read of its UID and a write.
  for (let i = 0; i < chunk.length; i += 10) {
    await Promise.all(
      chunk.slice(i, i + 10).map(async (p) => {
        if (p.rrule && !usableRule(seriesOf(p))) {
          warnings.push(`Event ${p.uid}: its repeat rule (${p.rrule}) can't be read: skipped.`);
          skipped++;
          return;
        }
        const existing = await eventByUid(mailbox.mailboxId, p.uid);
        if (existing) {
          await replaceEvent(recordOf(mailbox, calendarId, p, existing), existing.version);
          updated++;
        } else {
          await putNewEvent(recordOf(mailbox, calendarId, p));
          imported++;
        }
      }),
    );
  }
  const end = offset + chunk.length;
  const done = end >= parsed.events.length;
  return { imported, updated, skipped, warnings, next: done ? null : encodeCursor(scope, { i: end }), done };
}

function recordOf(mailbox: Mailbox, calendarId: string, p: ParsedEvent, existing?: CalEvent): CalEvent {
  const now = Date.now();
  return indexed({
    ...p,
    mailboxId: mailbox.mailboxId,
    eventId: existing?.eventId ?? newEventId(now),
    calendarId,
    version: (existing?.version ?? 0) + 1,
    createdAt: existing?.createdAt ?? now,
    updatedAt: now,
    firstStart: 0,
    lastEnd: 0,
  });
}

export async function exportIcs(mailbox: Mailbox, calendarId: string): Promise<string> {
  const calendar = await getCalendar(mailbox.mailboxId, calendarId);
  const events = await eventsOf(mailbox.mailboxId, [calendarId]);
  events.sort((a, b) => a.start - b.start || a.eventId.localeCompare(b.eventId));
  return toIcs(
    events.map((event) => ({ event })),
    'PUBLISH',
    calendar.name,
  );
}
