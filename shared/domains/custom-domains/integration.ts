import { createHash, randomBytes } from 'node:crypto';
import { readEnv } from '../../kernel/ground/env';
import { conflict, DomainError, invalid } from '../../kernel/ground/errors';
import { describeError, log } from '../../kernel/ground/log';
import { db } from '../../kernel/store/client';
import { DeleteCommand, PutCommand } from '../../kernel/store/commands';
import { PREFIXES } from '../../kernel/store/keys';
import { TABLE } from '../../kernel/store/table';
import { dns, kindAvailable, providerFetch } from '../../ports/dns';
import { type ProviderCredentials, type ProviderKind, ProviderRefused } from '../../ports/dns/port';
import { secrets } from '../../ports/secrets';
import { getProviderRecord, type ProviderRecord, providerKey, sealCredentials } from './provider';

export const INTEGRATION_MESSAGES = {
  refused: 'The DNS provider refused these credentials.',
  unreachable: "The DNS provider couldn't be reached. Try again.",
  noOAuth: 'This DNS provider has no OAuth sign-in on this platform. Connect it with credentials.',
  startAgain: 'This sign-in expired or was already used. Start it again.',
} as const;

/** The integration as the API shows it: never the credentials. */
export const toIntegration = (r: ProviderRecord | undefined) => ({
  provider: r ? { kind: r.kind, connected: true, zones: r.zones, connectedBy: r.connectedBy } : null,
});

export async function readIntegration(orgId: string) {
  return toIntegration(await getProviderRecord(orgId));
}

/**
 * Connects (or replaces) the organization's DNS provider: the credentials are checked by listing
 * zones (400 when refused), then stored encrypted with the zones found.
 */
export async function connect(
  orgId: string,
  userId: string,
  kind: ProviderKind,
  credentials: ProviderCredentials,
): Promise<ProviderRecord> {
  if (!kindAvailable(kind)) throw invalid(INTEGRATION_MESSAGES.refused);
  let zones: string[];
  try {
    zones = await (await dns().provider(kind, credentials)).listZones();
  } catch (err) {
    if (!(err instanceof ProviderRefused)) {
      // No answer, or one that is no answer of the provider's API: nothing to tell the caller but to try again.
      log.warn('dns provider unreachable', { orgId, kind, error: describeError(err) });
      throw new DomainError('backend', INTEGRATION_MESSAGES.unreachable);
    }
    log.info('dns provider refused credentials', { orgId, kind, error: describeError(err) });
    throw invalid(INTEGRATION_MESSAGES.refused);
  }
  const now = Date.now();
  const previous = await getProviderRecord(orgId, true);
  const record: ProviderRecord = {
    ...providerKey(orgId),
    orgId,
    kind,
    secret: await sealCredentials(orgId, credentials),
    zones: [...new Set(zones)].sort(),
    connectedBy: userId,
    connectedAt: now,
    updatedAt: now,
    version: (previous?.version ?? 0) + 1,
  };
  await db.send(new PutCommand({ TableName: TABLE(), Item: record }));
  return record;
}

export async function disconnect(orgId: string): Promise<void> {
  await db.send(new DeleteCommand({ TableName: TABLE(), Key: providerKey(orgId) }));
}

// OAuth sign-in -------------------------------------------------------------------------------

/**
 * Providers with an OAuth sign-in on this platform: Cloudflare, when the operator registered an
 * OAuth client (`DNS_OAUTH_ISSUER`, `DNS_OAUTH_CLIENT_ID`, `DNS_OAUTH_CLIENT_SECRET`,
 * `DNS_OAUTH_REDIRECT_URI`, `DNS_OAUTH_SCOPE`). The access token it gives is used as an API token.
 */
function oauthClient() {
  const [issuer, clientId, redirectUri] = ['DNS_OAUTH_ISSUER', 'DNS_OAUTH_CLIENT_ID', 'DNS_OAUTH_REDIRECT_URI'].map(
    readEnv,
  );
  if (!issuer || !clientId || !redirectUri) return undefined;
  return {
    issuer: issuer.replace(/\/$/, ''),
    clientId,
    clientSecret: readEnv('DNS_OAUTH_CLIENT_SECRET'),
    redirectUri,
    scope: readEnv('DNS_OAUTH_SCOPE') ?? 'zone:read dns:edit',
  };
}

