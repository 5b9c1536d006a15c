import { DomainError, invalid, isDomainError, notFound } from '../../kernel/ground/errors';
import { deleteObjects, linkTo, putObject } from '../mail/objects';
import { getContact, replaceContact } from './contacts';
import { photoKeyFor } from './objects';
import { CONTACT_MESSAGES, type ContactRecord } from './records';

/** A photo's bytes may be at most this many. */
export const MAX_PHOTO_BYTES = 1024 * 1024;
/** A photo request's body may be at most this many bytes (the base64 of a 1 MB image fits). */
export const MAX_PHOTO_BODY_BYTES = 2 * 1024 * 1024;

export const PHOTO_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] as const;
export type PhotoType = (typeof PHOTO_TYPES)[number];

const starts = (b: Uint8Array, bytes: number[], at = 0) => bytes.every((x, i) => b[at + i] === x);
const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));

/** The image type the bytes are (their magic numbers), whatever they are said to be; else undefined. */
export function sniffImage(b: Uint8Array): PhotoType | undefined {
  if (starts(b, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (starts(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (starts(b, ascii('GIF87a')) || starts(b, ascii('GIF89a'))) return 'image/gif';
  if (starts(b, ascii('RIFF')) && starts(b, ascii('WEBP'), 8)) return 'image/webp';
  return undefined;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** The bytes of base64 `data` (whitespace allowed), refused when it is no base64. */
export function decodeBase64(data: string): Buffer {
  const compact = data.replace(/\s+/g, '');
  if (compact.length === 0 || compact.length % 4 === 1 || !BASE64.test(compact))
    throw invalid(CONTACT_MESSAGES.notBase64);
  return Buffer.from(compact, 'base64');
}

/** An image's bytes checked for a photo: at most 1 MB (413), and JPEG, PNG, GIF or WebP by its bytes. */
export function checkPhoto(bytes: Buffer): PhotoType {
  if (bytes.length > MAX_PHOTO_BYTES) throw new DomainError('tooLarge', CONTACT_MESSAGES.photoTooLarge);
  const type = sniffImage(bytes);
  if (!type) throw invalid(CONTACT_MESSAGES.notAnImage);
  return type;
}

/** Stores `bytes` (checked) as the contact's photo, in place of the one it had. */
export async function setPhoto(contact: ContactRecord, bytes: Buffer, type: PhotoType): Promise<ContactRecord> {
  const key = photoKeyFor(contact.mailboxId, contact.contactId);
  await putObject(key, bytes, type);
  let saved: ContactRecord;
  try {
    saved = await replaceContact(contact, { ...contact, photoKey: key, photoType: type });
  } catch (err) {
    await deleteObjects([key]);
    throw err;
  }
  if (contact.photoKey) await deleteObjects([contact.photoKey]);
  return saved;
}

/** Sets a contact's photo from base64 `data`; the stored type is the sniffed one. */
export async function putPhoto(mailboxId: string, contactId: string, data: string): Promise<ContactRecord> {
  const bytes = decodeBase64(data);
  const type = checkPhoto(bytes);
  for (let attempt = 0; ; attempt++) {
    const contact = await getContact(mailboxId, contactId);
    try {
      return await setPhoto(contact, bytes, type);
    } catch (err) {
      if (attempt >= 2 || !isDomainError(err, 'conflict')) throw err;
    }
  }
}

/** A 5-minute link to the contact's photo; 404 without one. */
export async function photoLink(mailboxId: string, contactId: string): Promise<string> {
  const contact = await getContact(mailboxId, contactId);
  if (!contact.photoKey) throw notFound(CONTACT_MESSAGES.noPhoto);
  return linkTo(contact.photoKey);
}

/** Removes the contact's photo (a contact without one stays as it is). */
export async function deletePhoto(mailboxId: string, contactId: string): Promise<ContactRecord> {
  for (let attempt = 0; ; attempt++) {
    const contact = await getContact(mailboxId, contactId);
    if (!contact.photoKey) return contact;
    const { photoKey: _k, photoType: _t, ...rest } = contact;
    try {
      const saved = await replaceContact(contact, rest);
      await deleteObjects([contact.photoKey]);
      return saved;
    } catch (err) {
      if (attempt >= 2 || !isDomainError(err, 'conflict')) throw err;
    }
  }
}
