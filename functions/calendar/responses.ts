import * as z from 'zod/mini';
import {
  base,
  Calendar,
  CalendarEvent,
  CalendarNotified,
  Occurrence,
} from '../../shared/domains/calendar/record-schemas';
import { fileAnswer, type ResponseDocs, seeOther } from '../../shared/kernel/http/responses';

/** Success responses of the calendar routes (see shared/kernel/http/responses.ts): documentation only. */

/** A calendar's subscription feed as its owner sees it (shared/domains/calendar/feeds.ts). */
const FeedState = z.object({ createdAt: z.number(), rotatedAt: z.nullable(z.number()) });
/** A feed just made or rotated: its secret address, answered this once. */
const FeedSecret = z.object({
  createdAt: z.number(),
  rotatedAt: z.nullable(z.number()),
  url: z.string(),
  webcalUrl: z.string(),
});
const feedHeaders = {
  ETag: "The feed's entity tag (weak: it ignores DTSTAMP); send it as `If-None-Match` for a 304.",
  'Cache-Control': '`private, max-age=300`',
};

export const responses: ResponseDocs = {
  [`GET ${base}/calendars`]: { 200: z.object({ calendars: z.array(Calendar) }) },
  [`POST ${base}/calendars`]: { 201: z.object({ calendar: Calendar }) },
  [`PATCH ${base}/calendars/:calendarId`]: { 200: z.object({ calendar: Calendar }) },
  [`DELETE ${base}/calendars/:calendarId`]: { 204: null },
  [`GET ${base}/events`]: { 200: z.object({ occurrences: z.array(Occurrence) }) },
  [`POST ${base}/calendars/:calendarId/events`]: {
    201: z.object({ event: CalendarEvent, notified: CalendarNotified }),
  },
  [`GET ${base}/calendars/:calendarId/events/:eventId`]: { 200: z.object({ event: CalendarEvent }) },
  [`PUT ${base}/calendars/:calendarId/events/:eventId`]: {
    // cancelled: how many removed attendees were sent a cancellation.
    200: z.object({ event: CalendarEvent, notified: CalendarNotified, cancelled: z.number() }),
  },
  [`DELETE ${base}/calendars/:calendarId/events/:eventId`]: { 204: null },
  [`POST ${base}/calendars/:calendarId/events/:eventId/respond`]: {
    200: z.object({ event: CalendarEvent, notified: CalendarNotified }),
  },
  [`POST ${base}/calendars/:calendarId/import`]: {
    200: z.object({
      imported: z.number(),
      updated: z.number(),
      skipped: z.number(),
      warnings: z.array(z.string()),
      next: z.nullable(z.string()),
      done: z.boolean(),
      upload: z.optional(
        z.object({ url: z.string(), method: z.literal('PUT'), headers: z.record(z.string(), z.string()) }),
      ),
    }),
  },
  // The iCalendar file, or 303 to a link to it when it is too large to answer or asked for (`link=true`).
  [`GET ${base}/calendars/:calendarId/export`]: {
    200: fileAnswer({ 'text/calendar': z.string() }, '`attachment; filename="calendar.ics"`'),
    303: seeOther(
      'A link to the file, valid 5 minutes (`GET` it without a token). Files over 4 MB, or any with `link=true`.',
    ),
  },
  [`GET ${base}/calendars/:calendarId/feed`]: { 200: z.object({ feed: z.nullable(FeedState) }) },
  [`POST ${base}/calendars/:calendarId/feed`]: { 201: z.object({ feed: FeedSecret }) },
  [`POST ${base}/calendars/:calendarId/feed/rotate`]: { 200: z.object({ feed: FeedSecret }) },
  [`DELETE ${base}/calendars/:calendarId/feed`]: { 204: null },
  // The public feed: the calendar as iCalendar, 304 when unchanged, 303 to a link past 4 MB.
  'GET /feeds/:file': {
    200: fileAnswer({ 'text/calendar': z.string() }, '`inline; filename="calendar.ics"`', { headers: feedHeaders }),
    303: { headers: { Location: 'A link to the file, valid 5 minutes (feeds over 4 MB).', ...feedHeaders } },
  },
};
