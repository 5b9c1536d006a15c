import * as z from 'zod/mini';
import { DEVICE_MESSAGES, requireDevice } from '../../shared/domains/agents/devices';
import { CALENDAR_MESSAGES, calKeys, defaultCalendarId } from '../../shared/domains/calendar/records';
import { getMailbox, listMailboxes, MAIL_MESSAGES } from '../../shared/domains/mail/records';
import { stepTimer } from '../../shared/domains/notifications/deliver';
import { RESOURCE_TYPES, type ResourceType } from '../../shared/domains/notifications/kinds';
import { ackNotice, listNotices, markRead, NOTICE_MESSAGES } from '../../shared/domains/notifications/notices';
import {
  attach,
  createProtocol,
  deleteProtocol,
  detach,
  listProtocols,
  PROTOCOL_MESSAGES,
  replaceProtocol,
  requireProtocol,
  shownProtocol,
} from '../../shared/domains/notifications/protocols';
import { ProtocolBody, ResourceTypeSchema } from '../../shared/domains/notifications/schemas';
import { readSettings, writeSettings } from '../../shared/domains/notifications/settings';
import { TEMPLATES } from '../../shared/domains/notifications/templates';
import { getProject, PROJECT_NOT_FOUND } from '../../shared/domains/projects/records';
import { TRACKER_MESSAGES } from '../../shared/domains/tracker/records';
import { TK } from '../../shared/domains/tracker/store';
import type { Caller } from '../../shared/kernel/auth/caller';
import { callerId } from '../../shared/kernel/auth/caller';
import type { Role } from '../../shared/kernel/auth/scopes';
import { conflict, forbidden, invalid, notFound } from '../../shared/kernel/ground/errors';
import { queryInt } from '../../shared/kernel/http/query';
import { created, noContent, ok, route } from '../../shared/kernel/http/route';
import { getItem, getMany } from '../../shared/kernel/store/table';
import { E164 } from '../../shared/ports/phone/port';
import { scheduler } from '../../shared/ports/scheduler';

/** The person calling, or 403: keys and devices have no notifications. */
function personOf(caller: Caller): string {
  if (caller.kind !== 'user') throw forbidden(NOTICE_MESSAGES.people);
  return caller.userId;
}

const OrgPath = z.object({ orgId: z.string() });
const ProtocolPath = z.object({ orgId: z.string(), protocolId: z.string() });
const roles: { allow: Role[]; refusal: string } = {
  allow: ['owner', 'admin'],
  refusal: 'Only owners and admins can change notification protocols.',
};

const ID_PREFIX: Record<Exclude<ResourceType, 'org' | 'project' | 'agent'>, string> = {
  space: 'spc_',
  calendar: 'cal_',
  mailbox: 'mbx_',
};
const NOT_ATTACHABLE = {
  org: 'An org attachment names this organization.',
  project: PROJECT_NOT_FOUND,
  agent: DEVICE_MESSAGES.deviceNotFound,
  space: TRACKER_MESSAGES.spaceNotFound,
  mailbox: MAIL_MESSAGES.mailboxNotFound,
  calendar: CALENDAR_MESSAGES.calendarNotFound,
  prefix: 'The id does not name a resource of this type.',
} as const;

/** Whether a calendar of one of the organization's mailboxes has this id (a mailbox's default one exists with it). */
async function calendarExists(orgId: string, calendarId: string): Promise<boolean> {
  const mailboxes = await listMailboxes(orgId);
  if (mailboxes.some((m) => defaultCalendarId(m.mailboxId) === calendarId)) return true;
  const found = await getMany(mailboxes.map((m) => calKeys.calendar(m.mailboxId, calendarId)));
  return found.some((c) => c !== undefined);
}

