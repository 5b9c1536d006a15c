import * as z from 'zod/mini';
import { CLAIM_MESSAGES } from '../../shared/domains/custom-domains/claims';
import {
  addAlias,
  createMailbox,
  deleteMailbox,
  membersWithMailboxes,
  removeAlias,
  shownMailbox,
  updateMailbox,
} from '../../shared/domains/mail/admin';
import { addDomain, removeDomain, shownDomain, updateDomain, verifyDomain } from '../../shared/domains/mail/domains';
import { listDomains, listMailboxes, MAIL_MESSAGES } from '../../shared/domains/mail/records';
import { usageOf } from '../../shared/domains/mail/usage';
import { created, noContent, ok, route } from '../../shared/kernel/http/route';
import { Address, DisplayName, DomainName, DomainPath, IfVersion, MailboxPath, OrgPath } from './schemas';

/**
 * Mail administration: the organization's domains, mailboxes, aliases, members. `org:write`
 * (owners, admins, keys given it): the spec names no mail scope.
 */
const scope = 'org:write' as const;
const MemberRef = z.string().check(z.trim(), z.minLength(1), z.maxLength(254));
/** A mailbox's name: its mail's From display name unless the settings give one. */
const Name = DisplayName.check(z.minLength(1));

export const adminRoutes = [
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/mail/domains',
    scope,
    summary: "The organization's mail domains: status (pending, verified, failed) and the records to publish.",
    params: OrgPath,
    read: async ({ orgId }) => ({ domains: (await listDomains(orgId)).map(shownDomain) }),
  }),
  route({
    method: 'POST',
    path: '/v1/orgs/:orgId/mail/domains',
    scope,
    summary:
      'Adds a domain for mail: the records to publish (ownership TXT, DKIM, SPF, DMARC, MX). Names under .test, .example and .localhost verify at once. ' +
      'Until verified it is a claim that blocks no other organization: the first to verify holds the domain, the other claims fail (`message` says why).',
    params: OrgPath,
    body: z.object({ domain: DomainName }),
    errors: {
      400: [CLAIM_MESSAGES.publicSuffix('<domain>')],
      409: [MAIL_MESSAGES.domainTaken, MAIL_MESSAGES.domainExists],
    },
    run: async ({ org, body }) => created({ domain: shownDomain(await addDomain(org.orgId, body.domain)) }),
  }),
  route({
    method: 'POST',
    path: '/v1/orgs/:orgId/mail/domains/:domain/verify',
    scope,
    summary: "Checks the domain's ownership record now; a domain pending for 72 hours fails.",
    params: DomainPath,
    errors: { 404: [MAIL_MESSAGES.domainNotFound] },
    run: async ({ org, params }) => ok({ domain: shownDomain(await verifyDomain(org.orgId, params.domain)) }),
  }),
  route({
    method: 'PATCH',
    path: '/v1/orgs/:orgId/mail/domains/:domain',
    scope,
    summary: 'Receiving on or off; the catch-all mailbox for unknown addresses (null: none).',
    params: DomainPath,
    body: z.object({
      receiving: z.optional(z.boolean()),
      catchAll: z.optional(z.nullable(z.string().check(z.maxLength(64)))),
      ifVersion: IfVersion,
    }),
    errors: {
      404: [MAIL_MESSAGES.domainNotFound, MAIL_MESSAGES.catchAllNotFound],
      409: ['This domain changed since it was read. Reload and try again.'],
    },
    run: async ({ org, params, body }) =>
      ok({ domain: shownDomain(await updateDomain(org.orgId, params.domain, body)) }),
  }),
  route({
    method: 'DELETE',
    path: '/v1/orgs/:orgId/mail/domains/:domain',
    scope,
    summary: "Removes the domain; its mailboxes stay, and can't send until it is added again.",
    params: DomainPath,
    errors: { 404: [MAIL_MESSAGES.domainNotFound] },
    run: async ({ org, params }) => {
      await removeDomain(org.orgId, params.domain);
      return noContent();
    },
  }),
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/mail/members',
    scope,
    summary: "The organization's members, each with the mailboxes they belong to.",
    params: OrgPath,
    read: async ({ orgId }) => ({ members: await membersWithMailboxes(orgId, await listMailboxes(orgId)) }),
  }),
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/mail/admin/mailboxes',
    scope,
    summary: 'Every mailbox of the organization, with its members and aliases.',
    params: OrgPath,
    read: async ({ orgId }) => ({ mailboxes: (await listMailboxes(orgId)).map(shownMailbox) }),
  }),
  route({
    method: 'POST',
    path: '/v1/orgs/:orgId/mail/admin/mailboxes',
    scope,
    summary:
      "Creates a mailbox: an address on one of the organization's domains, unique with aliases platform-wide; members by user id or email.",
    params: OrgPath,
    body: z.object({
      address: Address,
      name: Name,
      members: z._default(z.array(MemberRef).check(z.maxLength(100)), []),
      kind: z._default(z.enum(['personal', 'shared']), 'personal'),
    }),
    errors: {
      400: [MAIL_MESSAGES.notOrgDomain, MAIL_MESSAGES.memberNotFound('<member>')],
      409: [MAIL_MESSAGES.addressTaken, MAIL_MESSAGES.addressesNeedVerified('<domain>')],
    },
    run: async ({ org, body }) => created({ mailbox: shownMailbox(await createMailbox(org.orgId, body)) }),
  }),
  route({
    method: 'PATCH',
    path: '/v1/orgs/:orgId/mail/admin/mailboxes/:mailboxId',
    scope,
    summary: 'Renames a mailbox or replaces its members (`ifVersion`: 409 when it changed).',
    params: MailboxPath,
    body: z.object({
      name: z.optional(Name),
      members: z.optional(z.array(MemberRef).check(z.maxLength(100))),
      ifVersion: IfVersion,
    }),
    errors: {
      400: [MAIL_MESSAGES.memberNotFound('<member>')],
      404: [MAIL_MESSAGES.mailboxNotFound],
      409: [MAIL_MESSAGES.stale],
    },
    run: async ({ org, params, body }) =>
      ok({ mailbox: shownMailbox(await updateMailbox(org.orgId, params.mailboxId, body)) }),
  }),
  route({
    method: 'DELETE',
    path: '/v1/orgs/:orgId/mail/admin/mailboxes/:mailboxId',
    scope,
    summary: 'Deletes a mailbox: its addresses, messages and attachments, in steps safe to repeat.',
    params: MailboxPath,
    errors: { 404: [MAIL_MESSAGES.mailboxNotFound] },
    run: async ({ org, params }) => {
      await deleteMailbox(org.orgId, params.mailboxId);
      return noContent();
    },
  }),
  route({
    method: 'POST',
    path: '/v1/orgs/:orgId/mail/admin/mailboxes/:mailboxId/aliases',
    scope,
    summary: "Adds an alias: another address of the organization's domains reaching the mailbox.",
    params: MailboxPath,
    body: z.object({ address: Address }),
    errors: {
      400: [MAIL_MESSAGES.notOrgDomain],
      404: [MAIL_MESSAGES.mailboxNotFound],
      409: [MAIL_MESSAGES.addressTaken, MAIL_MESSAGES.stale, MAIL_MESSAGES.addressesNeedVerified('<domain>')],
    },
    run: async ({ org, params, body }) =>
      created({ mailbox: shownMailbox(await addAlias(org.orgId, params.mailboxId, body.address)) }),
  }),
  route({
    method: 'DELETE',
    path: '/v1/orgs/:orgId/mail/admin/aliases/:address',
    scope,
    summary: 'Removes an alias; mail to it is no longer received.',
    params: z.object({ orgId: z.string(), address: Address }),
    errors: { 404: [MAIL_MESSAGES.aliasNotFound] },
    run: async ({ org, params }) => {
      await removeAlias(org.orgId, params.address);
      return noContent();
    },
  }),

  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/mail/usage',
    scope,
    summary: 'Per mailbox: bytes and messages held, sent and received this month, sent today against the daily quota.',
    params: OrgPath,
    read: async ({ orgId }) => {
      const mailboxes = await listMailboxes(orgId);
      const usage = await usageOf(mailboxes.map((m) => m.mailboxId));
      return { mailboxes: usage.map((u, i) => ({ ...u, address: mailboxes[i]?.address ?? '' })) };
    },
  }),
];
