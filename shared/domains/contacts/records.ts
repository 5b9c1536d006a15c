import { PREFIXES } from '../../kernel/store/keys';
import { publicFields } from '../../kernel/store/table';
import type { AddressBookRecord, Contact, ContactRecord, ContactTypedValue } from './record-schemas';

/**
 * Address books and contacts of a mailbox, in the platform table, in the mailbox's own partition
 * beside its mail (`MBX#<mailboxId>`, sort keys under `CTS#`), and their photos and files in the
 * artifacts bucket under the mailbox's folder (`mail/<mailboxId>/contacts…`): deleting a mailbox
 * (shared/domains/mail/admin.ts), which removes that partition and that folder, removes them too.
 *
 * | record | pk | sk |
 * |---|---|---|
 * | the contacts header: default address book, count of address books | `MBX#<mailboxId>` | `CTS#HEAD` |
 * | an address book | `MBX#<mailboxId>` | `CTS#ABK#<addressBookId>` |
 * | a contact | `MBX#<mailboxId>` | `CTS#CTC#<contactId>` |
 *
 * | a search posting of a contact (shared/domains/contacts/search.ts) | `MBX#<mailboxId>` | `CTS#W#<token>#<contactId>` |
 *
 * Contacts of every address book share one sort key prefix, so the mailbox's contacts are one
 * Query (oldest first: ids are time-ordered), filtered by address book; `q` reads the postings.
 */
export const contactKeys = {
  pk: (mailboxId: string) => `${PREFIXES.mail.mailbox}${mailboxId}`,
  head: (mailboxId: string) => ({
    pk: `${PREFIXES.mail.mailbox}${mailboxId}`,
    sk: `${PREFIXES.contacts.contacts}HEAD`,
  }),
  book: (mailboxId: string, addressBookId: string) => ({
    pk: `${PREFIXES.mail.mailbox}${mailboxId}`,
    sk: `${PREFIXES.contacts.book}${addressBookId}`,
  }),
  contact: (mailboxId: string, contactId: string) => ({
    pk: `${PREFIXES.mail.mailbox}${mailboxId}`,
    sk: `${PREFIXES.contacts.contact}${contactId}`,
  }),
};
export const CONTACT_PREFIX = { book: PREFIXES.contacts.book, contact: PREFIXES.contacts.contact } as const;

/** At most this many address books per mailbox. */
export const MAX_BOOKS = 20;

/** The group's messages, one place (routes declare them, tests compare them). */
export const CONTACT_MESSAGES = {
  bookNotFound: 'Address book not found',
  contactNotFound: 'Contact not found',
  tooManyBooks: `A mailbox can have at most ${MAX_BOOKS} address books.`,
  defaultBook: "The default address book can't be deleted.",
  bookName: 'The address book needs a name.',
  bookNameLong: 'An address book name can be at most 200 characters.',
  needsSomething: 'A contact needs at least a name, an organization, an email address or a phone number.',
  stale: 'This contact changed since it was read. Reload and try again.',
  bookStale: 'This address book changed since it was read. Reload and try again.',
  textTooLong: (field: string) => `The ${field} can be at most 1,000 characters.`,
  badDate: 'Dates are YYYY-MM-DD, or --MM-DD for an unknown year.',
  noPhoto: 'This contact has no photo.',
  photoTooLarge: 'Photos can be at most 1 MB.',
  photoBodyTooLarge: 'The request body can be at most 2 MB.',
  notAnImage: 'The photo must be a JPEG, PNG, GIF or WebP image.',
  notBase64: 'The photo data must be base64.',
} as const;

export type { AddressBookRecord, ContactRecord } from './record-schemas';
export type Typed = ContactTypedValue;
export type Address = Contact['addresses'][number];
export type ContactName = Contact['name'];

/** What a contact holds, as the API shows it (without its ids and bookkeeping). */
export type ContactFields = Omit<
  Contact,
  'contactId' | 'addressBookId' | 'uid' | 'version' | 'updatedAt' | 'hasPhoto' | 'displayName'
>;

export const shownBook = (b: AddressBookRecord) => ({
  addressBookId: b.addressBookId,
  name: b.name,
  isDefault: b.isDefault,
  version: b.version,
});

/** The name a contact is shown by: its full name, else what it has. */
export function displayNameOf(c: ContactFields): string {
  const composed = [c.name.prefix, c.name.given, c.name.additional, c.name.family, c.name.suffix]
    .filter(Boolean)
    .join(' ');
  return c.fullName || composed || c.nickname || c.organization || c.emails[0]?.value || c.phones[0]?.value || '';
}

export function shownContact(c: ContactRecord) {
  const {
    photoKey,
    photoType: _t,
    davName: _d,
    mailboxId: _m,
    createdAt: _c,
    ...rest
  } = publicFields(c as unknown as Record<string, unknown> & ContactRecord);
  return { ...rest, hasPhoto: Boolean(photoKey), displayName: displayNameOf(c) };
}

/** Lowercase, accents removed: what the words of `q` and of contacts are compared in. */
export const fold = (s: string) =>
  s
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
