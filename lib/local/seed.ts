import { SCOPES } from '../../shared/kernel/auth/scopes';
import { findKey } from '../../shared/kernel/identity/key-secrets';
import { createKey } from '../../shared/kernel/identity/keys';
import { addMember, createOrg, findOrgBySlug } from '../../shared/kernel/identity/orgs';
import type { Member, Organization } from '../../shared/kernel/identity/schema';
import { ensureUser } from '../../shared/kernel/identity/users';
import { getItem, keys } from '../../shared/kernel/store/table';

/**
 * What a fresh local platform holds, so it can be used at once: the platform organization, one
 * customer organization, an owner of both, and an API key of the customer organization with
 * every scope. Found by slug on later starts, so seeding again changes nothing.
 *
 * Imported only after the environment of the handlers is set: the store reads it at import time.
 */
export const SEED = {
  platform: { slug: 'platform', name: 'Platform', kind: 'platform' },
  customer: { slug: 'acme', name: 'Acme', kind: 'customer' },
} as const;

export interface Seeded {
  orgs: { platform: Organization; customer: Organization };
  owner: { email: string; userId: string };
  apiKey: string;
  /** What this start created (empty on a start with existing data). */
  created: string[];
}

async function ensureOrg(
  spec: { slug: string; name: string; kind: Organization['kind'] },
  created: string[],
): Promise<Organization> {
  const found = await findOrgBySlug(spec.slug);
  if (found) return found;
  created.push(`organization ${spec.slug}`);
  return createOrg(spec);
}

async function ensureOwner(orgId: string, userId: string, email: string, created: string[]): Promise<void> {
  const member = await getItem<Member>(keys.member(orgId, userId));
  // Someone may have changed the role on purpose: a later start leaves an existing member alone.
  if (member) return;
  created.push(`owner ${email} of ${orgId}`);
  await addMember(orgId, email, 'owner', 'Local owner');
}

export async function seedLocalPlatform(input: { ownerEmail: string; previousApiKey?: string }): Promise<Seeded> {
  const created: string[] = [];
  const platform = await ensureOrg(SEED.platform, created);
  const customer = await ensureOrg(SEED.customer, created);
  const user = await ensureUser(input.ownerEmail, 'Local owner');
  await ensureOwner(platform.orgId, user.userId, user.email, created);
  await ensureOwner(customer.orgId, user.userId, user.email, created);

  // The secret can't be recovered from its stored hash: keep the one of local.json while it works.
  let apiKey = input.previousApiKey;
  const existing = apiKey ? await findKey(apiKey) : undefined;
  if (!apiKey || !existing || existing.orgId !== customer.orgId) {
    apiKey = (await createKey({ orgId: customer.orgId, kind: 'api', scopes: [...SCOPES], name: 'local platform' }))
      .secret;
    created.push(`API key of ${customer.slug}`);
  }
  return { orgs: { platform, customer }, owner: { email: user.email, userId: user.userId }, apiKey, created };
}
