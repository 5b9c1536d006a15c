import type { createRemoteJWKSet } from 'jose';
import { config } from '../config';
import { notFound, unauthorized } from '../ground/errors';
import { findSession, hashSecret, KEY_PREFIX, usableKey } from '../identity/key-secrets';
import type { KeyRecord, Member, Organization } from '../identity/schema';
import { getItem, getMany, keys } from '../store/table';
import type { Caller, OrgAccess } from './caller';
import { ROLE_SCOPES } from './roles';

/** jose, loaded with the first token to verify: API keys and cold starts don't pay for it. */
let jose: Promise<typeof import('jose')> | undefined;
const loadJose = () => {
  jose ??= import('jose');
  return jose;
};

/** The identity provider's JWKS, created on first use and cached across invocations. */
let jwks: ReturnType<typeof createRemoteJWKSet> | undefined;
const getJwks = (lib: typeof import('jose')) => {
  jwks ??= lib.createRemoteJWKSet(new URL(`${config.authUrl}/.well-known/jwks.json`), {
    cacheMaxAge: 10 * 60_000,
    cooldownDuration: 30_000,
  });
  return jwks;
};

/**
 * Verified identity-provider tokens, until they expire: a token is immutable, so verifying it
 * again on every request of a warm function only costs time. Bounded; the oldest entry goes first.
 */
const verified = new Map<string, { caller: Caller; expiresAt: number }>();
const VERIFIED_MAX = 1000;

async function verifyJwt(token: string): Promise<Caller> {
  const hit = verified.get(token);
  if (hit && hit.expiresAt > Date.now()) return hit.caller;
  const lib = await loadJose();
  try {
    const { payload } = await lib.jwtVerify(token, getJwks(lib), {
      issuer: config.authUrl,
      audience: config.authAudience,
      algorithms: ['RS256', 'ES256', 'EdDSA'],
      // A token without an expiry would be valid forever: refused, as one without an audience is.
      requiredClaims: ['exp', 'aud'],
    });
    if (typeof payload.sub !== 'string' || payload.sub === '') throw unauthorized();
    const caller: Caller = {
      kind: 'user',
      userId: payload.sub,
      email: typeof payload.email === 'string' ? payload.email : undefined,
      name: typeof payload.name === 'string' ? payload.name : undefined,
    };
    if (verified.size >= VERIFIED_MAX) verified.delete(verified.keys().next().value as string);
    verified.set(token, { caller, expiresAt: (payload.exp as number) * 1000 });
    return caller;
  } catch (err) {
    if (err instanceof lib.errors.JOSEError) throw unauthorized();
    throw err;
  }
}

export interface Authenticated {
  caller: Caller;
  /** The caller's access to `orgId`, when one was asked for. */
  access?: OrgAccess;
}

/**
 * Verifies `Authorization: Bearer <token>` and, with `orgId`, the caller's access to that
 * organization. `deviceRoute`: the route is one of the agent device endpoints, where device
 * tokens, and only they, are accepted. Anything else → 401 `Unauthorized`.
 *
 * DynamoDB round trips: a person's token is verified against the cached JWKS, then one BatchGet
 * reads the organization and the membership; a key is read in the same BatchGet as the
 * organization. So an organization route costs one round trip of authorization either way.
 *
 * `verified` is called once the credential is well formed (and a JWT's signature holds), right
 * before that round trip: a read route starts its data call there, in parallel with it.
 */
export async function authenticate(
  header: string | undefined,
  deviceRoute: boolean,
  orgId?: string,
  verified?: () => void,
): Promise<Authenticated> {
  const match = /^Bearer ([^\s]+)$/i.exec(header?.trim() ?? '');
  const token = match?.[1];
  if (!token) throw unauthorized();

  const isDevice = token.startsWith(KEY_PREFIX.device);
  if (isDevice !== deviceRoute) throw unauthorized();
  const keyKind = isDevice
    ? 'device'
    : token.startsWith(KEY_PREFIX.api)
      ? 'api'
      : token.startsWith(KEY_PREFIX.agent)
        ? 'agent'
        : token.startsWith(KEY_PREFIX.session)
          ? 'session'
          : undefined;

  if (!keyKind) {
    const caller = await verifyJwt(token);
    verified?.();
    return { caller, access: orgId === undefined ? undefined : await accessOrg(caller, orgId) };
  }

  // A key is `<prefix><secret>`, the secret URL-safe base64: anything else is no key, and no read.
  if (!/^[A-Za-z0-9_-]{20,200}$/.test(token.slice(KEY_PREFIX[keyKind].length))) throw unauthorized();
  verified?.();
  if (keyKind === 'session') {
    // A person's command-line session (shared/kernel/identity/sessions.ts): the person, as their
    // identity provider's token would be, with their current role in the organization.
    const session = await findSession(token);
    if (!session) throw unauthorized();
    const caller: Caller = {
      kind: 'user',
      userId: session.userId,
      ...(session.email ? { email: session.email } : {}),
      ...(session.name ? { name: session.name } : {}),
    };
    return { caller, access: orgId === undefined ? undefined : await accessOrg(caller, orgId) };
  }
  const [record, org] = await getMany<KeyRecord | Organization>(
    orgId === undefined ? [keys.keyHash(hashSecret(token))] : [keys.keyHash(hashSecret(token)), keys.org(orgId)],
  );
  const key = usableKey(record as KeyRecord | undefined);
  if (key?.kind !== keyKind) throw unauthorized();
  let caller: Caller;
  if (key.kind === 'device') {
    if (!key.deviceId) throw unauthorized();
    caller = { kind: 'device', keyId: key.keyId, orgId: key.orgId, deviceId: key.deviceId };
  } else {
    caller = {
      kind: key.kind === 'api' ? 'api_key' : 'agent_key',
      keyId: key.keyId,
      orgId: key.orgId,
      scopes: key.scopes,
    };
  }
  if (orgId === undefined) return { caller };
  return { caller, access: keyAccess(caller, orgId, org as Organization | undefined) };
}

const ORG_NOT_FOUND = 'Organization not found';

/**
 * The caller's access to `orgId`: one DynamoDB round trip. An organization the caller does not
 * belong to answers 404 exactly like one that does not exist. A platform agent key works only
 * while its organization is the platform organization.
 */
export async function accessOrg(caller: Caller, orgId: string): Promise<OrgAccess> {
  const missing = () => notFound(ORG_NOT_FOUND);
  if (caller.kind === 'user') {
    const [org, member] = await getMany<Organization | Member>([keys.org(orgId), keys.member(orgId, caller.userId)]);
    if (!org || !member) throw missing();
    const role = (member as Member).role;
    return { org: org as Organization, role, scopes: new Set(ROLE_SCOPES[role]) };
  }
  return keyAccess(caller, orgId, caller.orgId === orgId ? await getItem<Organization>(keys.org(orgId)) : undefined);
}

/** A key acts within its own organization only; a platform agent key only in the platform one. */
function keyAccess(caller: Exclude<Caller, { kind: 'user' }>, orgId: string, org: Organization | undefined): OrgAccess {
  if (caller.orgId !== orgId || !org) throw notFound(ORG_NOT_FOUND);
  if (caller.kind === 'agent_key' && org.kind !== 'platform') throw unauthorized();
  return { org, scopes: new Set(caller.kind === 'device' ? [] : caller.scopes) };
}
