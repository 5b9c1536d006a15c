import { invalid, isDomainError, notFound } from '../../kernel/ground/errors';
import { newId } from '../../kernel/store/ids';
import { queryPrefix, transact, updateVersioned } from '../../kernel/store/ops';
import { getItem, putNew, TABLE } from '../../kernel/store/table';
import { deleteObjects } from '../mail/objects';
import { removeContactsOf } from './contacts';
import { exportKeyFor } from './objects';
import { type AddressBookRecord, CONTACT_MESSAGES, CONTACT_PREFIX, contactKeys, MAX_BOOKS } from './records';

/** The name the default address book gets. */
export const DEFAULT_BOOK_NAME = 'Contacts';

interface Head {
  pk: string;
  sk: string;
  defaultId: string;
  books: number;
}

/**
 * An address book's `name` is any JSON (the spec's word), kept as text: a string as it is
 * (trimmed), anything else as its JSON. Empty or missing is a 400.
 */
export function bookName(value: unknown): string {
  const text = typeof value === 'string' ? value.trim() : value === undefined ? '' : JSON.stringify(value);
  if (text === '') throw invalid(CONTACT_MESSAGES.bookName);
  if (text.length > 200) throw invalid(CONTACT_MESSAGES.bookNameLong);
  return text;
}

const newBook = (mailboxId: string, name: string, isDefault: boolean): AddressBookRecord => {
  const addressBookId = newId('abk_');
  return {
    ...contactKeys.book(mailboxId, addressBookId),
    addressBookId,
    mailboxId,
    name,
    isDefault,
    createdAt: Date.now(),
    version: 1,
  };
};

class Taken extends Error {}

/**
 * The mailbox's contacts header, the default address book made with it on first use: one
 * transaction puts both, so concurrent first calls make exactly one (the losers read the winner's).
 */
export async function ensureHead(mailboxId: string): Promise<Head> {
  const key = contactKeys.head(mailboxId);
  const found = await getItem<Head>(key, true);
  if (found) return found;
  const book = newBook(mailboxId, DEFAULT_BOOK_NAME, true);
  const head: Head = { ...key, defaultId: book.addressBookId, books: 1 };
  try {
    await transact([putNew({ ...head }), putNew({ ...book })], [() => new Taken()]);
    return head;
  } catch (err) {
    if (!(err instanceof Taken)) throw err;
    const now = await getItem<Head>(key, true);
    if (!now) throw err;
    return now;
  }
}

/** The mailbox's address books, the default first, then oldest first. */
export async function listBooks(mailboxId: string): Promise<AddressBookRecord[]> {
  await ensureHead(mailboxId);
  const books = await queryPrefix<AddressBookRecord>(contactKeys.pk(mailboxId), CONTACT_PREFIX.book);
  return books.sort((a, b) => Number(b.isDefault) - Number(a.isDefault) || a.createdAt - b.createdAt);
}

export async function getBook(mailboxId: string, addressBookId: string): Promise<AddressBookRecord> {
  const book = await getItem<AddressBookRecord>(contactKeys.book(mailboxId, addressBookId));
  if (!book) {
    // The default address book exists from the first call on: made here if this is that call.
    const head = await ensureHead(mailboxId);
    if (head.defaultId === addressBookId) {
      const made = await getItem<AddressBookRecord>(contactKeys.book(mailboxId, addressBookId), true);
      if (made) return made;
    }
    throw notFound(CONTACT_MESSAGES.bookNotFound);
  }
  return book;
}

/** A new address book; the count in the header holds the limit under concurrent creates. */
export async function createBook(mailboxId: string, name: string): Promise<AddressBookRecord> {
  await ensureHead(mailboxId);
  const book = newBook(mailboxId, name, false);
  await transact(
    [
      {
        Update: {
          TableName: TABLE(),
          Key: contactKeys.head(mailboxId),
          UpdateExpression: 'SET books = books + :one',
          ConditionExpression: 'books < :max',
          ExpressionAttributeValues: { ':one': 1, ':max': MAX_BOOKS },
        },
      },
      putNew({ ...book }),
    ],
    [CONTACT_MESSAGES.tooManyBooks],
  );
  return book;
}

export async function renameBook(mailboxId: string, addressBookId: string, name: string): Promise<AddressBookRecord> {
  await getBook(mailboxId, addressBookId);
  try {
    return await updateVersioned<AddressBookRecord>(
      contactKeys.book(mailboxId, addressBookId),
      undefined,
      { name },
      CONTACT_MESSAGES.bookStale,
    );
  } catch (err) {
    // Deleted between the read and the write.
    if (isDomainError(err, 'conflict')) throw notFound(CONTACT_MESSAGES.bookNotFound);
    throw err;
  }
}

/** Deletes an address book with its contacts and their photos (never the default one). */
export async function deleteBook(mailboxId: string, addressBookId: string): Promise<void> {
  const book = await getBook(mailboxId, addressBookId);
  if (book.isDefault) throw invalid(CONTACT_MESSAGES.defaultBook);
  await removeContactsOf(mailboxId, addressBookId);
  try {
    await transact(
      [
        {
          Delete: {
            TableName: TABLE(),
            Key: contactKeys.book(mailboxId, addressBookId),
            ConditionExpression: 'attribute_exists(pk)',
          },
        },
        {
          Update: {
            TableName: TABLE(),
            Key: contactKeys.head(mailboxId),
            UpdateExpression: 'SET books = books - :one',
            ExpressionAttributeValues: { ':one': 1 },
          },
        },
      ],
      [() => notFound(CONTACT_MESSAGES.bookNotFound)],
    );
  } catch (err) {
    if (isDomainError(err, 'notFound')) return; // a concurrent delete did it
    throw err;
  }
  // Contacts written while it was being removed; large exports left in the bucket.
  await removeContactsOf(mailboxId, addressBookId);
  await deleteObjects(['3.0', '4.0'].map((v) => exportKeyFor(mailboxId, addressBookId, v)));
}
