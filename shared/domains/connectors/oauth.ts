import { createHash, randomBytes } from 'node:crypto';
import { conflict, DomainError, invalid } from '../../kernel/ground/errors';
import { UnsafeUrlError } from '../../kernel/net/guarded-fetch';
import { db } from '../../kernel/store/client';
import { DeleteCommand, PutCommand } from '../../kernel/store/commands';
import { PREFIXES } from '../../kernel/store/keys';
import { getItem, keys, TABLE } from '../../kernel/store/table';
import { secrets } from '../../ports/secrets';
import { ConnectorError, connectorFetch } from './mcp';
import { CONNECTOR_MESSAGES, type ConnectorRecord, openFor, sealFor, tokenKey, updateConnector } from './records';

/**
 * OAuth sign-in to a connector's server (MCP authorization, 2025-11-25): the protected resource
 * metadata (from the 401's `WWW-Authenticate: Bearer resource_metadata=…`, else the well-known
 * path form, then the root), the authorization server's metadata (RFC 8414, then OpenID, in MCP's
 * order), a client (the connector's own `oauthClientId`, else one registered per issuer by RFC
 * 7591, else 400), PKCE S256 (refused when the server does not list it), `resource` (RFC 8707) on
 * authorize and token. Every request goes through the guarded fetch (connectorFetch).
 *
 * The state is one use: its hash keys an item bound to the person, the organization and the
 * connector, with the PKCE verifier (encrypted), gone after 10 minutes; the callback consumes it
 * by conditional delete. Tokens are kept per connector with the issuer they came from.
 */
const STATE_MS = 10 * 60 * 1000;
/** An access token this close to its expiry is refreshed before it is used. */
const EXPIRY_MARGIN_MS = 30_000;

type Metadata = Record<string, unknown> & { issuer?: string; token_endpoint_auth_methods_supported?: string[] };

interface ClientChoice {
  clientId: string;
  clientSecret?: string;
  authMethod?: string;
  registered: boolean;
}

/** What the callback and later refreshes need of a sign-in (secrets sealed). */
interface Grant {
  issuer: string;
  asUrl: string;
  metadata: string;
  resource?: string;
  clientId: string;
  clientSecret?: string;
  authMethod?: string;
  registered: boolean;
}

interface StateRecord extends Grant {
  orgId: string;
  connectorId: string;
  userId: string;
  verifier: string;
  returnTo: string | null;
  redirectUri: string;
  expiresAt: number;
}

interface TokenRecord extends Grant {
  access: string;
  refresh?: string;
  accessExpiresAt?: number;
}

const stateKey = (state: string) => ({
  pk: `${PREFIXES.connectors.oauthState}${createHash('sha256').update(state).digest('hex')}`,
  sk: 'STATE',
});
const clientKey = (orgId: string, issuer: string) => ({
  pk: keys.org(orgId).pk,
  sk: `${PREFIXES.connectors.oauthClient}${createHash('sha256').update(issuer).digest('hex')}`,
});
const clientContext = (orgId: string, issuer: string) => ({ purpose: 'connector-client', orgId, issuer });

const sdkAuth = async () => (await import('./sdk')).sdk.auth;

/** The first request of a client without a token, for the server's challenge (`WWW-Authenticate`). */
async function challenge(c: ConnectorRecord, fetch: ReturnType<typeof connectorFetch>) {
  const { extractWWWAuthenticateParams } = await sdkAuth();
  const probe = await fetch(
    c.url,
    c.transport === 'http'
      ? {
          method: 'POST',
          headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json' },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 0,
            method: 'initialize',
            params: {
              protocolVersion: '2025-11-25',
              capabilities: {},
              clientInfo: { name: 'platform-connectors', version: '1.0.0' },
            },
          }),
        }
      : { headers: { accept: 'text/event-stream' } },
  );
  await probe.body?.cancel().catch(() => undefined);
  return probe.status === 401 ? extractWWWAuthenticateParams(probe) : {};
}

