import * as z from 'zod/mini';

/**
 * The records the calendar routes answer, each declared once and registered by its id: lib/openapi.ts names them
 * in `components.schemas`, the typed client declares a type of each. Only documentation
 * (functions/<group>/responses.ts) imports these values, so they stay out of the Lambda bundles; code
 * imports their types.
 */

export const Calendar = z
  .object({
    calendarId: z.string(),
    name: z.string(),
    color: z.enum(['blue', 'orange', 'teal', 'amber', 'pink', 'green', 'red', 'gray']),
    description: z.string(),
    isDefault: z.boolean(),
    version: z.number(),
  })
  .register(z.globalRegistry, { id: 'Calendar' });
export type Calendar = z.output<typeof Calendar>;

export const AttendeeStatus = z.enum(['accepted', 'tentative', 'needs-action', 'declined', 'delegated']);

export const EventStatus = z.enum(['confirmed', 'tentative', 'cancelled']);

export const BusyStatus = z.enum(['free', 'tentative', 'busy', 'oof', 'workingElsewhere']);

export const Weekday = z.enum(['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA']);

export const Attendee = z
  .object({
    email: z.string(),
    name: z.optional(z.string()),
    role: z.enum(['optional', 'required', 'chair', 'non-participant']),
    status: AttendeeStatus,
    rsvp: z.boolean(),
    kind: z.enum(['unknown', 'resource', 'individual', 'group', 'room']),
  })
  .register(z.globalRegistry, { id: 'Attendee' });
export type Attendee = z.output<typeof Attendee>;

export const CalendarEvent = z
  .object({
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
  })
  .register(z.globalRegistry, { id: 'CalendarEvent' });
export type CalendarEvent = z.output<typeof CalendarEvent>;

/** Who was mailed (invitations, updates, cancellations, answers); `error` when the send failed. */
export const CalendarNotified = z
  .object({ sent: z.number(), error: z.optional(z.string()) })
  .register(z.globalRegistry, { id: 'CalendarNotified' });
export type CalendarNotified = z.output<typeof CalendarNotified>;

export const Occurrence = z
  .object({
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
  })
  .register(z.globalRegistry, { id: 'Occurrence' });
export type Occurrence = z.output<typeof Occurrence>;

export const base = '/v1/orgs/:orgId/mail/mailboxes/:mailboxId';
