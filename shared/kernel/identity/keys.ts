import type { Scope } from '../auth/scopes';
import { forbidden, invalid, notFound } from '../ground/errors';
import { newId, newSecret } from '../store/ids';
import { queryPrefix, transact } from '../store/ops';
import { getItem, keys, ORG_PREFIX, putNew, TABLE } from '../store/table';
import { hashSecret, KEY_PREFIX } from './key-secrets';
import { getOrg, orgIsActive } from './orgs';
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

export const KEY_MESSAGES = {
  notFound: 'Key not found',
  past: 'expiresAt must be in the future.',
  notHeld: (scope: Scope) => `You can't grant ${scope}: you don't hold it.`,
} as const;

/** A key as the API answers it: never its secret, nor the hash it is stored by. */
export interface ShownKey {
  keyId: string;
  kind: 'api' | 'agent';
  name?: string;
  scopes: Scope[];
  createdAt: number;
  createdBy?: string;
  expiresAt?: number;
}

const shownKey = (k: KeyRecord & { createdBy?: string }): ShownKey => ({
  keyId: k.keyId,
  kind: k.kind as ShownKey['kind'],
  ...(k.name !== undefined ? { name: k.name } : {}),
  scopes: k.scopes,
  createdAt: k.createdAt,
  ...(k.createdBy !== undefined ? { createdBy: k.createdBy } : {}),
  ...(k.expiresAt !== undefined ? { expiresAt: k.expiresAt } : {}),
});

/** The organization's API keys and platform agent keys (not agent devices' tokens), newest first. */
export async function listKeys(orgId: string): Promise<ShownKey[]> {
  const items = await queryPrefix<KeyRecord>(keys.org(orgId).pk, ORG_PREFIX.key);
  return items
    .filter((k) => (k.kind === 'api' || k.kind === 'agent') && !k.revoked)
    .map(shownKey)
    .sort((a, b) => b.keyId.localeCompare(a.keyId));
}

/**
 * Creates an API key of the organization for a caller that may manage keys. It grants only
 * scopes the caller holds itself (a key can't make a stronger key); the secret is answered once.
 */
export async function createApiKey(
  orgId: string,
  caller: { id: string; scopes: ReadonlySet<Scope> },
  input: { name: string; scopes: Scope[]; expiresAt?: number },
): Promise<{ key: ShownKey; secret: string }> {
  const missing = input.scopes.find((s) => !caller.scopes.has(s));
  if (missing) throw forbidden(KEY_MESSAGES.notHeld(missing));
  if (input.expiresAt !== undefined && input.expiresAt <= Date.now()) throw invalid(KEY_MESSAGES.past);
  const { key, secret, items } = keyItems({
    orgId,
    kind: 'api',
    scopes: [...new Set(input.scopes)],
    name: input.name,
    expiresAt: input.expiresAt,
  });
  const withBy = (item: ReturnType<typeof putNew>) => ({
    Put: { ...item.Put, Item: { ...item.Put.Item, createdBy: caller.id } },
  });
  await transact([orgIsActive(orgId), ...items.map(withBy)], [() => notFound('Organization not found')]);
  return { key: shownKey({ ...key, createdBy: caller.id }), secret };
}

/** Revokes an API key or agent key of the organization: it stops working at once (both its items go). */
export async function revokeKey(orgId: string, keyId: string): Promise<void> {
  const stored = await getItem<KeyRecord & { hash?: string }>(keys.orgKey(orgId, keyId), true);
  if (!stored || (stored.kind !== 'api' && stored.kind !== 'agent') || !stored.hash) {
    throw notFound(KEY_MESSAGES.notFound);
  }
  await transact(
    [
      { Delete: { TableName: TABLE(), Key: keys.keyHash(stored.hash) } },
      { Delete: { TableName: TABLE(), Key: keys.orgKey(orgId, keyId), ConditionExpression: 'attribute_exists(pk)' } },
    ],
    [undefined, () => notFound(KEY_MESSAGES.notFound)],
  );
}