/** The client this sign-in uses: the connector's own, else one registered with the issuer (kept for the organization). */
async function clientFor(
  c: ConnectorRecord,
  asUrl: string,
  issuer: string,
  metadata: Metadata,
  redirectUri: string,
  scope: string | undefined,
  fetch: ReturnType<typeof connectorFetch>,
): Promise<ClientChoice> {
  if (c.oauthClientId) {
    const [secret] = c.oauthClientSecret ? await openFor(c, [c.oauthClientSecret]) : [];
    return { clientId: c.oauthClientId, ...(secret ? { clientSecret: secret } : {}), registered: false };
  }
  const key = clientKey(c.orgId, issuer);
  const kept = await getItem<{ clientId: string; clientSecret?: string; authMethod?: string; redirectUri: string }>(
    key,
  );
  if (kept && kept.redirectUri === redirectUri) {
    const [secret] = kept.clientSecret
      ? await secrets().decrypt(clientContext(c.orgId, issuer), [kept.clientSecret])
      : [];
    return {
      clientId: kept.clientId,
      ...(secret ? { clientSecret: secret } : {}),
      ...(kept.authMethod ? { authMethod: kept.authMethod } : {}),
      registered: true,
    };
  }
  if (typeof metadata.registration_endpoint !== 'string') {
    throw invalid("This server doesn't register clients itself: enter an OAuth client id (oauthClientId).");
  }
  const supported = metadata.token_endpoint_auth_methods_supported ?? ['client_secret_basic'];
  const method = ['client_secret_basic', 'client_secret_post', 'none'].find((m) => supported.includes(m)) ?? 'none';
  const { registerClient } = await sdkAuth();
  const info = await registerClient(asUrl, {
    metadata: metadata as never,
    clientMetadata: {
      redirect_uris: [redirectUri],
      client_name: 'Platform connectors',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: method,
    },
    scope,
    fetchFn: fetch,
  });
  const authMethod = info.token_endpoint_auth_method ?? method;
  const [sealed] = info.client_secret
    ? await secrets().encrypt(clientContext(c.orgId, issuer), [info.client_secret])
    : [];
  await db.send(
    new PutCommand({
      TableName: TABLE(),
      Item: {
        ...key,
        issuer,
        clientId: info.client_id,
        ...(sealed ? { clientSecret: sealed } : {}),
        authMethod,
        redirectUri,
        createdAt: Date.now(),
      },
    }),
  );
  return {
    clientId: info.client_id,
    ...(info.client_secret ? { clientSecret: info.client_secret } : {}),
    authMethod,
    registered: true,
  };
}

/** A sign-in step that failed at the server: 400 with what went wrong. */
function signInFailure(err: unknown): Error {
  // Our own answers and the platform's storage errors (AWS SDK) stay what they are.
  if (err instanceof DomainError || (err as { $metadata?: unknown }).$metadata) return err as Error;
  const reason = err instanceof UnsafeUrlError ? err.message : String((err as Error)?.message ?? err).slice(0, 300);
  return invalid(`Could not start the sign-in: ${reason}`);
}

/**
 * `oauth/start`: discovers the server's sign-in, picks or registers the client and stores the
 * one-time state with the PKCE verifier. The URL the person's browser opens.
 */
