import type { Invite, Member, Team } from '../../shared/schemas/org';
import { keys, ORG_PREFIX, queryPrefix } from '../../shared/store/table';

const pick = <T>(item: Record<string, unknown>, fields: (keyof T)[]): T =>
  Object.fromEntries(fields.filter((f) => item[f as string] !== undefined).map((f) => [f, item[f as string]])) as T;

/** Members, teams and, for callers who may manage members, pending invites. */
export async function listMembers(orgId: string, withInvites: boolean) {
  const pk = keys.org(orgId).pk;
  const [members, teams, invites] = await Promise.all([
    queryPrefix(pk, ORG_PREFIX.member),
    queryPrefix(pk, ORG_PREFIX.team),
    withInvites ? queryPrefix(pk, ORG_PREFIX.invite) : Promise.resolve([]),
  ]);
  const now = Date.now();
  return {
    members: members.map((m) => pick<Member>(m, ['userId', 'role', 'email', 'name', 'joinedAt'])),
    teams: teams.map((t) => pick<Team>(t, ['teamId', 'slug', 'name', 'description', 'members'])),
    ...(withInvites
      ? {
          invites: invites
            .map((i) => pick<Invite>(i, ['inviteId', 'email', 'role', 'expiresAt', 'createdAt']))
            .filter((i) => i.expiresAt > now),
        }
      : {}),
  };
}
