import { queryPrefix } from '../store/ops';
import { type Item, keys, ORG_PREFIX } from '../store/table';
import type { Invite, Member, Team } from './schema';

const pick = <T>(item: Record<string, unknown>, fields: (keyof T)[]): T =>
  Object.fromEntries(fields.filter((f) => item[f as string] !== undefined).map((f) => [f, item[f as string]])) as T;

/** An organization's members, teams and invites: one Query (they share a sort key prefix). */
export const readPeople = (orgId: string) => queryPrefix(keys.org(orgId).pk, ORG_PREFIX.people);

/** Members, teams and, for callers who may manage members, pending invites. */
export function listMembers(people: Item[], withInvites: boolean) {
  const of = (prefix: string) => people.filter((i) => i.sk.startsWith(prefix));
  const [members, teams, invites] = [of(ORG_PREFIX.member), of(ORG_PREFIX.team), of(ORG_PREFIX.invite)];
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
