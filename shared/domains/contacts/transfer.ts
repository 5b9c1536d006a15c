import { randomUUID } from 'node:crypto';
import { DomainError, invalid, isCallersError } from '../../kernel/ground/errors';
import { getItem } from '../../kernel/store/table';
import {
  IMPORT_CHUNK,
  IMPORT_MESSAGES,
  type ImportAnswer,
  importToken,
  MAX_IMPORT_CONTENT_BYTES,
  MAX_IMPORT_UPLOAD_BYTES,
  MAX_INLINE_EXPORT_BYTES,
  readImportToken,
  startUpload,
} from '../mail/imports';
import { deleteObjects, getObject, linkTo, putObject } from '../mail/objects';
import { contactsOf, EMPTY_CONTACT, merge, newContact, putContact, replaceContact, uidsOf } from './contacts';
import { exportKeyFor, fileKeyFor, filesFolder } from './objects';
import { checkPhoto, setPhoto } from './photos';
import { type AddressBookRecord, type ContactRecord, contactKeys } from './records';
import type { RawCard } from './vcard-in';
import { contactToVCard, type VCardVersion } from './vcard-out';

/**
 * vCard import and export of an address book. An import takes the file in the body (`content`, up
 * to 4 MB) or by a presigned upload (`size`), and works through it in chunks of 200 cards, one per
 * call: each answer says what it did and, until `done`, the `next` token to call again with. A card
 * whose UID the address book knows updates that contact; nobody is emailed. An export answers the
 * file, or, past what a Lambda response can carry, a link to it.
 */
export { IMPORT_CHUNK, MAX_IMPORT_CONTENT_BYTES, MAX_IMPORT_UPLOAD_BYTES, MAX_INLINE_EXPORT_BYTES };

const MAX_WARNINGS = 100;
const VCARD_TYPE = 'text/vcard; charset=utf-8';

export const CONTACT_TRANSFER_MESSAGES = {
  ...IMPORT_MESSAGES,
  contentTooLarge: 'An import body can hold at most 4 MB of vCard: upload a larger file (send its `size`).',
  noCards: 'No vCard (BEGIN:VCARD … END:VCARD) was found.',
} as const;

export type { ImportAnswer };

/** The vCard reader (ical.js), loaded by the first import: the other routes never need it. */
const vcardReader = () => import('./vcard-in');

const scopeOf = (orgId: string, book: AddressBookRecord) =>
  `${orgId}:${book.mailboxId}:${book.addressBookId}:contacts-import`;

/** Imports the cards `offset` … `offset + IMPORT_CHUNK` of `cards` into the address book. */
async function importChunk(book: AddressBookRecord, cards: RawCard[], offset: number) {
  const { cardToContact, parseCard } = await vcardReader();
  const { mailboxId, addressBookId } = book;
  const uids = await uidsOf(mailboxId, addressBookId);
  const out = { imported: 0, updated: 0, skipped: 0, warnings: [] as string[] };
  let dropped = 0;
  const warn = (card: RawCard, text: string) => {
    if (out.warnings.length < MAX_WARNINGS) out.warnings.push(`Card ${card.index}: ${text}`);
    else dropped++;
  };
  for (const card of cards.slice(offset, offset + IMPORT_CHUNK)) {
    const parsed = parseCard(card);
    if ('error' in parsed) {
      out.skipped++;
      warn(card, `not read (${parsed.error}); skipped`);
      continue;
    }
    const { uid = randomUUID(), input, photo, warnings } = cardToContact(parsed.props);
    for (const w of warnings) warn(card, w);
    let record: ContactRecord;
    try {
      const knownId = uids.get(uid);
      const current = knownId ? await getItem<ContactRecord>(contactKeys.contact(mailboxId, knownId), true) : undefined;
      if (current) {
        const fields = merge(EMPTY_CONTACT, input);
        const { birthday: _b, anniversary: _a, ...kept } = current;
        record = await replaceContact(current, { ...kept, ...fields });
        out.updated++;
      } else {
        record = await putContact(newContact(mailboxId, addressBookId, input, uid));
        uids.set(uid, record.contactId);
        out.imported++;
      }
    } catch (err) {
      if (!isCallersError(err)) throw err;
      out.skipped++;
      warn(card, `${err.message} Skipped.`);
      continue;
    }
    if (photo) {
      try {
        await setPhoto(record, photo, checkPhoto(photo));
      } catch (err) {
        if (!(err instanceof DomainError)) throw err;
        warn(card, `photo left out: ${err.message}`);
      }
    }
  }
  if (dropped > 0) out.warnings.push(`… and ${dropped} more warnings.`);
  return out;
}

