import * as z from 'zod/mini';
import type { Caller } from '../../shared/kernel/auth/caller';
import { forbidden } from '../../shared/kernel/ground/errors';
import { created, ok, route } from '../../shared/kernel/http/route';
import { oneLine } from '../../shared/kernel/http/text-checks';
import { acceptInvite, INVITE_MESSAGES, invitesFor } from '../../shared/kernel/identity/invites';
import { createOrgWithOwner, SLUG_TAKEN } from '../../shared/kernel/identity/orgs';
import { toOrganization } from '../../shared/kernel/identity/schema';
import { getUser } from '../../shared/kernel/identity/users';

/**
 * Beyond the spec: a person creates an organization (its owner), and sees and accepts the
 * invitations sent to their email address. People only: a key belongs to one organization already.
 * A person's organizations are listed by `GET /v1/me` (with role and scopes), so there is no
 * `GET /v1/orgs`.
 */
export const ORG_MESSAGES = {
  peopleOnly: 'Only people can create an organization.',
} as const;

type Person = Extract<Caller, { kind: 'user' }>;

function person(caller: Caller, message: string): Person {
  if (caller.kind !== 'user') throw forbidden(message);
  return caller;
}

/** The person with email and name: the token's claims, else their user record. */
async function withProfile(p: Person): Promise<Person> {
  if (p.email !== undefined && p.name !== undefined) return p;
  const user = await getUser(p.userId);
  return { ...p, email: p.email ?? user?.email, name: p.name ?? user?.name };
}

const OrgSlug = z
  .string()
  .check(
    z.regex(
      /^[a-z0-9][a-z0-9-]{0,38}[a-z0-9]$/,
      'Use 2-40 lowercase letters, digits and hyphens, starting and ending with a letter or digit.',
    ),
  );

export const orgRoutes = [
  route({
    method: 'POST',
    path: '/v1/orgs',
    access: 'token',
    summary:
      'Beyond the spec. Creates a customer organization with the signed-in person as its owner (201 `{ org, member }`). ' +
      'The slug is unique and does not change. People only.',
    body: z.object({
      slug: OrgSlug,
      name: z.string().check(z.trim(), z.minLength(1), z.maxLength(64), oneLine),
    }),
    errors: { 403: [ORG_MESSAGES.peopleOnly], 409: [SLUG_TAKEN] },
    run: async ({ caller, body }) => {
      const owner = await withProfile(person(caller, ORG_MESSAGES.peopleOnly));
      const { org, member } = await createOrgWithOwner(body, owner);
      return created({ org: toOrganization(org), member });
    },
  }),
  route({
    method: 'GET',
    path: '/v1/me/invites',
    access: 'token',
    summary:
      "Beyond the spec. The pending invitations to the signed-in person's email address, each with its organization, newest first.",
    errors: { 403: [INVITE_MESSAGES.peopleOnly] },
    run: async ({ caller }) => {
      const me = await withProfile(person(caller, INVITE_MESSAGES.peopleOnly));
      return ok({ invites: await invitesFor(me.email) });
    },
  }),
  route({
    method: 'POST',
    path: '/v1/me/invites/:inviteId/accept',
    access: 'token',
    summary:
      "Beyond the spec. Accepts an invitation sent to the signed-in person's email address: they become a member " +
      'with its role (200 `{ org, member }`).',
    params: z.object({ inviteId: z.string().check(z.minLength(1), z.maxLength(64)) }),
    errors: {
      403: [INVITE_MESSAGES.peopleOnly, INVITE_MESSAGES.otherEmail],
      404: [INVITE_MESSAGES.notFound],
      409: [INVITE_MESSAGES.expired, INVITE_MESSAGES.alreadyMember],
    },
    run: async ({ caller, params }) => {
      const me = await withProfile(person(caller, INVITE_MESSAGES.peopleOnly));
      const { org, member } = await acceptInvite(me, params.inviteId);
      return ok({ org: toOrganization(org), member });
    },
  }),
];
