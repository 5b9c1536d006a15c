import type { Caller } from '../../kernel/auth/caller';
import { forbidden, invalid, notFound } from '../../kernel/ground/errors';
import type { Member } from '../../kernel/identity/schema';
import { PREFIXES } from '../../kernel/store/keys';
import { queryPrefix } from '../../kernel/store/ops';
import { getItem, keys, ORG_PREFIX, orgPk } from '../../kernel/store/table';
import type { Mailbox, MailDomain, MailSettings } from './record-schemas';

/**
 * Mail records in the platform table. An organization's domains and mailboxes live in its
 * partition; addresses and domains are claimed platform-wide by items of their own (put in the
 * transaction that creates what holds them, so two organizations never hold one address); a
 * mailbox's mail has a partition of its own (`MBX#<mailboxId>`, shared/mailboxes/mail.ts).
 *
 * | record | pk | sk |
 * |---|---|---|
 * | a domain of an organization | `ORG#<orgId>` | `MAILDOM#<domain>` |
 * | the domain's platform-wide claim | `MAILDOMAIN#<domain>` | `MAILDOMAIN` |
 * | a mailbox | `ORG#<orgId>` | `MBX#<mailboxId>` |
 * | an address (a mailbox's own or an alias) | `MAILADDR#<address>` | `MAILADDR` |
 */
export const mailKeys = {
  domain: (orgId: string, domain: string) => ({ pk: orgPk(orgId), sk: `${PREFIXES.mail.domain}${domain}` }),
  domainClaim: (domain: string) => ({ pk: `${PREFIXES.mail.domainClaim}${domain}`, sk: 'MAILDOMAIN' }),
  mailbox: (orgId: string, mailboxId: string) => ({ pk: orgPk(orgId), sk: `${PREFIXES.mail.mailbox}${mailboxId}` }),
  address: (address: string) => ({ pk: `${PREFIXES.mail.address}${address.toLowerCase()}`, sk: 'MAILADDR' }),
};
export const MAIL_PREFIX = { domain: PREFIXES.mail.domain, mailbox: PREFIXES.mail.mailbox } as const;

/** The group's messages, one place (routes declare them, tests compare them). */
export const MAIL_MESSAGES = {
  membersOnly: 'Mailboxes are only available to members.',
  mailboxNotFound: 'Mailbox not found',
  domainNotFound: 'Domain not found',
  domainTaken: 'This domain is held by another organization.',
  domainExists: 'This domain is already added.',
  domainRemoved: "This mailbox's domain was removed.",
  notVerified: (domain: string) => `${domain} isn't verified for sending yet.`,
  notOrgDomain: "The address's domain is not one of this organization's domains.",
  addressesNeedVerified: (domain: string) => `${domain} isn't verified yet: verify it before adding addresses on it.`,
  addressTaken: 'This address is taken.',
  aliasNotFound: 'Alias not found',
  memberNotFound: (who: string) => `${who} is not a member of this organization.`,
  catchAllNotFound: 'The catch-all mailbox is not a mailbox of this organization.',
  stale: 'This mailbox changed since it was read. Reload and try again.',
} as const;

export type DomainStatus = MailDomain['status'];

/**
 * A domain as stored: the answered record (its schema, ./record-schemas.ts, is the source) without
 * the DNS records the route computes, with what only the platform reads.
 */
export type MailDomainRecord = Omit<MailDomain, 'records'> & {
  orgId: string;
  /** The TXT value proving the organization holds the domain. */
  verificationToken: string;
  /** SES Easy DKIM's tokens (three CNAMEs); locally random ones. */
  dkimTokens: string[];
};

export type MailboxSettings = MailSettings;
export type VacationReply = NonNullable<MailSettings['vacation']>;

/** A mailbox as stored: the answered record with what only the platform reads. */
export type MailboxRecord = Mailbox & {
  orgId: string;
  domain: string;
  settings: MailboxSettings;
  /** Being removed: hidden, its mail removed in steps. */
  deleting?: boolean;
};

export const DEFAULT_SETTINGS: MailboxSettings = { displayName: null, signature: null, vacation: null, vipSenders: [] };

export const getMailbox = async (orgId: string, mailboxId: string) => {
  const m = await getItem<MailboxRecord>(mailKeys.mailbox(orgId, mailboxId));
  return m && !m.deleting ? m : undefined;
};

export const listMailboxes = async (orgId: string) =>
  (await queryPrefix<MailboxRecord>(orgPk(orgId), MAIL_PREFIX.mailbox)).filter((m) => !m.deleting);

export const getDomain = (orgId: string, domain: string) => getItem<MailDomainRecord>(mailKeys.domain(orgId, domain));
export const listDomains = (orgId: string) => queryPrefix<MailDomainRecord>(orgPk(orgId), MAIL_PREFIX.domain);

/**
 * A mailbox route's mailbox, for a person among its members: keys and devices get 403 (mailboxes
 * are people's), an unknown mailbox 404, a person not among its members 403.
 */
export async function memberMailbox(orgId: string, mailboxId: string, caller: Caller): Promise<MailboxRecord> {
  if (caller.kind !== 'user') throw forbidden(MAIL_MESSAGES.membersOnly);
  const mailbox = await getMailbox(orgId, mailboxId);
  if (!mailbox) throw notFound(MAIL_MESSAGES.mailboxNotFound);
  if (!mailbox.members.includes(caller.userId)) throw forbidden(MAIL_MESSAGES.membersOnly);
  return mailbox;
}

/** The organization's members, by user id. */
export async function orgMembers(orgId: string): Promise<Map<string, Member>> {
  const members = await queryPrefix<Member>(keys.org(orgId).pk, ORG_PREFIX.member);
  return new Map(members.map((m) => [m.userId, m]));
}

/** User ids of `given` (user ids or emails of the organization's members); an unknown one is 400. */
export async function resolveMembers(orgId: string, given: string[]): Promise<string[]> {
  const members = await orgMembers(orgId);
  const byEmail = new Map([...members.values()].map((m) => [(m.email ?? '').toLowerCase(), m.userId]));
  const out = new Set<string>();
  for (const g of given) {
    const id = members.has(g) ? g : byEmail.get(g.trim().toLowerCase());
    if (!id) throw invalid(MAIL_MESSAGES.memberNotFound(g));
    out.add(id);
  }
  return [...out];
}

/** The domain part of an address, lowercased. */
export const domainOf = (address: string) => (address.split('@')[1] ?? '').toLowerCase();
