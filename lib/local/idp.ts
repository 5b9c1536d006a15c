import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { dirname } from 'node:path';
import { exportJWK, generateKeyPair, importJWK, type JWK, SignJWT } from 'jose';
import { audienceOf } from '../../shared/kernel/auth/audience';
import { type ClientsModule, handleOAuth, oauthMetadata } from './idp-oauth';

/**
 * The local identity provider: an RS256 signing key kept in a file, its JWKS served over HTTP,
 * and tokens signed with it. The API verifies these tokens exactly as it verifies the real
 * provider's: against `AUTH_URL/.well-known/jwks.json`, issuer `AUTH_URL`, audience
 * `AUTH_AUDIENCE` (`platform-api` unless set), and an expiry.
 */
export interface LocalIdp {
  authUrl: string;
  sign: (claims: { sub: string; email?: string; name?: string }, ttlSeconds?: number) => Promise<string>;
}

interface KeyFile {
  kid: string;
  privateJwk: JWK;
  publicJwk: JWK;
}

/** Loads the key file, creating it (mode 600) on first use. */
export async function loadOrCreateIdpKey(file: string): Promise<KeyFile> {
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as KeyFile;
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  const kid = `local-${Date.now().toString(36)}`;
  const key: KeyFile = {
    kid,
    privateJwk: { ...(await exportJWK(privateKey)), kid, alg: 'RS256', use: 'sig' },
    publicJwk: { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' },
  };
  // The private key's folder is for this user alone, as DATA_DIR/keys is.
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  writeFileSync(file, JSON.stringify(key), { mode: 0o600 });
  return key;
}

/**
 * A signer for tokens of `authUrl` for `audience`, with the key in `file` (used by the local CLI
 * and tests). The audience defaults to the one the API verifies with this environment.
 */
export async function idpSigner(
  file: string,
  authUrl: string,
  audience: string = audienceOf(process.env),
): Promise<LocalIdp['sign']> {
  const key = await loadOrCreateIdpKey(file);
  const privateKey = await importJWK(key.privateJwk, 'RS256');
  return (claims, ttlSeconds = 12 * 3600) => {
    const jwt = new SignJWT({ email: claims.email, name: claims.name })
      .setProtectedHeader({ alg: 'RS256', kid: key.kid, typ: 'JWT' })
      .setSubject(claims.sub)
      .setIssuer(authUrl)
      .setAudience(audience)
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSeconds);
    return jwt.sign(privateKey);
  };
}

/**
 * Serves the JWKS, OpenID discovery and the code flow of projects' sign-in clients and of the
 * platform's own pages (./idp-oauth.ts). The clients' and users' store loads with the first sign-in, once the platform's variables are set (its
 * configuration is read at import); a caller that can't import later hands it in.
 */
export async function createIdpServer(
  file: string,
  authUrlOf: () => string,
  loadClients: () => Promise<ClientsModule> = async () => ({
    ...(await import('../../shared/domains/signin-clients/clients')),
    ...(await import('../../shared/kernel/identity/users')),
  }),
): Promise<Server> {
  const key = await loadOrCreateIdpKey(file);
  return createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://local').pathname;
    try {
      if (await handleOAuth(req, res, key, authUrlOf(), loadClients)) return;
    } catch (err) {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: 'server_error', error_description: (err as Error).message }));
      return;
    }
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (path === '/.well-known/jwks.json') return json(200, { keys: [key.publicJwk] });
    if (path === '/.well-known/openid-configuration') {
      const issuer = authUrlOf();
      return json(200, {
        issuer,
        jwks_uri: `${issuer}/.well-known/jwks.json`,
        id_token_signing_alg_values_supported: ['RS256'],
        ...oauthMetadata(issuer),
      });
    }
    json(404, { error: 'Not found' });
  });
}
