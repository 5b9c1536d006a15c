import { createHash } from 'node:crypto';
import { getItem, keys } from '../store/table';
import type { KeyRecord } from './schema';

/**
 * Keys as authentication reads them: their prefixes, the hash they are stored by, and whether a
 * stored key may still be used. Apart from `./keys` (creating keys), which every function's
 * start would otherwise load with its writes.
 */
export const KEY_PREFIX = { api: 'app_api_', agent: 'app_agent_', device: 'app_dev_', session: 'app_ses_' } as const;

export const hashSecret = (secret: string) => createHash('sha256').update(secret).digest('hex');

/** The stored key for a presented secret, or undefined (unknown, revoked or expired). */
export async function findKey(secret: string): Promise<KeyRecord | undefined> {
  return usableKey(await getItem<KeyRecord>(keys.keyHash(hashSecret(secret))));
}

/** The key record if it may still be used: not revoked, not expired. */
export function usableKey(key: KeyRecord | undefined): KeyRecord | undefined {
  if (!key || key.revoked) return undefined;
  if (key.expiresAt !== undefined && key.expiresAt <= Date.now()) return undefined;
  return key;
}

/** A person's session of the command line (./sessions.ts), as stored by the hash of its token. */
export interface SessionRecord {
  kind: 'session';
  sessionId: string;
  userId: string;
  email: string | null;
  name: string | null;
  /** What the program said it is (`platform CLI on <host>`). */
  label: string;
  createdAt: number;
  expiresAt: number;
}

/** The session a presented `app_ses_` token names (./sessions.ts), if it may still be used. */
export async function findSession(token: string): Promise<SessionRecord | undefined> {
  const record = await getItem<SessionRecord>(keys.keyHash(hashSecret(token)));
  return record?.kind === 'session' && record.expiresAt > Date.now() ? record : undefined;
}
