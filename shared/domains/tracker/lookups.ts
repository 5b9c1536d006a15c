import type { Member } from '../../kernel/identity/schema';
import { queryPrefix } from '../../kernel/store/ops';
import { getItem, keys, ORG_PREFIX } from '../../kernel/store/table';
import type { Space, TrackedIssue } from './model';
import { pkOf, TK, TP } from './store';

/*
 * The tracker's plain reads (a space, an issue, the organization's people), unchecked: what the
 * spaces, the issues, JQL's context and the SLAs all look up, apart from the modules that write, so
 * that none of them imports another back.
 */

export type Stored<T> = T & { pk: string; sk: string };

/** A stored item without its keys. */
export const strip = <T extends object>(item: Stored<T>): T => {
  const { pk: _p, sk: _s, ...rest } = item as Stored<T> & Record<string, unknown>;
  return rest as unknown as T;
};

/** A space by key (current or former, any case) or `spc_` id, whatever the caller may see. */
export async function findSpace(orgId: string, ref: string): Promise<Space | undefined> {
  let spaceId = ref;
  if (!ref.startsWith('spc_')) {
    if (!/^[A-Za-z][A-Za-z0-9]{0,63}$/.test(ref)) return undefined;
    const pointer = await getItem<{ spaceId: string }>(TK.spaceKey(orgId, ref));
    if (!pointer) return undefined;
    spaceId = pointer.spaceId;
  }
  const item = await getItem<Stored<Space>>(TK.space(orgId, spaceId));
  return item ? strip(item) : undefined;
}

export async function allSpaces(orgId: string): Promise<Space[]> {
  return (await queryPrefix<Stored<Space>>(pkOf(orgId), TP.space)).map(strip);
}

export async function getIssue(orgId: string, issueId: string, consistent = false): Promise<TrackedIssue | undefined> {
  if (!/^iss_[0-9a-z]{26}$/.test(issueId)) return undefined;
  const item = await getItem<Stored<TrackedIssue>>(TK.issue(orgId, issueId), consistent);
  return item ? (strip(item) as TrackedIssue) : undefined;
}

/** An issue by `iss_` id or key (any key its space has had, any key it had before a move), unchecked. */
export async function findIssue(orgId: string, ref: string, consistent = false): Promise<TrackedIssue | undefined> {
  if (ref.startsWith('iss_')) return getIssue(orgId, ref, consistent);
  const m = /^([A-Za-z][A-Za-z0-9]{0,63})-([1-9][0-9]{0,8})$/.exec(ref.trim());
  if (!m) return undefined;
  const space = await findSpace(orgId, m[1] as string);
  if (!space) return undefined;
  const pointer = await getItem<{ issueId: string }>(TK.issueNumber(orgId, space.spaceId, Number(m[2])));
  return pointer ? getIssue(orgId, pointer.issueId, consistent) : undefined;
}

export async function membersOf(orgId: string): Promise<Member[]> {
  return queryPrefix<Member>(keys.org(orgId).pk, ORG_PREFIX.member);
}
