import type { Role } from '../auth/scopes';
import { db } from '../store/client';
import { PutCommand } from '../store/commands';
import { newId } from '../store/ids';
import { PREFIXES } from '../store/keys';
import { queryAll, transact, updateVersioned } from '../store/ops';
import { getItem, keys, orgPk, putNew, TABLE, userPk } from '../store/table';
import type { Member, Organization } from './schema';
import { ensureUser } from './users';

export const SLUG_TAKEN = 'An organization with this slug exists.';

export const ORG_CHANGED = 'The organization changed since it was read. Reload and try again.';

/** Renames an organization, guarded by its version when the caller gives one (409 ORG_CHANGED). */
export const renameOrg = (orgId: string, name: string, ifVersion?: number) =>
  updateVersioned<Organization>(keys.org(orgId), ifVersion, { name, updatedAt: Date.now() }, ORG_CHANGED);

export function getOrg(orgId: string): Promise<Organization | undefined> {
  return getItem<Organization>(keys.org(orgId));
}

/** Creates an organization; its slug is unique (a transaction, not a read-then-write). */
export async function createOrg(input: {
  slug: string;
  name: string;
  kind: Organization['kind'];
}): Promise<Organization> {
  const { org, items } = orgItems(input);
  await transact(items, [undefined, SLUG_TAKEN]);
  return org;
}

/**
 * Creates a customer organization with `owner` as its owner, in one transaction: the organization,
 * its slug (unique: 409 SLUG_TAKEN) and the membership, so no organization is ever without an owner.
 */
export async function createOrgWithOwner(
  input: { slug: string; name: string },
  owner: { userId: string; email?: string; name?: string },
): Promise<{ org: Organization; member: Member }> {
  const { org, items } = orgItems({ ...input, kind: 'customer' });
  const member: Member = {
    userId: owner.userId,
    role: 'owner',
    ...(owner.email ? { email: owner.email.toLowerCase() } : {}),
    ...(owner.name ? { name: owner.name } : {}),
    joinedAt: org.createdAt,
  };
  await transact([...items, putNew(memberItem(org.orgId, member))], [undefined, SLUG_TAKEN]);
  return { org, member };
}

/** A new organization's record and the two items that store it (the record, its slug's claim). */
function orgItems(input: { slug: string; name: string; kind: Organization['kind'] }) {
  const org: Organization = {
    orgId: newId('org_'),
    slug: input.slug,
    name: input.name,
    kind: input.kind,
    createdAt: Date.now(),
    version: 1,
    status: 'active',
  };
  return {
    org,
    items: [
      putNew({ ...keys.org(org.orgId), ...org, gsi1pk: 'ORGS', gsi1sk: org.orgId }),
      putNew({ ...keys.orgSlug(org.slug), orgId: org.orgId }),
    ],
  };
}

/** A membership as stored: under its organization, and on GSI1 under its user (membershipsOf). */
export const memberItem = (orgId: string, member: Member) => ({
  ...keys.member(orgId, member.userId),
  ...member,
  orgId,
  gsi1pk: userPk(member.userId),
  gsi1sk: orgPk(orgId),
});

export async function findOrgBySlug(slug: string): Promise<Organization | undefined> {
  const ref = await getItem<{ orgId: string }>(keys.orgSlug(slug));
  return ref ? getOrg(ref.orgId) : undefined;
}

/** Adds a person (by email: the same email is the same user everywhere) or changes their role. */
export async function addMember(orgId: string, email: string, role: Role, name?: string): Promise<Member> {
  const user = await ensureUser(email, name);
  const member: Member = { userId: user.userId, role, email: user.email, name: user.name, joinedAt: Date.now() };
  await db.send(new PutCommand({ TableName: TABLE(), Item: memberItem(orgId, member) }));
  return member;
}

/** The organizations a user belongs to, with the role in each (one query on GSI1). */
export function membershipsOf(userId: string): Promise<(Member & { orgId: string })[]> {
  return queryAll<Member & { orgId: string }>({
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :u AND begins_with(gsi1sk, :o)',
    ExpressionAttributeValues: { ':u': userPk(userId), ':o': PREFIXES.identity.org },
  });
}

/**
 * A transaction item that holds only while the organization exists and is not being deleted:
 * every route that creates something inside an organization puts it in its transaction, so a
 * deletion in progress can't leave orphans behind.
 */
export const orgIsActive = (orgId: string) => ({
  ConditionCheck: {
    TableName: TABLE(),
    Key: keys.org(orgId),
    ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(#status) OR #status = :active)',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: { ':active': 'active' },
  },
});
