import { createHash, randomBytes } from 'node:crypto';
import { readEnv } from '../../kernel/ground/env';
import { notFound } from '../../kernel/ground/errors';
import { transact } from '../../kernel/store/ops';
import { getItem, TABLE } from '../../kernel/store/table';
import { mailFolder } from '../mail/admin';
import { getMailbox } from '../mail/records';
import { calPk, eventsOf, getCalendar } from './records';

// iCalendar writing and the bucket load with the first feed served (the owner's routes need neither).
const icsOut = () => import('./ics-out');
const objects = () => import('../mail/objects');

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
 * still holds the same hash: a rotated or revoked token, a deleted calendar or mailbox is 404.
 */
export const FEED_MESSAGES = {
  exists: 'This calendar has a feed already: rotate it for a new address, or revoke it.',
  none: 'This calendar has no feed.',
  changed: 'This feed changed meanwhile. Try again.',
} as const;

/**
 * What a feed answer may hold inline: past it, a 303 to a link (a Lambda response is at most 6 MB).
 * FEED_INLINE_BYTES sets a lower figure (tests: a file of 4 MB takes ical-generator 10 seconds
 * to write, its line folding being slow per character).
 */
export const MAX_INLINE_FEED_BYTES = 4 * 1024 * 1024;
function inlineLimit(): number {
  const set = Number(readEnv('FEED_INLINE_BYTES'));
  return Number.isFinite(set) && set > 0 ? Math.min(set, MAX_INLINE_FEED_BYTES) : MAX_INLINE_FEED_BYTES;
}
/** How long subscribers and caches may keep an answer before asking again (a revocation holds within it). */
export const FEED_CACHE_CONTROL = 'private, max-age=300';
export const FEED_TYPE = 'text/calendar; charset=utf-8';
/** What the feed tells subscribers about how often to refresh (RFC 7986 REFRESH-INTERVAL, and Outlook's own). */
const REFRESH = ['REFRESH-INTERVAL;VALUE=DURATION:PT1H', 'X-PUBLISHED-TTL:PT1H'];

/** The token's form in a URL: 43 base64url characters. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

interface FeedRecord {
  pk: string;
  sk: string;
  calendarId: string;
  tokenHash: string;
  createdAt: number;
  rotatedAt: number | null;
}

interface LookupRecord {
  pk: string;
  sk: string;
  orgId: string;
  mailboxId: string;
  calendarId: string;
}

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');
const feedKey = (mailboxId: string, calendarId: string) => ({ pk: calPk(mailboxId), sk: `CALS#FEED#${calendarId}` });
const lookupKey = (tokenHash: string) => ({ pk: `CALFEED#${tokenHash}`, sk: 'CALFEED' });

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

/** The calendar a feed's file name (`<token>.ics`) serves, or 404 (one answer for every way of not serving). */
async function servedBy(file: string): Promise<{ mailboxId: string; calendarId: string }> {
  const token = file.endsWith('.ics') ? file.slice(0, -4) : '';
  if (!TOKEN.test(token)) throw notFound();
  const tokenHash = hashOf(token);
  const lookup = await getItem<LookupRecord>(lookupKey(tokenHash));
  if (!lookup) throw notFound();
  const [feed, mailbox] = await Promise.all([
    getItem<FeedRecord>(feedKey(lookup.mailboxId, lookup.calendarId)),
    getMailbox(lookup.orgId, lookup.mailboxId),
  ]);
  if (!feed || feed.tokenHash !== tokenHash || !mailbox) throw notFound();
  return lookup;
}

/**
 * The calendar's records and their entity tag: a hash of the calendar's and its events' records as
 * stored (any change to one moves it) and of the year (the VTIMEZONEs written cover years from it),
 * so an unchanged feed is answered 304 without writing the file. Weak: two answers of one tag
 * differ in their DTSTAMPs (when the file was written).
 */
async function feedState(mailboxId: string, calendarId: string) {
  const calendar = await getCalendar(mailboxId, calendarId).catch(() => {
    throw notFound();
  });
  const events = await eventsOf(mailboxId, [calendarId]);
  events.sort((a, b) => a.start - b.start || a.eventId.localeCompare(b.eventId));
  const hash = createHash('sha256').update(`${new Date().getUTCFullYear()}\n${canonical(calendar)}`);
  for (const e of events) hash.update(`\n${canonical(e)}`);
  return { calendar, events, etag: `W/"${hash.digest('base64url').slice(0, 27)}"` };
}

/** JSON with every object's keys sorted: the store does not promise an order of attributes. */
const canonical = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)))
      : v,
  );

/** The iCalendar text of the calendar: the export's, with refresh hints. */
async function feedText(state: Awaited<ReturnType<typeof feedState>>): Promise<string> {
  const { toIcs } = await icsOut();
  return toIcs(
    state.events.map((event) => ({ event })),
    'PUBLISH',
    state.calendar.name,
  ).replace(/^(VERSION:2\.0\r\n)/m, `$1${REFRESH.map((l) => `${l}\r\n`).join('')}`);
}

/** Whether `If-None-Match` names `etag` (weak comparison, as RFC 9110 asks for it). */
export function matches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const bare = (t: string) => t.trim().replace(/^W\//, '');
  return header.trim() === '*' || header.split(',').some((t) => bare(t) === bare(etag));
}

export type FeedAnswer =
  | { kind: 'file'; text: string; etag: string }
  | { kind: 'unchanged'; etag: string }
  | { kind: 'link'; url: string; etag: string };

/**
 * What `GET /feeds/<token>.ics` answers: the file; `unchanged` (304) when `If-None-Match` names its
 * tag; past MAX_INLINE_FEED_BYTES (4 MB), a link (5 minutes) to the file written to the mailbox's folder.
 */
export async function serveFeed(file: string, ifNoneMatch: string | undefined): Promise<FeedAnswer> {
  const { mailboxId, calendarId } = await servedBy(file);
  const state = await feedState(mailboxId, calendarId);
  const etag = state.etag;
  if (matches(ifNoneMatch, etag)) return { kind: 'unchanged', etag };
  const text = await feedText(state);
  if (Buffer.byteLength(text) <= inlineLimit()) return { kind: 'file', text, etag };
  const key = `${mailFolder(mailboxId)}calendar-files/feed-${calendarId}.ics`;
  const { linkTo, putObject } = await objects();
  await putObject(key, Buffer.from(text, 'utf8'), FEED_TYPE);
  return { kind: 'link', url: await linkTo(key, 'calendar.ics'), etag };
}
