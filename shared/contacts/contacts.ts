import { randomUUID } from 'node:crypto';
import { DeleteCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { badRequest, conflict, notFound } from '../ground/errors';
import { db } from '../store/client';
import { decodeCursor, encodeCursor } from '../store/cursor';
import { newId } from '../store/ids';
import { deleteMany, getItem, queryAll, TABLE } from '../store/table';
import { removePhotos } from './objects';
import {
  type Address,
  CM,
  CONTACT_PREFIX,
  type ContactFields,
  type ContactName,
  type ContactRecord,
  contactKeys,
  fold,
  searchTerms,
  type Typed,
} from './records';

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
  if (!m) throw badRequest(CM.badDate);
  const year = m[1] === '-' ? 2000 : Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  const d = new Date(Date.UTC(year, month - 1, day));
  if (month < 1 || month > 12 || d.getUTCMonth() !== month - 1 || d.getUTCDate() !== day || year < 1) {
    throw badRequest(CM.badDate);
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
    if (text.length > 1000) throw badRequest(CM.textTooLong(field));
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
    throw badRequest(CM.needsSomething);
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
    ...searchTerms(fields),
  };
}

/** Writes a new contact. */
export async function putContact(record: ContactRecord): Promise<ContactRecord> {
  await db.send(new PutCommand({ TableName: TABLE(), Item: record, ConditionExpression: 'attribute_not_exists(pk)' }));
  return record;
}

/** A contact of the mailbox; with `addressBookId`, only in that address book. Else 404. */
export async function getContact(mailboxId: string, contactId: string, addressBookId?: string): Promise<ContactRecord> {
  const c = await getItem<ContactRecord>(contactKeys.contact(mailboxId, contactId), true);
  if (!c || (addressBookId !== undefined && c.addressBookId !== addressBookId)) throw notFound(CM.contactNotFound);
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
  if (expected !== current.version) throw conflict(CM.stale);
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
    if (!again) throw notFound(CM.contactNotFound);
    throw conflict(CM.stale);
  }
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
      return await replaceContact(
        current,
        { ...kept, ...fields, ...searchTerms(fields) },
        ifVersion ?? current.version,
      );
    } catch (err) {
      // Without ifVersion the caller asked for no guard: a concurrent write is merged again.
      if (ifVersion !== undefined || attempt >= 2 || (err as { status?: number }).status !== 409) throw err;
    }
  }
}

/** Deletes a contact and its photo. */
export async function deleteContact(mailboxId: string, addressBookId: string, contactId: string): Promise<void> {
  const c = await getContact(mailboxId, contactId, addressBookId);
  await db.send(new DeleteCommand({ TableName: TABLE(), Key: contactKeys.contact(mailboxId, contactId) }));
  if (c.photoKey) await removePhotos([c.photoKey]);
}

/** Deletes every contact of an address book, photos included. */
export async function removeContactsOf(mailboxId: string, addressBookId: string): Promise<void> {
  const found = await queryAll<{ pk: string; sk: string; photoKey?: string }>({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
    FilterExpression: 'addressBookId = :a',
    ProjectionExpression: 'pk, sk, photoKey',
    ExpressionAttributeValues: { ':pk': contactKeys.pk(mailboxId), ':p': CONTACT_PREFIX.contact, ':a': addressBookId },
  });
  await deleteMany(found.map(({ pk, sk }) => ({ pk, sk })));
  await removePhotos(found.flatMap((c) => (c.photoKey ? [c.photoKey] : [])));
}

/** The contacts of an address book (uid and id), for an import to find known UIDs. */
export async function uidsOf(mailboxId: string, addressBookId: string): Promise<Map<string, string>> {
  const found = await queryAll<{ contactId: string; uid: string }>({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
    FilterExpression: 'addressBookId = :a',
    ProjectionExpression: 'contactId, #uid',
    ExpressionAttributeNames: { '#uid': 'uid' },
    ExpressionAttributeValues: { ':pk': contactKeys.pk(mailboxId), ':p': CONTACT_PREFIX.contact, ':a': addressBookId },
  });
  return new Map(found.map((c) => [c.uid, c.contactId]));
}

/** Every contact of an address book, oldest first (export). */
export function contactsOf(mailboxId: string, addressBookId: string): Promise<ContactRecord[]> {
  return queryAll<ContactRecord>({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
    FilterExpression: 'addressBookId = :a',
    ExpressionAttributeValues: { ':pk': contactKeys.pk(mailboxId), ':p': CONTACT_PREFIX.contact, ':a': addressBookId },
  });
}

/** A phone-like word (digits and punctuation only) also matches the phones' digits. */
const PHONEISH = /^[\d\s()+\-./]+$/;

/**
 * A page of the mailbox's contacts, oldest first: in one address book, or all; with `q`, those
 * where every word is found in a name, an email address, the organization, or (digits) a phone.
 */
export async function listContacts(
  cursorScope: string,
  mailboxId: string,
  options: { q?: string; addressBookId?: string; limit: number; cursor?: string },
): Promise<{ contacts: ContactRecord[]; cursor: string | null }> {
  const start = decodeCursor<{ pk: string; sk: string }>(cursorScope, options.cursor);
  if (start && (start.pk !== contactKeys.pk(mailboxId) || typeof start.sk !== 'string')) {
    throw badRequest('Invalid page cursor. Run the request again.');
  }
  const filters: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ':pk': contactKeys.pk(mailboxId), ':p': CONTACT_PREFIX.contact };
  if (options.addressBookId !== undefined) {
    filters.push('addressBookId = :a');
    values[':a'] = options.addressBookId;
  }
  const words = [
    ...new Set(
      fold(options.q ?? '')
        .split(/\s+/)
        .filter(Boolean),
    ),
  ];
  words.forEach((word, i) => {
    names['#s'] = 'search';
    values[`:w${i}`] = word;
    const digits = word.replace(/\D+/g, '');
    if (PHONEISH.test(word) && digits !== '') {
      names['#d'] = 'digits';
      values[`:d${i}`] = digits;
      filters.push(`(contains(#s, :w${i}) OR contains(#d, :d${i}))`);
    } else filters.push(`contains(#s, :w${i})`);
  });
  const filtered = filters.length > 0;
  const contacts: ContactRecord[] = [];
  let from: Record<string, unknown> | undefined = start;
  for (;;) {
    const out = await db.send(
      new QueryCommand({
        TableName: TABLE(),
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
        ...(filtered ? { FilterExpression: filters.join(' AND ') } : {}),
        ...(Object.keys(names).length > 0 ? { ExpressionAttributeNames: names } : {}),
        ExpressionAttributeValues: values,
        ExclusiveStartKey: from,
        // Read ahead by one, so a last page says so.
        Limit: filtered ? 1000 : options.limit - contacts.length + 1,
      }),
    );
    const items = (out.Items ?? []) as ContactRecord[];
    const room = options.limit - contacts.length;
    if (items.length > room) {
      contacts.push(...items.slice(0, room));
      const last = contacts[contacts.length - 1] as ContactRecord;
      return { contacts, cursor: encodeCursor(cursorScope, { pk: last.pk, sk: last.sk }) };
    }
    contacts.push(...items);
    from = out.LastEvaluatedKey;
    if (!from) return { contacts, cursor: null };
    if (contacts.length === options.limit) {
      const last = contacts[contacts.length - 1] as ContactRecord;
      return { contacts, cursor: encodeCursor(cursorScope, { pk: last.pk, sk: last.sk }) };
    }
  }
}
