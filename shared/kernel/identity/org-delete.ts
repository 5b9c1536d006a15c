import { conflict, invalid } from '../ground/errors';
import { PREFIXES } from '../store/keys';
import { deleteMany, queryAll, updateVersioned } from '../store/ops';
import { type Item, keys, ORG_PREFIX } from '../store/table';
import { inviteRefKey } from './invites';
import { countContents, describeRemaining } from './org-contents';
import type { Organization } from './schema';

/**
 * Deletes an empty customer organization with its members, teams, invites (and their references) and keys (owners only:
 * declared on the route).
 * The organization is first marked `deleting` (guarded by its version), which every creating
 * route checks in its transaction; then its contents are counted consistently. If anything
 * remains, the mark is lifted and the answer is 409 `Remove its ... first.`
 */
export async function deleteOrganization(org: Organization): Promise<void> {
  if (org.kind === 'platform') throw invalid("The platform organization can't be deleted.");

  const marked = await updateVersioned<Organization>(keys.org(org.orgId), org.version, {
    status: 'deleting',
    updatedAt: Date.now(),
  });
  const remaining = describeRemaining(await countContents(org.orgId, true));
  if (remaining) {
    await updateVersioned(keys.org(org.orgId), marked.version, { status: 'active' });
    throw conflict(`Remove its ${remaining} first.`);
  }

  const items = await queryAll<Item & { hash?: string }>({
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': keys.org(org.orgId).pk },
    ProjectionExpression: 'pk, sk, #hash',
    ExpressionAttributeNames: { '#hash': 'hash' },
    ConsistentRead: true,
  });
  const keyHashes = items
    .filter((i) => i.sk.startsWith(PREFIXES.identity.key) && i.hash)
    .map((i) => keys.keyHash(i.hash as string));
  // Invites' references by id (outside the organization's partition): gone with their invites.
  const inviteRefs = items
    .filter((i) => i.sk.startsWith(ORG_PREFIX.invite))
    .map((i) => inviteRefKey(i.sk.slice(ORG_PREFIX.invite.length)));
  // Keys first (so none works a moment longer), then the records, the slug, the organization last:
  // a failure part-way leaves a `deleting` organization that the owner can delete again.
  await deleteMany(keyHashes);
  await deleteMany([...inviteRefs, ...items.filter((i) => i.sk !== 'ORG')]);
  await deleteMany([keys.orgSlug(org.slug), keys.org(org.orgId)]);
}
