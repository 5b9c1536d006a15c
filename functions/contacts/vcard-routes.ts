import * as z from 'zod/mini';
import { getBook } from '../../shared/domains/contacts/books';
import { CONTACT_MESSAGES } from '../../shared/domains/contacts/records';
import {
  CONTACT_TRANSFER_MESSAGES,
  exportBook,
  exportLink,
  exportName,
  importContent,
  importNext,
  importUpload,
  MAX_INLINE_EXPORT_BYTES,
  VCARD_TYPE,
} from '../../shared/domains/contacts/transfer';
import { MAIL_MESSAGES, memberMailbox } from '../../shared/domains/mail/records';
import { invalid } from '../../shared/kernel/ground/errors';
import { ok, route } from '../../shared/kernel/http/route';
import { BookPath } from './schemas';

/** An attachment's header: an ASCII name for every client, the real one (RFC 5987) for those that read it. */
const disposition = (name: string) =>
  `attachment; filename="${name.replace(/[^\x20-\x7e]|["\\]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(name)}`;

/** vCard import and export of an address book (designed: the spec shows no payload). */
export const vcardRoutes = [
  route({
    method: 'POST',
    path: '/v1/orgs/:orgId/mail/mailboxes/:mailboxId/address-books/:addressBookId/import',
    scope: 'contacts:write',
    summary:
      'Imports vCard 2.1, 3.0 and 4.0 files, 200 cards per call. Start with `content` (the file, up to 4 MB) or ' +
      '`size` (bytes, up to 50 MB: the answer holds an `upload` link to PUT the file to); then, while `done` is ' +
      'false, call again with `{ next }`. Each answer counts what that call `imported`, `updated` (a card whose ' +
      'UID the address book knows) and `skipped`, with `warnings` naming the cards. Inline photos are kept ' +
      '(sniffed); photos by URL are never fetched. Nobody is emailed.',
    params: BookPath,
    body: z.object({
      content: z.optional(z.string().check(z.minLength(1))),
      size: z.optional(z.int().check(z.minimum(1))),
      next: z.optional(z.string().check(z.minLength(1), z.maxLength(2000))),
    }),
    errors: {
      400: [
        CONTACT_TRANSFER_MESSAGES.oneSource,
        CONTACT_TRANSFER_MESSAGES.noCards,
        CONTACT_TRANSFER_MESSAGES.notUploaded,
        CONTACT_TRANSFER_MESSAGES.badNext,
      ],
      403: [MAIL_MESSAGES.membersOnly],
      404: [MAIL_MESSAGES.mailboxNotFound, CONTACT_MESSAGES.bookNotFound],
      413: [CONTACT_TRANSFER_MESSAGES.contentTooLarge, CONTACT_TRANSFER_MESSAGES.uploadTooLarge],
    },
    run: async ({ org, caller, params, body }) => {
      const m = await memberMailbox(org.orgId, params.mailboxId, caller);
      const book = await getBook(m.mailboxId, params.addressBookId);
      const given = [body.content, body.size, body.next].filter((x) => x !== undefined).length;
      if (given !== 1) throw invalid(CONTACT_TRANSFER_MESSAGES.oneSource);
      if (body.content !== undefined) return ok(await importContent(org.orgId, book, body.content));
      if (body.size !== undefined) return ok(await importUpload(org.orgId, book, body.size));
      return ok(await importNext(org.orgId, book, body.next as string));
    },
  }),
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/mail/mailboxes/:mailboxId/address-books/:addressBookId/export',
    scope: 'contacts:read',
    summary:
      'The address book as a vCard file (`text/vcard`), `version` 3.0 (default) or 4.0, photos inline. A file ' +
      'over 4 MB, or any with `link=true`, answers 303 to a link to it (5 minutes) instead.',
    params: BookPath,
    query: z.object({
      version: z._default(z.enum(['3.0', '4.0']), '3.0'),
      link: z.optional(z.enum(['true', 'false'])),
    }),
    errors: { 403: [MAIL_MESSAGES.membersOnly], 404: [MAIL_MESSAGES.mailboxNotFound, CONTACT_MESSAGES.bookNotFound] },
    run: async ({ org, caller, params, query }) => {
      const m = await memberMailbox(org.orgId, params.mailboxId, caller);
      const book = await getBook(m.mailboxId, params.addressBookId);
      const text = await exportBook(book, query.version);
      if (query.link === 'true' || Buffer.byteLength(text) > MAX_INLINE_EXPORT_BYTES) {
        return { status: 303, headers: { location: await exportLink(book, query.version, text) } };
      }
      return ok(text, {
        'content-type': VCARD_TYPE,
        'content-disposition': disposition(exportName(book)),
      });
    },
  }),
];
