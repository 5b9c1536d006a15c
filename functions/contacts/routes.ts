import * as z from 'zod/mini';
import { bookName, createBook, deleteBook, getBook, listBooks, renameBook } from '../../shared/domains/contacts/books';
import {
  deleteContact,
  getContact,
  listContacts,
  newContact,
  putContact,
  updateContact,
} from '../../shared/domains/contacts/contacts';
import { deletePhoto, MAX_PHOTO_BODY_BYTES, photoLink, putPhoto } from '../../shared/domains/contacts/photos';
import { CONTACT_MESSAGES, shownBook, shownContact } from '../../shared/domains/contacts/records';
import { MAIL_MESSAGES, memberMailbox } from '../../shared/domains/mail/records';
import { HttpError } from '../../shared/kernel/http/http-error';
import { queryInt } from '../../shared/kernel/http/query';
import { created, noContent, ok, route } from '../../shared/kernel/http/route';
import { INVALID_CURSOR } from '../../shared/kernel/store/cursor';
import {
  BookBody,
  BookPath,
  ContactBody,
  ContactPath,
  MailboxPath,
  PhotoBody,
  PhotoPath,
  PutContactBody,
} from './schemas';
import { vcardRoutes } from './vcard-routes';

/** The refusals every route of one mailbox may answer. */
export const memberErrors = { 403: [MAIL_MESSAGES.membersOnly], 404: [MAIL_MESSAGES.mailboxNotFound] };

/** The raw body's size as it arrived (API Gateway itself refuses anything over 10 MB). */
function bodyBytes(event: { body?: string; isBase64Encoded?: boolean }): number {
  if (!event.body) return 0;
  return event.isBase64Encoded ? Buffer.from(event.body, 'base64').length : Buffer.byteLength(event.body);
}

