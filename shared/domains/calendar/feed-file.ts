import { createHash } from 'node:crypto';
import { readEnv } from '../../kernel/ground/env';
import { notFound } from '../../kernel/ground/errors';
import { getItem } from '../../kernel/store/table';
import { mailFolder } from '../mail/admin';
import { linkTo, putObject } from '../mail/objects';
import { getMailbox } from '../mail/records';
import { type FeedRecord, feedKey, hashOf, type LookupRecord, lookupKey, TOKEN } from './feeds';
import { toIcs } from './ics-out';
import { eventsOf, getCalendar } from './records';

/**
 * A subscription feed's file (`GET /feeds/<token>.ics`, see ./feeds.ts): the calendar as iCalendar
 * with its entity tag, a 304 when unchanged, a link past the inline limit.
 */

/**
 * What a feed answer may hold inline: past it, a 303 to a link (a Lambda response is at most 6 MB).
 * FEED_INLINE_BYTES sets a lower figure (tests: a smaller file takes the same path).
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
  await putObject(key, Buffer.from(text, 'utf8'), FEED_TYPE);
  return { kind: 'link', url: await linkTo(key, 'calendar.ics'), etag };
}
