import { db } from '../../kernel/store/client';
import { DeleteCommand, PutCommand, QueryCommand } from '../../kernel/store/commands';
import { PREFIXES } from '../../kernel/store/keys';
import { queryAll } from '../../kernel/store/ops';
import { TABLE } from '../../kernel/store/table';

/**
 * What calendar programs (CalDAV, shared/domains/dav) need of a calendar's history beyond its
 * events, in the mailbox's partition:
 *
 * | record | sk | notes |
 * |---|---|---|
 * | a tombstone: an event that left a calendar (deleted, or moved to another) | `CALS#GONE#<calendarId>#<at>#<eventId>` | `name`, `at`; gone by TTL after 30 days |
 * | a program's name for an event | `CALS#NAME#<calendarId>#<name>` | `eventId`: the program PUT it at `<name>` |
 *
 * An event's name in its calendar is the program's (`dav`, kept on the event with the calendar it
 * was given in) or `<eventId>.ics`. Every write stamps the event's `updatedAt`; a calendar's
 * changes since an instant are its events updated since then and its tombstones since then.
 * Written by ./records.ts (deletes and moves, whoever makes them: the API, an import, an
 * invitation, a program), so no change escapes the log.
 */
export const TOMBSTONE_DAYS = 30;
// The mailbox's partition, as ./records.ts's `calPk` (which imports this module: not imported back).
const pk = (mailboxId: string) => `${PREFIXES.mail.mailbox}${mailboxId}`;
const stamp = (ms: number) => String(Math.max(0, Math.floor(ms))).padStart(15, '0');

export const CHANGE_KEYS = {
  gonePrefix: (calendarId: string) => `${PREFIXES.calendar.gone}${calendarId}#`,
  name: (mailboxId: string, calendarId: string, name: string) => ({
    pk: pk(mailboxId),
    sk: `${PREFIXES.calendar.name}${calendarId}#${name}`,
  }),
};

/** What an event keeps of a program's name for it. */
export interface DavName {
  calendarId: string;
  name: string;
}

interface Named {
  mailboxId: string;
  eventId: string;
  calendarId: string;
  dav?: DavName;
}

/** The event's name in its calendar (`<name>` of its URL). */
export const objectNameOf = (e: Named) =>
  e.dav && e.dav.calendarId === e.calendarId ? e.dav.name : `${e.eventId}.ics`;

/** Records that `e` left its calendar `e.calendarId` (deleted, or moved elsewhere). */
export async function recordGone(e: Named): Promise<void> {
  const at = Date.now();
  await db.send(
    new PutCommand({
      TableName: TABLE(),
      Item: {
        pk: pk(e.mailboxId),
        sk: `${CHANGE_KEYS.gonePrefix(e.calendarId)}${stamp(at)}#${e.eventId}`,
        eventId: e.eventId,
        name: objectNameOf(e),
        at,
        ttl: Math.floor(at / 1000) + TOMBSTONE_DAYS * 86_400,
      },
    }),
  );
  if (e.dav && e.dav.calendarId === e.calendarId) {
    await db.send(
      new DeleteCommand({ TableName: TABLE(), Key: CHANGE_KEYS.name(e.mailboxId, e.calendarId, e.dav.name) }),
    );
  }
}

/** The tombstones of a calendar since `since` (UTC ms), oldest first. */
export async function goneSince(
  mailboxId: string,
  calendarId: string,
  since: number,
): Promise<{ eventId: string; name: string; at: number }[]> {
  const prefix = CHANGE_KEYS.gonePrefix(calendarId);
  return queryAll<{ eventId: string; name: string; at: number }>({
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
    ExpressionAttributeValues: { ':pk': pk(mailboxId), ':from': `${prefix}${stamp(since)}`, ':to': `${prefix}~` },
    ProjectionExpression: 'eventId, #n, #at',
    ExpressionAttributeNames: { '#n': 'name', '#at': 'at' },
  });
}

/** The latest tombstone's instant of a calendar (0: none). */
export async function lastGone(mailboxId: string, calendarId: string): Promise<number> {
  const prefix = CHANGE_KEYS.gonePrefix(calendarId);
  const page = await db.send(
    new QueryCommand({
      TableName: TABLE(),
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :p AND :end',
      ExpressionAttributeValues: { ':pk': pk(mailboxId), ':p': prefix, ':end': `${prefix}~` },
      ScanIndexForward: false,
      Limit: 1,
    }),
  );
  return (page.Items?.[0]?.at as number | undefined) ?? 0;
}
