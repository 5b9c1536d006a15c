import * as z from 'zod/mini';
import {
  createDraft,
  DRAFT_MESSAGES,
  deleteDraft,
  listDrafts,
  replaceDraft,
  requireDraft,
  shownDraft,
} from '../../shared/domains/mail/drafts';
import { checkRecipients } from '../../shared/domains/mail/recipients';
import { MAIL_MESSAGES, memberMailbox } from '../../shared/domains/mail/records';
import { SEND_MESSAGES, sendMessage } from '../../shared/domains/mail/send';
import { summaryOf } from '../../shared/domains/mail/threads';
import { ATTACHMENT_MESSAGES, createUpload } from '../../shared/domains/mail/uploads';
import { queryInt } from '../../shared/kernel/http/query';
import { created, noContent, ok, route } from '../../shared/kernel/http/route';
import { INVALID_CURSOR } from '../../shared/kernel/store/cursor';
import { memberErrors, scope } from './mailbox-routes';
import { Address, IfVersion, MailboxPath } from './schemas';
import { shownMessage } from './thread-routes';

const Id = z.string().check(z.minLength(1), z.maxLength(64));
const DraftPath = z.extend(MailboxPath, { draftId: Id });

/** A message's fields, as drafts keep them and send takes them. */
export const ComposeFields = {
  to: z._default(z.array(Address).check(z.maxLength(100)), []),
  cc: z._default(z.array(Address).check(z.maxLength(100)), []),
  bcc: z._default(z.array(Address).check(z.maxLength(100)), []),
  subject: z._default(z.string().check(z.maxLength(998)), ''),
  text: z._default(z.string().check(z.maxLength(5_000_000)), ''),
  html: z._default(z.nullable(z.string().check(z.maxLength(5_000_000))), null),
  attachments: z._default(
    z
      .array(
        z.union([
          z.object({ uploadId: Id }),
          z.object({ messageId: Id, index: z.number().check(z.int(), z.minimum(0), z.maximum(999)) }),
        ]),
      )
      .check(z.maxLength(50)),
    [],
  ),
  inReplyTo: z._default(z.nullable(Id), null),
};