export async function startSignIn(
  c: ConnectorRecord,
  userId: string,
  returnTo: string | undefined,
  redirectUri: string,
): Promise<string> {
  const fetch = connectorFetch();
  try {
    const auth = await sdkAuth();
    const asked = await challenge(c, fetch);
    let resourceMetadata: Awaited<ReturnType<typeof auth.discoverOAuthProtectedResourceMetadata>> | undefined;
    try {
      resourceMetadata = await auth.discoverOAuthProtectedResourceMetadata(
        c.url,
        { resourceMetadataUrl: asked.resourceMetadataUrl },
        fetch,
      );
    } catch (err) {
      if (err instanceof UnsafeUrlError) throw err;
      // No protected resource metadata: the server's own origin is its authorization server (MCP's fallback).
    }
    const asUrl = resourceMetadata?.authorization_servers?.[0] ?? new URL('/', c.url).href;
    const metadata = (await auth.discoverAuthorizationServerMetadata(asUrl, { fetchFn: fetch })) as
      | Metadata
      | undefined;
    if (!metadata) throw invalid("Could not start the sign-in: the server's authorization server has no metadata.");
    const methods = metadata.code_challenge_methods_supported;
    if (!Array.isArray(methods) || !methods.includes('S256')) {
      throw invalid("Could not start the sign-in: the server's authorization server does not offer PKCE with S256.");
    }
    const issuer = typeof metadata.issuer === 'string' ? metadata.issuer : asUrl;
    const selected = await auth.selectResourceURL(c.url, {} as never, resourceMetadata);
    const resource = selected && resourceMetadata ? resourceMetadata.resource : undefined;
    // The scope a 403 asked for (step-up), else the challenge's, else what the resource lists.
    const scope = c.oauthScope || asked.scope || resourceMetadata?.scopes_supported?.join(' ') || undefined;
    const client = await clientFor(c, asUrl, issuer, metadata, redirectUri, scope, fetch);
    const state = randomBytes(32).toString('base64url');
    const { authorizationUrl, codeVerifier } = await auth.startAuthorization(asUrl, {
      metadata: metadata as never,
      clientInformation: {
        client_id: client.clientId,
        ...(client.clientSecret ? { client_secret: client.clientSecret } : {}),
      },
      redirectUrl: redirectUri,
      scope,
      state,
      ...(resource ? { resource: new URL(resource) } : {}),
    });
    // The metadata's own resource string is sent as it is (a URL object would add a slash).
    if (resource) authorizationUrl.searchParams.set('resource', resource);
    const sealed = await sealFor(c, [codeVerifier, ...(client.clientSecret ? [client.clientSecret] : [])]);
    const expiresAt = Date.now() + STATE_MS;
    const record: StateRecord = {
      orgId: c.orgId,
      connectorId: c.connectorId,
      userId,
      verifier: sealed[0] as string,
      returnTo: returnTo ?? null,
      redirectUri,
      expiresAt,
      issuer,
      asUrl,
      metadata: JSON.stringify(metadata),
      ...(resource ? { resource } : {}),
      clientId: client.clientId,
      ...(client.clientSecret ? { clientSecret: sealed[1] } : {}),
      ...(client.authMethod ? { authMethod: client.authMethod } : {}),
      registered: client.registered,
    };
    await db.send(
      new PutCommand({
        TableName: TABLE(),
        Item: { ...stateKey(state), ...record, ttl: Math.ceil(expiresAt / 1000) + 3600 },
      }),
    );
    return authorizationUrl.href;
  } catch (err) {
    throw signInFailure(err);
  }
}

/**
 * Takes a state once: it must exist, be unexpired, and be the caller's in this organization. Of
 * parallel callbacks with one state, one gets it; the others, and any later one, 409.
 */
export async function consumeState(state: string, orgId: string, userId: string): Promise<StateRecord> {
  try {
    const out = await db.send(
      new DeleteCommand({
        TableName: TABLE(),
        Key: stateKey(state),
        ConditionExpression: 'attribute_exists(pk) AND userId = :user AND orgId = :org AND expiresAt > :now',
        ExpressionAttributeValues: { ':user': userId, ':org': orgId, ':now': Date.now() },
        ReturnValues: 'ALL_OLD',
      }),
    );
    return out.Attributes as StateRecord;
  } catch (err) {
    if ((err as Error).name === 'ConditionalCheckFailedException') throw conflict(CONNECTOR_MESSAGES.startAgain);
    throw err;
  }
}

const clientInformation = (g: { clientId: string }, secret: string | undefined, authMethod?: string) => ({
  client_id: g.clientId,
  ...(secret ? { client_secret: secret } : {}),
  ...(authMethod ? { token_endpoint_auth_method: authMethod } : {}),
});

