import * as z from 'zod/mini';
import {
  CALENDAR_MESSAGES,
  COLORS,
  createCalendar,
  deleteCalendar,
  getEvent,
  listCalendars,
  shownCalendar,
  shownEvent,
  updateCalendar,
} from '../../shared/domains/calendar/records';
import { MAIL_MESSAGES, memberMailbox } from '../../shared/domains/mail/records';
import { invalid } from '../../shared/kernel/ground/errors';
import { QueryInt } from '../../shared/kernel/http/query';
import { created, noContent, ok, route } from '../../shared/kernel/http/route';
import { oneLine, plainText } from '../../shared/kernel/http/text-checks';
import { CreateBody, UpdateBody } from './bodies';
import { feedRoutes } from './feeds';

/**
 * The calendar group: a mailbox's calendars and events (spec part C, "Calendar"). Every route
 * serves the mailbox's members only (keys and others get 403). Expansion, iCalendar and
 * invitations load with the first route that needs them (out of the group's cold start).
 */
const service = () => import('../../shared/domains/calendar/events');
const transfer = () => import('../../shared/domains/calendar/transfer');

const MAX_WINDOW = 400 * 86_400_000;

const members = { 403: [MAIL_MESSAGES.membersOnly], 404: [MAIL_MESSAGES.mailboxNotFound] };
const withCalendar = {
  403: [MAIL_MESSAGES.membersOnly],
  404: [MAIL_MESSAGES.mailboxNotFound, CALENDAR_MESSAGES.calendarNotFound],
};
const withEvent = {
  403: [MAIL_MESSAGES.membersOnly],
  404: [MAIL_MESSAGES.mailboxNotFound, CALENDAR_MESSAGES.calendarNotFound, CALENDAR_MESSAGES.eventNotFound],
};
const sending = [MAIL_MESSAGES.domainRemoved, MAIL_MESSAGES.notVerified('<domain>')];

const Id = z.string().check(z.minLength(1), z.maxLength(64));
const MailboxPath = z.object({ orgId: z.string(), mailboxId: Id });
const CalendarPath = z.object({ orgId: z.string(), mailboxId: Id, calendarId: Id });
const EventPath = z.object({ orgId: z.string(), mailboxId: Id, calendarId: Id, eventId: Id });

const Name = z.string().check(z.trim(), z.minLength(1), z.maxLength(100), oneLine);
const Color = z.enum(COLORS);
const Description = z.string().check(z.maxLength(1000), plainText);

