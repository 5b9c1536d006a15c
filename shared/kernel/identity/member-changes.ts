import type { Role } from '../auth/scopes';
import { conflict, forbidden, invalid, notFound } from '../ground/errors';
import { PREFIXES } from '../store/keys';
import { queryAll, transact } from '../store/ops';
import { getItem, keys, putNew, TABLE } from '../store/table';
import { memberItem, orgIsActive } from './orgs';
import type { Member } from './schema';
import { findUserByEmail } from './users';

/**
 * Changes to an organization's members by its owners and admins (routes with `members:write`):
 * adding a person who has an account, changing a role, removing a member. Only owners grant the
 * owner role or touch an owner; an organization always keeps one owner.
 */
export const MEMBER_MESSAGES = {
  notFound: 'Member not found',
  noUser: 'No one has an account with this email. Invite them instead.',
  already: 'This person is already a member.',
  grantOwner: 'Only owners can grant the owner role.',
  touchOwner: "Only owners can change or remove an owner's membership.",
  lastOwner: 'An organization needs at least one owner. Make another member an owner first.',
} as const;

/** Who asks: their role in the organization (keys have none: they never act as an owner). */
export type Actor = { role?: Role };

export const mayGrant = (actor: Actor, role: Role) => role !== 'owner' || actor.role === 'owner';

/** Adds a person who has an account (by email) with `role`. */
export async function addExistingMember(orgId: string, actor: Actor, email: string, role: Role): Promise<Member> {
  if (!mayGrant(actor, role)) throw forbidden(MEMBER_MESSAGES.grantOwner);
  const user = await findUserByEmail(email.trim().toLowerCase());
  if (!user) throw invalid(MEMBER_MESSAGES.noUser);
  const member: Member = {
    userId: user.userId,
    role,
    email: user.email,
    ...(user.name ? { name: user.name } : {}),
    joinedAt: Date.now(),
  };
  await transact(
    [orgIsActive(orgId), putNew(memberItem(orgId, member))],
    [() => notFound('Organization not found'), MEMBER_MESSAGES.already],
  );
  return member;
}

/** Changes a member's role; the last owner can't be demoted. */
export async function changeRole(orgId: string, actor: Actor, userId: string, role: Role): Promise<Member> {
  return guarded(orgId, actor, userId, role, (member) => ({
    Update: {
      TableName: TABLE(),
      Key: keys.member(orgId, userId),
      UpdateExpression: 'SET #role = :role',
      ConditionExpression: '#role = :was',
      ExpressionAttributeNames: { '#role': 'role' },
      ExpressionAttributeValues: { ':role': role, ':was': member.role },
    },
  }));
}

/** Removes a member; the last owner can't be removed. */
export async function removeMember(orgId: string, actor: Actor, userId: string): Promise<void> {
  await guarded(orgId, actor, userId, undefined, (member) => ({
    Delete: {
      TableName: TABLE(),
      Key: keys.member(orgId, userId),
      ConditionExpression: '#role = :was',
      ExpressionAttributeNames: { '#role': 'role' },
      ExpressionAttributeValues: { ':was': member.role },
    },
  }));
}

/**
 * A change of one member (a new role, or none: removal) written on the condition that the member
 * is as read and, when an owner stops being one, that another owner still is (checked in the same
 * transaction, so two owners demoting each other at once can't both succeed). A condition that
 * fails because the members changed meanwhile is read again.
 */
async function guarded(
  orgId: string,
  actor: Actor,
  userId: string,
  role: Role | undefined,
  write: (member: Member) => Record<string, unknown>,
): Promise<Member> {
  for (let attempt = 0; ; attempt++) {
    const member = await getItem<Member>(keys.member(orgId, userId), true);
    if (!member) throw notFound(MEMBER_MESSAGES.notFound);
    if (member.role === 'owner' && actor.role !== 'owner') throw forbidden(MEMBER_MESSAGES.touchOwner);
    if (role !== undefined && !mayGrant(actor, role)) throw forbidden(MEMBER_MESSAGES.grantOwner);
    const updated: Member = { ...member, role: role ?? member.role };
    if (role === member.role) return pick(updated);
    const items = [write(member)];
    if (member.role === 'owner') {
      const other = await anotherOwner(orgId, userId);
      if (!other) throw conflict(MEMBER_MESSAGES.lastOwner);
      items.push({
        ConditionCheck: {
          TableName: TABLE(),
          Key: keys.member(orgId, other),
          ConditionExpression: '#role = :owner',
          ExpressionAttributeNames: { '#role': 'role' },
          ExpressionAttributeValues: { ':owner': 'owner' },
        },
      });
    }
    let changed = false;
    await transact(items as Parameters<typeof transact>[0], async () => {
      changed = true;
      return attempt < 3 ? undefined : conflict(MEMBER_MESSAGES.lastOwner);
    }).catch((err: unknown) => {
      // Cancelled by a condition: read again (below); anything else is an error.
      if (!changed || attempt >= 3) throw err;
    });
    if (!changed) return pick(updated);
  }
}

/** Another owner of the organization than `userId`, read consistently. */
async function anotherOwner(orgId: string, userId: string): Promise<string | undefined> {
  const owners = await queryAll<Member>({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :m)',
    FilterExpression: '#role = :owner',
    ExpressionAttributeNames: { '#role': 'role' },
    ExpressionAttributeValues: { ':pk': keys.org(orgId).pk, ':m': PREFIXES.identity.member, ':owner': 'owner' },
    ConsistentRead: true,
  });
  return owners.find((o) => o.userId !== userId)?.userId;
}

const pick = (m: Member): Member => ({
  userId: m.userId,
  role: m.role,
  ...(m.email !== undefined ? { email: m.email } : {}),
  ...(m.name !== undefined ? { name: m.name } : {}),
  ...(m.joinedAt !== undefined ? { joinedAt: m.joinedAt } : {}),
});
