import { DomainError, notFound } from '../../kernel/ground/errors';
import { db } from '../../kernel/store/client';
import { UpdateCommand } from '../../kernel/store/commands';
import { deleteMany, queryAll } from '../../kernel/store/ops';
import { TABLE } from '../../kernel/store/table';
import { checkLabels, LABEL_MESSAGES, labelKey, labelNameKey, requireUserLabel } from './labels';
import { getMessages, messageKey } from './messages';
import { deleteObjects } from './objects';
import { changeThread, indexPrefix, mailPk, type Thread } from './threads';
import { usageKeys } from './usage';

export const ACTIONS = [
  'read',
  'unread',
  'star',
  'unstar',
  'archive',
  'trash',
  'untrash',
  'spam',
  'notSpam',
  'addLabels',
  'removeLabels',
  'delete',
] as const;
export type Action = (typeof ACTIONS)[number];

export const MAIL_ACTION_MESSAGES = {
  threadNotFound: 'Thread not found',
  deleteOnly: 'Only threads in TRASH or SPAM can be deleted.',
  labelsRequired: 'addLabels and removeLabels need labelIds.',
} as const;

const without = (labels: string[], ...drop: string[]) => labels.filter((l) => !drop.includes(l));
const withLabels = (labels: string[], ...add: string[]) => [...new Set([...labels, ...add])];

/** The thread after `action` (null: deleted); undefined when nothing changes. */
function next(t: Thread, action: Action, labelIds: string[]): Thread | null {
  const l = t.labels;
  const back = t.received ? ['INBOX'] : [];
  const labels = (() => {
    switch (action) {
      case 'star':
        return withLabels(l, 'STARRED');
      case 'unstar':
        return without(l, 'STARRED');
      case 'archive':
        return without(l, 'INBOX');
      case 'trash':
        return withLabels(without(l, 'INBOX', 'SPAM'), 'TRASH');
      case 'untrash':
        return l.includes('TRASH') ? withLabels(without(l, 'TRASH'), ...back) : l;
      case 'spam':
        return withLabels(without(l, 'INBOX', 'TRASH'), 'SPAM');
      case 'notSpam':
        return l.includes('SPAM') ? withLabels(without(l, 'SPAM'), ...back) : l;
      case 'addLabels':
        return withLabels(l, ...labelIds);
      case 'removeLabels':
        return without(l, ...labelIds);
      default:
        return l;
    }
  })();
  const unread = action === 'read' ? false : action === 'unread' ? true : t.unread;
  return { ...t, labels, unread };
}

export type ActionResult = { threadId: string; ok: true } | { threadId: string; ok: false; error: string };

/** Runs one action on each thread, ten at a time; one result per thread, in order. */
export async function threadActions(
  mailboxId: string,
  threadIds: string[],
  action: Action,
  labelIds: string[] = [],
): Promise<ActionResult[]> {
  if (action === 'addLabels' || action === 'removeLabels') {
    if (labelIds.length === 0) throw new DomainError('invalid', MAIL_ACTION_MESSAGES.labelsRequired);
    if (action === 'addLabels') await checkLabels(mailboxId, labelIds);
  }
  const results: ActionResult[] = new Array(threadIds.length);
  let cursor = 0;
  const worker = async () => {
    while (cursor < threadIds.length) {
      const i = cursor++;
      const threadId = threadIds[i] as string;
      try {
        await (action === 'delete' ? deleteThread(mailboxId, threadId) : act(mailboxId, threadId, action, labelIds));
        results[i] = { threadId, ok: true };
      } catch (err) {
        if (!(err instanceof DomainError)) throw err;
        results[i] = { threadId, ok: false, error: err.message };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(10, threadIds.length) }, worker));
  return results;
}

async function act(mailboxId: string, threadId: string, action: Action, labelIds: string[]) {
  const after = await changeThread(mailboxId, threadId, (t) => {
    const n = next(t, action, labelIds) as Thread;
    const same =
      n.unread === t.unread && n.labels.length === t.labels.length && n.labels.every((x) => t.labels.includes(x));
    return same ? undefined : { after: n };
  });
  if (after === undefined) throw notFound(MAIL_ACTION_MESSAGES.threadNotFound);
}

/** Deletes a thread of TRASH or SPAM for good: its records, then its messages and their objects. */
async function deleteThread(mailboxId: string, threadId: string) {
  let messageIds: string[] = [];
  let refused = false;
  const result = await changeThread(mailboxId, threadId, (t) => {
    if (!t.labels.includes('TRASH') && !t.labels.includes('SPAM')) {
      refused = true;
      return undefined;
    }
    messageIds = t.messageIds;
    return { after: null };
  });
  if (result === undefined) throw notFound(MAIL_ACTION_MESSAGES.threadNotFound);
  if (refused) throw new DomainError('invalid', MAIL_ACTION_MESSAGES.deleteOnly);
  const messages = await getMessages(mailboxId, messageIds);
  await deleteMany(messageIds.map((id) => messageKey(mailboxId, id)));
  await db.send(
    new UpdateCommand({
      TableName: TABLE(),
      Key: usageKeys.stats(mailboxId),
      UpdateExpression: 'ADD #b :b, #m :m',
      ExpressionAttributeNames: { '#b': 'bytes', '#m': 'messages' },
      ExpressionAttributeValues: { ':b': -messages.reduce((s, m) => s + m.size, 0), ':m': -messages.length },
    }),
  );
  await deleteObjects(messages.flatMap((m) => [m.rawKey, m.bodyKey, ...m.attachments.map((a) => a.key)]));
}

/**
 * Deletes a user label: marked (no thread can gain it any more), taken off every thread that
 * carries it (their mail stays), then removed with its name. Safe to repeat.
 */
export async function deleteLabel(mailboxId: string, labelId: string): Promise<void> {
  const label = await requireUserLabel(mailboxId, labelId);
  await db.send(
    new UpdateCommand({
      TableName: TABLE(),
      Key: labelKey(mailboxId, labelId),
      UpdateExpression: 'SET deleting = :t',
      ExpressionAttributeValues: { ':t': true },
    }),
  );
  const carrying = await queryAll<{ threadId: string }>({
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :a AND :b',
    ExpressionAttributeValues: {
      ':pk': mailPk(mailboxId),
      ':a': indexPrefix(labelId),
      ':b': `${indexPrefix(labelId)}~`,
    },
  });
  for (const { threadId } of carrying) {
    await changeThread(mailboxId, threadId, (t) =>
      t.labels.includes(labelId) ? { after: { ...t, labels: without(t.labels, labelId) } } : undefined,
    );
  }
  await deleteMany([labelKey(mailboxId, labelId), labelNameKey(mailboxId, label.name as string)]);
}

export { LABEL_MESSAGES };
