import { notFound } from '../../kernel/ground/errors';
import { decodeCursor, encodeCursor } from '../../kernel/store/cursor';
import { newId } from '../../kernel/store/ids';
import { PREFIXES } from '../../kernel/store/keys';
import { queryPage, transact, updateVersioned } from '../../kernel/store/ops';
import { getItem, putNew, TABLE } from '../../kernel/store/table';
import { labelKey } from './labels';
import type { Draft } from './record-schemas';
import type { Compose } from './send';

export const DRAFT_MESSAGES = {
  notFound: 'Draft not found',
  stale: 'This draft changed since it was read. Reload and try again.',
} as const;

/** A draft (its record schema, ./record-schemas.ts): `MBX#<mailboxId>` / `D#<draftId>`, counted by the DRAFTS label. */
const draftKey = (mailboxId: string, draftId: string) => ({
  pk: `${PREFIXES.mail.mailbox}${mailboxId}`,
  sk: `${PREFIXES.mail.draft}${draftId}`,
});
const countDrafts = (mailboxId: string, by: number) => ({
  Update: {
    TableName: TABLE(),
    Key: labelKey(mailboxId, 'DRAFTS'),
    UpdateExpression: 'ADD #t :n',
    ExpressionAttributeNames: { '#t': 'total' },
    ExpressionAttributeValues: { ':n': by },
  },
});

export const shownDraft = (d: Draft) => ({
  draftId: d.draftId,
  to: d.to,
  cc: d.cc,
  bcc: d.bcc,
  subject: d.subject,
  text: d.text,
  html: d.html,
  attachments: d.attachments,
  inReplyTo: d.inReplyTo,
  createdAt: d.createdAt,
  updatedAt: d.updatedAt,
  version: d.version,
});

export async function createDraft(mailboxId: string, fields: Compose): Promise<Draft> {
  const now = Date.now();
  const draft: Draft = { ...fields, draftId: newId('drf_', now), createdAt: now, updatedAt: now, version: 1 };
  await transact([putNew({ ...draftKey(mailboxId, draft.draftId), ...draft }), countDrafts(mailboxId, 1)]);
  return draft;
}

export async function requireDraft(mailboxId: string, draftId: string): Promise<Draft> {
  const d = await getItem<Draft>(draftKey(mailboxId, draftId), true);
  if (!d) throw notFound(DRAFT_MESSAGES.notFound);
  return d;
}

/** Replaces a draft's fields (`ifVersion`: 409 when it changed since). */
export async function replaceDraft(mailboxId: string, draftId: string, fields: Compose, ifVersion?: number) {
  await requireDraft(mailboxId, draftId);
  return updateVersioned<Draft>(
    draftKey(mailboxId, draftId),
    ifVersion,
    { ...fields, updatedAt: Date.now() },
    DRAFT_MESSAGES.stale,
  );
}

export async function deleteDraft(mailboxId: string, draftId: string): Promise<void> {
  await requireDraft(mailboxId, draftId);
  await transact(
    [
      {
        Delete: { TableName: TABLE(), Key: draftKey(mailboxId, draftId), ConditionExpression: 'attribute_exists(pk)' },
      },
      countDrafts(mailboxId, -1),
    ],
    [DRAFT_MESSAGES.notFound],
  );
}

/** A page of the mailbox's drafts, newest first (a draft's id sorts by when it was made). */
export async function listDrafts(
  mailboxId: string,
  input: { cursor?: string; limit: number },
): Promise<{ drafts: Draft[]; cursor: string | null }> {
  const scope = `${mailboxId}:drafts`;
  const pk = `${PREFIXES.mail.mailbox}${mailboxId}`;
  const { items, next } = await queryPage<Draft & { pk: string; sk: string }>(
    {
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :d)',
      ExpressionAttributeValues: { ':pk': pk, ':d': PREFIXES.mail.draft },
      ScanIndexForward: false,
      Limit: input.limit,
      ConsistentRead: true,
    },
    decodeCursor(scope, input.cursor),
  );
  return { drafts: items, cursor: next ? encodeCursor(scope, next) : null };
}
