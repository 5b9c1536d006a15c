import { artifactsBucket } from '../deployments/sources';
import { storage } from '../storage';
import { newId } from '../store/ids';

/**
 * Contacts' bytes in the artifacts bucket, in the mailbox's folder (removed with the mailbox):
 * photos (`mail/<mailboxId>/contacts/<contactId>/<photoId>`, a new key for each photo, so a link
 * handed out never shows a later one), import files and large exports
 * (`mail/<mailboxId>/contacts-files/…`). They travel by short presigned links.
 */
const bucket = () => ({ name: artifactsBucket() });

/** Where a mailbox's import files and large exports are. */
export const filesFolder = (mailboxId: string) => `mail/${mailboxId}/contacts-files/`;

export const photoKeyFor = (mailboxId: string, contactId: string) =>
  `mail/${mailboxId}/contacts/${contactId}/${newId('ph_')}`;
export const fileKeyFor = (mailboxId: string, prefix: string, ext: string) =>
  `${filesFolder(mailboxId)}${newId(prefix)}.${ext}`;

/** The key a large export is written to: one per address book and version, replaced each time. */
export const exportKeyFor = (mailboxId: string, addressBookId: string, version: string) =>
  `${filesFolder(mailboxId)}export-${addressBookId}-${version}.vcf`;

/** Writes an object; a 5xx answer is tried again, three times at most. */
export async function putBytes(key: string, body: Buffer, contentType: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const url = await storage.presignPut(bucket(), key, { contentType, size: body.length, expiresIn: 120 });
    const res = await fetch(url, { method: 'PUT', headers: { 'content-type': contentType }, body });
    if (res.ok) return;
    if (res.status < 500 || attempt >= 3) throw new Error(`Writing a contacts object failed (HTTP ${res.status}).`);
    await new Promise((r) => setTimeout(r, 50 * attempt));
  }
}

/** An object's bytes; undefined when it is not there. */
export async function getBytes(key: string): Promise<Buffer | undefined> {
  const url = await storage.presignGet(bucket(), key, { expiresIn: 120 });
  const res = await fetch(url);
  if (res.status === 404) return undefined;
  if (!res.ok) throw new Error(`Reading a contacts object failed (HTTP ${res.status}).`);
  return Buffer.from(await res.arrayBuffer());
}

/** A presigned GET (5 minutes by default). */
export const linkTo = (key: string, options: { filename?: string; expiresIn?: number } = {}) =>
  storage.presignGet(bucket(), key, {
    expiresIn: options.expiresIn ?? 300,
    ...(options.filename ? { filename: options.filename } : {}),
  });

/** A presigned PUT bound to its type and size. */
export const uploadLink = (key: string, contentType: string, size: number, expiresIn = 900) =>
  storage.presignPut(bucket(), key, { contentType, size, expiresIn });

export const objectSize = async (key: string) => (await storage.headObject(bucket(), key).catch(() => undefined))?.size;

export async function removePhotos(keys: string[]): Promise<void> {
  if (keys.length > 0) await storage.deleteKeys(bucket(), keys);
}
