import * as z from 'zod/mini';
import type { ResponseDocs } from '../../shared/kernel/http/responses';

/** Success responses of the contacts routes (see shared/kernel/http/responses.ts): documentation only. */
const AddressBook = z.object({
  addressBookId: z.string(),
  name: z.string(),
  isDefault: z.boolean(),
  version: z.number(),
});
const Typed = z.object({ value: z.string(), type: z.string(), pref: z.optional(z.boolean()) });
const Contact = z.object({
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
  emails: z.array(Typed),
  phones: z.array(Typed),
  urls: z.array(Typed),
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
});
const ImportResult = z.object({
  imported: z.number(),
  updated: z.number(),
  skipped: z.number(),
  warnings: z.array(z.string()),
  done: z.boolean(),
  next: z.nullable(z.string()),
  upload: z.optional(
    z.object({ url: z.string(), method: z.literal('PUT'), headers: z.record(z.string(), z.string()) }),
  ),
});

const base = '/v1/orgs/:orgId/mail/mailboxes/:mailboxId';
export const responses: ResponseDocs = {
  [`GET ${base}/address-books`]: { 200: z.object({ addressBooks: z.array(AddressBook) }) },
  [`POST ${base}/address-books`]: { 201: z.object({ addressBook: AddressBook }) },
  [`PATCH ${base}/address-books/:addressBookId`]: { 200: z.object({ addressBook: AddressBook }) },
  [`DELETE ${base}/address-books/:addressBookId`]: { 204: null },
  [`GET ${base}/contacts`]: { 200: z.object({ contacts: z.array(Contact), cursor: z.nullable(z.string()) }) },
  [`POST ${base}/address-books/:addressBookId/contacts`]: { 201: z.object({ contact: Contact }) },
  [`GET ${base}/address-books/:addressBookId/contacts/:contactId`]: { 200: z.object({ contact: Contact }) },
  [`PUT ${base}/address-books/:addressBookId/contacts/:contactId`]: { 200: z.object({ contact: Contact }) },
  [`DELETE ${base}/address-books/:addressBookId/contacts/:contactId`]: { 204: null },
  [`GET ${base}/contacts/:contactId/photo`]: { 200: z.object({ url: z.string() }) },
  [`PUT ${base}/contacts/:contactId/photo`]: { 200: z.object({ contact: Contact }) },
  [`DELETE ${base}/contacts/:contactId/photo`]: { 200: z.object({ contact: Contact }) },
  [`POST ${base}/address-books/:addressBookId/import`]: { 200: ImportResult },
  /** The vCard file itself (`text/vcard`), or 303 to a link to it when it is too large to answer. */
  [`GET ${base}/address-books/:addressBookId/export`]: { 200: z.string(), 303: null },
};
