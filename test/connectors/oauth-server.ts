import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type Running, startSdkServer } from './servers';

/**
 * An MCP server protected by OAuth, with its authorization server on the same origin, for the
 * sign-in tests: each variant of discovery (where the protected resource metadata and the
 * authorization server metadata are found), registration (dynamic or a pre-registered client),
 * PKCE offer and token endpoint authentication (`client_secret_basic`, `client_secret_post`,
 * `none`) a test chooses. It checks what a real one checks: the client, the redirect URI, PKCE
 * S256, the client's authentication, `resource`; and records what it was asked.
 */
export interface OAuthOptions {
  /** Where the protected resource metadata is: named by the 401, at the path form, at the root, or nowhere. */
  prm: 'challenge' | 'path' | 'root' | 'none';
  /** Where the authorization server metadata is: RFC 8414 or OpenID Connect. */
  asMeta: 'oauth' | 'openid';
  authMethod: 'client_secret_basic' | 'client_secret_post' | 'none';
  registration?: boolean;
  /** PKCE methods listed (default ['S256']; null lists none). */
  pkce?: string[] | null;
  /** The scope in the 401's challenge. */
  challengeScope?: string;
  scopesSupported?: string[];
  /** Seconds an access token lasts. */
  expiresIn?: number;
  /** A scope every access token must hold, else 403 `insufficient_scope` asking for it. */
  requiredScope?: string;
  /** Pre-registered clients: id → secret. */
  clients?: Record<string, string | null>;
}

export interface OAuthServer extends Running {
  /** What the authorization endpoint was asked, in order. */
  authorizations: URLSearchParams[];
  /** What the token endpoint was asked, with the client authentication it saw. */
  tokenRequests: { params: URLSearchParams; basic: string | null }[];
  registrations: Record<string, unknown>[];
  /** Valid access tokens → their expiry (ms) and scope. */
  tokens: Map<string, { until: number; scope: string }>;
  /** Ends every access token now (a server that revoked them). */
  revokeAll(): void;
}

const body = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let text = '';
    req.on('data', (d) => {
      text += d;
    });
    req.on('end', () => resolve(text));
  });

/** Answers JSON; true, as the handler of other paths answers when it answered. */
const json = (res: ServerResponse, status: number, value: unknown): true => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(value));
  return true;
};

