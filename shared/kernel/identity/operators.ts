import type { Caller } from '../auth/caller';
import { forbidden } from '../ground/errors';
import { getItem, keys } from '../store/table';
import { findOrgBySlug } from './orgs';
import type { Member, Organization } from './schema';

/** The answer to anyone else on a `/v1/platform` route. */
export const NOT_OPERATOR = 'Only platform operators can do this.';

/**
 * The platform organization: the organization of kind `platform` with the slug `platform` (made by
 * the first start, locally by the seed). Kept for the life of the container once found.
 */
let platformOrg: Organization | undefined;
export async function findPlatformOrg(): Promise<Organization | undefined> {
  if (platformOrg) return platformOrg;
  const org = await findOrgBySlug('platform');
  if (org?.kind === 'platform') platformOrg = org;
  return platformOrg;
}

/**
 * Who operates the platform: owners and admins of the platform organization, and its agent keys
 * (`app_agent_`). Everyone else, customer owners included, is 403.
 */
export async function requireOperator(caller: Caller): Promise<{ org: Organization; caller: Caller }> {
  const org = await findPlatformOrg();
  if (!org) throw forbidden(NOT_OPERATOR);
  if (caller.kind === 'agent_key' && caller.orgId === org.orgId) return { org, caller };
  if (caller.kind === 'user') {
    const member = await getItem<Member>(keys.member(org.orgId, caller.userId));
    if (member && (member.role === 'owner' || member.role === 'admin')) return { org, caller };
  }
  throw forbidden(NOT_OPERATOR);
}
