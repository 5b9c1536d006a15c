import { getMany } from '../store/table';

/** Gmail's system labels: every mailbox has them; they can't be created or deleted. */
export const SYSTEM_LABELS = ['INBOX', 'SENT', 'DRAFTS', 'SPAM', 'TRASH', 'STARRED'] as const;
export type SystemLabel = (typeof SYSTEM_LABELS)[number];
export const isSystemLabel = (id: string): id is SystemLabel => (SYSTEM_LABELS as readonly string[]).includes(id);

/**
 * A label of a mailbox and its counters (threads carrying it, unread among them), moved in the
 * transaction of each thread's change: `MBX#<mailboxId>` / `LBL#<labelId>`. System labels' items
 * are made by their first counter move; user labels by POST, with their name claimed.
 */
export interface LabelRecord {
  labelId: string;
  name?: string;
  total?: number;
  unread?: number;
  createdAt?: number;
}

export const labelKey = (mailboxId: string, labelId: string) => ({ pk: `MBX#${mailboxId}`, sk: `LBL#${labelId}` });

/** Unread INBOX threads of each mailbox, in order. */
export async function unreadCounts(mailboxIds: string[]): Promise<number[]> {
  const items = await getMany<LabelRecord>(mailboxIds.map((m) => labelKey(m, 'INBOX')));
  return items.map((i) => Math.max(0, i?.unread ?? 0));
}
