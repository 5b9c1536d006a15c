import * as z from 'zod/mini';
import { AddressBook, base, Contact, ContactImportResult } from '../../shared/domains/contacts/record-schemas';
import { fileAnswer, type ResponseDocs, seeOther } from '../../shared/kernel/http/responses';

/** Success responses of the contacts routes (see shared/kernel/http/responses.ts): documentation only. */

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
  [`POST ${base}/address-books/:addressBookId/import`]: { 200: ContactImportResult },
  /** The vCard file itself, or 303 to a link to it when it is too large to answer or asked for (`link=true`). */
  [`GET ${base}/address-books/:addressBookId/export`]: {
    200: fileAnswer(
      { 'text/vcard': z.string() },
      "`attachment` with the address book's name as `filename` (ASCII) and `filename*` (UTF-8).",
    ),
    303: seeOther(
      'A link to the file, valid 5 minutes (`GET` it without a token). Files over 4 MB, or any with `link=true`.',
    ),
  },
};
