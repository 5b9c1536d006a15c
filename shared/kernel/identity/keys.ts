import type { Scope } from '../auth/scopes';
import { newId, newSecret } from '../store/ids';
import { transact } from '../store/ops';
import { keys, putNew } from '../store/table';
import { hashSecret, KEY_PREFIX } from './key-secrets';
import { getOrg } from './orgs';
import type { KeyRecord } from './schema';

interface KeyInput {
  orgId: string;
  kind: KeyRecord['kind'];
  scopes: Scope[];
  name?: string;
  deviceId?: string;
  expiresAt?: number;
}

/**
 * Creates an API key, a platform agent key or a device token. The secret is returned once and
 * stored only as its SHA-256. Agent keys exist in the platform organization only.
 */
export async function createKey(input: KeyInput): Promise<{ key: KeyRecord; secret: string }> {
  const org = await getOrg(input.orgId);
  if (!org) throw new Error(`Organization ${input.orgId} not found`);
  if (input.kind === 'agent' && org.kind !== 'platform') {
    throw new Error('Platform agent keys belong to the platform organization only.');
  }
  const { key, secret, items } = keyItems(input);
  await transact(items);
  return { key, secret };
}

/**
 * A new key's record, its secret (shown once) and the two items that store it (by hash, and under
 * its organization), for a transaction of the caller's (createKey, a device login's token).
 */
export function keyItems(input: KeyInput) {
  const secret = newSecret(KEY_PREFIX[input.kind]);
  const hash = hashSecret(secret);
  const key: KeyRecord = {
    keyId: newId('key_'),
    kind: input.kind,
    orgId: input.orgId,
    scopes: input.kind === 'device' ? [] : input.scopes,
    name: input.name,
    deviceId: input.deviceId,
    createdAt: Date.now(),
    expiresAt: input.expiresAt,
  };
  return {
    key,
    secret,
    items: [
      putNew({ ...keys.keyHash(hash), ...key }),
      putNew({ ...keys.orgKey(input.orgId, key.keyId), ...key, hash }),
    ],
  };
}
