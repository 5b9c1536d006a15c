import * as z from 'zod/mini';
import { acknowledge } from '../../shared/domains/notifications/acknowledge';
import { listNotices, markRead, NOTICE_MESSAGES } from '../../shared/domains/notifications/notices';
import { SettingsBody } from '../../shared/domains/notifications/schemas';
import { readSettings, writeSettings } from '../../shared/domains/notifications/settings';
import type { Caller } from '../../shared/kernel/auth/caller';
import { forbidden } from '../../shared/kernel/ground/errors';
import { queryInt } from '../../shared/kernel/http/query';
import { ok, route } from '../../shared/kernel/http/route';

/** The person calling, or 403: keys and devices have no notifications. */
function personOf(caller: Caller): string {
  if (caller.kind !== 'user') throw forbidden(NOTICE_MESSAGES.people);
  return caller.userId;
}

/** The caller's notices and settings (`/v1/me/notifications`). */
export const noticeRoutes = [
  route({
    method: 'GET',
    path: '/v1/me/notifications',
    access: 'token',
    summary: "The caller's notices, newest first, across organizations; pages of `limit` (1-100, default 50).",
    query: z.object({
      cursor: z.optional(z.string().check(z.maxLength(2000))),
      limit: queryInt(1, 100, 50),
    }),
    errors: { 400: ['Invalid page cursor. Run the request again.'], 403: [NOTICE_MESSAGES.people] },
    run: async ({ caller, query }) => ok(await listNotices(personOf(caller), query.limit, query.cursor)),
  }),
  route({
    method: 'POST',
    path: '/v1/me/notifications/read',
    access: 'token',
    summary: "Marks notices read; ids that are not the caller's are passed over.",
    body: z.object({
      noticeIds: z.array(z.string().check(z.minLength(1), z.maxLength(64))).check(z.minLength(1), z.maxLength(100)),
    }),
    errors: { 403: [NOTICE_MESSAGES.people] },
    run: async ({ caller, body }) => {
      await markRead(personOf(caller), body.noticeIds);
      return ok({ ok: true });
    },
  }),
  route({
    method: 'POST',
    path: '/v1/me/notifications/:noticeId/ack',
    access: 'token',
    summary:
      'Acknowledges a notice by its id (`nte_…`): its later escalation steps are not sent. `acked` is false when it already was.',
    params: z.object({ noticeId: z.string() }),
    errors: { 403: [NOTICE_MESSAGES.people], 404: [NOTICE_MESSAGES.notFound] },
    run: async ({ caller, params }) => {
      return ok({ acked: await acknowledge(personOf(caller), params.noticeId) });
    },
  }),
  route({
    method: 'GET',
    path: '/v1/me/notifications/settings',
    access: 'token',
    summary: "The caller's phone number for texts and calls, and quiet hours (none by default).",
    errors: { 403: [NOTICE_MESSAGES.people] },
    run: async ({ caller }) => ok({ settings: await readSettings(personOf(caller)) }),
  }),
  route({
    method: 'PUT',
    path: '/v1/me/notifications/settings',
    access: 'token',
    summary:
      'Replaces the settings: `phone` (E.164, or null: texts and calls go by email), `quietHours` ' +
      '({ start, end, timeZone }, or null): during them only in-app notices arrive, the rest wait for their end.',
    body: SettingsBody,
    errors: { 403: [NOTICE_MESSAGES.people] },
    run: async ({ caller, body }) => {
      const userId = personOf(caller);
      await writeSettings(userId, body);
      return ok({ settings: body });
    },
  }),
];
