import * as z from 'zod/mini';
import { shownMailbox } from '../../shared/domains/mail/admin';
import { unreadCounts } from '../../shared/domains/mail/labels';
import { listMailboxes, MAIL_MESSAGES, memberMailbox } from '../../shared/domains/mail/records';
import { updateSettings } from '../../shared/domains/mail/settings';
import { limitsOf } from '../../shared/domains/mail/usage';
import { forbidden } from '../../shared/kernel/ground/errors';
import { ok, route } from '../../shared/kernel/http/route';
import { Address, DisplayName, IfVersion, MailboxPath, OrgPath } from './schemas';

/** The refusals every route of one mailbox may answer. */
export const memberErrors = { 403: [MAIL_MESSAGES.membersOnly], 404: [MAIL_MESSAGES.mailboxNotFound] };

/** A mailbox's own routes serve its members (people); `org:read` lets every member role in. */
export const scope = 'org:read' as const;

export const mailboxRoutes = [
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/mail/mailboxes',
    scope,
    summary: "The caller's mailboxes, each with its unread INBOX threads.",
    params: OrgPath,
    errors: { 403: [MAIL_MESSAGES.membersOnly] },
    run: async ({ org, caller }) => {
      if (caller.kind !== 'user') throw forbidden(MAIL_MESSAGES.membersOnly);
      const mine = (await listMailboxes(org.orgId)).filter((m) => m.members.includes(caller.userId));
      const unread = await unreadCounts(mine.map((m) => m.mailboxId));
      return ok({
        mailboxes: mine.map((m, i) => ({ ...shownMailbox(m), settings: m.settings, unread: unread[i] ?? 0 })),
      });
    },
  }),

  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/mail/mailboxes/:mailboxId/limits',
    scope,
    summary:
      'Sending limits: message size (25 MB), recipients per message (100), the daily quota, sent today and when the count resets (UTC midnight).',
    params: MailboxPath,
    errors: memberErrors,
    run: async ({ org, caller, params }) => {
      const mailbox = await memberMailbox(org.orgId, params.mailboxId, caller);
      return ok({ limits: await limitsOf(mailbox.mailboxId) });
    },
  }),

  route({
    method: 'PATCH',
    path: '/v1/orgs/:orgId/mail/mailboxes/:mailboxId/settings',
    scope,
    summary:
      "The mailbox's display name, signature, vacation reply and VIP senders (whose mail raises mail.vip); `ifVersion` is the mailbox's version.",
    params: MailboxPath,
    body: z.object({
      displayName: z.optional(z.nullable(DisplayName)),
      signature: z.optional(z.nullable(z.string().check(z.maxLength(10_000)))),
      vacation: z.optional(
        z.nullable(
          z.object({
            enabled: z.boolean(),
            subject: z.string().check(z.maxLength(200), z.regex(/^[^\r\n]*$/, 'No line breaks.')),
            text: z.string().check(z.maxLength(10_000)),
            startsAt: z._default(z.nullable(z.number().check(z.int())), null),
            endsAt: z._default(z.nullable(z.number().check(z.int())), null),
          }),
        ),
      ),
      vipSenders: z.optional(z.array(Address).check(z.maxLength(100))),
      ifVersion: IfVersion,
    }),
    errors: { ...memberErrors, 409: [MAIL_MESSAGES.stale] },
    run: async ({ org, caller, params, body }) => {
      const m = await memberMailbox(org.orgId, params.mailboxId, caller);
      const updated = await updateSettings(org.orgId, m.mailboxId, body);
      return ok({ settings: updated.settings, version: updated.version });
    },
  }),
];