export async function startOAuthServer(options: OAuthOptions): Promise<OAuthServer> {
  const clients = new Map<string, { secret: string | null; redirectUris: string[]; method: string }>();
  for (const [id, secret] of Object.entries(options.clients ?? {})) {
    clients.set(id, { secret, redirectUris: [], method: secret ? options.authMethod : 'none' });
  }
  const codes = new Map<
    string,
    { clientId: string; challenge: string; redirectUri: string; resource: string | null; scope: string }
  >();
  const refreshes = new Map<string, string>();
  const tokens = new Map<string, { until: number; scope: string }>();
  const authorizations: URLSearchParams[] = [];
  const tokenRequests: OAuthServer['tokenRequests'] = [];
  const registrations: Record<string, unknown>[] = [];
  let origin = '';

  const issue = (scope: string) => {
    const access = randomBytes(16).toString('hex');
    const refresh = randomBytes(16).toString('hex');
    tokens.set(access, { until: Date.now() + (options.expiresIn ?? 3600) * 1000, scope });
    refreshes.set(refresh, scope);
    return {
      access_token: access,
      token_type: 'Bearer',
      expires_in: options.expiresIn ?? 3600,
      refresh_token: refresh,
    };
  };

  /** The client's authentication as its method says, or the reason it fails. */
  function clientOf(req: IncomingMessage, params: URLSearchParams): string | undefined {
    const header = req.headers.authorization ?? null;
    let id = params.get('client_id');
    let secret = params.get('client_secret');
    if (header?.startsWith('Basic ')) {
      const [u, s] = Buffer.from(header.slice(6), 'base64').toString().split(':');
      id = decodeURIComponent(u ?? '');
      secret = decodeURIComponent(s ?? '');
    }
    const client = id ? clients.get(id) : undefined;
    if (!client || !id) return undefined;
    if (client.method === 'client_secret_basic' && !header?.startsWith('Basic ')) return undefined;
    if (client.method === 'client_secret_post' && (header || !params.get('client_secret'))) return undefined;
    if (client.method === 'none' && (header || params.get('client_secret'))) return undefined;
    if (client.secret && client.secret !== secret) return undefined;
    return id;
  }

  const metadata = () => ({
    issuer: origin,
    authorization_endpoint: `${origin}/authorize`,
    token_endpoint: `${origin}/token`,
    ...(options.registration ? { registration_endpoint: `${origin}/register` } : {}),
    response_types_supported: ['code'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    token_endpoint_auth_methods_supported: [options.authMethod],
    ...(options.pkce === null ? {} : { code_challenge_methods_supported: options.pkce ?? ['S256'] }),
    ...(options.asMeta === 'openid'
      ? {
          jwks_uri: `${origin}/jwks`,
          subject_types_supported: ['public'],
          id_token_signing_alg_values_supported: ['RS256'],
        }
      : {}),
  });
  const prm = () => ({
    resource: `${origin}/mcp`,
    authorization_servers: [origin],
    ...(options.scopesSupported ? { scopes_supported: options.scopesSupported } : {}),
  });

  const other = async (req: IncomingMessage, res: ServerResponse): Promise<boolean> => {
    const url = new URL(req.url ?? '/', origin);
    const path = url.pathname;
    if (path === '/meta/prm' && options.prm === 'challenge') return json(res, 200, prm());
    if (path === '/.well-known/oauth-protected-resource/mcp' && options.prm === 'path') return json(res, 200, prm());
    if (path === '/.well-known/oauth-protected-resource' && options.prm === 'root') return json(res, 200, prm());
    if (path === '/.well-known/oauth-authorization-server' && options.asMeta === 'oauth') {
      return json(res, 200, metadata());
    }
    if (path === '/.well-known/openid-configuration' && options.asMeta === 'openid') {
      return json(res, 200, metadata());
    }
    if (path === '/register' && req.method === 'POST' && options.registration) {
      const asked = JSON.parse(await body(req)) as { redirect_uris: string[]; token_endpoint_auth_method?: string };
      registrations.push(asked);
      const id = `dyn-${randomBytes(4).toString('hex')}`;
      const method = asked.token_endpoint_auth_method ?? 'client_secret_basic';
      const secret = method === 'none' ? null : randomBytes(8).toString('hex');
      clients.set(id, { secret, redirectUris: asked.redirect_uris, method });
      return json(res, 201, {
        client_id: id,
        ...(secret ? { client_secret: secret } : {}),
        redirect_uris: asked.redirect_uris,
        token_endpoint_auth_method: method,
      });
    }
    if (path === '/authorize') {
      const q = url.searchParams;
      authorizations.push(q);
      const client = clients.get(q.get('client_id') ?? '');
      const redirect = q.get('redirect_uri') ?? '';
      if (!client || (client.redirectUris.length > 0 && !client.redirectUris.includes(redirect))) {
        return json(res, 400, { error: 'invalid_client' });
      }
      if (q.get('code_challenge_method') !== 'S256' || !q.get('code_challenge')) {
        return json(res, 400, { error: 'invalid_request' });
      }
      const code = randomBytes(8).toString('hex');
      codes.set(code, {
        clientId: q.get('client_id') as string,
        challenge: q.get('code_challenge') as string,
        redirectUri: redirect,
        resource: q.get('resource'),
        scope: q.get('scope') ?? '',
      });
      const back = new URL(redirect);
      back.searchParams.set('code', code);
      back.searchParams.set('state', q.get('state') ?? '');
      res.writeHead(302, { location: back.href });
      res.end();
      return true;
    }
    if (path === '/token' && req.method === 'POST') {
      const params = new URLSearchParams(await body(req));
      tokenRequests.push({ params, basic: req.headers.authorization ?? null });
      const clientId = clientOf(req, params);
      if (!clientId) return json(res, 401, { error: 'invalid_client' });
      if (params.get('resource') !== `${origin}/mcp`) return json(res, 400, { error: 'invalid_target' });
      if (params.get('grant_type') === 'refresh_token') {
        const refresh = params.get('refresh_token') ?? '';
        const scope = refreshes.get(refresh);
        if (scope === undefined || !refreshes.delete(refresh)) return json(res, 400, { error: 'invalid_grant' });
        return json(res, 200, issue(scope));
      }
      const grant = codes.get(params.get('code') ?? '');
      codes.delete(params.get('code') ?? '');
      const verifier = params.get('code_verifier') ?? '';
      const challenge = createHash('sha256').update(verifier).digest('base64url');
      if (!grant || grant.clientId !== clientId || grant.challenge !== challenge) {
        return json(res, 400, { error: 'invalid_grant' });
      }
      if (grant.redirectUri !== params.get('redirect_uri')) return json(res, 400, { error: 'invalid_grant' });
      return json(res, 200, issue(grant.scope));
    }
    return false;
  };

  const server = await startSdkServer({
    tools: ['private-search', 'private-read'],
    allow: (req) => {
      const held = tokens.get((req.headers.authorization ?? '').replace(/^Bearer /, ''));
      if (!held || held.until <= Date.now()) return false;
      const has = held.scope.split(' ');
      if (options.requiredScope?.split(' ').some((s) => !has.includes(s))) {
        return { status: 403, challenge: `Bearer error="insufficient_scope", scope="${options.requiredScope}"` };
      }
      return true;
    },
    challenge: () =>
      [
        'Bearer error="invalid_token"',
        ...(options.prm === 'challenge' ? [`resource_metadata="${origin}/meta/prm"`] : []),
        ...(options.challengeScope ? [`scope="${options.challengeScope}"`] : []),
      ].join(', '),
    other,
  });
  origin = new URL(server.url).origin;
  return {
    ...server,
    authorizations,
    tokenRequests,
    registrations,
    tokens,
    revokeAll: () => tokens.clear(),
  };
}
