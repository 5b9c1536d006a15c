import * as z from 'zod/mini';
import { RecurrenceSchema } from '../../shared/domains/calendar/records';

/* The event bodies the calendar routes take (a create needs start, end and time zone). */

const Int = (min: number, max: number) => z.number().check(z.int(), z.minimum(min), z.maximum(max));
const Local = z.string().check(z.maxLength(19));
const Attendee = z.object({
  email: z
    .string()
    .check(
      z.trim(),
      z.toLowerCase(),
      z.maxLength(254),
      z.regex(/^[^\s@<>(),;:"[\]\\]+@[^\s@<>(),;:"[\]\\]+\.[^\s@<>(),;:"[\]\\]+$/, 'Not an email address.'),
    ),
  name: z.optional(z.string().check(z.maxLength(200), z.regex(/^[^\r\n]*$/, 'No line breaks.'))),
  optional: z.optional(z.boolean()),
});
const EventStatus = z.enum(['confirmed', 'tentative', 'cancelled']);

/** The event body: every field optional (a create checks start, end and timeZone are there). */
const eventFields = {
  summary: z.optional(z.string().check(z.trim(), z.maxLength(1000))),
  description: z.optional(z.string().check(z.maxLength(64_000))),
  location: z.optional(z.string().check(z.maxLength(2000))),
  allDay: z.optional(z.boolean()),
  start: z.optional(Local),
  end: z.optional(Local),
  timeZone: z.optional(z.string().check(z.minLength(1), z.maxLength(64))),
  recurrence: z.optional(z.nullable(RecurrenceSchema)),
  attendees: z.optional(z.array(Attendee).check(z.maxLength(200))),
  busyStatus: z.optional(z.enum(['free', 'tentative', 'busy', 'oof', 'workingElsewhere'])),
  sensitivity: z.optional(z.enum(['normal', 'personal', 'private', 'confidential'])),
  reminders: z.optional(z.array(Int(-10080, 40320)).check(z.maxLength(5))),
  categories: z.optional(z.array(z.string().check(z.minLength(1), z.maxLength(100))).check(z.maxLength(30))),
  url: z.optional(
    z.nullable(z.string().check(z.maxLength(2000), z.regex(/^https?:\/\/\S+$/i, 'url must be an http(s) URL.'))),
  ),
  status: z.optional(EventStatus),
  notify: z.optional(z.boolean()),
};
export const CreateBody = z.object({
  ...eventFields,
  start: Local,
  end: Local,
  timeZone: z.string().check(z.minLength(1), z.maxLength(64)),
});
export const UpdateBody = z.object({
  ...eventFields,
  recurrenceId: z.optional(z.number().check(z.int())),
  ifVersion: z.optional(z.number().check(z.int(), z.minimum(0))),
  moveTo: z.optional(z.unknown()),
});
