import type { Member } from '../../kernel/identity/schema';
import { queryPrefix } from '../../kernel/store/ops';
import { keys, ORG_PREFIX } from '../../kernel/store/table';

export interface Person {
  userId: string;
  name: string | null;
  email: string;
  handle: string;
}

/** A handle from an email's local part: lowercase letters, digits and hyphens. */
const handleOf = (email: string) =>
  (email.split('@')[0] ?? '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '') || 'member';

/**
 * The organization's members as repositories name them (assignees, mentions): each with a
 * `handle` unique in the organization, the earliest member keeping the plain one.
 */
export async function listPeople(orgId: string): Promise<Person[]> {
  const members = await queryPrefix<Member>(keys.org(orgId).pk, ORG_PREFIX.member);
  members.sort((a, b) => (a.joinedAt ?? 0) - (b.joinedAt ?? 0) || a.userId.localeCompare(b.userId));
  const taken = new Set<string>();
  return members.map((m) => {
    const email = m.email ?? '';
    const base = handleOf(email);
    let handle = base;
    for (let n = 2; taken.has(handle); n++) handle = `${base}-${n}`;
    taken.add(handle);
    return { userId: m.userId, name: m.name ?? null, email, handle };
  });
}