/** What an attachment names exists in this organization: itself, or its project, device, space, mailbox or calendar. */
async function checkTarget(orgId: string, type: ResourceType, id: string): Promise<void> {
  if (type === 'org') {
    if (id !== orgId) throw invalid(NOT_ATTACHABLE.org);
    return;
  }
  if (type === 'project') {
    if (!(await getProject(orgId, id))) throw notFound(NOT_ATTACHABLE.project);
    return;
  }
  if (type === 'agent') {
    await requireDevice(orgId, id);
    return;
  }
  if (!id.startsWith(ID_PREFIX[type])) throw invalid(NOT_ATTACHABLE.prefix);
  const exists =
    type === 'space'
      ? (await getItem(TK.space(orgId, id))) !== undefined
      : type === 'mailbox'
        ? (await getMailbox(orgId, id)) !== undefined
        : await calendarExists(orgId, id);
  if (!exists) throw notFound(NOT_ATTACHABLE[type]);
}

const QuietHours = z.object({
  start: z.string().check(z.regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'start is HH:MM.')),
  end: z.string().check(z.regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'end is HH:MM.')),
  timeZone: z.string().check(
    z.maxLength(64),
    z.refine((tz) => {
      try {
        new Intl.DateTimeFormat('en', { timeZone: tz });
        return true;
      } catch {
        return false;
      }
    }, 'Unknown time zone.'),
  ),
});

