import { newId } from '../../kernel/store/ids';

/**
 * Contacts' bytes in the artifacts bucket, in the mailbox's folder (removed with the mailbox):
 * photos (`mail/<mailboxId>/contacts/<contactId>/<photoId>`, a new key for each photo, so a link
 * handed out never shows a later one), import files and large exports
 * (`mail/<mailboxId>/contacts-files/…`). They travel by short presigned links; they are read and
 * written with the mail objects' helpers (shared/domains/mail/objects.ts).
 */

/** Where a mailbox's import files and large exports are. */
export const filesFolder = (mailboxId: string) => `mail/${mailboxId}/contacts-files/`;

export const photoKeyFor = (mailboxId: string, contactId: string) =>
  `mail/${mailboxId}/contacts/${contactId}/${newId('ph_')}`;
export const fileKeyFor = (mailboxId: string, prefix: string, ext: string) =>
  `${filesFolder(mailboxId)}${newId(prefix)}.${ext}`;

/** The key a large export is written to: one per address book and version, replaced each time. */
export const exportKeyFor = (mailboxId: string, addressBookId: string, version: string) =>
  `${filesFolder(mailboxId)}export-${addressBookId}-${version}.vcf`;
