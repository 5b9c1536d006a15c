import type { Caller } from '../../shared/kernel/auth/caller';
import { ROLE_SCOPES } from '../../shared/kernel/auth/roles';
import type { Role, Scope } from '../../shared/kernel/auth/scopes';
import { membershipsOf } from '../../shared/kernel/identity/orgs';
import type { Organization } from '../../shared/kernel/identity/schema';
import { getUser } from '../../shared/kernel/identity/users';
import { getMany, keys } from '../../shared/kernel/store/table';

interface OrgEntry {
  orgId: string;
  slug: string;
  name: string;
  kind: Organization['kind'];
  role: Role | null;
  scopes: readonly Scope[];
}

/**
 * `GET /v1/me`: a person sees every organization they belong to with their role and the scopes it
 * grants; a key sees its own organization and its own scopes.
 */
export async function describeCaller(caller: Caller) {
  if (caller.kind === 'user') {
    // The token usually carries email and name: the user record is read only when it does not.
    const known = caller.email !== undefined && caller.name !== undefined;
    const [user, memberships] = await Promise.all([
      known ? undefined : getUser(caller.userId),
      membershipsOf(caller.userId),
    ]);
    const orgs = await getMany<Organization>(memberships.map((m) => keys.org(m.orgId)));
    const entries: OrgEntry[] = [];
    memberships.forEach((m, i) => {
      const org = orgs[i];
      if (org)
        entries.push({
          orgId: org.orgId,
          slug: org.slug,
          name: org.name,
          kind: org.kind,
          role: m.role,
          scopes: ROLE_SCOPES[m.role],
        });
    });
    return {
      kind: 'user' as const,
      userId: caller.userId,
      email: caller.email ?? user?.email ?? null,
      name: caller.name ?? user?.name ?? null,
      orgs: entries.sort((a, b) => a.name.localeCompare(b.name)),
    };
  }
  if (caller.kind === 'device') throw new Error('device tokens do not reach /v1/me');
  const [org] = await getMany<Organization>([keys.org(caller.orgId)]);
  return {
    kind: caller.kind,
    keyId: caller.keyId,
    scopes: caller.scopes,
    orgs: org
      ? [{ orgId: org.orgId, slug: org.slug, name: org.name, kind: org.kind, role: null, scopes: caller.scopes }]
      : [],
  };
}
