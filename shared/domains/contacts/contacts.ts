import { randomUUID } from 'node:crypto';
import { conflict, invalid, isDomainError, notFound } from '../../kernel/ground/errors';
import { db } from '../../kernel/store/client';
import { DeleteCommand, PutCommand } from '../../kernel/store/commands';
import { decodeCursor, encodeCursor } from '../../kernel/store/cursor';
import { newId } from '../../kernel/store/ids';
import { deleteMany, putOnce, queryAll, queryPages } from '../../kernel/store/ops';
import { getItem, getMany, TABLE } from '../../kernel/store/table';
import { deleteObjects } from '../mail/objects';
import { recordCardGone } from './changes';
import {
  type Address,
  CONTACT_MESSAGES,
  CONTACT_PREFIX,
  type ContactFields,
  type ContactName,
  type ContactRecord,
  contactKeys,
  type Typed,
} from './records';
import { candidates, contactIdOfKey, matches, postingKey, syncPostings, tokensOf, wordsOf } from './search';

/** What a create or an update may give (the routes' body, or a card of an import). */
export interface ContactInput {
  fullName?: string;
  name?: Partial<ContactName>;
  nickname?: string;
  emails?: Typed[];
  phones?: Typed[];
  urls?: Typed[];
  addresses?: Partial<Address>[];
  organization?: unknown;
  department?: unknown;
  title?: unknown;
  /** '' clears it. */
  birthday?: string;
  anniversary?: string;
  notes?: string;
  categories?: string[];
}

/** `organization`, `department` and `title` take any JSON, kept as text (null: empty). */
export const asText = (v: unknown): string =>
  v === undefined || v === null ? '' : typeof v === 'string' ? v.trim() : JSON.stringify(v);

const DATE = /^(\d{4}|-)-(\d{2})-(\d{2})$/;

/** YYYY-MM-DD, or --MM-DD for an unknown year (29 February included); anything else is a 400. */
export function checkDate(value: string): string {
  const m = DATE.exec(value);
  if (!m) throw invalid(CONTACT_MESSAGES.badDate);
  const year = m[1] === '-' ? 2000 : Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  const d = new Date(Date.UTC(year, month - 1, day));
  if (month < 1 || month > 12 || d.getUTCMonth() !== month - 1 || d.getUTCDate() !== day || year < 1) {
    throw invalid(CONTACT_MESSAGES.badDate);
  }
  return value;
}

const EMPTY_NAME: ContactName = { family: '', given: '', additional: '', prefix: '', suffix: '' };
const address = (a: Partial<Address>): Address => ({
  type: a.type ?? 'home',
  poBox: a.poBox ?? '',
  extended: a.extended ?? '',
  street: a.street ?? '',
  locality: a.locality ?? '',
  region: a.region ?? '',
  postalCode: a.postalCode ?? '',
  country: a.country ?? '',
});
/** One preferred entry at most (the first marked). */
const typed = (list: Typed[]): Typed[] => {
  let seen = false;
  return list.map(({ value, type, pref }) => {
    const first = Boolean(pref) && !seen;
    if (first) seen = true;
    return first ? { value, type, pref: true } : { value, type };
  });
};

/** `base` with what `input` gives; left-out fields keep their value, an empty date clears it. */
export function merge(base: ContactFields, input: ContactInput): ContactFields {
  const out: ContactFields = { ...base };
  if (input.fullName !== undefined) out.fullName = input.fullName.trim();
  if (input.name !== undefined) out.name = { ...EMPTY_NAME, ...input.name };
  if (input.nickname !== undefined) out.nickname = input.nickname.trim();
  if (input.emails !== undefined) out.emails = typed(input.emails);
  if (input.phones !== undefined) out.phones = typed(input.phones);
  if (input.urls !== undefined) out.urls = typed(input.urls);
  if (input.addresses !== undefined) out.addresses = input.addresses.map(address);
  for (const field of ['organization', 'department', 'title'] as const) {
    if (input[field] === undefined) continue;
    const text = asText(input[field]);
    if (text.length > 1000) throw invalid(CONTACT_MESSAGES.textTooLong(field));
    out[field] = text;
  }
  if (input.notes !== undefined) out.notes = input.notes;
  if (input.categories !== undefined) out.categories = [...new Set(input.categories)];
  for (const field of ['birthday', 'anniversary'] as const) {
    const v = input[field];
    if (v === undefined) continue;
    if (v === '') delete out[field];
    else out[field] = checkDate(v);
  }
  const hasName = out.fullName !== '' || out.nickname !== '' || Object.values(out.name).some((part) => part !== '');
  if (!hasName && out.organization === '' && out.emails.length === 0 && out.phones.length === 0) {
    throw invalid(CONTACT_MESSAGES.needsSomething);
  }
  return out;
}