/** An uploaded file's text: UTF-8, or (old exports) Windows-1252 when it is no valid UTF-8. */
function textOf(bytes: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
}

/** An import's first call with the file in the body. */
export async function importContent(orgId: string, book: AddressBookRecord, content: string): Promise<ImportAnswer> {
  const bytes = Buffer.from(content, 'utf8');
  if (bytes.length > MAX_IMPORT_CONTENT_BYTES)
    throw new DomainError('tooLarge', CONTACT_TRANSFER_MESSAGES.contentTooLarge);
  const cards = (await vcardReader()).splitCards(content);
  if (cards.length === 0) throw invalid(CONTACT_TRANSFER_MESSAGES.noCards);
  const result = await importChunk(book, cards, 0);
  if (cards.length <= IMPORT_CHUNK) return { ...result, done: true, next: null };
  const key = fileKeyFor(book.mailboxId, 'imp_', 'vcf');
  await putObject(key, bytes, VCARD_TYPE);
  return { ...result, done: false, next: importToken(scopeOf(orgId, book), key, IMPORT_CHUNK) };
}

/** An import's first call for a file sent by upload: the link to PUT it to, and the token to go on with. */
export async function importUpload(orgId: string, book: AddressBookRecord, size: number): Promise<ImportAnswer> {
  return startUpload(scopeOf(orgId, book), fileKeyFor(book.mailboxId, 'imp_', 'vcf'), 'text/vcard', size);
}

/** The next chunk of an import, by its token. */
export async function importNext(orgId: string, book: AddressBookRecord, next: string): Promise<ImportAnswer> {
  const token = readImportToken(scopeOf(orgId, book), next, filesFolder(book.mailboxId));
  const bytes = await getObject(token.key);
  if (!bytes) throw invalid(CONTACT_TRANSFER_MESSAGES.notUploaded);
  const cards = (await vcardReader()).splitCards(textOf(bytes));
  if (cards.length === 0) {
    await deleteObjects([token.key]);
    throw invalid(CONTACT_TRANSFER_MESSAGES.noCards);
  }
  const result = await importChunk(book, cards, token.offset);
  const offset = token.offset + IMPORT_CHUNK;
  if (offset < cards.length) {
    return { ...result, done: false, next: importToken(scopeOf(orgId, book), token.key, offset) };
  }
  await deleteObjects([token.key]);
  return { ...result, done: true, next: null };
}

/** The address book as one vCard file (photos inline), oldest contact first. */
export async function exportBook(book: AddressBookRecord, version: VCardVersion): Promise<string> {
  const contacts = await contactsOf(book.mailboxId, book.addressBookId);
  const parts: string[] = new Array(contacts.length);
  let i = 0;
  const worker = async () => {
    while (i < contacts.length) {
      const at = i++;
      const c = contacts[at] as ContactRecord;
      const photo = c.photoKey ? await getObject(c.photoKey) : undefined;
      parts[at] = contactToVCard(c, version, photo);
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
  return parts.join('');
}

/** A file name for the export: the address book's name, made safe. */
export const exportName = (book: AddressBookRecord) =>
  `${
    book.name
      .replace(/[^\p{L}\p{N} ._-]+/gu, '_')
      .slice(0, 60)
      .trim() || 'contacts'
  }.vcf`;

/** A link (5 minutes) to the export, written to the bucket. */
export async function exportLink(book: AddressBookRecord, version: VCardVersion, text: string): Promise<string> {
  const key = exportKeyFor(book.mailboxId, book.addressBookId, version);
  await putObject(key, Buffer.from(text, 'utf8'), VCARD_TYPE);
  return linkTo(key, exportName(book));
}

export { VCARD_TYPE };
