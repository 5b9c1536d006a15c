import * as z from 'zod/mini';
import { callerId } from '../../shared/kernel/auth/caller';
import { ROLES } from '../../shared/kernel/auth/scopes';
import { created, noContent, ok, route } from '../../shared/kernel/http/route';
import { createInvite, INVITE_MESSAGES, mailInvite, revokeInvite } from '../../shared/kernel/identity/invites';
import {
  addExistingMember,
  changeRole,
  MEMBER_MESSAGES,
  removeMember,
} from '../../shared/kernel/identity/member-changes';

/**
 * Beyond the spec (which shows only `GET …/members`): adding, changing and removing members and
 * inviting people, as on GitHub and Vercel. `members:write` (owners and admins, or a key holding
 * it); only owners grant the owner role or change an owner; an organization keeps one owner.
 */
const NOT_FOUND = 'Organization not found';

const Email = z
  .string()
  .check(z.trim(), z.maxLength(254), z.regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, 'Enter an email address.'));

const userIdParam = z.object({ userId: z.string().check(z.minLength(1), z.maxLength(64)) });

export const memberRoutes = [
  route({
    method: 'POST',
    path: '/v1/orgs/:orgId/members',
    scope: 'members:write',
    summary:
      'Beyond the spec. Adds a person who has an account, by email, with a role (201 `{ member }`). ' +
      'Someone without an account is invited instead (`POST …/members/invites`). Only owners grant `owner`.',
    body: z.object({ email: Email, role: z.enum(ROLES) }),
    errors: {
      400: [MEMBER_MESSAGES.noUser],
      403: [MEMBER_MESSAGES.grantOwner],
      404: [NOT_FOUND],
      409: [MEMBER_MESSAGES.already],
    },
    run: async ({ org, role, body }) =>
      created({ member: await addExistingMember(org.orgId, { role }, body.email, body.role) }),
  }),
  route({
    method: 'PATCH',
    path: '/v1/orgs/:orgId/members/:userId',
    scope: 'members:write',
    summary:
      "Beyond the spec. Changes a member's role (200 `{ member }`). Only owners grant `owner` or change an " +
      "owner's role; the last owner can't be demoted.",
    params: userIdParam,
    body: z.object({ role: z.enum(ROLES) }),
    errors: {
      403: [MEMBER_MESSAGES.grantOwner, MEMBER_MESSAGES.touchOwner],
      404: [NOT_FOUND, MEMBER_MESSAGES.notFound],
      409: [MEMBER_MESSAGES.lastOwner],
    },
    run: async ({ org, role, params, body }) =>
      ok({ member: await changeRole(org.orgId, { role }, params.userId, body.role) }),
  }),
  route({
    method: 'DELETE',
    path: '/v1/orgs/:orgId/members/:userId',
    scope: 'members:write',
    summary: "Beyond the spec. Removes a member (204). Only owners remove an owner; the last owner can't be removed.",
    params: userIdParam,
    errors: {
      403: [MEMBER_MESSAGES.touchOwner],
      404: [NOT_FOUND, MEMBER_MESSAGES.notFound],
      409: [MEMBER_MESSAGES.lastOwner],
    },
    run: async ({ org, role, params }) => {
      await removeMember(org.orgId, { role }, params.userId);
      return noContent();
    },
  }),
  route({
    method: 'POST',
    path: '/v1/orgs/:orgId/members/invites',
    scope: 'members:write',
    summary:
      'Beyond the spec. Invites an email address with a role for 7 days (201 `{ invite }`) and mails it; the ' +
      'person signed in with that address accepts it (`POST /v1/me/invites/:inviteId/accept`). Only owners invite ' +
      'an owner. Pending invites are listed by `GET …/members`.',
    body: z.object({ email: Email, role: z.enum(ROLES) }),
    errors: {
      403: [MEMBER_MESSAGES.grantOwner],
      404: [NOT_FOUND],
      409: [MEMBER_MESSAGES.already, INVITE_MESSAGES.pending],
    },
    run: async ({ org, role, caller, body }) => {
      const invite = await createInvite(org, { role, id: callerId(caller) }, body.email, body.role);
      await mailInvite(org, invite, caller.kind === 'user' ? (caller.name ?? caller.email) : undefined);
      return created({ invite });
    },
  }),
  route({
    method: 'DELETE',
    path: '/v1/orgs/:orgId/members/invites/:inviteId',
    scope: 'members:write',
    summary: 'Beyond the spec. Withdraws an invite (204): it can no longer be accepted.',
    params: z.object({ inviteId: z.string().check(z.minLength(1), z.maxLength(64)) }),
    errors: { 404: [NOT_FOUND, INVITE_MESSAGES.notFound] },
    run: async ({ org, params }) => {
      await revokeInvite(org.orgId, params.inviteId);
      return noContent();
    },
  }),
];