export const EMPTY_CONTACT: ContactFields = {
  fullName: '',
  name: EMPTY_NAME,
  nickname: '',
  emails: [],
  phones: [],
  urls: [],
  addresses: [],
  organization: '',
  department: '',
  title: '',
  notes: '',
  categories: [],
};

/** The record of a new contact (not yet written). */
export function newContact(
  mailboxId: string,
  addressBookId: string,
  input: ContactInput,
  uid: string = randomUUID(),
): ContactRecord {
  const fields = merge(EMPTY_CONTACT, input);
  const contactId = newId('ctc_');
  const now = Date.now();
  return {
    ...contactKeys.contact(mailboxId, contactId),
    contactId,
    addressBookId,
    mailboxId,
    uid,
    version: 1,
    createdAt: now,
    updatedAt: now,
    ...fields,
  };
}

/** Writes a new contact, then its search postings. */
export async function putContact(record: ContactRecord): Promise<ContactRecord> {
  await putOnce({ Item: record, ConditionExpression: 'attribute_not_exists(pk)' });
  await syncPostings(undefined, record);
  return record;
}

/** A contact of the mailbox; with `addressBookId`, only in that address book. Else 404. */
export async function getContact(mailboxId: string, contactId: string, addressBookId?: string): Promise<ContactRecord> {
  const c = await getItem<ContactRecord>(contactKeys.contact(mailboxId, contactId), true);
  if (!c || (addressBookId !== undefined && c.addressBookId !== addressBookId))
    throw notFound(CONTACT_MESSAGES.contactNotFound);
  return c;
}

/**
 * Writes `next` over `current` if it is still at `expected` (default: the version read), raising
 * the version. A stale `expected` is 409; a contact deleted meanwhile is 404.
 */
export async function replaceContact(
  current: ContactRecord,
  next: ContactRecord,
  expected = current.version,
): Promise<ContactRecord> {
  const record: ContactRecord = { ...next, version: current.version + 1, updatedAt: Date.now() };
  if (expected !== current.version) throw conflict(CONTACT_MESSAGES.stale);
  try {
    await db.send(
      new PutCommand({
        TableName: TABLE(),
        Item: record,
        ConditionExpression: 'attribute_exists(pk) AND version = :v',
        ExpressionAttributeValues: { ':v': expected },
      }),
    );
  } catch (err) {
    if ((err as Error).name !== 'ConditionalCheckFailedException') throw err;
    const again = await getItem<ContactRecord>(contactKeys.contact(current.mailboxId, current.contactId), true);
    if (!again) throw notFound(CONTACT_MESSAGES.contactNotFound);
    throw conflict(CONTACT_MESSAGES.stale);
  }
  await syncPostings(current, record);
  return record;
}

/** The contact with `input` applied (PUT): fields left out keep their value. */
export async function updateContact(
  mailboxId: string,
  addressBookId: string,
  contactId: string,
  input: ContactInput,
  ifVersion?: number,
): Promise<ContactRecord> {
  for (let attempt = 0; ; attempt++) {
    const current = await getContact(mailboxId, contactId, addressBookId);
    const fields = merge(current, input);
    const { birthday: _b, anniversary: _a, ...kept } = current;
    try {
      return await replaceContact(current, { ...kept, ...fields }, ifVersion ?? current.version);
    } catch (err) {
      // Without ifVersion the caller asked for no guard: a concurrent write is merged again.
      if (ifVersion !== undefined || attempt >= 2 || !isDomainError(err, 'conflict')) throw err;
    }
  }
}

/** Deletes a contact and its photo, leaving a tombstone in its address book (./changes.ts). */
export async function deleteContact(mailboxId: string, addressBookId: string, contactId: string): Promise<void> {
  const c = await getContact(mailboxId, contactId, addressBookId);
  await db.send(new DeleteCommand({ TableName: TABLE(), Key: contactKeys.contact(mailboxId, contactId) }));
  await recordCardGone(c);
  await syncPostings(c, undefined);
  if (c.photoKey) await deleteObjects([c.photoKey]);
}

/**
 * The key range of a mailbox's contacts. A range, not `begins_with`: DynamoDB Local reads a whole
 * partition for `begins_with`, and the mailbox's partition holds its mail and the search index too.
 */
const contactRange = (mailboxId: string) => ({
  ':pk': contactKeys.pk(mailboxId),
  ':p': CONTACT_PREFIX.contact,
  ':end': `${CONTACT_PREFIX.contact}\u{10FFFF}`,
});

