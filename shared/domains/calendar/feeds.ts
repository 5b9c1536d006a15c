import { createHash, randomBytes } from 'node:crypto';
import { notFound } from '../../kernel/ground/errors';
import { PREFIXES } from '../../kernel/store/keys';
import { transact } from '../../kernel/store/ops';
import { getItem, TABLE } from '../../kernel/store/table';
import { calPk, getCalendar } from './records';

/**
 * Subscription feeds: a secret address per calendar (`<api>/feeds/<token>.ics`) that any calendar
 * application subscribes to without signing in, serving the calendar as iCalendar (RFC 5545, a
 * VTIMEZONE for every zone its events use), read-only.
 *
 * The token is 32 random bytes (256 bits, base64url): unguessable, and stored only as its SHA-256,
 * so nobody, operators included, can read a feed's address back from the table. It is answered
 * once, by the create and by a rotation; to get an address again, rotate (the old one stops at
 * once). Two records, written together:
 *
 * | record | key | holds |
 * |---|---|---|
 * | the calendar's feed | `MBX#<mailboxId>` / `CALS#FEED#<calendarId>` | the token's hash, when it was made and last rotated (removed with the mailbox) |
 * | the token's lookup | `CALFEED#<sha256(token)>` / `CALFEED` | the organization, mailbox and calendar it serves |
 *
 * A request reads the lookup, then the calendar's feed record, and serves only when that record
 * still holds the same hash: a rotated or revoked token, a deleted calendar or mailbox is 404
 * (./feed-file.ts, loaded with the first feed served: the owner's routes need no iCalendar).
 */
export const FEED_MESSAGES = {
  exists: 'This calendar has a feed already: rotate it for a new address, or revoke it.',
  none: 'This calendar has no feed.',
  changed: 'This feed changed meanwhile. Try again.',
} as const;

/** The token's form in a URL: 43 base64url characters. */
export const TOKEN = /^[A-Za-z0-9_-]{43}$/;

export interface FeedRecord {
  pk: string;
  sk: string;
  calendarId: string;
  tokenHash: string;
  createdAt: number;
  rotatedAt: number | null;
}

export interface LookupRecord {
  pk: string;
  sk: string;
  orgId: string;
  mailboxId: string;
  calendarId: string;
}

export const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');
export const feedKey = (mailboxId: string, calendarId: string) => ({
  pk: calPk(mailboxId),
  sk: `${PREFIXES.calendar.feed}${calendarId}`,
});
export const lookupKey = (tokenHash: string) => ({ pk: `${PREFIXES.calendar.feedLookup}${tokenHash}`, sk: 'CALFEED' });

/** A feed as the owner sees it: never its address (answered once, when made). */
export interface FeedState {
  createdAt: number;
  rotatedAt: number | null;
}

/** A feed just made or rotated: its address, this once. */
export interface FeedSecret extends FeedState {
  url: string;
  webcalUrl: string;
}

const stateOf = (f: FeedRecord): FeedState => ({ createdAt: f.createdAt, rotatedAt: f.rotatedAt });

/** The addresses of a token under `base` (the API's origin): https for browsers and apps, webcal:// for a subscribe link. */
function addresses(base: string, token: string) {
  const url = `${base.replace(/\/$/, '')}/feeds/${token}.ics`;
  return { url, webcalUrl: url.replace(/^https?:/, 'webcal:') };
}

const newToken = () => randomBytes(32).toString('base64url');

/** The calendar's feed, or null. */
export async function feedOf(mailboxId: string, calendarId: string): Promise<FeedState | null> {
  await getCalendar(mailboxId, calendarId);
  const f = await getItem<FeedRecord>(feedKey(mailboxId, calendarId), true);
  return f ? stateOf(f) : null;
}

/** Makes the calendar's feed: 409 when it has one. */
export async function createFeed(
  orgId: string,
  mailboxId: string,
  calendarId: string,
  base: string,
): Promise<FeedSecret> {
  await getCalendar(mailboxId, calendarId);
  const token = newToken();
  const tokenHash = hashOf(token);
  const record: FeedRecord = {
    ...feedKey(mailboxId, calendarId),
    calendarId,
    tokenHash,
    createdAt: Date.now(),
    rotatedAt: null,
  };
  const lookup: LookupRecord = { ...lookupKey(tokenHash), orgId, mailboxId, calendarId };
  await transact(
    [
      { Put: { TableName: TABLE(), Item: record, ConditionExpression: 'attribute_not_exists(pk)' } },
      { Put: { TableName: TABLE(), Item: lookup, ConditionExpression: 'attribute_not_exists(pk)' } },
    ],
    [FEED_MESSAGES.exists],
  );
  return { ...stateOf(record), ...addresses(base, token) };
}

async function current(mailboxId: string, calendarId: string): Promise<FeedRecord> {
  await getCalendar(mailboxId, calendarId);
  const f = await getItem<FeedRecord>(feedKey(mailboxId, calendarId), true);
  if (!f) throw notFound(FEED_MESSAGES.none);
  return f;
}

/** A new address for the calendar's feed; the old one is 404 from now on. */
export async function rotateFeed(
  orgId: string,
  mailboxId: string,
  calendarId: string,
  base: string,
): Promise<FeedSecret> {
  const f = await current(mailboxId, calendarId);
  const token = newToken();
  const tokenHash = hashOf(token);
  const rotatedAt = Date.now();
  await transact(
    [
      {
        Update: {
          TableName: TABLE(),
          Key: feedKey(mailboxId, calendarId),
          UpdateExpression: 'SET tokenHash = :new, rotatedAt = :at',
          ConditionExpression: 'tokenHash = :old',
          ExpressionAttributeValues: { ':new': tokenHash, ':old': f.tokenHash, ':at': rotatedAt },
        },
      },
      { Delete: { TableName: TABLE(), Key: lookupKey(f.tokenHash) } },
      {
        Put: {
          TableName: TABLE(),
          Item: { ...lookupKey(tokenHash), orgId, mailboxId, calendarId } satisfies LookupRecord,
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    ],
    [FEED_MESSAGES.changed],
  );
  return { createdAt: f.createdAt, rotatedAt, ...addresses(base, token) };
}

/** Ends the calendar's feed: its address is 404 from now on. */
export async function revokeFeed(mailboxId: string, calendarId: string): Promise<void> {
  const f = await current(mailboxId, calendarId);
  await transact(
    [
      {
        Delete: {
          TableName: TABLE(),
          Key: feedKey(mailboxId, calendarId),
          ConditionExpression: 'tokenHash = :old',
          ExpressionAttributeValues: { ':old': f.tokenHash },
        },
      },
      { Delete: { TableName: TABLE(), Key: lookupKey(f.tokenHash) } },
    ],
    [FEED_MESSAGES.changed],
  );
}
