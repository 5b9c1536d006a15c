import { SCOPES } from '../../shared/kernel/auth/scopes';
import { statusOf } from '../../shared/kernel/http/http-error';
import { createKey } from '../../shared/kernel/identity/keys';
import { createOrg, findOrgBySlug } from '../../shared/kernel/identity/orgs';
import type { Organization } from '../../shared/kernel/identity/schema';
import type { Person, TestPlatform } from '../helpers/platform';

/**
 * The platform organization (slug `platform`, kind `platform`), as the local seed makes it
 * (lib/local/seed.ts): found, or made by the first test file of the run that needs it.
 */
export async function platformOrg(): Promise<Organization> {
  const found = await findOrgBySlug('platform');
  if (found) return found;
  try {
    return await createOrg({ slug: 'platform', name: 'Platform', kind: 'platform' });
  } catch (err) {
    // Made by another test file at the same moment.
    if (statusOf(err) !== 409) throw err;
    return (await findOrgBySlug('platform')) as Organization;
  }
}

export interface Operators {
  platform: Organization;
  owner: Person;
  admin: Person;
  /** A developer of the platform organization: not an operator. */
  developer: Person;
  /** An `app_agent_` key of the platform organization. */
  agentKey: string;
  /** An `app_api_` key of the platform organization with every scope: not an operator. */
  apiKey: string;
}

export async function operators(p: TestPlatform): Promise<Operators> {
  const platform = await platformOrg();
  const [owner, admin, developer, agent, apiKey] = await Promise.all([
    p.person('owner', platform.orgId),
    p.person('admin', platform.orgId),
    p.person('developer', platform.orgId),
    createKey({ orgId: platform.orgId, kind: 'agent', scopes: [...SCOPES], name: 'operator' }),
    p.apiKey(SCOPES, platform.orgId),
  ]);
  return { platform, owner, admin, developer, agentKey: agent.secret, apiKey };
}