export const routes = [
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/mail/mailboxes/:mailboxId/address-books',
    scope: 'contacts:read',
    summary: "The mailbox's address books, the default one first (made on the first call).",
    params: MailboxPath,
    errors: memberErrors,
    run: async ({ org, caller, params }) => {
      const m = await memberMailbox(org.orgId, params.mailboxId, caller);
      return ok({ addressBooks: (await listBooks(m.mailboxId)).map(shownBook) });
    },
  }),
  route({
    method: 'POST',
    path: '/v1/orgs/:orgId/mail/mailboxes/:mailboxId/address-books',
    scope: 'contacts:write',
    summary: `Creates an address book; \`name\` is any JSON, kept as text (a string as it is, trimmed). At most 20 per mailbox.`,
    params: MailboxPath,
    body: BookBody,
    errors: {
      400: [CONTACT_MESSAGES.bookName, CONTACT_MESSAGES.bookNameLong],
      ...memberErrors,
      409: [CONTACT_MESSAGES.tooManyBooks],
    },
    run: async ({ org, caller, params, body }) => {
      const m = await memberMailbox(org.orgId, params.mailboxId, caller);
      const name = bookName(body.name);
      return created({ addressBook: shownBook(await createBook(m.mailboxId, name)) });
    },
  }),
  route({
    method: 'PATCH',
    path: '/v1/orgs/:orgId/mail/mailboxes/:mailboxId/address-books/:addressBookId',
    scope: 'contacts:write',
    summary: 'Renames an address book (`name`: any JSON, kept as text).',
    params: BookPath,
    body: BookBody,
    errors: {
      400: [CONTACT_MESSAGES.bookName, CONTACT_MESSAGES.bookNameLong],
      403: memberErrors[403],
      404: [MAIL_MESSAGES.mailboxNotFound, CONTACT_MESSAGES.bookNotFound],
    },
    run: async ({ org, caller, params, body }) => {
      const m = await memberMailbox(org.orgId, params.mailboxId, caller);
      const name = bookName(body.name);
      return ok({ addressBook: shownBook(await renameBook(m.mailboxId, params.addressBookId, name)) });
    },
  }),
  route({
    method: 'DELETE',
    path: '/v1/orgs/:orgId/mail/mailboxes/:mailboxId/address-books/:addressBookId',
    scope: 'contacts:write',
    summary: 'Deletes an address book with its contacts and their photos (never the default one).',
    params: BookPath,
    errors: {
      400: [CONTACT_MESSAGES.defaultBook],
      403: memberErrors[403],
      404: [MAIL_MESSAGES.mailboxNotFound, CONTACT_MESSAGES.bookNotFound],
    },
    run: async ({ org, caller, params }) => {
      const m = await memberMailbox(org.orgId, params.mailboxId, caller);
      await deleteBook(m.mailboxId, params.addressBookId);
      return noContent();
    },
  }),
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/mail/mailboxes/:mailboxId/contacts',
    scope: 'contacts:read',
    summary:
      "The mailbox's contacts (or one address book's), oldest first. `q`: every word must start a word of a " +
      'name, an email address or the organization, or be a part of the digits of a phone (case and accents ' +
      'aside). Pages of `limit` (default 100) with a signed `cursor`.',
    params: MailboxPath,
    query: z.object({
      q: z.optional(z.string().check(z.maxLength(200))),
      addressBookId: z.optional(z.string().check(z.minLength(1), z.maxLength(40))),
      cursor: z.optional(z.string().check(z.maxLength(2000))),
      limit: queryInt(1, 500, 100),
    }),
    errors: {
      400: [INVALID_CURSOR],
      403: memberErrors[403],
      404: [MAIL_MESSAGES.mailboxNotFound, CONTACT_MESSAGES.bookNotFound],
    },
    run: async ({ org, caller, params, query }) => {
      const m = await memberMailbox(org.orgId, params.mailboxId, caller);
      if (query.addressBookId !== undefined) await getBook(m.mailboxId, query.addressBookId);
      const page = await listContacts(`${org.orgId}:${m.mailboxId}:contacts`, m.mailboxId, query);
      return ok({ contacts: page.contacts.map(shownContact), cursor: page.cursor });
    },
  }),
  route({
    method: 'POST',
    path: '/v1/orgs/:orgId/mail/mailboxes/:mailboxId/address-books/:addressBookId/contacts',
    scope: 'contacts:write',
    summary:
      'Creates a contact; it needs at least a name, an organization, an email address or a phone. Dates are ' +
      '`YYYY-MM-DD`, or `--MM-DD` for an unknown year.',
    params: BookPath,
    body: ContactBody,
    errors: {
      400: [CONTACT_MESSAGES.needsSomething, CONTACT_MESSAGES.badDate],
      403: memberErrors[403],
      404: [MAIL_MESSAGES.mailboxNotFound, CONTACT_MESSAGES.bookNotFound],
    },
    run: async ({ org, caller, params, body }) => {
      const m = await memberMailbox(org.orgId, params.mailboxId, caller);
      await getBook(m.mailboxId, params.addressBookId);
      const contact = await putContact(newContact(m.mailboxId, params.addressBookId, body));
      return created({ contact: shownContact(contact) });
    },
  }),
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/mail/mailboxes/:mailboxId/address-books/:addressBookId/contacts/:contactId',
    scope: 'contacts:read',
    summary: 'A contact.',
    params: ContactPath,
    errors: { 403: memberErrors[403], 404: [MAIL_MESSAGES.mailboxNotFound, CONTACT_MESSAGES.contactNotFound] },
    run: async ({ org, caller, params }) => {
      const m = await memberMailbox(org.orgId, params.mailboxId, caller);
      return ok({ contact: shownContact(await getContact(m.mailboxId, params.contactId, params.addressBookId)) });
    },
  }),
  route({
    method: 'PUT',
    path: '/v1/orgs/:orgId/mail/mailboxes/:mailboxId/address-books/:addressBookId/contacts/:contactId',
    scope: 'contacts:write',
    summary:
      'Changes a contact: fields left out keep their value, an empty `birthday` or `anniversary` clears it. ' +
      '`ifVersion`: only if the contact is still at that version (else 409).',
    params: ContactPath,
    body: PutContactBody,
    errors: {
      400: [CONTACT_MESSAGES.needsSomething, CONTACT_MESSAGES.badDate],
      403: memberErrors[403],
      404: [MAIL_MESSAGES.mailboxNotFound, CONTACT_MESSAGES.contactNotFound],
      409: [CONTACT_MESSAGES.stale],
    },
    run: async ({ org, caller, params, body }) => {
      const m = await memberMailbox(org.orgId, params.mailboxId, caller);
      const { ifVersion, ...input } = body;
      const contact = await updateContact(m.mailboxId, params.addressBookId, params.contactId, input, ifVersion);
      return ok({ contact: shownContact(contact) });
    },
  }),
  route({
    method: 'DELETE',
    path: '/v1/orgs/:orgId/mail/mailboxes/:mailboxId/address-books/:addressBookId/contacts/:contactId',
    scope: 'contacts:write',
    summary: 'Deletes a contact and its photo.',
    params: ContactPath,
    errors: { 403: memberErrors[403], 404: [MAIL_MESSAGES.mailboxNotFound, CONTACT_MESSAGES.contactNotFound] },
    run: async ({ org, caller, params }) => {
      const m = await memberMailbox(org.orgId, params.mailboxId, caller);
      await deleteContact(m.mailboxId, params.addressBookId, params.contactId);
      return noContent();
    },
  }),
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/mail/mailboxes/:mailboxId/contacts/:contactId/photo',
    scope: 'contacts:read',
    summary: "A link to the contact's photo, valid 5 minutes.",
    params: PhotoPath,
    errors: {
      403: memberErrors[403],
      404: [MAIL_MESSAGES.mailboxNotFound, CONTACT_MESSAGES.contactNotFound, CONTACT_MESSAGES.noPhoto],
    },
    run: async ({ org, caller, params }) => {
      const m = await memberMailbox(org.orgId, params.mailboxId, caller);
      return ok({ url: await photoLink(m.mailboxId, params.contactId) });
    },
  }),
  route({
    method: 'PUT',
    path: '/v1/orgs/:orgId/mail/mailboxes/:mailboxId/contacts/:contactId/photo',
    scope: 'contacts:write',
    summary:
      "Sets the contact's photo: `data` is the image in base64 (at most 1 MB of image, 2 MB of body). The bytes " +
      'must be a JPEG, PNG, GIF or WebP image, and are stored as the type they are, whatever `contentType` says.',
    params: PhotoPath,
    body: PhotoBody,
    errors: {
      400: [CONTACT_MESSAGES.notBase64, CONTACT_MESSAGES.notAnImage],
      403: memberErrors[403],
      404: [MAIL_MESSAGES.mailboxNotFound, CONTACT_MESSAGES.contactNotFound],
      413: [CONTACT_MESSAGES.photoTooLarge, CONTACT_MESSAGES.photoBodyTooLarge],
    },
    run: async ({ org, caller, params, body, event }) => {
      if (bodyBytes(event) > MAX_PHOTO_BODY_BYTES) throw new HttpError(413, CONTACT_MESSAGES.photoBodyTooLarge);
      const m = await memberMailbox(org.orgId, params.mailboxId, caller);
      return ok({ contact: shownContact(await putPhoto(m.mailboxId, params.contactId, body.data)) });
    },
  }),
  route({
    method: 'DELETE',
    path: '/v1/orgs/:orgId/mail/mailboxes/:mailboxId/contacts/:contactId/photo',
    scope: 'contacts:write',
    summary: "Removes the contact's photo.",
    params: PhotoPath,
    errors: { 403: memberErrors[403], 404: [MAIL_MESSAGES.mailboxNotFound, CONTACT_MESSAGES.contactNotFound] },
    run: async ({ org, caller, params }) => {
      const m = await memberMailbox(org.orgId, params.mailboxId, caller);
      return ok({ contact: shownContact(await deletePhoto(m.mailboxId, params.contactId)) });
    },
  }),
  ...vcardRoutes,
];
