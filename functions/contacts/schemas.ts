import * as z from 'zod/mini';

export const MailboxPath = z.object({ orgId: z.string(), mailboxId: z.string() });
export const BookPath = z.object({ orgId: z.string(), mailboxId: z.string(), addressBookId: z.string() });
export const ContactPath = z.object({
  orgId: z.string(),
  mailboxId: z.string(),
  addressBookId: z.string(),
  contactId: z.string(),
});
export const PhotoPath = z.object({ orgId: z.string(), mailboxId: z.string(), contactId: z.string() });

/** An address book's `name`: any JSON (kept as text; see shared/domains/contacts/books.ts). */
export const BookBody = z.object({ name: z.unknown() });

const Text = (max: number) => z.string().check(z.trim(), z.maxLength(max));
const Typed = (max: number) =>
  z.object({
    value: z.string().check(z.trim(), z.minLength(1), z.maxLength(max)),
    /** Free text, lowercased: `home`, `work`, `mobile`, `fax`, `other`, a label of one's own… */
    type: z._default(z.string().check(z.trim(), z.toLowerCase(), z.minLength(1), z.maxLength(40)), 'other'),
    pref: z.optional(z.boolean()),
  });
const Part = z._default(Text(500), '');
const DateText = z.string().check(z.trim(), z.maxLength(10));

/** A contact's fields (create, and PUT where every field is optional anyway). */
export const ContactBody = z.object({
  fullName: z.optional(Text(1000)),
  name: z.optional(z.object({ family: Part, given: Part, additional: Part, prefix: Part, suffix: Part })),
  nickname: z.optional(Text(500)),
  emails: z.optional(z.array(Typed(320)).check(z.maxLength(50))),
  phones: z.optional(z.array(Typed(100)).check(z.maxLength(50))),
  urls: z.optional(z.array(Typed(2000)).check(z.maxLength(50))),
  addresses: z.optional(
    z
      .array(
        z.object({
          type: z._default(z.enum(['home', 'work', 'other']), 'home'),
          poBox: Part,
          extended: Part,
          street: Part,
          locality: Part,
          region: Part,
          postalCode: Part,
          country: Part,
        }),
      )
      .check(z.maxLength(10)),
  ),
  organization: z.optional(z.unknown()),
  department: z.optional(z.unknown()),
  title: z.optional(z.unknown()),
  birthday: z.optional(DateText),
  anniversary: z.optional(DateText),
  notes: z.optional(z.string().check(z.maxLength(32_000))),
  categories: z.optional(z.array(z.string().check(z.trim(), z.minLength(1), z.maxLength(100))).check(z.maxLength(30))),
});

export const PutContactBody = z.extend(ContactBody, { ifVersion: z.optional(z.int().check(z.minimum(0))) });

export const PhotoBody = z.object({
  contentType: z.enum(['image/jpeg', 'image/png', 'image/gif', 'image/webp']),
  data: z.string().check(z.minLength(1)),
});
