import { newId } from '../store/ids';
import { transact } from '../store/ops';
import { getItem, keys, putNew } from '../store/table';
import type { User } from './schema';

/** The user with this email, created on first sight. Emails are unique (a transaction). */
export async function ensureUser(email: string, name?: string): Promise<User> {
  const normalized = email.trim().toLowerCase();
  const existing = await findUserByEmail(normalized);
  if (existing) return existing;
  const user: User = { userId: newId('usr_'), email: normalized, name, createdAt: Date.now() };
  try {
    await transact(
      [putNew({ ...keys.user(user.userId), ...user }), putNew({ ...keys.userEmail(normalized), userId: user.userId })],
      [undefined, 'exists'],
    );
    return user;
  } catch (err) {
    // Created concurrently by another call: that one wins.
    const again = await findUserByEmail(normalized);
    if (again) return again;
    throw err;
  }
}

export async function findUserByEmail(email: string): Promise<User | undefined> {
  const ref = await getItem<{ userId: string }>(keys.userEmail(email), true);
  return ref ? getItem<User>(keys.user(ref.userId), true) : undefined;
}

export function getUser(userId: string): Promise<User | undefined> {
  return getItem<User>(keys.user(userId));
}
