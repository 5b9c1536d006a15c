import type { Email } from 'postal-mime';
import { describeError, log } from '../../kernel/ground/log';
import { newId } from '../../kernel/store/ids';
import { getItem } from '../../kernel/store/table';
import { addDomainCounts } from '../insights/counters';
import { raiseEvent } from '../notifications/raise';
import { addressClaim, mailFolder } from './admin';
import {
  AlreadyFiled,
  type AttachmentRef,
  alreadyFiled,
  bareId,
  fileMessage,
  findThread,
  idsIn,
  type MessageRecord,
  SubjectTaken,
} from './messages';
import { putObject } from './objects';
import { domainOf, getDomain, getMailbox, type MailboxRecord, mailKeys } from './records';
import type { Party } from './threads';
import { LIMITS } from './usage';
import { vacationReply } from './vacation';

/**
 * The mailbox an address reaches: its own or an alias's; else the catch-all of its domain, when
 * the domain receives. Undefined: no mailbox of the platform (`550 5.1.1` locally).
 */
export async function mailboxFor(address: string): Promise<MailboxRecord | undefined> {
  const claim = await addressClaim(address.toLowerCase());
  if (claim) {
    const m = await getMailbox(claim.orgId, claim.mailboxId);
    const d = m ? await getDomain(m.orgId, domainOf(address)) : undefined;
    return m && (!d || d.receiving) ? m : undefined;
  }
  const domain = domainOf(address);
  const held = await getItem<{ orgId: string }>(mailKeys.domainClaim(domain));
  if (!held) return undefined;
  const d = await getDomain(held.orgId, domain);
  if (!d?.receiving || !d.catchAll) return undefined;
  return getMailbox(held.orgId, d.catchAll);
}

/** Whether the platform holds the address's domain (its unknown addresses are refused, not relayed). */
export const platformDomain = async (address: string) => !!(await getItem(mailKeys.domainClaim(domainOf(address))));

const party = (a: { name?: string; address?: string } | undefined): Party | null =>
  a?.address ? { name: a.name ?? '', address: a.address.toLowerCase() } : null;
const parties = (list: Email['to']): Party[] =>
  (list ?? []).flatMap((a) => (a.group ? a.group : [a])).flatMap((a) => party(a) ?? []);

export const snippetOf = (text: string | undefined, html: string | undefined) =>
  (text ?? (html ?? '').replace(/<style[\s\S]*?<\/style>|<script[\s\S]*?<\/script>/gi, ' ').replace(/<[^>]+>/g, ' '))
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 200);

const bytesOf = (content: ArrayBuffer | Uint8Array | string) =>
  typeof content === 'string' ? Buffer.from(content, 'utf8') : Buffer.from(content as ArrayBuffer);

/** Parses a message (postal-mime) and writes its body and attachments as objects of the mailbox. */
export async function storeParsed(
  mailboxId: string,
  messageId: string,
  raw: Buffer,
  parsed?: Email,
): Promise<{ email: Email; rawKey: string; bodyKey: string; attachments: AttachmentRef[] }> {
  // Loaded with the first message (out of the mail group's cold start).
  const email = parsed ?? (await (await import('postal-mime')).default.parse(raw));
  const folder = `${mailFolder(mailboxId)}${messageId}/`;
  const rawKey = `${folder}raw.eml`;
  const bodyKey = `${folder}body.json`;
  const attachments: AttachmentRef[] = email.attachments.map((a, index) => ({
    index,
    filename: a.filename ?? `part-${index + 1}`,
    contentType: a.mimeType,
    size: bytesOf(a.content).length,
    key: `${folder}att/${index}`,
    contentId: a.contentId ? bareId(a.contentId) : null,
    inline: a.disposition === 'inline' && !!a.contentId,
  }));
  await Promise.all([
    putObject(rawKey, raw, 'message/rfc822'),
    putObject(
      bodyKey,
      Buffer.from(JSON.stringify({ text: email.text ?? '', html: email.html ?? null })),
      'application/json',
    ),
    ...email.attachments.map((a, i) => putObject(attachments[i]?.key as string, bytesOf(a.content), a.mimeType)),
  ]);
  return { email, rawKey, bodyKey, attachments };
}

/**
 * Where a received calendar message (iTIP: an invitation, an answer, a cancellation) goes: the
 * calendar's intake, handed in by the mail-inbound worker. Mail sits below the calendar (the
 * calendar files invitations and sends answers by mail), so mail imports nothing of it.
 */
export type CalendarIntake = (mailbox: MailboxRecord, ics: string, from: string | undefined) => Promise<unknown>;

/**
 * Delivers a received message to one mailbox: parsed, its bytes stored, filed in its thread with
 * INBOX (SPAM when SES's scan failed it) and unread; a VIP sender raises `mail.vip`. `source` names the received object: a repeat
 * delivery of it files nothing twice. An attached calendar message goes to `calendar` (the worker gives it).
 */