export const routes = [
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
      const { acked, notice } = await ackNotice(personOf(caller), params.noticeId);
      if (acked) {
        // Best effort: a timer that still runs finds the notice acknowledged and sends nothing.
        const later = notice.steps.map((_, n) => n).filter((n) => n > notice.escalationStep);
        await Promise.allSettled(later.map((n) => scheduler().cancel(stepTimer(notice.noticeId, n))));
      }
      return ok({ acked });
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
    body: z.object({
      phone: z.nullable(z.string().check(z.regex(E164, 'phone is an E.164 number, e.g. +4915112345678.'))),
      quietHours: z.nullable(QuietHours),
    }),
    errors: { 403: [NOTICE_MESSAGES.people] },
    run: async ({ caller, body }) => {
      const userId = personOf(caller);
      await writeSettings(userId, body);
      return ok({ settings: body });
    },
  }),
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/notify/protocols/templates',
    access: 'token',
    summary: 'The protocol templates a protocol can be made from (`{ template }`).',
    params: OrgPath,
    run: async () => ok({ templates: TEMPLATES }),
  }),
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/notify/protocols',
    scope: 'org:read',
    summary: "The organization's notification protocols, oldest first.",
    params: OrgPath,
    read: async ({ orgId }) => ({ protocols: (await listProtocols(orgId)).map(shownProtocol) }),
  }),
  route({
    method: 'POST',
    path: '/v1/orgs/:orgId/notify/protocols',
    scope: 'org:write',
    roles,
    summary:
      'Creates a protocol: `{ template }` copies a template, else `{ name, description?, enabled?, rules }`. ' +
      'A protocol attached nowhere holds for the whole organization.',
    params: OrgPath,
    body: z.union([z.object({ template: z.string().check(z.maxLength(64)) }), ProtocolBody]),
    errors: { 400: [PROTOCOL_MESSAGES.unknownTemplate, PROTOCOL_MESSAGES.tooMany] },
    run: async ({ org, body, caller }) => {
      let input: z.infer<typeof ProtocolBody>;
      if ('template' in body) {
        const t = TEMPLATES.find((x) => x.id === body.template);
        if (!t) throw invalid(PROTOCOL_MESSAGES.unknownTemplate);
        input = { name: t.name, description: t.description, enabled: true, rules: t.rules };
      } else input = body;
      return created({ protocol: shownProtocol(await createProtocol(org.orgId, input, callerId(caller))) });
    },
  }),
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/notify/protocols/:protocolId',
    scope: 'org:read',
    summary: 'A protocol with its rules and attachments.',
    params: ProtocolPath,
    errors: { 404: [PROTOCOL_MESSAGES.notFound] },
    run: async ({ org, params }) =>
      ok({ protocol: shownProtocol(await requireProtocol(org.orgId, params.protocolId)) }),
  }),
  route({
    method: 'PUT',
    path: '/v1/orgs/:orgId/notify/protocols/:protocolId',
    scope: 'org:write',
    roles,
    summary: 'Replaces a protocol (attachments stay); with `ifVersion`, only if it is still that version.',
    params: ProtocolPath,
    body: z.extend(ProtocolBody, { ifVersion: z.optional(z.int()) }),
    errors: { 404: [PROTOCOL_MESSAGES.notFound], 409: [PROTOCOL_MESSAGES.changed] },
    run: async ({ org, params, body }) => {
      const p = await requireProtocol(org.orgId, params.protocolId, true);
      const { ifVersion, ...input } = body;
      if (ifVersion !== undefined && ifVersion !== p.version) throw conflict(PROTOCOL_MESSAGES.changed);
      return ok({ protocol: shownProtocol(await replaceProtocol(p, input, ifVersion)) });
    },
  }),
  route({
    method: 'DELETE',
    path: '/v1/orgs/:orgId/notify/protocols/:protocolId',
    scope: 'org:write',
    roles,
    summary: 'Deletes a protocol and its attachments.',
    params: ProtocolPath,
    errors: { 404: [PROTOCOL_MESSAGES.notFound] },
    run: async ({ org, params }) => {
      await deleteProtocol(await requireProtocol(org.orgId, params.protocolId, true));
      return noContent();
    },
  }),
  route({
    method: 'POST',
    path: '/v1/orgs/:orgId/notify/protocols/:protocolId/attachments',
    scope: 'org:write',
    roles,
    summary:
      'Attaches a resource: its events follow this protocol (and not the organization-wide ones). ' +
      '`org` names this organization; a project, device, space (`spc_` id), mailbox or calendar must be one of ' +
      'the organization.',
    params: ProtocolPath,
    body: z.object({
      type: ResourceTypeSchema,
      id: z.string().check(z.minLength(1), z.maxLength(128)),
      label: z.optional(z.string().check(z.maxLength(120))),
    }),
    errors: {
      400: [NOT_ATTACHABLE.org, NOT_ATTACHABLE.prefix, PROTOCOL_MESSAGES.tooManyAttachments],
      404: [
        PROTOCOL_MESSAGES.notFound,
        NOT_ATTACHABLE.project,
        NOT_ATTACHABLE.agent,
        NOT_ATTACHABLE.space,
        NOT_ATTACHABLE.mailbox,
        NOT_ATTACHABLE.calendar,
      ],
      409: [PROTOCOL_MESSAGES.changed],
    },
    run: async ({ org, params, body }) => {
      const p = await requireProtocol(org.orgId, params.protocolId, true);
      await checkTarget(org.orgId, body.type, body.id);
      await attach(p, {
        resourceType: body.type,
        resourceId: body.id,
        ...(body.label !== undefined ? { resourceLabel: body.label } : {}),
      });
      return created({ ok: true });
    },
  }),
  route({
    method: 'DELETE',
    path: '/v1/orgs/:orgId/notify/protocols/:protocolId/attachments/:resourceType/:targetId',
    scope: 'org:write',
    roles,
    summary: 'Detaches a resource.',
    params: z.object({ orgId: z.string(), protocolId: z.string(), resourceType: z.string(), targetId: z.string() }),
    errors: {
      400: [PROTOCOL_MESSAGES.unknownType],
      404: [PROTOCOL_MESSAGES.notFound, PROTOCOL_MESSAGES.attachmentNotFound],
      409: [PROTOCOL_MESSAGES.changed],
    },
    run: async ({ org, params }) => {
      const type = params.resourceType as ResourceType;
      if (!RESOURCE_TYPES.includes(type)) throw invalid(PROTOCOL_MESSAGES.unknownType);
      await detach(await requireProtocol(org.orgId, params.protocolId, true), type, params.targetId);
      return noContent();
    },
  }),
];
