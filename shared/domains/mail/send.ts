import { DomainError, invalid } from '../../kernel/ground/errors';
import { newId } from '../../kernel/store/ids';
import { PREFIXES } from '../../kernel/store/keys';
import { getItem } from '../../kernel/store/table';
import { mail } from '../../ports/mail-transport';
import { snippetOf, storeParsed } from './deliver';
import { requireSendingDomain } from './domains';
import { fileMessage, getMessage, type MessageRecord } from './messages';
import { getObject } from './objects';
import { domainOf, type MailboxRecord } from './records';
import type { Party, Thread } from './threads';
import { LIMITS, sentToday } from './usage';

/** What a message to send (or a draft) holds. */
export interface Compose {
  to: string[];
  cc: string[];
  bcc: string[];
  subject: string;
  text: string;
  html: string | null;
  /** Upload ids (`upl_`), or parts of the mailbox's messages being forwarded. */
  attachments: ({ uploadId: string } | { messageId: string; index: number })[];
  /** The mailbox's message this answers (`msg_`): threads and references follow it. */
  inReplyTo: string | null;
}

export const SEND_MESSAGES = {
  noRecipients: 'Add at least one recipient.',
  tooManyRecipients: `A message can have at most ${LIMITS.recipients} recipients.`,
  lineBreak: 'Headers cannot contain line breaks.',
  badFrom: "from must be the mailbox's address or one of its aliases.",
  tooLarge: 'Messages can be at most 25 MB.',
  quota: 'The daily sending quota is used up. It resets at midnight UTC.',
  uploadNotFound: (id: string) => `Upload ${id} not found or not uploaded yet.`,
  partNotFound: 'A forwarded attachment was not found.',
  replyNotFound: 'The message answered was not found.',
  refused: (who: string) => `Every recipient was refused: ${who}`,
} as const;

/** An upload: a presigned PUT's object, owned by the mailbox (`MBX#<mailboxId>` / `U#<uploadId>`). */
export interface Upload {
  uploadId: string;
  key: string;
  filename: string;
  contentType: string;
  size: number;
  expiresAt: number;
}
export const uploadKey = (mailboxId: string, uploadId: string) => ({
  pk: `${PREFIXES.mail.mailbox}${mailboxId}`,
  sk: `${PREFIXES.mail.upload}${uploadId}`,
});

const hasBreak = (s: string) => /[\r\n]/.test(s);

/** The display form of the sender: the mailbox's display name, else its name. */
const sender = (mailbox: MailboxRecord, address: string) => ({
  name: mailbox.settings.displayName ?? mailbox.name,
  address,
});

/**
 * Sends a message from a mailbox: checked (recipients, headers, the domain, size, the daily
 * quota), built by nodemailer's MailComposer, stored raw, filed in SENT of its thread, then handed
 * to the mail port (SES raw send; locally SMTP to the local server). Answers the message, its
 * thread, and recipients the mail system refused.
 */
export async function sendMessage(
  mailbox: MailboxRecord,
  input: Compose & { from?: string },
): Promise<{ message: MessageRecord; thread: Thread; rejected: string[] }> {
  const from = (input.from ?? mailbox.address).toLowerCase();
  if (from !== mailbox.address && !mailbox.aliases.includes(from)) throw invalid(SEND_MESSAGES.badFrom);
  const recipients = [...input.to, ...input.cc, ...input.bcc];
  if (recipients.length === 0) throw invalid(SEND_MESSAGES.noRecipients);
  if (recipients.length > LIMITS.recipients) throw invalid(SEND_MESSAGES.tooManyRecipients);
  if (hasBreak(input.subject) || recipients.some(hasBreak)) throw invalid(SEND_MESSAGES.lineBreak);
  await requireSendingDomain(mailbox.orgId, domainOf(from));
  if ((await sentToday(mailbox.mailboxId)) >= LIMITS.dailyQuota)
    throw new DomainError('throttled', SEND_MESSAGES.quota);

  const answered = input.inReplyTo ? await getMessage(mailbox.mailboxId, input.inReplyTo) : undefined;
  if (input.inReplyTo && !answered) throw invalid(SEND_MESSAGES.replyNotFound);
  const files = await attachmentsOf(mailbox.mailboxId, input.attachments);
  const now = Date.now();
  const messageId = newId('msg_', now);
  const headerId = `${messageId}@${domainOf(from)}`;
  const references = answered ? [...answered.references, answered.headerId] : [];
  // Loaded with the first send (out of the mail group's cold start).
  const { default: MailComposer } = await import('nodemailer/lib/mail-composer');
  const raw = await new MailComposer({
    from: sender(mailbox, from),
    to: input.to,
    cc: input.cc,
    bcc: input.bcc,
    subject: input.subject,
    text: input.text,
    ...(input.html ? { html: input.html } : {}),
    attachments: files.map((f) => ({ filename: f.filename, contentType: f.contentType, content: f.content })),
    messageId: `<${headerId}>`,
    date: new Date(now),
    ...(answered ? { inReplyTo: `<${answered.headerId}>`, references: references.map((r) => `<${r}>`) } : {}),
  })
    .compile()
    .build();
  if (raw.length > LIMITS.messageBytes) throw new DomainError('tooLarge', SEND_MESSAGES.tooLarge);

  const sent = await mail()
    .sendRaw({ from, to: recipients, raw })
    .catch((err: Error & { rejected?: unknown }) => {
      if (Array.isArray(err.rejected) && err.rejected.length > 0)
        throw invalid(SEND_MESSAGES.refused(err.rejected.join(', ')));
      throw err;
    });
  const stored = await storeParsed(mailbox.mailboxId, messageId, raw);
  const party = (a: string): Party => ({ name: '', address: a.toLowerCase() });
  const message: Omit<MessageRecord, 'threadId'> = {
    messageId,
    direction: 'out',
    from: sender(mailbox, from),
    to: input.to.map(party),
    cc: input.cc.map(party),
    bcc: input.bcc.map(party),
    replyTo: [],
    subject: input.subject,
    date: now,
    headerId,
    inReplyTo: answered?.headerId ?? null,
    references,
    snippet: snippetOf(input.text, input.html ?? undefined),
    size: raw.length,
    rawKey: stored.rawKey,
    bodyKey: stored.bodyKey,
    attachments: stored.attachments,
    createdAt: now,
  };
  const own = new Set([mailbox.address, ...mailbox.aliases]);
  const filed = await fileMessage({
    mailboxId: mailbox.mailboxId,
    message,
    threadId: answered?.threadId,
    newThreadId: newId('thr_', now),
    labels: ['SENT'],
    unread: false,
    participants: recipients.map((r) => r.toLowerCase()).filter((r) => !own.has(r)),
  });
  return { ...filed, rejected: sent.rejected };
}

async function attachmentsOf(mailboxId: string, list: Compose['attachments']) {
  return Promise.all(
    list.map(async (a) => {
      if ('uploadId' in a) {
        const upload = await getItem<Upload>(uploadKey(mailboxId, a.uploadId));
        const content = upload ? await getObject(upload.key) : undefined;
        if (!upload || !content) throw invalid(SEND_MESSAGES.uploadNotFound(a.uploadId));
        return { filename: upload.filename, contentType: upload.contentType, content };
      }
      const m = await getMessage(mailboxId, a.messageId);
      const part = m?.attachments[a.index];
      const content = part ? await getObject(part.key) : undefined;
      if (!part || !content) throw invalid(SEND_MESSAGES.partNotFound);
      return { filename: part.filename, contentType: part.contentType, content };
    }),
  );
}
