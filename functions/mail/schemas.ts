import * as z from 'zod/mini';
import { oneLine } from '../../shared/kernel/http/text-checks';

/** A domain name, lowercased: labels of letters, digits and hyphens, at least two. */
export const DomainName = z
  .string()
  .check(
    z.trim(),
    z.toLowerCase(),
    z.maxLength(253),
    z.regex(/^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,62}$/, 'Not a domain name.'),
  );

/** An email address, lowercased (no CR or LF: it goes into headers). */
export const Address = z
  .string()
  .check(
    z.trim(),
    z.toLowerCase(),
    z.maxLength(254),
    z.regex(
      /^[^\s@<>(),;:"[\]\\]+@([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,62}$/,
      'Not an email address.',
    ),
  );

/** A name shown in mail headers (the From display name, an invitation's organizer): one line, up to 100. */
export const DisplayName = z.string().check(z.trim(), z.maxLength(100), oneLine);

export const OrgPath = z.object({ orgId: z.string() });
export const DomainPath = z.object({ orgId: z.string(), domain: DomainName });
export const MailboxPath = z.object({ orgId: z.string(), mailboxId: z.string().check(z.maxLength(64)) });
export const IfVersion = z.optional(z.number().check(z.int(), z.minimum(0)));