/** Deletes every contact of an address book, their postings and photos included. */
export async function removeContactsOf(mailboxId: string, addressBookId: string): Promise<void> {
  const found = await contactsOf(mailboxId, addressBookId);
  const keys = found.flatMap((c) => [
    { pk: c.pk, sk: c.sk },
    ...tokensOf(c).map((t) => postingKey(mailboxId, t, c.contactId)),
  ]);
  // Eight batch writers at once: a large address book has some 15 postings a contact.
  const slice = Math.ceil(keys.length / 8 / 25) * 25;
  const slices = Array.from({ length: 8 }, (_, i) => keys.slice(i * slice, (i + 1) * slice));
  await Promise.all(slices.map((part) => deleteMany(part)));
  const photos = found.flatMap((c) => (c.photoKey ? [c.photoKey] : []));
  for (let i = 0; i < photos.length; i += 1000) await deleteObjects(photos.slice(i, i + 1000));
}

/** The contacts of an address book (uid and id), for an import to find known UIDs. */
export async function uidsOf(mailboxId: string, addressBookId: string): Promise<Map<string, string>> {
  const found = await queryAll<{ contactId: string; uid: string }>({
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :p AND :end',
    FilterExpression: 'addressBookId = :a',
    ProjectionExpression: 'contactId, #uid',
    ExpressionAttributeNames: { '#uid': 'uid' },
    ExpressionAttributeValues: { ...contactRange(mailboxId), ':a': addressBookId },
  });
  return new Map(found.map((c) => [c.uid, c.contactId]));
}

/** Every contact of an address book, oldest first (export). */
export function contactsOf(mailboxId: string, addressBookId: string): Promise<ContactRecord[]> {
  return queryAll<ContactRecord>({
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :p AND :end',
    FilterExpression: 'addressBookId = :a',
    ExpressionAttributeValues: { ...contactRange(mailboxId), ':a': addressBookId },
  });
}

/**
 * A page of the mailbox's contacts, oldest first: in one address book, or all; with `q`, those
 * where every word starts a word of a name, an email address or the organization, or is a part of
 * a phone's digits (shared/domains/contacts/search.ts), case and accents aside.
 */
export async function listContacts(
  cursorScope: string,
  mailboxId: string,
  options: { q?: string; addressBookId?: string; limit: number; cursor?: string },
): Promise<{ contacts: ContactRecord[]; cursor: string | null }> {
  const start = decodeCursor<{ pk: string; sk: string }>(cursorScope, options.cursor);
  const after = start ? contactIdOfKey(String(start.sk)) : undefined;
  if (start && (start.pk !== contactKeys.pk(mailboxId) || after === undefined)) {
    throw invalid('Invalid page cursor. Run the request again.');
  }
  const words = [...new Set(wordsOf(options.q ?? '').map((w) => w.slice(0, 64)))];
  if (words.length > 0) return searchContacts(cursorScope, mailboxId, words, options, after);
  const contacts: ContactRecord[] = [];
  const filter = options.addressBookId !== undefined;
  const pages = queryPages<ContactRecord>(
    () => ({
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :p AND :end',
      ...(filter ? { FilterExpression: 'addressBookId = :a' } : {}),
      ExpressionAttributeValues: {
        ...contactRange(mailboxId),
        ...(filter ? { ':a': options.addressBookId } : {}),
      },
      // Read ahead by one, so a last page says so.
      Limit: options.limit - contacts.length + 1,
    }),
    start,
  );
  for await (const { items } of pages) {
    const room = options.limit - contacts.length;
    if (items.length > room) {
      contacts.push(...items.slice(0, room));
      return { contacts, cursor: cursorAfter(cursorScope, contacts) };
    }
    contacts.push(...items);
  }
  return { contacts, cursor: null };
}

const cursorAfter = (scope: string, contacts: ContactRecord[]) => {
  const last = contacts[contacts.length - 1] as ContactRecord;
  return encodeCursor(scope, { pk: last.pk, sk: last.sk });
};

/** A page of `q`: the postings of its longest word, each contact read and checked against every word. */
async function searchContacts(
  cursorScope: string,
  mailboxId: string,
  words: string[],
  options: { addressBookId?: string; limit: number },
  after: string | undefined,
): Promise<{ contacts: ContactRecord[]; cursor: string | null }> {
  const lead = words.reduce((a, b) => (b.length > a.length ? b : a));
  const ids = (await candidates(mailboxId, lead, options.addressBookId)).filter(
    (id) => after === undefined || id > after,
  );
  const contacts: ContactRecord[] = [];
  for (let i = 0; i < ids.length; i += 100) {
    const chunk = ids.slice(i, i + 100);
    const found = await getMany<ContactRecord>(chunk.map((id) => contactKeys.contact(mailboxId, id)));
    for (let j = 0; j < found.length; j++) {
      const c = found[j];
      if (!c || !matches(c, words)) continue;
      contacts.push(c);
      if (contacts.length === options.limit) {
        const more = i + j + 1 < ids.length;
        return { contacts, cursor: more ? cursorAfter(cursorScope, contacts) : null };
      }
    }
  }
  return { contacts, cursor: null };
}