export const routes = [
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/mail/mailboxes/:mailboxId/calendars',
    scope: 'calendar:read',
    summary: "The mailbox's calendars, the default first (created with the first read).",
    params: MailboxPath,
    errors: members,
    run: async ({ org, caller, params }) => {
      const m = await memberMailbox(org.orgId, params.mailboxId, caller);
      return ok({ calendars: (await listCalendars(m.mailboxId)).map(shownCalendar) });
    },
  }),

  route({
    method: 'POST',
    path: '/v1/orgs/:orgId/mail/mailboxes/:mailboxId/calendars',
    scope: 'calendar:write',
    summary: 'Creates a calendar (at most 50 a mailbox, the default included).',
    params: MailboxPath,
    body: z.object({ name: Name, color: z.optional(Color), description: z.optional(Description) }),
    errors: { ...members, 409: [CALENDAR_MESSAGES.tooMany] },
    run: async ({ org, caller, params, body }) => {
      const m = await memberMailbox(org.orgId, params.mailboxId, caller);
      return created({ calendar: shownCalendar(await createCalendar(m.mailboxId, body)) });
    },
  }),

  route({
    method: 'PATCH',
    path: '/v1/orgs/:orgId/mail/mailboxes/:mailboxId/calendars/:calendarId',
    scope: 'calendar:write',
    summary: "Changes a calendar's name, color or description.",
    params: CalendarPath,
    body: z.object({ name: z.optional(Name), color: z.optional(Color), description: z.optional(Description) }),
    errors: withCalendar,
    run: async ({ org, caller, params, body }) => {
      const m = await memberMailbox(org.orgId, params.mailboxId, caller);
      return ok({ calendar: shownCalendar(await updateCalendar(m.mailboxId, params.calendarId, body)) });
    },
  }),

  route({
    method: 'DELETE',
    path: '/v1/orgs/:orgId/mail/mailboxes/:mailboxId/calendars/:calendarId',
    scope: 'calendar:write',
    summary: 'Deletes a calendar with its events (nobody is emailed); the default calendar stays.',
    params: CalendarPath,
    errors: { ...withCalendar, 400: [CALENDAR_MESSAGES.defaultUndeletable] },
    run: async ({ org, caller, params }) => {
      const m = await memberMailbox(org.orgId, params.mailboxId, caller);
      await deleteCalendar(m.mailboxId, params.calendarId);
      return noContent();
    },
  }),

  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/mail/mailboxes/:mailboxId/events',
    scope: 'calendar:read',
    summary:
      'Occurrences in [from, to) (UTC ms, at most 400 days), of every calendar or those of `calendarId` (comma-separated), sorted by start: series expanded in their own zone, changed occurrences and deleted ones applied.',
    params: MailboxPath,
    query: z.object({
      from: QueryInt,
      to: QueryInt,
      calendarId: z.optional(z.string().check(z.maxLength(2000))),
    }),
    errors: { ...members, 400: [CALENDAR_MESSAGES.window, CALENDAR_MESSAGES.tooManyOccurrences] },
    run: async ({ org, caller, params, query }) => {
      const m = await memberMailbox(org.orgId, params.mailboxId, caller);
      if (query.to <= query.from || query.to - query.from > MAX_WINDOW) throw invalid(CALENDAR_MESSAGES.window);
      const ids = query.calendarId
        ?.split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      const { listOccurrences } = await service();
      return ok({ occurrences: await listOccurrences(m.mailboxId, query.from, query.to, ids?.length ? ids : null) });
    },
  }),

  route({
    method: 'POST',
    path: '/v1/orgs/:orgId/mail/mailboxes/:mailboxId/calendars/:calendarId/events',
    scope: 'calendar:write',
    summary:
      'Creates an event: wall-clock start and end in an IANA timeZone (a time in a DST gap moves forward, an ambiguous one takes the first), an optional repeat rule; attendees are invited by mail unless notify is false.',
    params: CalendarPath,
    body: CreateBody,
    errors: { ...withCalendar, 409: sending },
    run: async ({ org, caller, params, body }) => {
      const m = await memberMailbox(org.orgId, params.mailboxId, caller);
      const { createEvent } = await service();
      const { event, notified } = await createEvent(m, params.calendarId, body);
      return created({ event: shownEvent(event), notified });
    },
  }),

  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/mail/mailboxes/:mailboxId/calendars/:calendarId/events/:eventId',
    scope: 'calendar:read',
    summary: 'An event (a series with its changed occurrences).',
    params: EventPath,
    errors: withEvent,
    run: async ({ org, caller, params }) => {
      const m = await memberMailbox(org.orgId, params.mailboxId, caller);
      return ok({ event: shownEvent(await getEvent(m.mailboxId, params.eventId, params.calendarId)) });
    },
  }),

  route({
    method: 'PUT',
    path: '/v1/orgs/:orgId/mail/mailboxes/:mailboxId/calendars/:calendarId/events/:eventId',
    scope: 'calendar:write',
    summary:
      'Changes an event (fields left out are kept) or, with recurrenceId (its original start), one occurrence. A new time or rule drops changed occurrences, raises sequence and asks attendees again; attendees get the update, removed ones a cancellation. moveTo: another calendar of the mailbox.',
    params: EventPath,
    body: UpdateBody,
    errors: { ...withEvent, 409: [CALENDAR_MESSAGES.stale, ...sending] },
    run: async ({ org, caller, params, body }) => {
      const m = await memberMailbox(org.orgId, params.mailboxId, caller);
      const { updateEvent } = await service();
      const { event, notified, cancelled } = await updateEvent(m, params.calendarId, params.eventId, body);
      return ok({ event: shownEvent(event), notified, cancelled });
    },
  }),

  route({
    method: 'DELETE',
    path: '/v1/orgs/:orgId/mail/mailboxes/:mailboxId/calendars/:calendarId/events/:eventId',
    scope: 'calendar:write',
    summary:
      'Deletes an event, or one occurrence with `recurrenceId`; attendees get a cancellation unless `notify=false`.',
    params: EventPath,
    query: z.object({
      recurrenceId: z.optional(QueryInt),
      notify: z.optional(z.enum(['true', 'false'])),
    }),
    errors: { ...withEvent, 409: sending },
    run: async ({ org, caller, params, query }) => {
      const m = await memberMailbox(org.orgId, params.mailboxId, caller);
      const { deleteEvent } = await service();
      await deleteEvent(m, params.calendarId, params.eventId, {
        recurrenceId: query.recurrenceId,
        notify: query.notify !== 'false',
      });
      return noContent();
    },
  }),

  route({
    method: 'POST',
    path: '/v1/orgs/:orgId/mail/mailboxes/:mailboxId/calendars/:calendarId/events/:eventId/respond',
    scope: 'calendar:write',
    summary:
      "Answers an invitation (the series, or one occurrence with recurrenceId): sets myStatus and mails the organizer a REPLY. 400 on the mailbox's own event.",
    params: EventPath,
    body: z.object({
      status: z.enum(['accepted', 'tentative', 'declined']),
      recurrenceId: z.optional(z.number().check(z.int())),
      comment: z.optional(z.string().check(z.maxLength(2000))),
    }),
    errors: { ...withEvent, 400: [CALENDAR_MESSAGES.ownEvent], 409: sending },
    run: async ({ org, caller, params, body }) => {
      const m = await memberMailbox(org.orgId, params.mailboxId, caller);
      const { respond } = await service();
      const { event, notified } = await respond(m, params.calendarId, params.eventId, body);
      return ok({ event: shownEvent(event), notified });
    },
  }),

  route({
    method: 'POST',
    path: '/v1/orgs/:orgId/mail/mailboxes/:mailboxId/calendars/:calendarId/import',
    scope: 'calendar:write',
    summary:
      'Imports an iCalendar file, 200 events a call. Start with `content` (the file, up to 4 MB) or `size` ' +
      '(bytes, up to 50 MB: the answer holds an `upload` link to PUT the file to); then, while `done` is false, ' +
      'call again with `{ next }`. Each answer counts what that call `imported`, `updated` (a UID the mailbox ' +
      'knows: that event, brought to this calendar) and `skipped`, with `warnings` (RDATE, RANGE=THISANDFUTURE, ' +
      'VTODO, unknown zones). Nobody is emailed.',
    params: CalendarPath,
    body: z.object({
      content: z.optional(z.string().check(z.minLength(1))),
      size: z.optional(z.int().check(z.minimum(1))),
      next: z.optional(z.string().check(z.minLength(1), z.maxLength(2000))),
    }),
    errors: {
      ...withCalendar,
      400: ['Send one of `content`, `size` or `next`.', 'Invalid import token. Start the import again.'],
      413: ['An import body can hold at most 4 MB of iCalendar: upload a larger file (send its `size`).'],
    },
    run: async ({ org, caller, params, body }) => {
      const m = await memberMailbox(org.orgId, params.mailboxId, caller);
      const t = await transfer();
      const given = [body.content, body.size, body.next].filter((x) => x !== undefined).length;
      if (given !== 1) throw invalid(t.CALENDAR_TRANSFER_MESSAGES.oneSource);
      if (body.content !== undefined) return ok(await t.importContent(m, params.calendarId, body.content));
      if (body.size !== undefined) return ok(await t.importUpload(m, params.calendarId, body.size));
      return ok(await t.importNext(m, params.calendarId, body.next as string));
    },
  }),

  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/mail/mailboxes/:mailboxId/calendars/:calendarId/export',
    scope: 'calendar:read',
    summary:
      'The calendar as an iCalendar file (`text/calendar`): a VTIMEZONE per zone, series with RRULE and EXDATE, ' +
      'changed occurrences as RECURRENCE-ID events, all-day events as dates. A file over 4 MB, or any with ' +
      '`link=true`, answers 303 to a link to it (5 minutes) instead.',
    params: CalendarPath,
    query: z.object({ link: z.optional(z.enum(['true', 'false'])) }),
    errors: withCalendar,
    run: async ({ org, caller, params, query }) => {
      const m = await memberMailbox(org.orgId, params.mailboxId, caller);
      const t = await transfer();
      const text = await t.exportIcs(m, params.calendarId);
      if (query.link === 'true' || Buffer.byteLength(text) > t.MAX_INLINE_EXPORT_BYTES) {
        return { status: 303, headers: { location: await t.exportLink(m, params.calendarId, text) } };
      }
      return ok(text, { 'content-type': t.ICS_TYPE, 'content-disposition': 'attachment; filename="calendar.ics"' });
    },
  }),
  ...feedRoutes,
];