export async function deliverTo(
  mailbox: MailboxRecord,
  raw: Buffer,
  source: string,
  parsed?: Email,
  calendar?: CalendarIntake,
): Promise<MessageRecord | undefined> {
  if (raw.length > LIMITS.inboundBytes) {
    log.warn('mail_inbound_too_large', { mailboxId: mailbox.mailboxId, bytes: raw.length });
    return undefined;
  }
  // A repeat delivery stores nothing (the marker also guards the filing itself, against a race).
  if (await alreadyFiled(mailbox.mailboxId, source)) return undefined;
  const now = Date.now();
  const messageId = newId('msg_', now);
  const stored = await storeParsed(mailbox.mailboxId, messageId, raw, parsed);
  const { email } = stored;
  const date = email.date && !Number.isNaN(Date.parse(email.date)) ? Date.parse(email.date) : now;
  const own = new Set([mailbox.address, ...mailbox.aliases]);
  const from = party(email.from as { name?: string; address?: string } | undefined);
  const message: Omit<MessageRecord, 'threadId'> = {
    messageId,
    direction: 'in',
    from,
    to: parties(email.to),
    cc: parties(email.cc),
    bcc: [],
    replyTo: parties(email.replyTo),
    subject: email.subject ?? '',
    date,
    headerId: email.messageId ? bareId(email.messageId) : `${messageId}@received.invalid`,
    inReplyTo: idsIn(email.inReplyTo)[0] ?? null,
    references: idsIn(email.references),
    snippet: snippetOf(email.text, email.html),
    size: raw.length,
    rawKey: stored.rawKey,
    bodyKey: stored.bodyKey,
    attachments: stored.attachments,
    createdAt: now,
  };
  const participants = [
    ...new Set([message.from, ...message.to, ...message.cc].flatMap((p) => p?.address ?? [])),
  ].filter((a) => !own.has(a));
  const file = (threadId: string | undefined, claimSubject: boolean) =>
    fileMessage({
      mailboxId: mailbox.mailboxId,
      message,
      threadId,
      newThreadId: newId('thr_', now),
      labels: [spam(email) ? 'SPAM' : 'INBOX'],
      unread: true,
      participants,
      marker: source,
      claimSubject,
    });
  try {
    const threadId = await findThread(mailbox.mailboxId, message, participants);
    const filed = await file(threadId, !threadId).catch(async (err) => {
      if (!(err instanceof SubjectTaken)) throw err;
      // Another message took the subject meanwhile: its thread, if it is this conversation's.
      const again = await findThread(mailbox.mailboxId, message, participants, true);
      return file(again, false);
    });
    // The organization's analytics (`mailReceived`), once per received object and mailbox.
    await addDomainCounts(
      `mail:${mailbox.mailboxId}:${source}`,
      { orgId: mailbox.orgId, at: now },
      { mailReceived: 1 },
    ).catch((err) => log.warn('mail_received_uncounted', { error: describeError(err) }));
    const vip = from && mailbox.settings.vipSenders.includes(from.address);
    if (vip) {
      await raiseEvent({
        kind: 'mail.vip',
        orgId: mailbox.orgId,
        resources: [{ type: 'mailbox', id: mailbox.mailboxId }],
        attributes: { from: from.address, subject: message.subject, threadId: filed.thread.threadId },
        people: mailbox.members,
        title: `Mail from ${from.name || from.address}`,
        body: message.subject,
        url: `/v1/orgs/${mailbox.orgId}/mail/mailboxes/${mailbox.mailboxId}/threads/${filed.thread.threadId}`,
      }).catch((err) => log.warn('mail_vip_unraised', { error: describeError(err) }));
    }
    if (from) await vacationReply(mailbox, email, from.address, message.headerId);
    // An invitation, answer or cancellation (iTIP): the mailbox's calendar follows it.
    const ics = email.attachments.find((a) => a.mimeType === 'text/calendar');
    if (ics && calendar) await calendar(mailbox, bytesOf(ics.content).toString(), from?.address);
    return filed.message;
  } catch (err) {
    if (err instanceof AlreadyFiled) return undefined;
    throw err;
  }
}

/** SES's scan (its receipt rule's `X-SES-Spam-Verdict` and `X-SES-Virus-Verdict`) failed the message. */
const spam = (email: Email) =>
  email.headers.some(
    (h) =>
      (h.key === 'x-ses-spam-verdict' || h.key === 'x-ses-virus-verdict') && h.value.trim().toUpperCase() === 'FAIL',
  );

/** The platform mailboxes among `recipients`, each once. */
export async function mailboxesOf(recipients: string[]): Promise<MailboxRecord[]> {
  const found = await Promise.all([...new Set(recipients.map((r) => r.toLowerCase()))].map(mailboxFor));
  const byId = new Map(found.filter((m): m is MailboxRecord => !!m).map((m) => [m.mailboxId, m]));
  return [...byId.values()];
}
