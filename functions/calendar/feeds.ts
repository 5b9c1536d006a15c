import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import * as z from 'zod/mini';
import { createFeed, FEED_MESSAGES, feedOf, revokeFeed, rotateFeed } from '../../shared/domains/calendar/feeds';
import { CALENDAR_MESSAGES } from '../../shared/domains/calendar/records';
import { MAIL_MESSAGES, memberMailbox } from '../../shared/domains/mail/records';
import { created, noContent, ok, route } from '../../shared/kernel/http/route';

/**
 * Subscription feeds of a calendar (shared/domains/calendar/feeds.ts): the owner's routes, for the
 * mailbox's members, and the public address a calendar application subscribes to, with no token.
 * The address is answered once, by the create and by a rotation.
 */
/** The feed's file: iCalendar writing loads with the first feed served (the owner's routes need none). */
const feedFile = () => import('../../shared/domains/calendar/feed-file');

const Id = z.string().check(z.minLength(1), z.maxLength(64));
const CalendarPath = z.object({ orgId: z.string(), mailboxId: Id, calendarId: Id });
const FEED = '/v1/orgs/:orgId/mail/mailboxes/:mailboxId/calendars/:calendarId/feed';

const withCalendar = {
  403: [MAIL_MESSAGES.membersOnly],
  404: [MAIL_MESSAGES.mailboxNotFound, CALENDAR_MESSAGES.calendarNotFound],
};
const NO_FEED = FEED_MESSAGES.none;
const CHANGED = FEED_MESSAGES.changed;

/** The API's own origin, as the caller reached it: the feed is served beside the API. */
function originOf(event: APIGatewayProxyEventV2): string {
  const host = event.headers.host ?? 'localhost';
  const proto =
    event.headers['x-forwarded-proto'] ?? (host.startsWith('localhost') || host.startsWith('127.') ? 'http' : 'https');
  return `${proto}://${host}`;
}

export const feedRoutes = [
  route({
    method: 'GET',
    path: FEED,
    scope: 'calendar:read',
    summary:
      "Whether the calendar has a subscription feed, and when it was made and last rotated (`feed: null` when it has none). The feed's address is never answered again: rotate for a new one.",
    params: CalendarPath,
    errors: withCalendar,
    run: async ({ org, caller, params }) => {
      const m = await memberMailbox(org.orgId, params.mailboxId, caller);
      return ok({ feed: await feedOf(m.mailboxId, params.calendarId) });
    },
  }),

  route({
    method: 'POST',
    path: FEED,
    scope: 'calendar:write',
    summary:
      'Makes the calendar a subscription feed: a secret address (`url`, and `webcalUrl` for a subscribe link) that any calendar application reads without signing in, answered this once. 409 when it has one.',
    params: CalendarPath,
    errors: { ...withCalendar, 409: [FEED_MESSAGES.exists] },
    run: async ({ org, caller, params, event }) => {
      const m = await memberMailbox(org.orgId, params.mailboxId, caller);
      const feed = await createFeed(org.orgId, m.mailboxId, params.calendarId, originOf(event));
      return created({ feed });
    },
  }),

  route({
    method: 'POST',
    path: `${FEED}/rotate`,
    scope: 'calendar:write',
    summary:
      "A new secret address for the calendar's feed, answered this once; the old address answers 404 from now on.",
    params: CalendarPath,
    errors: { 403: withCalendar[403], 404: [...withCalendar[404], NO_FEED], 409: [CHANGED] },
    run: async ({ org, caller, params, event }) => {
      const m = await memberMailbox(org.orgId, params.mailboxId, caller);
      const feed = await rotateFeed(org.orgId, m.mailboxId, params.calendarId, originOf(event));
      return ok({ feed });
    },
  }),

  route({
    method: 'DELETE',
    path: FEED,
    scope: 'calendar:write',
    summary: "Ends the calendar's feed: its address answers 404 from now on.",
    params: CalendarPath,
    errors: { 403: withCalendar[403], 404: [...withCalendar[404], NO_FEED], 409: [CHANGED] },
    run: async ({ org, caller, params }) => {
      const m = await memberMailbox(org.orgId, params.mailboxId, caller);
      await revokeFeed(m.mailboxId, params.calendarId);
      return noContent();
    },
  }),

  route({
    method: 'GET',
    path: '/feeds/:file',
    access: 'public',
    summary:
      "A calendar's subscription feed (`<token>.ics`, no token header: the address is the secret): iCalendar (RFC 5545) with a VTIMEZONE per zone, read-only. `ETag` and `If-None-Match` (304); `HEAD` answers the headers. An unknown, rotated or revoked address, or a deleted calendar, is 404. A feed over 4 MB answers 303 to a link to it (5 minutes).",
    params: z.object({ file: z.string() }),
    errors: { 404: ['Not found'] },
    run: async ({ params, event }) => {
      const { serveFeed, FEED_CACHE_CONTROL, FEED_TYPE } = await feedFile();
      const answer = await serveFeed(params.file, event.headers['if-none-match']);
      const common = { etag: answer.etag, 'cache-control': FEED_CACHE_CONTROL };
      if (answer.kind === 'unchanged') return { status: 304, headers: common };
      if (answer.kind === 'link') return { status: 303, headers: { ...common, location: answer.url } };
      return ok(answer.text, {
        ...common,
        'content-type': FEED_TYPE,
        'content-disposition': 'inline; filename="calendar.ics"',
      });
    },
  }),
];
