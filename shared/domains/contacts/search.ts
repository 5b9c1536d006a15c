import { db } from '../../kernel/store/client';
import { BatchWriteCommand } from '../../kernel/store/commands';
import { PREFIXES } from '../../kernel/store/keys';
import { deleteMany, queryAll } from '../../kernel/store/ops';
import { sleep, TABLE } from '../../kernel/store/table';
import { CONTACT_PREFIX, type ContactFields, type ContactRecord, contactKeys, fold } from './records';

/**
 * The mailbox's contact search index: one posting per word of a contact (its names, nickname,
 * organization and email addresses, lowercased, accents removed, split at what is not a letter or
 * a digit) and per ending of its phones' digits (from 3 digits on, so a part of a number matches),
 * in the mailbox's partition: `CTS#W#<token>#<contactId>`. A word of `q` matches a contact when
 * it starts one of its tokens: one Query reads the contacts of the most telling word (the longest),
 * and each is checked against every word. Postings are written after their contact, so a search
 * checks the contact itself: a posting left behind never shows a contact that does not match.
 */
export const POSTING_PREFIX = PREFIXES.contacts.posting;
const MAX_TOKENS = 300;

export const postingKey = (mailboxId: string, token: string, contactId: string) => ({
  pk: contactKeys.pk(mailboxId),
  sk: `${POSTING_PREFIX}${token}#${contactId}`,
});

/** Words of folded text: runs of letters and digits. */
export const wordsOf = (text: string) =>
  fold(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);

/** The tokens a contact is found by. */
export function tokensOf(c: ContactFields): string[] {
  const n = c.name;
  const text = [c.fullName, n.prefix, n.given, n.additional, n.family, n.suffix, c.nickname, c.organization]
    .concat(c.emails.map((e) => e.value))
    .join(' ');
  const tokens = new Set(wordsOf(text).map((w) => w.slice(0, 64)));
  for (const phone of c.phones) {
    const digits = phone.value.replace(/\D+/g, '').slice(-20);
    for (let i = 0; i + 3 <= digits.length; i++) tokens.add(digits.slice(i));
  }
  return [...tokens].slice(0, MAX_TOKENS);
}

/** Whether every word starts one of the contact's tokens. */
export function matches(c: ContactFields, words: string[]): boolean {
  const tokens = tokensOf(c);
  return words.every((w) => tokens.some((t) => t.startsWith(w)));
}

async function putMany(items: Record<string, unknown>[]): Promise<void> {
  for (let i = 0; i < items.length; i += 25) {
    let pending: Record<string, unknown>[] | undefined = items
      .slice(i, i + 25)
      .map((Item) => ({ PutRequest: { Item } }));
    for (let attempt = 0; pending && pending.length > 0 && attempt < 8; attempt++) {
      if (attempt > 0) await sleep(20 * 2 ** attempt);
      const out = await db.send(new BatchWriteCommand({ RequestItems: { [TABLE()]: pending } }));
      pending = out.UnprocessedItems?.[TABLE()] as Record<string, unknown>[] | undefined;
    }
    if (pending && pending.length > 0) throw new Error('BatchWrite left items unprocessed');
  }
}

/**
 * Brings the postings of a contact from what `before` was found by to what `after` is (undefined:
 * a new contact, or a deleted one).
 */
export async function syncPostings(before: ContactRecord | undefined, after: ContactRecord | undefined): Promise<void> {
  const c = (after ?? before) as ContactRecord;
  const old = new Set(before ? tokensOf(before) : []);
  const now = new Set(after ? tokensOf(after) : []);
  const gone = [...old].filter((t) => !now.has(t));
  const added = [...now].filter((t) => !old.has(t));
  await Promise.all([
    deleteMany(gone.map((t) => postingKey(c.mailboxId, t, c.contactId))),
    putMany(
      added.map((t) => ({
        ...postingKey(c.mailboxId, t, c.contactId),
        contactId: c.contactId,
        addressBookId: c.addressBookId,
      })),
    ),
  ]);
}

/** The contact ids of the postings of tokens starting with `word`, oldest first, without repeats. */
export async function candidates(mailboxId: string, word: string, addressBookId?: string): Promise<string[]> {
  const found = await queryAll<{ contactId: string; addressBookId: string }>({
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :p AND :end',
    ProjectionExpression: 'contactId, addressBookId',
    // A range, not `begins_with` (DynamoDB Local reads the whole partition for that).
    ExpressionAttributeValues: {
      ':pk': contactKeys.pk(mailboxId),
      ':p': `${POSTING_PREFIX}${word}`,
      ':end': `${POSTING_PREFIX}${word}\u{10FFFF}`,
    },
  });
  const ids = new Set(
    found.filter((p) => addressBookId === undefined || p.addressBookId === addressBookId).map((p) => p.contactId),
  );
  return [...ids].sort();
}

export const contactIdOfKey = (sk: string) =>
  sk.startsWith(CONTACT_PREFIX.contact) ? sk.slice(CONTACT_PREFIX.contact.length) : undefined;
