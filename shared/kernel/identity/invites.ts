import type { Role } from '../auth/scopes';
import { conflict, forbidden, notFound } from '../ground/errors';
import { describeError, log } from '../ground/log';
import { newId } from '../store/ids';
import { PREFIXES } from '../store/keys';
import { queryAll, transact } from '../store/ops';
import { getItem, getMany, keys, putNew, TABLE } from '../store/table';
import { type Actor, MEMBER_MESSAGES, mayGrant } from './member-changes';
import { memberItem, orgIsActive } from './orgs';
import type { Invite, Member, Organization } from './schema';
import { findUserByEmail } from './users';

/**
 * Invitations to an organization, by email (as GitHub's and Vercel's): an owner or admin invites
 * an address with a role; the person who signs in with that address sees the invitation under
 * `/v1/me/invites` and accepts it, becoming a member with that role. An invitation lasts 7 days.
 *
 * Stored as three items: the invitation under its organization (`MEMBERINVITE#<inviteId>`, read
 * with the members), the address's claim in the organization (`INVITEEMAIL#<email>`: one pending
 * invitation per address, by transaction), and its reference by id (`INVITE#<inviteId>`, on GSI1
 * under the address), which the invitee's routes read without knowing the organization.
 */
export const INVITE_TTL_MS = 7 * 24 * 3600_000;

export const INVITE_MESSAGES = {
  notFound: 'Invite not found',
  pending: 'This email already has a pending invite.',
  expired: 'This invite has expired. Ask an owner or admin of the organization for a new one.',
  otherEmail: 'This invite is for another email address. Sign in with that address to accept it.',
  alreadyMember: 'You are already a member of this organization.',
  peopleOnly: 'Only people can accept an invite.',
} as const;

const emailKey = (orgId: string, email: string) => ({
  pk: keys.org(orgId).pk,
  sk: `${PREFIXES.identity.inviteEmail}${email}`,
});
export const inviteRefKey = (inviteId: string) => ({ pk: `${PREFIXES.identity.inviteRef}${inviteId}`, sk: 'INVITE' });

interface InviteRef extends Invite {
  orgId: string;
  invitedBy?: string;
}

const shown = (i: Invite): Invite => ({
  inviteId: i.inviteId,
  email: i.email,
  role: i.role,
  expiresAt: i.expiresAt,
  ...(i.createdAt !== undefined ? { createdAt: i.createdAt } : {}),
});

/** Invites `email` with `role`; one pending invite per address, none for a member. */
export async function createInvite(
  org: Organization,
  actor: Actor & { id: string },
  email: string,
  role: Role,
): Promise<Invite> {
  if (!mayGrant(actor, role)) throw forbidden(MEMBER_MESSAGES.grantOwner);
  const address = email.trim().toLowerCase();
  const user = await findUserByEmail(address);
  if (user && (await getItem(keys.member(org.orgId, user.userId), true))) throw conflict(MEMBER_MESSAGES.already);
  const now = Date.now();
  const invite: Invite = {
    inviteId: newId('inv_', now),
    email: address,
    role,
    expiresAt: now + INVITE_TTL_MS,
    createdAt: now,
  };
  const ttl = Math.floor(invite.expiresAt / 1000) + 30 * 24 * 3600;
  await transact(
    [
      orgIsActive(org.orgId),
      {
        // A claim left by an expired invite is taken over.
        Put: {
          TableName: TABLE(),
          Item: { ...emailKey(org.orgId, address), inviteId: invite.inviteId, expiresAt: invite.expiresAt, ttl },
          ConditionExpression: 'attribute_not_exists(pk) OR expiresAt < :now',
          ExpressionAttributeValues: { ':now': now },
        },
      },
      putNew({ ...keys.invite(org.orgId, invite.inviteId), ...invite, invitedBy: actor.id, ttl }),
      putNew({
        ...inviteRefKey(invite.inviteId),
        ...invite,
        orgId: org.orgId,
        invitedBy: actor.id,
        gsi1pk: `${PREFIXES.identity.inviteEmail}${address}`,
        gsi1sk: invite.inviteId,
        ttl,
      }),
    ],
    [() => notFound('Organization not found'), INVITE_MESSAGES.pending],
  );
  return invite;
}

