import { DomainError, invalid } from '../../kernel/ground/errors';
import { newId } from '../../kernel/store/ids';
import { mailFolder } from '../mail/admin';
import {
  IMPORT_CHUNK,
  IMPORT_MESSAGES,
  type ImportAnswer,
  importToken,
  MAX_IMPORT_CONTENT_BYTES,
  MAX_INLINE_EXPORT_BYTES,
  readImportToken,
  startUpload,
} from '../mail/imports';
import { deleteObjects, getObject, linkTo, putObject } from '../mail/objects';
import type { MailboxRecord } from '../mail/records';
import { indexed, seriesOf } from './events';
import { type Parsed, type ParsedEvent, parseIcs } from './ics-in';
import { toIcs } from './ics-out';
import { type CalEvent, eventByUid, eventsOf, getCalendar, newEventId, putNewEvent, replaceEvent } from './records';
import { receivedRuleError, usableRule } from './recurrence';

/**
 * iCalendar import and export of one calendar. An import takes the file in the body (`content`, up
 * to 4 MB) or by a presigned upload (`size`, up to 50 MB), and works through it 200 events a call:
 * each answer says what it did and, until `done`, the `next` token to call again with (the file
 * waits in the mailbox's folder of the artifacts bucket meanwhile). A UID already in the mailbox
 * updates that event (and brings it to this calendar); nobody is emailed. An export answers the
 * file, or, past what a Lambda response can carry, a link to it.
 */
export const CHUNK = IMPORT_CHUNK;
export { MAX_INLINE_EXPORT_BYTES };
export const ICS_TYPE = 'text/calendar; charset=utf-8';
const MAX_WARNINGS = 100;

export const CALENDAR_TRANSFER_MESSAGES = {
  ...IMPORT_MESSAGES,
  contentTooLarge: 'An import body can hold at most 4 MB of iCalendar: upload a larger file (send its `size`).',
  notCalendar: 'No iCalendar data (BEGIN:VCALENDAR … END:VCALENDAR) was found.',
} as const;

export type ImportResult = ImportAnswer;

/** Where a mailbox's calendar files wait (removed with the mailbox's folder). */
const folderOf = (mailboxId: string) => `${mailFolder(mailboxId)}calendar-files/`;
const scopeOf = (mailbox: MailboxRecord, calendarId: string) => `${mailbox.mailboxId}:${calendarId}:calendar-import`;

function parsed(mailbox: MailboxRecord, content: string) {
  const out = parseIcs(content, [mailbox.address, ...mailbox.aliases]);
  if (out.events.length === 0 && !/BEGIN:VCALENDAR/i.test(content))
    throw invalid(CALENDAR_TRANSFER_MESSAGES.notCalendar);
  return out;
}

/** Writes the events `offset` … `offset + CHUNK` of the file. */
async function importChunk(mailbox: MailboxRecord, calendarId: string, file: Parsed, offset: number) {
  const warnings = offset === 0 ? [...file.warnings] : [];
  const chunk = file.events.slice(offset, offset + CHUNK);
  let imported = 0;
  let updated = 0;
  let skipped = 0;
  // Ten at a time: each is a read of its UID and a write.
  for (let i = 0; i < chunk.length; i += 10) {
    await Promise.all(
      chunk.slice(i, i + 10).map(async (p) => {
        const refused = p.rrule ? receivedRuleError(p.rrule, p.timeZone) : null;
        if (refused) {
          warnings.push(`Event ${p.uid} skipped: ${refused}`);
          skipped++;
          return;
        }
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
  const extra = warnings.length - MAX_WARNINGS;
  const kept = extra > 0 ? [...warnings.slice(0, MAX_WARNINGS), `… and ${extra} more warnings.`] : warnings;
  return { imported, updated, skipped, warnings: kept, more: offset + CHUNK < file.events.length };
}

/** An import's first call with the file in the body. */
export async function importContent(
  mailbox: MailboxRecord,
  calendarId: string,
  content: string,
): Promise<ImportResult> {
  await getCalendar(mailbox.mailboxId, calendarId);
  const bytes = Buffer.from(content, 'utf8');
  if (bytes.length > MAX_IMPORT_CONTENT_BYTES)
    throw new DomainError('tooLarge', CALENDAR_TRANSFER_MESSAGES.contentTooLarge);
  const file = parsed(mailbox, content);
  const { more, ...result } = await importChunk(mailbox, calendarId, file, 0);
  if (!more) return { ...result, done: true, next: null };
  const key = `${folderOf(mailbox.mailboxId)}${newId('imp_')}.ics`;
  await putObject(key, bytes, ICS_TYPE);
  return { ...result, done: false, next: importToken(scopeOf(mailbox, calendarId), key, CHUNK) };
}

/** An import's first call for a file sent by upload: the link to PUT it to, and the token to go on with. */
export async function importUpload(mailbox: MailboxRecord, calendarId: string, size: number): Promise<ImportResult> {
  await getCalendar(mailbox.mailboxId, calendarId);
  return startUpload(
    scopeOf(mailbox, calendarId),
    `${folderOf(mailbox.mailboxId)}${newId('imp_')}.ics`,
    'text/calendar',
    size,
  );
}

/** The next chunk of an import, by its token. */
export async function importNext(mailbox: MailboxRecord, calendarId: string, next: string): Promise<ImportResult> {
  await getCalendar(mailbox.mailboxId, calendarId);
  const token = readImportToken(scopeOf(mailbox, calendarId), next, folderOf(mailbox.mailboxId));
  const bytes = await getObject(token.key);
  if (!bytes) throw invalid(CALENDAR_TRANSFER_MESSAGES.notUploaded);
  let file: Parsed;
  try {
    file = parsed(mailbox, bytes.toString('utf8'));
  } catch (err) {
    await deleteObjects([token.key]);
    throw err;
  }
  const { more, ...result } = await importChunk(mailbox, calendarId, file, token.offset);
  if (more) {
    const offset = token.offset + CHUNK;
    return { ...result, done: false, next: importToken(scopeOf(mailbox, calendarId), token.key, offset) };
  }
  await deleteObjects([token.key]);
  return { ...result, done: true, next: null };
}

function recordOf(mailbox: MailboxRecord, calendarId: string, p: ParsedEvent, existing?: CalEvent): CalEvent {
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

/** A link (5 minutes) to an export written to the mailbox's folder: one per calendar, replaced each time. */
export async function exportLink(mailbox: MailboxRecord, calendarId: string, text: string): Promise<string> {
  const key = `${folderOf(mailbox.mailboxId)}export-${calendarId}.ics`;
  await putObject(key, Buffer.from(text, 'utf8'), ICS_TYPE);
  return linkTo(key, 'calendar.ics');
}

export async function exportIcs(mailbox: MailboxRecord, calendarId: string): Promise<string> {
  const calendar = await getCalendar(mailbox.mailboxId, calendarId);
  const events = await eventsOf(mailbox.mailboxId, [calendarId]);
  events.sort((a, b) => a.start - b.start || a.eventId.localeCompare(b.eventId));
  return toIcs(
    events.map((event) => ({ event })),
    'PUBLISH',
    calendar.name,
  );
}
