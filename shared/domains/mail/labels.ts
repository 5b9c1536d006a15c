import { invalid, notFound } from '../../kernel/ground/errors';
import { newId } from '../../kernel/store/ids';
import { PREFIXES } from '../../kernel/store/keys';
import { queryAll, transact } from '../../kernel/store/ops';
import { getItem, getMany, putNew } from '../../kernel/store/table';
import type { MailLabel, MailLabelRecord } from './record-schemas';

/** Gmail's system labels: every mailbox has them; they can't be created or deleted. */
export const SYSTEM_LABELS = ['INBOX', 'SENT', 'DRAFTS', 'SPAM', 'TRASH', 'STARRED'] as const;
export type SystemLabel = (typeof SYSTEM_LABELS)[number];
export const isSystemLabel = (id: string): id is SystemLabel => (SYSTEM_LABELS as readonly string[]).includes(id);

/**
 * A label of a mailbox and its counters (threads carrying it, unread among them), moved in the
 * transaction of each thread's change: `MBX#<mailboxId>` / `LBL#<labelId>`. System labels' items
 * are made by their first counter move; user labels by POST, with their name claimed. Its record
 * schema (./record-schemas.ts, `MailLabelRecord`) is the source.
 */
export const labelKey = (mailboxId: string, labelId: string) => ({
  pk: `${PREFIXES.mail.mailbox}${mailboxId}`,
  sk: `${PREFIXES.mail.label}${labelId}`,
});

/** Unread INBOX threads of each mailbox, in order. */
export async function unreadCounts(mailboxIds: string[]): Promise<number[]> {
  const items = await getMany<MailLabelRecord>(mailboxIds.map((m) => labelKey(m, 'INBOX')));
  return items.map((i) => Math.max(0, i?.unread ?? 0));
}

export const LABEL_MESSAGES = {
  notFound: 'Label not found',
  system: "System labels can't be created or deleted.",
  taken: 'A label with this name exists.',
  badName: 'Label names are 1-100 characters; `/` separates nested labels, with no empty part.',
} as const;

const nameKey = (mailboxId: string, name: string) => ({
  pk: `${PREFIXES.mail.mailbox}${mailboxId}`,
  sk: `${PREFIXES.mail.labelName}${name.toLowerCase()}`,
});

const shown = (l: MailLabelRecord & { labelId: string }, type: 'system' | 'user'): MailLabel => {
  const name = l.name ?? l.labelId;
  const cut = name.lastIndexOf('/');
  return {
    labelId: l.labelId,
    name,
    type,
    parent: type === 'user' && cut > 0 ? name.slice(0, cut) : null,
    total: Math.max(0, l.total ?? 0),
    unread: Math.max(0, l.unread ?? 0),
  };
};

/** System labels first (in Gmail's order), then user labels by name. */
export async function listLabels(mailboxId: string): Promise<MailLabel[]> {
  // A range, not begins_with: DynamoDB Local reads a whole partition for begins_with, and a
  // mailbox's partition holds its threads and messages too.
  const items = await queryAll<MailLabelRecord & { sk: string }>({
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :a AND :b',
    ExpressionAttributeValues: {
      ':pk': `${PREFIXES.mail.mailbox}${mailboxId}`,
      ':a': PREFIXES.mail.label,
      ':b': `${PREFIXES.mail.label}~`,
    },
  });
  // A system label's item may hold its counters only: its id is its sort key's.
  const labels = items.map((i) => ({ ...i, labelId: i.labelId ?? i.sk.slice(PREFIXES.mail.label.length) }));
  const byId = new Map(labels.map((l) => [l.labelId, l]));
  const system = SYSTEM_LABELS.map((id) => shown(byId.get(id) ?? { labelId: id }, 'system'));
  const user = labels
    .filter((l) => l.name && !isSystemLabel(l.labelId) && !l.deleting)
    .map((l) => shown(l, 'user'))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return [...system, ...user];
}

/** Label id → name, for searches by `label:` and results. */
export const labelNames = async (mailboxId: string) =>
  new Map((await listLabels(mailboxId)).map((l) => [l.labelId, l.name]));

export async function createLabel(mailboxId: string, rawName: string): Promise<MailLabel> {
  const name = rawName.trim();
  if (!name || name.length > 100 || name.split('/').some((part) => part.trim() === ''))
    throw invalid(LABEL_MESSAGES.badName);
  if (isSystemLabel(name.toUpperCase())) throw invalid(LABEL_MESSAGES.system);
  const label = { labelId: newId('lbl_'), name, total: 0, unread: 0, createdAt: Date.now() };
  await transact(
    [
      putNew({ ...nameKey(mailboxId, name), labelId: label.labelId }),
      putNew({ ...labelKey(mailboxId, label.labelId), ...label }),
    ],
    [LABEL_MESSAGES.taken],
  );
  return shown(label, 'user');
}

/** A user label of the mailbox (system ids are 400, unknown ones 404). */
export async function requireUserLabel(mailboxId: string, labelId: string): Promise<MailLabelRecord> {
  if (isSystemLabel(labelId)) throw invalid(LABEL_MESSAGES.system);
  const label = await getItem<MailLabelRecord>(labelKey(mailboxId, labelId), true);
  if (!label?.name || label.deleting) throw notFound(LABEL_MESSAGES.notFound);
  return label;
}

/** The ids of a thread's labels that `addLabels` may put on: user labels that exist, and system ones. */
export async function checkLabels(mailboxId: string, ids: string[]): Promise<void> {
  for (const id of ids) if (!isSystemLabel(id)) await requireUserLabel(mailboxId, id);
}

export { nameKey as labelNameKey };