/** Withdraws a pending (or expired) invite of the organization. */
export async function revokeInvite(orgId: string, inviteId: string): Promise<void> {
  const invite = await getItem<Invite>(keys.invite(orgId, inviteId), true);
  if (!invite) throw notFound(INVITE_MESSAGES.notFound);
  await transact(await removal(orgId, invite), () => Promise.resolve(notFound(INVITE_MESSAGES.notFound)));
}

/**
 * The deletes that end an invite: its record (which must still be there), its reference, and its
 * address's claim while it is this invite's (after it expired, a newer invite may hold the address).
 */
async function removal(orgId: string, invite: Invite) {
  const claim = await getItem<{ inviteId: string }>(emailKey(orgId, invite.email), true);
  return [
    {
      Delete: {
        TableName: TABLE(),
        Key: keys.invite(orgId, invite.inviteId),
        ConditionExpression: 'attribute_exists(pk)',
      },
    },
    { Delete: { TableName: TABLE(), Key: inviteRefKey(invite.inviteId) } },
    ...(claim?.inviteId === invite.inviteId
      ? [
          {
            Delete: {
              TableName: TABLE(),
              Key: emailKey(orgId, invite.email),
              ConditionExpression: 'inviteId = :id',
              ExpressionAttributeValues: { ':id': invite.inviteId },
            },
          },
        ]
      : []),
  ];
}

/** The pending invites of a person's address, each with its organization, newest first. */
export async function invitesFor(email: string | undefined) {
  if (!email) return [];
  const refs = await queryAll<InviteRef>({
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :e',
    ExpressionAttributeValues: { ':e': `${PREFIXES.identity.inviteEmail}${email.toLowerCase()}` },
  });
  const now = Date.now();
  const pending = refs.filter((r) => r.expiresAt > now);
  const orgs = await getMany<Organization>(pending.map((r) => keys.org(r.orgId)));
  return pending
    .map((r, i) => {
      const org = orgs[i];
      return org ? { ...shown(r), org: { orgId: org.orgId, slug: org.slug, name: org.name } } : undefined;
    })
    .filter((x) => x !== undefined)
    .sort((a, b) => b.inviteId.localeCompare(a.inviteId));
}

/** Accepts an invite as the person signed in with its address: they become a member with its role. */
export async function acceptInvite(
  person: { userId: string; email?: string; name?: string },
  inviteId: string,
): Promise<{ member: Member; org: Organization }> {
  const ref = await getItem<InviteRef>(inviteRefKey(inviteId), true);
  if (!ref) throw notFound(INVITE_MESSAGES.notFound);
  if (!person.email || person.email.toLowerCase() !== ref.email) throw forbidden(INVITE_MESSAGES.otherEmail);
  if (ref.expiresAt <= Date.now()) throw conflict(INVITE_MESSAGES.expired);
  const org = await getItem<Organization>(keys.org(ref.orgId), true);
  if (!org) throw notFound(INVITE_MESSAGES.notFound);
  const member: Member = {
    userId: person.userId,
    role: ref.role,
    email: ref.email,
    ...(person.name ? { name: person.name } : {}),
    joinedAt: Date.now(),
  };
  await transact(
    [orgIsActive(org.orgId), putNew(memberItem(org.orgId, member)), ...(await removal(org.orgId, ref))],
    async (i) => (i === 1 ? conflict(INVITE_MESSAGES.alreadyMember) : notFound(INVITE_MESSAGES.notFound)),
  );
  return { member, org };
}

/** The mail that tells the invited address (sent after the invite is stored; a failure is logged, not answered). */
export async function mailInvite(org: Organization, invite: Invite, invitedBy: string | undefined): Promise<void> {
  try {
    const { mail } = await import('../../ports/mail-transport/index');
    const by = invitedBy ? `${invitedBy} invited you` : 'You are invited';
    await mail().send({
      to: [invite.email],
      subject: `You're invited to join ${org.name}`,
      text:
        `${by} to join the organization ${org.name} (${org.slug}) as ${invite.role}.\n\n` +
        `Sign in with ${invite.email} and accept the invitation in the web app, or on the command line:\n\n` +
        `  platform org invites accept ${invite.inviteId}\n\n` +
        `The invitation expires on ${new Date(invite.expiresAt).toUTCString()}.\n`,
    });
  } catch (err) {
    log.warn('invite_mail_unsent', { orgId: org.orgId, inviteId: invite.inviteId, error: describeError(err) });
  }
}
