import * as z from 'zod/mini';
import { ACTIONS, deleteLabel, MAIL_ACTION_MESSAGES, threadActions } from '../../shared/domains/mail/actions';
import { bodyOf } from '../../shared/domains/mail/body';
import {
  createLabel,
  isSystemLabel,
  LABEL_MESSAGES,
  labelNames,
  listLabels,
  requireUserLabel,
} from '../../shared/domains/mail/labels';
import { listThreads } from '../../shared/domains/mail/list';
import { getMessage, getMessages, type MessageRecord } from '../../shared/domains/mail/messages';
import { linkTo } from '../../shared/domains/mail/objects';
import { memberMailbox } from '../../shared/domains/mail/records';
import { getThread, summaryOf } from '../../shared/domains/mail/threads';
import { notFound } from '../../shared/kernel/ground/errors';
import { QueryInt, queryInt } from '../../shared/kernel/http/query';
import { created, noContent, ok, route } from '../../shared/kernel/http/route';
import { INVALID_CURSOR } from '../../shared/kernel/store/cursor';
import { memberErrors, scope } from './mailbox-routes';
import { MailboxPath } from './schemas';

export const MSG = { messageNotFound: 'Message not found', attachmentNotFound: 'Attachment not found' } as const;
const LINK_SECONDS = 300;

const Id = z.string().check(z.minLength(1), z.maxLength(64));
const ThreadPath = z.extend(MailboxPath, { threadId: Id });
const MessagePath = z.extend(MailboxPath, { messageId: Id });

/** A message as the thread shows it: headers, snippet, attachment list (bytes by link). */
const shownMessage = (m: MessageRecord) => ({
  messageId: m.messageId,
  threadId: m.threadId,
  direction: m.direction,
  from: m.from,
  to: m.to,
  cc: m.cc,
  bcc: m.bcc,
  replyTo: m.replyTo,
  subject: m.subject,
  date: m.date,
  headerId: m.headerId,
  inReplyTo: m.inReplyTo,
  references: m.references,
  snippet: m.snippet,
  size: m.size,
  attachments: m.attachments.map((a) => ({
    index: a.index,
    filename: a.filename,
    contentType: a.contentType,
    size: a.size,
    contentId: a.contentId,
    inline: a.inline,
  })),
});

export { shownMessage };

async function messageOf(mailboxId: string, messageId: string) {
  const m = await getMessage(mailboxId, messageId);
  if (!m) throw notFound(MSG.messageNotFound);
  return m;
}

