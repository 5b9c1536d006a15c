import { createRemoteJWKSet, errors as joseErrors, jwtVerify } from 'jose';
import { config } from '../config';
import { notFound, unauthorized } from '../http/errors';
import { findKey, KEY_PREFIX } from '../identity/keys';
import type { Member, Organization } from '../schemas/org';
import { getItem, getMany, keys } from '../store/table';
import type { Caller, OrgAccess } from './caller';
import { ROLE_SCOPES } from './roles';

/** The identity provider's JWKS, created on first use and cached across invocations. */
let jwks: ReturnType<typeof createRemoteJWKSet> | undefined;
const getJwks = () => {
  jwks ??= createRemoteJWKSet(new URL(`${config.authUrl}/.well-known/jwks.json`), {
    cacheMaxAge: 10 * 60_000,
    cooldownDuration: 30_000,
  });
  return jwks;
};

/**
 * Verifies `Authorization: Bearer <token>`. `deviceRoute`: the route is one of the agent device
 * endpoints, where device tokens, and only they, are accepted. Anything else → 401 `Unauthorized`.
 */
export async function authenticate(header: string | undefined, deviceRoute: boolean): Promise<Caller> {
  const match = /^Bearer ([^\s]+)$/i.exec(header?.trim() ?? '');
  const token = match?.[1];
  if (!token) throw unauthorized();

  if (token.startsWith(KEY_PREFIX.device)) {
    if (!deviceRoute) throw unauthorized();
    const key = await findKey(token);
    if (key?.kind !== 'device' || !key.deviceId) throw unauthorized();
    return { kind: 'device', keyId: key.keyId, orgId: key.orgId, deviceId: key.deviceId };
  }
  if (deviceRoute) throw unauthorized();

  if (token.startsWith(KEY_PREFIX.api) || token.startsWith(KEY_PREFIX.agent)) {
    const key = await findKey(token);
    const kind = token.startsWith(KEY_PREFIX.api) ? 'api' : 'agent';
    if (!key || key.kind !== kind) throw unauthorized();
    return { kind: kind === 'api' ? 'api_key' : 'agent_key', keyId: key.keyId, orgId: key.orgId, scopes: key.scopes };
  }

  try {
    const { payload } = await jwtVerify(token, getJwks(), {
      issuer: config.authUrl,
      audience: config.authAudience,
      algorithms: ['RS256', 'ES256', 'EdDSA'],
    });
    if (typeof payload.sub !== 'string' || payload.sub === '') throw unauthorized();
    return {
      kind: 'user',
      userId: payload.sub,
      email: typeof payload.email === 'string' ? payload.email : undefined,
      name: typeof payload.name === 'string' ? payload.name : undefined,
    };
  } catch (err) {
    if (err instanceof joseErrors.JOSEError) throw unauthorized();
    throw err;
  }
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
  if (caller.orgId !== orgId) throw missing();
  const org = await getItem<Organization>(keys.org(orgId));
  if (!org) throw missing();
  if (caller.kind === 'agent_key' && org.kind !== 'platform') throw unauthorized();
  return { org, scopes: new Set(caller.kind === 'device' ? [] : caller.scopes) };
}
