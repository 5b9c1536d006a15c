import { isAdmin, ROLE_SCOPES } from '../../kernel/auth/roles';
import type { Scope } from '../../kernel/auth/scopes';
import { notFound } from '../../kernel/ground/errors';
import { findKey, hashSecret, KEY_PREFIX } from '../../kernel/identity/key-secrets';
import type { Member } from '../../kernel/identity/schema';
import { newId, newSecret } from '../../kernel/store/ids';
import { PREFIXES } from '../../kernel/store/keys';
import { queryPrefix, transact } from '../../kernel/store/ops';
import { getItem, getMany, keys, putNew, TABLE } from '../../kernel/store/table';

/**
 * Git credentials: passwords a person makes for git over HTTPS, each with its own name, git
 * scopes and expiry, shown once and kept only as their SHA-256. At each use a credential grants
 * its scopes only as far as the person's role in the organization still does, so a demotion or a
 * removal takes effect at once; deleting one stops it at once. Items: `GITCRED#<hash>` (found by
 * the password) and `ORG#<orgId>` / `GITCRED#<userId>#<keyId>` (the person's list).
 */
export const GIT_CREDENTIAL_PREFIX = 'app_git_';
export const GIT_SCOPES = ['git:read', 'git:write'] as const satisfies readonly Scope[];
export type GitScope = (typeof GIT_SCOPES)[number];

export interface GitCredential {
  keyId: string;
  orgId: string;
  userId: string;
  name: string;
  scopes: GitScope[];
  createdAt: number;
  expiresAt?: number;
}

const byHash = (hash: string) => ({ pk: `${PREFIXES.repos.credential}${hash}`, sk: 'GITCRED' });
const listKey = (orgId: string, userId: string, keyId: string) => ({
  pk: keys.org(orgId).pk,
  sk: `${PREFIXES.repos.credential}${userId}#${keyId}`,
});

export const CREDENTIAL_NOT_FOUND = 'Git credential not found';

/** The credential as the API answers it: never its password or hash. */
export const toCredential = (c: GitCredential) => ({
  keyId: c.keyId,
  name: c.name,
  scopes: c.scopes,
  createdAt: c.createdAt,
  expiresAt: c.expiresAt ?? null,
});

export async function createCredential(input: Omit<GitCredential, 'keyId' | 'createdAt'>) {
  const password = newSecret(GIT_CREDENTIAL_PREFIX);
  const hash = hashSecret(password);
  const credential: GitCredential = { ...input, keyId: newId('gcr_'), createdAt: Date.now() };
  await transact([
    putNew({ ...byHash(hash), ...credential }),
    putNew({ ...listKey(input.orgId, input.userId, credential.keyId), ...credential, hash }),
  ]);
  return { credential, password };
}

/** The person's credentials in the organization, newest first. */
export async function listCredentials(orgId: string, userId: string): Promise<GitCredential[]> {
  const items = await queryPrefix<GitCredential>(keys.org(orgId).pk, `${PREFIXES.repos.credential}${userId}#`);
  return items.sort((a, b) => b.createdAt - a.createdAt);
}

/** Deletes one of the person's credentials (both items, one transaction): 404 when it is not theirs. */
export async function deleteCredential(orgId: string, userId: string, keyId: string): Promise<void> {
  const item = await getItem<GitCredential & { hash: string }>(listKey(orgId, userId, keyId), true);
  if (!item) throw notFound(CREDENTIAL_NOT_FOUND);
  await transact([
    { Delete: { TableName: TABLE(), Key: listKey(orgId, userId, keyId) } },
    { Delete: { TableName: TABLE(), Key: byHash(item.hash) } },
  ]);
}

/**
 * What a git password grants in the organization: a git credential (its scopes, as far as the
 * person's current role allows) or an API key of the organization (its git scopes). Undefined for
 * anything else, expired or revoked.
 */
export async function gitAccess(
  orgId: string,
  password: string,
): Promise<{ user: string; scopes: Scope[]; admin: boolean } | undefined> {
  if (!/^app_[a-z]+_[A-Za-z0-9_-]{20,200}$/.test(password)) return undefined;
  if (password.startsWith(GIT_CREDENTIAL_PREFIX)) {
    const [credential] = await getMany<GitCredential>([byHash(hashSecret(password))]);
    if (!credential || credential.orgId !== orgId) return undefined;
    if (credential.expiresAt !== undefined && credential.expiresAt <= Date.now()) return undefined;
    const member = await getItem<Member>(keys.member(orgId, credential.userId), true);
    if (!member) return undefined;
    const allowed = new Set(ROLE_SCOPES[member.role]);
    return {
      user: credential.userId,
      scopes: credential.scopes.filter((s) => allowed.has(s)),
      admin: isAdmin(member.role),
    };
  }
  if (!password.startsWith(KEY_PREFIX.api)) return undefined;
  const key = await findKey(password);
  if (key?.kind !== 'api' || key.orgId !== orgId) return undefined;
  return {
    user: key.keyId,
    scopes: key.scopes.filter((s) => (GIT_SCOPES as readonly string[]).includes(s)),
    // A key administers what an admin's key would: it holds org:write.
    admin: key.scopes.includes('org:write'),
  };
}