async function discover(issuer: string): Promise<{ authorization_endpoint: string; token_endpoint: string }> {
  const res = await providerFetch()(`${issuer}/.well-known/openid-configuration`);
  const meta = (await res.json().catch(() => ({}))) as Record<string, unknown>;
  if (!res.ok || typeof meta.authorization_endpoint !== 'string' || typeof meta.token_endpoint !== 'string') {
    throw invalid(INTEGRATION_MESSAGES.noOAuth);
  }
  return meta as { authorization_endpoint: string; token_endpoint: string };
}

interface StateRecord {
  pk: string;
  sk: string;
  orgId: string;
  userId: string;
  kind: ProviderKind;
  verifier: string;
  tokenEndpoint: string;
  expiresAt: number;
  ttl: number;
}

const stateKey = (state: string) => ({ pk: `${PREFIXES.customDomains.oauthState}${state}`, sk: 'STATE' });
const stateContext = (orgId: string) => ({ purpose: 'dns-oauth', orgId });
const STATE_MS = 10 * 60_000;

/** `authorize`: the provider's sign-in URL, with a one-time state (PKCE S256) for this person and organization, 10 minutes. */
export async function authorize(orgId: string, userId: string, kind: ProviderKind): Promise<string> {
  const client = oauthClient();
  if (kind !== 'cloudflare' || !client) throw invalid(INTEGRATION_MESSAGES.noOAuth);
  const meta = await discover(client.issuer);
  const state = randomBytes(32).toString('base64url');
  const verifier = randomBytes(32).toString('base64url');
  const [sealed] = await secrets().encrypt(stateContext(orgId), [verifier]);
  const expiresAt = Date.now() + STATE_MS;
  const record: StateRecord = {
    ...stateKey(state),
    orgId,
    userId,
    kind,
    verifier: sealed as string,
    tokenEndpoint: meta.token_endpoint,
    expiresAt,
    ttl: Math.ceil(expiresAt / 1000) + 3600,
  };
  await db.send(new PutCommand({ TableName: TABLE(), Item: record }));
  const url = new URL(meta.authorization_endpoint);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: client.clientId,
    redirect_uri: client.redirectUri,
    scope: client.scope,
    state,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  }).toString();
  return url.href;
}

/** Takes a state once: unexpired, this person's, in this organization; else 409. */
async function consumeState(state: string, orgId: string, userId: string): Promise<StateRecord> {
  try {
    const out = await db.send(
      new DeleteCommand({
        TableName: TABLE(),
        Key: stateKey(state),
        ConditionExpression: 'attribute_exists(pk) AND userId = :u AND orgId = :o AND expiresAt > :now',
        ExpressionAttributeValues: { ':u': userId, ':o': orgId, ':now': Date.now() },
        ReturnValues: 'ALL_OLD',
      }),
    );
    return out.Attributes as StateRecord;
  } catch (err) {
    if ((err as Error).name === 'ConditionalCheckFailedException') throw conflict(INTEGRATION_MESSAGES.startAgain);
    throw err;
  }
}

/** `oauth`: the code exchanged (with the PKCE verifier) for a token, which connects the provider. */
export async function finishOAuth(orgId: string, userId: string, code: string, state: string): Promise<ProviderRecord> {
  const client = oauthClient();
  if (!client) throw invalid(INTEGRATION_MESSAGES.noOAuth);
  const st = await consumeState(state, orgId, userId);
  const [verifier] = await secrets().decrypt(stateContext(orgId), [st.verifier]);
  const form = new URLSearchParams({
    grant_type: 'authorization_code',
    code,
    redirect_uri: client.redirectUri,
    client_id: client.clientId,
    code_verifier: verifier as string,
    ...(client.clientSecret ? { client_secret: client.clientSecret } : {}),
  });
  const res = await providerFetch()(st.tokenEndpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: form,
  });
  const tokens = (await res.json().catch(() => ({}))) as { access_token?: unknown };
  if (!res.ok || typeof tokens.access_token !== 'string') throw invalid(INTEGRATION_MESSAGES.refused);
  return connect(orgId, userId, st.kind, { apiToken: tokens.access_token });
}
