import { newId } from '../../../kernel/store/ids';
import { PREFIXES } from '../../../kernel/store/keys';
import { deleteMany, queryPrefix, transact } from '../../../kernel/store/ops';
import { getItem, putNew } from '../../../kernel/store/table';

/**
 * Git LFS file locks (the locks API's rules): one lock per path of a repository, owned by the
 * credential's person (or key) that made it; only its owner unlocks it, or an admin with `force`.
 * Items `LFSLOCK#<repoId>` / `PATH#<path>`, removed with the repository.
 */
export interface LfsLock {
  id: string;
  path: string;
  locked_at: string;
  owner: { name: string };
}

interface LockItem {
  pk: string;
  sk: string;
  id: string;
  path: string;
  lockedAt: number;
  owner: string;
}

export const LOCKS = {
  badPath: 'A lock needs a path: a file of the repository, at most 1,024 characters.',
  exists: 'This path is already locked.',
  notFound: 'Lock not found',
  notOwner: 'This lock belongs to someone else. An admin can unlock it with --force.',
  forceAdmins: 'Only admins can force an unlock.',
} as const;

const pkOf = (repoId: string) => `${PREFIXES.repos.lfsLocks}${repoId}`;
const keyOf = (repoId: string, path: string) => ({ pk: pkOf(repoId), sk: `${PREFIXES.repos.lfsPath}${path}` });

export const toLock = (l: LockItem): LfsLock => ({
  id: l.id,
  path: l.path,
  locked_at: new Date(l.lockedAt).toISOString(),
  owner: { name: l.owner },
});

export const validPath = (path: unknown): path is string =>
  typeof path === 'string' && path.length > 0 && path.length <= 1024 && !path.includes('\0');

/** Locks the path for `owner`: the new lock, or the lock already there (`existing`). */
export async function createLock(
  repoId: string,
  path: string,
  owner: string,
): Promise<{ lock: LfsLock; existing: boolean }> {
  const item: LockItem = { ...keyOf(repoId, path), id: newId('lfl_'), path, lockedAt: Date.now(), owner };
  let taken = false;
  await transact([putNew({ ...item })], async () => {
    taken = true;
    return undefined;
  }).catch((err: unknown) => {
    if (!taken) throw err;
  });
  if (!taken) return { lock: toLock(item), existing: false };
  const there = await getItem<LockItem>(keyOf(repoId, path), true);
  return there ? { lock: toLock(there), existing: true } : createLock(repoId, path, owner);
}

/** The repository's locks in path order, with `path` or `id` only that one. */
export async function listLocks(repoId: string, filter: { path?: string; id?: string } = {}): Promise<LfsLock[]> {
  const items = await queryPrefix<LockItem>(
    pkOf(repoId),
    filter.path ? `${PREFIXES.repos.lfsPath}${filter.path}` : PREFIXES.repos.lfsPath,
  );
  return items
    .filter((l) => (!filter.path || l.path === filter.path) && (!filter.id || l.id === filter.id))
    .map(toLock);
}

/**
 * Unlocks a lock by id: its owner may; anyone else only with `force`, which only admins have.
 * Throws 'notFound' | 'notOwner' | 'forceAdmins' as the LOCKS key of the refusal.
 */
export async function unlock(
  repoId: string,
  id: string,
  caller: { owner: string; admin: boolean },
  force: boolean,
): Promise<LfsLock | keyof typeof LOCKS> {
  const [lock] = await listLocks(repoId, { id });
  if (!lock) return 'notFound';
  if (lock.owner.name !== caller.owner) {
    if (!force) return 'notOwner';
    if (!caller.admin) return 'forceAdmins';
  }
  await deleteMany([keyOf(repoId, lock.path)]);
  return lock;
}

/** Every lock of the repository, removed with it. */
export async function removeLocks(repoId: string): Promise<void> {
  const items = await queryPrefix<LockItem>(pkOf(repoId), PREFIXES.repos.lfsPath);
  await deleteMany(items.map((l) => ({ pk: l.pk, sk: l.sk })));
}
