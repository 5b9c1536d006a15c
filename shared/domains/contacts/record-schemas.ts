import * as z from 'zod/mini';

/**
 * The records the contacts routes answer, each declared once and registered by its id: lib/openapi.ts names them
 * in `components.schemas`, the typed client declares a type of each. Only documentation
 * (functions/<group>/responses.ts) imports these values, so they stay out of the Lambda bundles; code
 * imports their types.
 */

export const AddressBook = z
  .object({
    addressBookId: z.string(),
    name: z.string(),
    isDefault: z.boolean(),
    version: z.number(),
  })
  .register(z.globalRegistry, { id: 'AddressBook' });
export type AddressBook = z.output<typeof AddressBook>;

/** An address book as stored: the answer, its keys, its mailbox and when it was made. */
export const AddressBookRecord = z.extend(AddressBook, {
  pk: z.string(),
  sk: z.string(),
  mailboxId: z.string(),
  createdAt: z.number(),
});
export type AddressBookRecord = z.output<typeof AddressBookRecord>;

export const ContactTypedValue = z
  .object({ value: z.string(), type: z.string(), pref: z.optional(z.boolean()) })
  .register(z.globalRegistry, { id: 'ContactTypedValue' });
export type ContactTypedValue = z.output<typeof ContactTypedValue>;

export const Contact = z
  .object({
    contactId: z.string(),
    addressBookId: z.string(),
    uid: z.string(),
    version: z.number(),
    updatedAt: z.number(),
    hasPhoto: z.boolean(),
    fullName: z.string(),
    displayName: z.string(),
    name: z.object({
      family: z.string(),
      given: z.string(),
      additional: z.string(),
      prefix: z.string(),
      suffix: z.string(),
    }),
    nickname: z.string(),
    emails: z.array(ContactTypedValue),
    phones: z.array(ContactTypedValue),
    urls: z.array(ContactTypedValue),
    addresses: z.array(
      z.object({
        type: z.enum(['home', 'work', 'other']),
        poBox: z.string(),
        extended: z.string(),
        street: z.string(),
        locality: z.string(),
        region: z.string(),
        postalCode: z.string(),
        country: z.string(),
      }),
    ),
    organization: z.string(),
    department: z.string(),
    title: z.string(),
    birthday: z.optional(z.string()),
    anniversary: z.optional(z.string()),
    notes: z.string(),
    categories: z.array(z.string()),
  })
  .register(z.globalRegistry, { id: 'Contact' });
export type Contact = z.output<typeof Contact>;

/**
 * A contact as stored: the answer without what is worked out when it is shown (`hasPhoto`,
 * `displayName`), with its keys, its mailbox, when it was made, its photo and a contacts program's
 * name for it.
 */
export const ContactRecord = z.extend(z.omit(Contact, { hasPhoto: true, displayName: true }), {
  pk: z.string(),
  sk: z.string(),
  mailboxId: z.string(),
  createdAt: z.number(),
  /** The photo's object key and its sniffed type, when it has one. */
  photoKey: z.optional(z.string()),
  photoType: z.optional(z.string()),
  /** A contacts program's name for it (CardDAV: ./changes.ts). */
  davName: z.optional(z.string()),
});
export type ContactRecord = z.output<typeof ContactRecord>;

export const ContactImportResult = z
  .object({
    imported: z.number(),
    updated: z.number(),
    skipped: z.number(),
    warnings: z.array(z.string()),
    done: z.boolean(),
    next: z.nullable(z.string()),
    upload: z.optional(
      z.object({ url: z.string(), method: z.literal('PUT'), headers: z.record(z.string(), z.string()) }),
    ),
  })
  .register(z.globalRegistry, { id: 'ContactImportResult' });
export type ContactImportResult = z.output<typeof ContactImportResult>;

export const base = '/v1/orgs/:orgId/mail/mailboxes/:mailboxId';
