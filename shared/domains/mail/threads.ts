import { conflict } from '../../kernel/ground/errors';
import type { TransactWriteCommandInput } from '../../kernel/store/commands';
import { PREFIXES } from '../../kernel/store/keys';
import { transact } from '../../kernel/store/ops';
import { getItem, sleep, TABLE } from '../../kernel/store/table';
import { isSystemLabel, labelKey } from './labels';
import type { Party } from './record-schemas';

type TransactItems = NonNullable<TransactWriteCommandInput['TransactItems']>;

export type { Party };

/**
 * A conversation (Gmail's thread): `MBX#<mailboxId>` / `T#<threadId>`. Labels are the thread's
 * (system ones by name, user ones by id); `unread` while any of its messages is unread. Each
 * label it carries has an index item, `I#<labelId>#<lastAt>#<threadId>`, holding the summary a
 * list shows, so a label's page is one Query, newest first, whatever the mailbox's size.
 */
export interface Thread {
  threadId: string;
  /** The latest message's subject. */
  subject: string;
  /**
   * The distinct subjects of its messages, the first ten (searches match any of them, as Gmail's
   * do); kept on the index items, never shown. Absent on threads filed before it was kept.
   */
  subjects?: string[];
  snippet: string;
  /** Senders of its messages, latest last (distinct addresses). */
  from: Party[];
  /** Recipients of its messages (distinct addresses). */
  to: Party[];
  labels: string[];
  unread: boolean;
  messageIds: string[];
  lastAt: number;
  hasAttachment: boolean;
  /** Whether any message was received (untrash and notSpam put it back in INBOX). */
  received: boolean;
  version: number;
}

export type ThreadSummary = Omit<Thread, 'messageIds' | 'version' | 'received' | 'subjects'> & { messageCount: number };

/** A label's index item: the summary a list shows and what a search matches beyond it. */
export type IndexItem = ThreadSummary & Pick<Thread, 'subjects'>;

export const MAX_SUBJECTS = 10;

export const mailPk = (mailboxId: string) => `${PREFIXES.mail.mailbox}${mailboxId}`;
export const threadKey = (mailboxId: string, threadId: string) => ({
  pk: mailPk(mailboxId),
  sk: `${PREFIXES.mail.thread}${threadId}`,
});
const stamp = (at: number) => String(at).padStart(15, '0');
export const indexPrefix = (labelId: string) => `${PREFIXES.mail.labelIndex}${labelId}#`;
const indexKey = (mailboxId: string, labelId: string, t: Pick<Thread, 'lastAt' | 'threadId'>) => ({
  pk: mailPk(mailboxId),
  sk: `${indexPrefix(labelId)}${stamp(t.lastAt)}#${t.threadId}`,
});

export const summaryOf = (t: Thread): ThreadSummary => ({
  threadId: t.threadId,
  subject: t.subject,
  snippet: t.snippet,
  from: t.from,
  to: t.to,
  labels: t.labels,
  unread: t.unread,
  lastAt: t.lastAt,
  hasAttachment: t.hasAttachment,
  messageCount: t.messageIds.length,
});

export const getThread = (mailboxId: string, threadId: string, consistent = false) =>
  getItem<Thread>(threadKey(mailboxId, threadId), consistent);

export const LABEL_GONE = 'Label not found';
const STALE = Symbol('stale');

/**
 * The writes that move a thread from `before` (undefined: a new thread) to `after` (undefined:
 * deleted): the thread itself (conditional on its version), its index items, and the counters of
 * every label it enters or leaves (threads, unread threads). User labels must exist.
 */
export function threadWrites(mailboxId: string, before: Thread | undefined, after: Thread | undefined): TransactItems {
  const items: TransactItems = [];
  const key = threadKey(mailboxId, (after ?? before)?.threadId as string);
  if (after && before) {
    items.push({
      Put: {
        TableName: TABLE(),
        Item: { ...key, ...after, version: before.version + 1 },
        ConditionExpression: '#v = :v',
        ExpressionAttributeNames: { '#v': 'version' },
        ExpressionAttributeValues: { ':v': before.version },
      },
    });
  } else if (after) {
    items.push({
      Put: { TableName: TABLE(), Item: { ...key, ...after }, ConditionExpression: 'attribute_not_exists(pk)' },
    });
  } else if (before) {
    items.push({
      Delete: {
        TableName: TABLE(),
        Key: key,
        ConditionExpression: '#v = :v',
        ExpressionAttributeNames: { '#v': 'version' },
        ExpressionAttributeValues: { ':v': before.version },
      },
    });
  }
  const oldKeys = new Map((before?.labels ?? []).map((l) => [indexKey(mailboxId, l, before as Thread).sk, l]));
  const newKeys = new Map((after?.labels ?? []).map((l) => [indexKey(mailboxId, l, after as Thread).sk, l]));
  for (const sk of oldKeys.keys()) {
    if (!newKeys.has(sk)) items.push({ Delete: { TableName: TABLE(), Key: { pk: mailPk(mailboxId), sk } } });
  }
  if (after) {
    const item: IndexItem = { ...summaryOf(after), ...(after.subjects ? { subjects: after.subjects } : {}) };
    for (const sk of newKeys.keys()) {
      items.push({ Put: { TableName: TABLE(), Item: { pk: mailPk(mailboxId), sk, ...item } } });
    }
  }
  const labels = new Set([...(before?.labels ?? []), ...(after?.labels ?? [])]);
  for (const label of labels) {
    const was = before?.labels.includes(label) ?? false;
    const is = after?.labels.includes(label) ?? false;
    const total = Number(is) - Number(was);
    const unread = Number(is && !!after?.unread) - Number(was && !!before?.unread);
    if (total === 0 && unread === 0) continue;
    items.push({
      Update: {
        TableName: TABLE(),
        Key: labelKey(mailboxId, label),
        UpdateExpression: 'ADD #t :t, #u :u',
        ExpressionAttributeNames: { '#t': 'total', '#u': 'unread' },
        ExpressionAttributeValues: { ':t': total, ':u': unread },
        // A user label must still exist (a delete takes it off every thread first).
        ...(isSystemLabel(label) || !is
          ? {}
          : { ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(deleting)' }),
      },
    });
  }
  return items;
}

/**
 * Changes one thread: `change` gets its current state and answers the new one (undefined: no
 * change; null: delete it), plus writes of its own for the same transaction. A change that lost a
 * race with another is made again on the fresh state.
 */
export async function changeThread(
  mailboxId: string,
  threadId: string,
  change: (t: Thread) => { after: Thread | null; extra?: TransactItems } | undefined,
): Promise<Thread | null | undefined> {
  for (let attempt = 0; ; attempt++) {
    const before = await getThread(mailboxId, threadId, true);
    if (!before) return undefined;
    const next = change(before);
    if (!next) return before;
    const writes = [...threadWrites(mailboxId, before, next.after ?? undefined), ...(next.extra ?? [])];
    try {
      await transact(writes, async (i) => {
        if (i === 0) return STALE as unknown as Error;
        const w = writes[i];
        if (w?.Update?.Key && String(w.Update.Key.sk).startsWith(PREFIXES.mail.label)) return conflict(LABEL_GONE);
        return undefined;
      });
      return next.after;
    } catch (err) {
      if ((err as unknown) !== STALE || attempt >= 30) throw err;
      await sleep(5 + Math.random() * 20 * Math.min(attempt + 1, 8));
    }
  }
}