/** Stores tokens (sealed) with the sign-in they came from, and marks the connector connected. */
async function saveTokens(
  c: ConnectorRecord,
  grant: Grant,
  clientSecret: string | undefined,
  tokens: { access_token: string; refresh_token?: string; expires_in?: number },
  refreshFallback?: string,
): Promise<{ token: string; refreshable: boolean }> {
  const refresh = tokens.refresh_token ?? refreshFallback;
  const sealed = await sealFor(c, [
    tokens.access_token,
    ...(refresh ? [refresh] : []),
    ...(clientSecret ? [clientSecret] : []),
  ]);
  const accessExpiresAt = tokens.expires_in ? Date.now() + tokens.expires_in * 1000 : undefined;
  const record: TokenRecord = {
    issuer: grant.issuer,
    asUrl: grant.asUrl,
    metadata: grant.metadata,
    ...(grant.resource ? { resource: grant.resource } : {}),
    clientId: grant.clientId,
    ...(clientSecret ? { clientSecret: sealed[sealed.length - 1] } : {}),
    ...(grant.authMethod ? { authMethod: grant.authMethod } : {}),
    registered: grant.registered,
    access: sealed[0] as string,
    ...(refresh ? { refresh: sealed[1] } : {}),
    ...(accessExpiresAt ? { accessExpiresAt } : {}),
  };
  await updateConnector(
    c,
    {
      oauthServer: grant.issuer,
      oauthConnected: true,
      oauthRegistered: grant.registered,
      accessExpiresAt,
      updatedAt: Date.now(),
    },
    [{ Put: { TableName: TABLE(), Item: { ...tokenKey(c.orgId, c.connectorId), ...record } } }],
  );
  return { token: tokens.access_token, refreshable: refresh !== undefined };
}

/** `oauth/callback` after the state was taken: exchanges the code for tokens and stores them. */
export async function finishSignIn(c: ConnectorRecord, st: StateRecord, code: string): Promise<boolean> {
  const [verifier, clientSecret] = await openFor(c, [st.verifier, ...(st.clientSecret ? [st.clientSecret] : [])]);
  const { exchangeAuthorization } = await sdkAuth();
  let tokens: Awaited<ReturnType<typeof exchangeAuthorization>>;
  try {
    tokens = await exchangeAuthorization(st.asUrl, {
      metadata: JSON.parse(st.metadata),
      clientInformation: clientInformation(st, clientSecret, st.authMethod),
      authorizationCode: code,
      codeVerifier: verifier as string,
      redirectUri: st.redirectUri,
      ...(st.resource ? { resource: st.resource } : {}),
      fetchFn: connectorFetch(),
    });
  } catch (err) {
    // The authorization server refused the code (or could not be reached): the connector says why.
    const reason = String((err as Error)?.message ?? err).slice(0, 500);
    const now = Date.now();
    await updateConnector(c, { status: 'error', lastError: `The sign-in failed: ${reason}`, updatedAt: now });
    return false;
  }
  await saveTokens(c, st, clientSecret, tokens);
  return true;
}

/** The access token to use now (refreshed first when it expired), or undefined before any sign-in. */
export async function accessFor(c: ConnectorRecord): Promise<{ token: string; refreshable: boolean } | undefined> {
  const held = await getItem<TokenRecord>(tokenKey(c.orgId, c.connectorId), true);
  if (!held) return undefined;
  if (held.refresh && held.accessExpiresAt !== undefined && held.accessExpiresAt - EXPIRY_MARGIN_MS <= Date.now()) {
    return refreshAccess(c, held);
  }
  const [token] = await openFor(c, [held.access]);
  return { token: token as string, refreshable: held.refresh !== undefined };
}

/** A new access token from the refresh token (its issuer's token endpoint, the same client). */
export async function refreshAccess(
  c: ConnectorRecord,
  known?: TokenRecord,
): Promise<{ token: string; refreshable: boolean }> {
  const held = known ?? (await getItem<TokenRecord>(tokenKey(c.orgId, c.connectorId), true));
  if (!held?.refresh) throw new ConnectorError('The sign-in expired: sign in again (oauth/start).', 401);
  const [refresh, clientSecret] = await openFor(c, [held.refresh, ...(held.clientSecret ? [held.clientSecret] : [])]);
  try {
    const { refreshAuthorization } = await sdkAuth();
    const tokens = await refreshAuthorization(held.asUrl, {
      metadata: JSON.parse(held.metadata),
      clientInformation: clientInformation(held, clientSecret, held.authMethod),
      refreshToken: refresh as string,
      ...(held.resource ? { resource: held.resource } : {}),
      fetchFn: connectorFetch(),
    });
    return await saveTokens(c, held, clientSecret, tokens, refresh);
  } catch (err) {
    if (err instanceof ConnectorError) throw err;
    throw new ConnectorError(
      `The sign-in expired and could not be renewed (${String((err as Error)?.message ?? err).slice(0, 200)}): sign in again.`,
      401,
    );
  }
}