export const threadRoutes = [
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/mail/mailboxes/:mailboxId/labels',
    scope,
    summary:
      "The mailbox's labels: system ones (INBOX, SENT, DRAFTS, SPAM, TRASH, STARRED) then the user's, each with its threads and unread threads.",
    params: MailboxPath,
    errors: memberErrors,
    run: async ({ org, caller, params }) => {
      const m = await memberMailbox(org.orgId, params.mailboxId, caller);
      return ok({ labels: await listLabels(m.mailboxId) });
    },
  }),
  route({
    method: 'POST',
    path: '/v1/orgs/:orgId/mail/mailboxes/:mailboxId/labels',
    scope,
    summary: 'Creates a user label, unique case-insensitively; `/` nests (`Work/Clients`).',
    params: MailboxPath,
    body: z.object({ name: z.string().check(z.maxLength(200)) }),
    errors: { ...memberErrors, 400: [LABEL_MESSAGES.badName, LABEL_MESSAGES.system], 409: [LABEL_MESSAGES.taken] },
    run: async ({ org, caller, params, body }) => {
      const m = await memberMailbox(org.orgId, params.mailboxId, caller);
      return created({ label: await createLabel(m.mailboxId, body.name) });
    },
  }),
  route({
    method: 'DELETE',
    path: '/v1/orgs/:orgId/mail/mailboxes/:mailboxId/labels/:labelId',
    scope,
    summary: 'Deletes a user label: taken off every thread, the mail kept. System labels are 400.',
    params: z.extend(MailboxPath, { labelId: Id }),
    errors: {
      400: [LABEL_MESSAGES.system],
      403: memberErrors[403],
      404: [...memberErrors[404], LABEL_MESSAGES.notFound],
    },
    run: async ({ org, caller, params }) => {
      const m = await memberMailbox(org.orgId, params.mailboxId, caller);
      await deleteLabel(m.mailboxId, params.labelId);
      return noContent();
    },
  }),
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/mail/mailboxes/:mailboxId/threads',
    scope,
    summary:
      'Threads of a label (default INBOX), newest first. `q`: from: to: subject: label: is:unread has:attachment before: after: (YYYY/MM/DD) and words.',
    params: MailboxPath,
    query: z.object({
      label: z._default(z.string().check(z.minLength(1), z.maxLength(64)), 'INBOX'),
      q: z.optional(z.string().check(z.maxLength(500))),
      cursor: z.optional(z.string().check(z.maxLength(2000))),
      limit: queryInt(1, 100, 50),
    }),
    errors: { 400: [INVALID_CURSOR], 403: memberErrors[403], 404: [...memberErrors[404], LABEL_MESSAGES.notFound] },
    run: async ({ org, caller, params, query }) => {
      const m = await memberMailbox(org.orgId, params.mailboxId, caller);
      // Label names only for a search that names labels (one more Query).
      const names = query.q?.toLowerCase().includes('label:')
        ? await labelNames(m.mailboxId)
        : new Map<string, string>();
      const label = isSystemLabel(query.label.toUpperCase()) ? query.label.toUpperCase() : query.label;
      if (!isSystemLabel(label)) await requireUserLabel(m.mailboxId, label);
      return ok(await listThreads(m.mailboxId, { ...query, label, labelNames: names }));
    },
  }),
  route({
    method: 'POST',
    path: '/v1/orgs/:orgId/mail/mailboxes/:mailboxId/threads/actions',
    scope,
    summary:
      'One action on 1-500 threads (read, unread, star, unstar, archive, trash, untrash, spam, notSpam, addLabels, removeLabels; delete from TRASH or SPAM only): one result per thread.',
    params: MailboxPath,
    body: z.object({
      threadIds: z.array(Id).check(z.minLength(1), z.maxLength(500)),
      action: z.enum(ACTIONS),
      labelIds: z._default(z.array(Id).check(z.maxLength(20)), []),
    }),
    errors: {
      ...memberErrors,
      400: [MAIL_ACTION_MESSAGES.labelsRequired, LABEL_MESSAGES.system],
      404: [...memberErrors[404], LABEL_MESSAGES.notFound],
    },
    run: async ({ org, caller, params, body }) => {
      const m = await memberMailbox(org.orgId, params.mailboxId, caller);
      return ok({ results: await threadActions(m.mailboxId, body.threadIds, body.action, body.labelIds) });
    },
  }),
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/mail/mailboxes/:mailboxId/threads/:threadId',
    scope,
    summary: 'A thread and its messages (headers, snippet, attachment list), oldest first.',
    params: ThreadPath,
    errors: { 403: memberErrors[403], 404: [...memberErrors[404], MAIL_ACTION_MESSAGES.threadNotFound] },
    run: async ({ org, caller, params }) => {
      const m = await memberMailbox(org.orgId, params.mailboxId, caller);
      const t = await getThread(m.mailboxId, params.threadId);
      if (!t) throw notFound(MAIL_ACTION_MESSAGES.threadNotFound);
      const messages = await getMessages(m.mailboxId, t.messageIds);
      return ok({ thread: summaryOf(t), messages: messages.map(shownMessage) });
    },
  }),
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/mail/mailboxes/:mailboxId/threads/:threadId/messages/:messageId/body',
    scope,
    summary:
      "A message's text and cleaned HTML (no scripts, handlers or forms; remote images blocked unless `images=1`; `cid:` parts as short-lived links).",
    params: z.extend(ThreadPath, { messageId: Id }),
    query: z.object({ images: z._default(z.enum(['0', '1']), '0') }),
    errors: { 403: memberErrors[403], 404: [...memberErrors[404], MSG.messageNotFound] },
    run: async ({ org, caller, params, query }) => {
      const m = await memberMailbox(org.orgId, params.mailboxId, caller);
      const msg = await messageOf(m.mailboxId, params.messageId);
      if (msg.threadId !== params.threadId) throw notFound(MSG.messageNotFound);
      return ok(await bodyOf(msg, query.images === '1'));
    },
  }),
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/mail/mailboxes/:mailboxId/messages/:messageId/attachments/:index',
    scope,
    summary: 'A presigned GET link (5 minutes) to one attachment, never its bytes.',
    params: z.extend(MessagePath, { index: z.pipe(QueryInt, z.int().check(z.minimum(0), z.maximum(999))) }),
    errors: { 403: memberErrors[403], 404: [...memberErrors[404], MSG.messageNotFound, MSG.attachmentNotFound] },
    run: async ({ org, caller, params }) => {
      const m = await memberMailbox(org.orgId, params.mailboxId, caller);
      const a = (await messageOf(m.mailboxId, params.messageId)).attachments[params.index];
      if (!a) throw notFound(MSG.attachmentNotFound);
      return ok({
        url: await linkTo(a.key, a.filename, LINK_SECONDS),
        filename: a.filename,
        contentType: a.contentType,
        size: a.size,
        expiresAt: Date.now() + LINK_SECONDS * 1000,
      });
    },
  }),
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/mail/mailboxes/:mailboxId/messages/:messageId/raw',
    scope,
    summary: 'A presigned GET link (5 minutes) to the message as received or sent (RFC 5322, `.eml`).',
    params: MessagePath,
    errors: { 403: memberErrors[403], 404: [...memberErrors[404], MSG.messageNotFound] },
    run: async ({ org, caller, params }) => {
      const m = await memberMailbox(org.orgId, params.mailboxId, caller);
      const msg = await messageOf(m.mailboxId, params.messageId);
      return ok({
        url: await linkTo(msg.rawKey, `${msg.messageId}.eml`, LINK_SECONDS),
        size: msg.size,
        expiresAt: Date.now() + LINK_SECONDS * 1000,
      });
    },
  }),
];
