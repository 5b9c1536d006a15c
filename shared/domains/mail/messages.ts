import { createHash } from 'node:crypto';
import type { TransactWriteCommandInput } from '../../kernel/store/commands';
import { PREFIXES } from '../../kernel/store/keys';
import { transact } from '../../kernel/store/ops';
import { getItem, getMany, putNew, TABLE } from '../../kernel/store/table';
import type { Message, Party } from './record-schemas';
import { changeThread, MAX_SUBJECTS, mailPk, type Thread, threadWrites } from './threads';
import { usageKeys } from './usage';

type TransactItems = NonNullable<TransactWriteCommandInput['TransactItems']>;

/** An attachment as stored: where its bytes are (`key`) beside what the message answers. */
export type AttachmentRef = Message['attachments'][number] & { key: string };

/**
 * One message of a mailbox: `MBX#<mailboxId>` / `M#<messageId>`. Its bytes are objects
 * (shared/domains/mail/objects.ts): the raw message, its body (`{ text, html }` as JSON) and each
 * attachment on its own. `headerId` is its Message-ID header, found again by `MID#<headerId>`.
 * The answered record (its schema, ./record-schemas.ts, is the source) with the keys of its bytes.
 */
export type MessageRecord = Omit<Message, 'attachments'> & {
  rawKey: string;
  bodyKey: string;
  attachments: AttachmentRef[];
  createdAt: number;
};

export const messageKey = (mailboxId: string, messageId: string) => ({
  pk: mailPk(mailboxId),
  sk: `${PREFIXES.mail.message}${messageId}`,
});
const midKey = (mailboxId: string, headerId: string) => ({
  pk: mailPk(mailboxId),
  sk: `${PREFIXES.mail.messageId}${headerId}`,
});
const subjectKey = (mailboxId: string, norm: string) => ({
  pk: mailPk(mailboxId),
  sk: `${PREFIXES.mail.subject}${createHash('sha256').update(norm).digest('base64url')}`,
});
const markerKey = (mailboxId: string, source: string) => ({
  pk: mailPk(mailboxId),
  sk: `${PREFIXES.mail.received}${source}`,
});

/** Whether `source` (a received object) was filed in the mailbox already. */
export const alreadyFiled = async (mailboxId: string, source: string) =>
  !!(await getItem(markerKey(mailboxId, source), true));

export const getMessage = (mailboxId: string, messageId: string) =>
  getItem<MessageRecord>(messageKey(mailboxId, messageId));
export const getMessages = async (mailboxId: string, ids: string[]) =>
  (await getMany<MessageRecord>(ids.map((id) => messageKey(mailboxId, id)))).filter((m): m is MessageRecord => !!m);

/** A subject as threads compare it: without Re:/Fwd: prefixes, spaces folded, lowercased. */
export const normalSubject = (subject: string) =>
  subject
    .replace(/^(\s*(re|fw|fwd|aw|sv|wg)(\[\d+\])?\s*:\s*)+/i, '')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();

/** A message id without angle brackets, as `MID#` keys hold it. */
export const bareId = (id: string) => id.trim().replace(/^<|>$/g, '');
export const idsIn = (header: string | undefined | null) => (header ?? '').match(/<[^<>\s]+>/g)?.map(bareId) ?? [];

const SUBJECT_WINDOW_MS = 30 * 86_400_000;

/**
 * The thread a message belongs to: the thread of a message it answers (In-Reply-To, then
 * References, latest first); else the latest thread with the same subject, within 30 days,
 * sharing a participant other than the mailbox's own addresses.
 */
export async function findThread(
  mailboxId: string,
  m: Pick<MessageRecord, 'inReplyTo' | 'references' | 'subject' | 'date'>,
  participants: string[],
  consistent = false,
): Promise<string | undefined> {
  const ids = [...new Set([...(m.inReplyTo ? [m.inReplyTo] : []), ...[...m.references].reverse()])].slice(0, 20);
  if (ids.length > 0) {
    const found = await getMany<{ threadId: string }>(
      ids.map((id) => midKey(mailboxId, id)),
      consistent,
    );
    const hit = found.find((f) => f?.threadId);
    if (hit) return hit.threadId;
  }
  const norm = normalSubject(m.subject);
  if (!norm || participants.length === 0) return undefined;
  const last = await getItem<{ threadId: string; participants: string[]; lastAt: number }>(
    subjectKey(mailboxId, norm),
    consistent,
  );
  if (!last || Math.abs(m.date - last.lastAt) > SUBJECT_WINDOW_MS) return undefined;
  return last.participants.some((p) => participants.includes(p)) ? last.threadId : undefined;
}

const distinct = (parties: Party[]) => {
  const seen = new Map<string, Party>();
  for (const p of parties) seen.set(p.address.toLowerCase(), p);
  return [...seen.values()];
};

export class AlreadyFiled extends Error {}
/** Another message started a thread with this subject meanwhile (`claimSubject`): look again. */
export class SubjectTaken extends Error {}

/**
 * Files a message in its thread (found, or new) in one transaction with everything it moves: the
 * message, its Message-ID and subject keys, the thread and its index items, label counters, the
 * mailbox's usage counters, and for a received message its delivery marker (a repeat delivery
 * throws AlreadyFiled and writes nothing).
 */