export const composeRoutes = [
  route({
    method: 'POST',
    path: '/v1/orgs/:orgId/mail/mailboxes/:mailboxId/send',
    scope,
    summary:
      "Sends a message (a draft's fields, or `draftId`) from the mailbox's address or an alias: built by MailComposer, stored raw, filed in SENT, handed to the mail system. `rejected`: recipients it refused.",
    params: MailboxPath,
    body: z.object({ ...ComposeFields, from: z.optional(Address), draftId: z.optional(Id) }),
    errors: {
      400: [
        SEND_MESSAGES.noRecipients,
        SEND_MESSAGES.tooManyRecipients,
        SEND_MESSAGES.lineBreak,
        SEND_MESSAGES.badFrom,
        SEND_MESSAGES.replyNotFound,
        SEND_MESSAGES.partNotFound,
        SEND_MESSAGES.uploadNotFound('<uploadId>'),
        SEND_MESSAGES.refused('<addresses>'),
      ],
      403: memberErrors[403],
      404: [...memberErrors[404], DRAFT_MESSAGES.notFound],
      409: [MAIL_MESSAGES.domainRemoved, MAIL_MESSAGES.notVerified('<domain>')],
      413: [SEND_MESSAGES.tooLarge],
      429: [SEND_MESSAGES.quota],
    },
    run: async ({ org, caller, params, body }) => {
      const m = await memberMailbox(org.orgId, params.mailboxId, caller);
      const draft = body.draftId ? await requireDraft(m.mailboxId, body.draftId) : undefined;
      const sent = await sendMessage(m, draft ? { ...draft, from: body.from } : body);
      if (draft) await deleteDraft(m.mailboxId, draft.draftId);
      return ok({ message: shownMessage(sent.message), thread: summaryOf(sent.thread), rejected: sent.rejected });
    },
  }),

  route({
    method: 'POST',
    path: '/v1/orgs/:orgId/mail/mailboxes/:mailboxId/uploads',
    scope,
    summary:
      'A presigned PUT link (15 minutes) for one attachment, bound to its type and size; send or a draft names it by `uploadId`.',
    params: MailboxPath,
    body: z.object({
      filename: z
        .string()
        .check(z.trim(), z.minLength(1), z.maxLength(255), z.regex(/^[^\r\n/\\]+$/, 'No line breaks or slashes.')),
      contentType: z
        .string()
        .check(z.trim(), z.minLength(3), z.maxLength(255), z.regex(/^[\w.+-]+\/[\w.+-]+$/, 'A MIME type.')),
      size: z.number().check(z.int(), z.minimum(1)),
    }),
    errors: { ...memberErrors, 413: [ATTACHMENT_MESSAGES.tooLarge] },
    run: async ({ org, caller, params, body }) => {
      const m = await memberMailbox(org.orgId, params.mailboxId, caller);
      return created({ upload: await createUpload(m.mailboxId, body) });
    },
  }),

  route({
    method: 'POST',
    path: '/v1/orgs/:orgId/mail/mailboxes/:mailboxId/recipients/check',
    scope,
    summary:
      'Per address: well formed, a platform mailbox (internal), someone the mailbox exchanged mail with (contact), on the suppression list.',
    params: MailboxPath,
    body: z.object({ addresses: z.array(z.string().check(z.maxLength(320))).check(z.minLength(1), z.maxLength(100)) }),
    errors: memberErrors,
    run: async ({ org, caller, params, body }) => {
      const m = await memberMailbox(org.orgId, params.mailboxId, caller);
      return ok({ recipients: await checkRecipients(m.mailboxId, body.addresses) });
    },
  }),
  route({
    method: 'POST',
    path: '/v1/orgs/:orgId/mail/mailboxes/:mailboxId/drafts',
    scope,
    summary:
      'Saves a draft (to, cc, bcc, subject, text, html, attachments as upload ids or forwarded parts, inReplyTo).',
    params: MailboxPath,
    body: z.object(ComposeFields),
    errors: memberErrors,
    run: async ({ org, caller, params, body }) => {
      const m = await memberMailbox(org.orgId, params.mailboxId, caller);
      return created({ draft: shownDraft(await createDraft(m.mailboxId, body)) });
    },
  }),
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/mail/mailboxes/:mailboxId/drafts',
    scope,
    summary: "The mailbox's drafts (the Drafts folder), newest first, paged with `cursor`.",
    params: MailboxPath,
    query: z.object({ cursor: z.optional(z.string().check(z.maxLength(2000))), limit: queryInt(1, 100, 50) }),
    errors: { 400: [INVALID_CURSOR], ...memberErrors },
    run: async ({ org, caller, params, query }) => {
      const m = await memberMailbox(org.orgId, params.mailboxId, caller);
      const page = await listDrafts(m.mailboxId, query);
      return ok({ drafts: page.drafts.map(shownDraft), cursor: page.cursor });
    },
  }),
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/mail/mailboxes/:mailboxId/drafts/:draftId',
    scope,
    summary: 'A draft.',
    params: DraftPath,
    errors: { 403: memberErrors[403], 404: [...memberErrors[404], DRAFT_MESSAGES.notFound] },
    run: async ({ org, caller, params }) => {
      const m = await memberMailbox(org.orgId, params.mailboxId, caller);
      return ok({ draft: shownDraft(await requireDraft(m.mailboxId, params.draftId)) });
    },
  }),
  route({
    method: 'PUT',
    path: '/v1/orgs/:orgId/mail/mailboxes/:mailboxId/drafts/:draftId',
    scope,
    summary: "Replaces a draft's fields; `ifVersion`: 409 when it changed since it was read.",
    params: DraftPath,
    body: z.object({ ...ComposeFields, ifVersion: IfVersion }),
    errors: {
      403: memberErrors[403],
      404: [...memberErrors[404], DRAFT_MESSAGES.notFound],
      409: [DRAFT_MESSAGES.stale],
    },
    run: async ({ org, caller, params, body }) => {
      const m = await memberMailbox(org.orgId, params.mailboxId, caller);
      const { ifVersion, ...fields } = body;
      return ok({ draft: shownDraft(await replaceDraft(m.mailboxId, params.draftId, fields, ifVersion)) });
    },
  }),
  route({
    method: 'DELETE',
    path: '/v1/orgs/:orgId/mail/mailboxes/:mailboxId/drafts/:draftId',
    scope,
    summary: 'Deletes a draft.',
    params: DraftPath,
    errors: { 403: memberErrors[403], 404: [...memberErrors[404], DRAFT_MESSAGES.notFound] },
    run: async ({ org, caller, params }) => {
      const m = await memberMailbox(org.orgId, params.mailboxId, caller);
      await deleteDraft(m.mailboxId, params.draftId);
      return noContent();
    },
  }),
];
