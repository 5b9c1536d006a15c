import * as z from 'zod/mini';
import type { ResponseDocs } from '../../shared/kernel/http/responses';

/** Success responses of the calendar routes (see shared/kernel/http/responses.ts): documentation only. */
const Calendar = z.object({
  calendarId: z.string(),
  name: z.string(),
  color: z.enum(['blue', 'orange', 'teal', 'amber', 'pink', 'green', 'red', 'gray']),
  description: z.string(),
  isDefault: z.boolean(),
  version: z.number(),
});

const AttendeeStatus = z.enum(['accepted', 'tentative', 'needs-action', 'declined', 'delegated']);
const EventStatus = z.enum(['confirmed', 'tentative', 'cancelled']);
const BusyStatus = z.enum(['free', 'tentative', 'busy', 'oof', 'workingElsewhere']);
const Weekday = z.enum(['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA']);

const Attendee = z.object({
  email: z.string(),
  name: z.optional(z.string()),
  role: z.enum(['optional', 'required', 'chair', 'non-participant']),
  status: AttendeeStatus,
  rsvp: z.boolean(),
  kind: z.enum(['unknown', 'resource', 'individual', 'group', 'room']),
});

const Event = z.object({
  eventId: z.string(),
  calendarId: z.string(),
  uid: z.string(),
  version: z.number(),
  summary: z.string(),
  description: z.string(),
  location: z.string(),
  allDay: z.boolean(),
  start: z.number(),
  end: z.number(),
  startLocal: z.string(),
  endLocal: z.string(),
  timeZone: z.string(),
  organizer: z.nullable(z.object({ email: z.string(), name: z.optional(z.string()) })),
  attendees: z.array(Attendee),
  isOrganizer: z.boolean(),
  myStatus: z.nullable(AttendeeStatus),
  status: EventStatus,
  busyStatus: BusyStatus,
  sensitivity: z.enum(['normal', 'personal', 'private', 'confidential']),
  reminders: z.array(z.number()),
  categories: z.array(z.string()),
  url: z.nullable(z.string()),
  recurrence: z.nullable(
    z.object({
      freq: z.enum(['daily', 'weekly', 'monthly', 'yearly']),
      interval: z.number(),
      count: z.optional(z.number()),
      until: z.optional(z.string()),
      byDay: z.optional(z.array(z.object({ day: Weekday, nth: z.optional(z.number()) }))),
      byMonthDay: z.optional(z.array(z.number())),
      byMonth: z.optional(z.array(z.number())),
      bySetPos: z.optional(z.array(z.number())),
      weekStart: z.optional(Weekday),
    }),
  ),
  rrule: z.nullable(z.string()),
  exceptions: z.array(
    z.object({
      recurrenceId: z.number(),
      start: z.number(),
      end: z.number(),
      startLocal: z.string(),
      endLocal: z.string(),
      summary: z.string(),
      location: z.string(),
      status: EventStatus,
      myStatus: z.nullable(AttendeeStatus),
      /** The occurrence's own attendees, once one answered for it alone; else the series' hold. */
      attendees: z.optional(z.array(Attendee)),
    }),
  ),
  sequence: z.number(),
});

/** Who was mailed (invitations, updates, cancellations, answers); `error` when the send failed. */
const Notified = z.object({ sent: z.number(), error: z.optional(z.string()) });

const Occurrence = z.object({
  eventId: z.string(),
  calendarId: z.string(),
  recurrenceId: z.nullable(z.number()),
  start: z.number(),
  end: z.number(),
  allDay: z.boolean(),
  startDate: z.optional(z.string()),
  endDate: z.optional(z.string()),
  summary: z.string(),
  location: z.string(),
  status: EventStatus,
  busyStatus: BusyStatus,
  recurring: z.boolean(),
  isException: z.boolean(),
  isOrganizer: z.boolean(),
  attendees: z.number(),
  myStatus: z.nullable(AttendeeStatus),
});

const base = '/v1/orgs/:orgId/mail/mailboxes/:mailboxId';

export const responses: ResponseDocs = {
  [`GET ${base}/calendars`]: { 200: z.object({ calendars: z.array(Calendar) }) },
  [`POST ${base}/calendars`]: { 201: z.object({ calendar: Calendar }) },
  [`PATCH ${base}/calendars/:calendarId`]: { 200: z.object({ calendar: Calendar }) },
  [`DELETE ${base}/calendars/:calendarId`]: { 204: null },
  [`GET ${base}/events`]: { 200: z.object({ occurrences: z.array(Occurrence) }) },
  [`POST ${base}/calendars/:calendarId/events`]: { 201: z.object({ event: Event, notified: Notified }) },
  [`GET ${base}/calendars/:calendarId/events/:eventId`]: { 200: z.object({ event: Event }) },
  [`PUT ${base}/calendars/:calendarId/events/:eventId`]: {
    // cancelled: how many removed attendees were sent a cancellation.
    200: z.object({ event: Event, notified: Notified, cancelled: z.number() }),
  },
  [`DELETE ${base}/calendars/:calendarId/events/:eventId`]: { 204: null },
  [`POST ${base}/calendars/:calendarId/events/:eventId/respond`]: {
    200: z.object({ event: Event, notified: Notified }),
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
  // iCalendar text (text/calendar).
  [`GET ${base}/calendars/:calendarId/export`]: { 200: z.string() },
};