export async function fileMessage(input: {
  mailboxId: string;
  message: Omit<MessageRecord, 'threadId'>;
  threadId: string | undefined;
  newThreadId: string;
  labels: string[];
  unread: boolean;
  /** Participants other than the mailbox's own addresses (subject threading). */
  participants: string[];
  marker?: string;
  /**
   * A new thread takes its subject only if no thread took it within the window meanwhile (else
   * SubjectTaken, nothing written): two first messages of a conversation received at the same
   * moment, or an answer filed before the message it answers, end in one thread.
   */
  claimSubject?: boolean;
}): Promise<{ message: MessageRecord; thread: Thread }> {
  const { mailboxId, message: m } = input;
  const at = m.createdAt;
  const extra = (threadId: string, claim = false): TransactItems => {
    const message: MessageRecord = { ...m, threadId };
    const items: TransactItems = [
      { Put: { TableName: TABLE(), Item: { ...messageKey(mailboxId, m.messageId), ...message } } },
      { Put: { TableName: TABLE(), Item: { ...midKey(mailboxId, m.headerId), threadId, messageId: m.messageId } } },
      {
        Update: {
          TableName: TABLE(),
          Key: usageKeys.stats(mailboxId),
          UpdateExpression: 'ADD #b :b, #m :one',
          ExpressionAttributeNames: { '#b': 'bytes', '#m': 'messages' },
          ExpressionAttributeValues: { ':b': m.size, ':one': 1 },
        },
      },
      {
        Update: {
          TableName: TABLE(),
          Key: usageKeys.month(mailboxId, at),
          UpdateExpression: 'ADD #k :one',
          ExpressionAttributeNames: { '#k': m.direction === 'in' ? 'received' : 'sent' },
          ExpressionAttributeValues: { ':one': 1 },
        },
      },
    ];
    const norm = normalSubject(m.subject);
    if (norm) {
      items.push({
        Put: {
          TableName: TABLE(),
          Item: { ...subjectKey(mailboxId, norm), threadId, participants: input.participants, lastAt: m.date },
          ...(claim
            ? {
                ConditionExpression: 'attribute_not_exists(pk) OR lastAt < :stale',
                ExpressionAttributeValues: { ':stale': m.date - SUBJECT_WINDOW_MS },
              }
            : {}),
        },
      });
    }
    if (m.direction === 'out') {
      items.push({
        Update: {
          TableName: TABLE(),
          Key: usageKeys.day(mailboxId, at),
          UpdateExpression: 'ADD #s :one',
          ExpressionAttributeNames: { '#s': 'sent' },
          ExpressionAttributeValues: { ':one': 1 },
        },
      });
    }
    // Who the mailbox exchanges mail with (recipients/check's `contact`): the first ten.
    for (const address of input.participants.slice(0, 10)) {
      items.push({
        Put: {
          TableName: TABLE(),
          Item: { pk: mailPk(mailboxId), sk: `${PREFIXES.mail.correspondent}${address}`, at },
        },
      });
    }
    if (input.marker) items.push(putNew({ ...markerKey(mailboxId, input.marker), at }));
    return items;
  };
  const merged = (t: Thread | undefined, threadId: string): Thread => ({
    threadId,
    subject: m.subject || t?.subject || '',
    subjects: [...new Set([...(t ? (t.subjects ?? [t.subject]) : []), m.subject].filter(Boolean))].slice(
      0,
      MAX_SUBJECTS,
    ),
    snippet: m.snippet,
    from: distinct([...(t?.from ?? []), ...(m.from ? [m.from] : [])]),
    to: distinct([...(t?.to ?? []), ...m.to, ...m.cc]),
    labels: [...new Set([...(t?.labels ?? []), ...input.labels])],
    unread: (t?.unread ?? false) || input.unread,
    messageIds: [...(t?.messageIds ?? []), m.messageId],
    lastAt: Math.max(t?.lastAt ?? 0, at),
    hasAttachment: (t?.hasAttachment ?? false) || m.attachments.some((a) => !a.inline),
    received: (t?.received ?? false) || m.direction === 'in',
    version: t?.version ?? 1,
  });
  const markerFailed = async (writes: TransactItems, i: number) => {
    const sk = String(writes[i]?.Put?.Item?.sk ?? '');
    if (sk.startsWith(PREFIXES.mail.received)) return new AlreadyFiled();
    return sk.startsWith(PREFIXES.mail.subject) ? new SubjectTaken() : undefined;
  };

  if (input.threadId) {
    let writes: TransactItems = [];
    const after = await changeThread(mailboxId, input.threadId, (t) => {
      writes = extra(t.threadId);
      return { after: merged(t, t.threadId), extra: writes };
    }).catch(async (err) => {
      if ((err as Error).name === 'TransactionCanceledException' && input.marker) {
        if (await getItem(markerKey(mailboxId, input.marker), true)) throw new AlreadyFiled();
      }
      throw err;
    });
    if (after) return { message: { ...m, threadId: input.threadId }, thread: after };
  }
  const thread = merged(undefined, input.newThreadId);
  const writes = [...threadWrites(mailboxId, undefined, thread), ...extra(thread.threadId, input.claimSubject)];
  await transact(writes, (i) => markerFailed(writes, i));
  return { message: { ...m, threadId: thread.threadId }, thread };
}
