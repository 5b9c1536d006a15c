import * as z from 'zod/mini';
import {
  CONNECTOR_MESSAGES,
  checkCredentials,
  createConnector,
  deleteConnector,
  listConnectors,
  loopbackAllowed,
  requireConnector,
  sealFor,
  shownConnector,
  updateConnector,
} from '../../shared/domains/connectors/records';
import { readTools } from '../../shared/domains/connectors/tools';
import { callerId } from '../../shared/kernel/auth/caller';
import { readEnv } from '../../shared/kernel/ground/env';
import { forbidden, invalid } from '../../shared/kernel/ground/errors';
import { created, noContent, ok, route } from '../../shared/kernel/http/route';
import { oneLine } from '../../shared/kernel/http/text-checks';
import { checkPublicUrlFor, UnsafeUrlError } from '../../shared/kernel/net/guarded-fetch';

/** What `test` and sign-in need (the MCP client, OAuth), loaded by those routes alone. */
const checking = () => import('../../shared/domains/connectors/check');
const signingIn = () => import('../../shared/domains/connectors/oauth');

const OrgPath = z.object({ orgId: z.string() });
const ConnectorPath = z.object({ orgId: z.string(), connectorId: z.string() });

/** Printable ASCII, as the spec asks of secrets. */
const Printable = (max: number) =>
  z
    .string()
    .check(
      z.minLength(1),
      z.maxLength(max),
      z.regex(/^[\x20-\x7e]*$/, { message: 'Use printable ASCII characters only.' }),
    );
const Name = z.string().check(z.trim(), z.minLength(1), z.maxLength(64), oneLine);
const Slug = z.string().check(
  z.maxLength(24),
  z.regex(/^[a-z](?:[a-z0-9-]*[a-z0-9])?$/, {
    message: 'Start with a lowercase letter; then lowercase letters, digits and hyphens; end with a letter or digit.',
  }),
);

/** Where the server sends the browser back: the platform's own page (`CONNECTOR_OAUTH_REDIRECT_URL` overrides). */
function redirectUri(headers: Record<string, string | undefined>): string {
  const configured = readEnv('CONNECTOR_OAUTH_REDIRECT_URL');
  if (configured) return configured;
  const host = headers.host ?? 'localhost';
  const proto =
    headers['x-forwarded-proto'] ?? (host.startsWith('localhost') || host.startsWith('127.') ? 'http' : 'https');
  return `${proto}://${host}/connectors/oauth/callback`;
}

/** A URL to return to after sign-in: a path of the platform's own pages, never another site. */
const ReturnTo = z.string().check(
  z.maxLength(500),
  z.refine((v) => v.startsWith('/') && !v.startsWith('//') && !v.includes('\\'), {
    message: 'returnTo must be a relative path starting with /.',
  }),
);

export const routes = [
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/connectors',
    scope: 'connectors:read',
    summary: "The organization's connectors (credentials never shown).",
    params: OrgPath,
    read: async ({ orgId }) => ({ connectors: (await listConnectors(orgId)).map(shownConnector) }),
  }),
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/connectors/:connectorId',
    scope: 'connectors:read',
    summary: 'A connector and its cached tools, as its last good `test` listed them.',
    params: ConnectorPath,
    errors: { 404: [CONNECTOR_MESSAGES.notFound] },
    read: async ({ orgId, params }) => {
      const connector = await requireConnector(orgId, params.connectorId);
      return { connector: shownConnector(connector), tools: await readTools(connector) };
    },
  }),
  route({
    method: 'POST',
    path: '/v1/orgs/:orgId/connectors',
    scope: 'connectors:write',
    summary:
      'Registers a remote MCP server: `http` (Streamable HTTP) or `sse` (the older HTTP+SSE), reached through the ' +
      'guarded fetch (public https only). `bearer` and `header` need `secret`; `oauth` signs in by `oauth/start`.',
    params: OrgPath,
    body: z.object({
      name: Name,
      slug: Slug,
      url: z.string().check(z.minLength(1), z.maxLength(2048)),
      authType: z._default(z.enum(['none', 'bearer', 'header', 'oauth']), 'none'),
      transport: z._default(z.enum(['http', 'sse']), 'http'),
      headerName: z.optional(z.string().check(z.trim(), z.maxLength(100), oneLine)),
      secret: z.optional(Printable(4096)),
      oauthClientId: z.optional(z.string().check(z.minLength(1), z.maxLength(512))),
      oauthClientSecret: z.optional(Printable(4096)),
    }),
    errors: {
      400: [
        CONNECTOR_MESSAGES.tooMany,
        CONNECTOR_MESSAGES.noCredential,
        CONNECTOR_MESSAGES.needsSecret,
        CONNECTOR_MESSAGES.needsHeaderName,
        CONNECTOR_MESSAGES.badHeaderName,
        CONNECTOR_MESSAGES.headerNameOnly,
        CONNECTOR_MESSAGES.oauthOnly,
        CONNECTOR_MESSAGES.clientSecretWithoutId,
        'url must use https.',
        "url can't be reached from the platform: ...",
      ],
      409: ['Slug "..." is already in use.'],
    },
    run: async ({ org, body, caller }) => {
      checkCredentials(body);
      try {
        await checkPublicUrlFor(body.url, { what: 'url', loopback: loopbackAllowed() });
      } catch (err) {
        if (err instanceof UnsafeUrlError) throw invalid(err.message);
        throw err;
      }
      const connector = await createConnector(org.orgId, callerId(caller), body);
      return created({ connector: shownConnector(connector) });
    },
  }),
  route({
    method: 'POST',
    path: '/v1/orgs/:orgId/connectors/:connectorId/test',
    scope: 'connectors:write',
    summary:
      'Connects and caches the tool list (up to 200; the rest counted in `omittedTools`), 15 s at most. A failure ' +
      'keeps the last good tools and records `status: error` and `lastError`.',
    params: ConnectorPath,
    errors: { 404: [CONNECTOR_MESSAGES.notFound] },
    run: async ({ org, params }) => {
      const { checkConnector } = await checking();
      const checked = await checkConnector(await requireConnector(org.orgId, params.connectorId, true));
      return ok({ connector: shownConnector(checked) });
    },
  }),
  route({
    method: 'PATCH',
    path: '/v1/orgs/:orgId/connectors/:connectorId',
    scope: 'connectors:write',
    summary: 'Renames, enables or disables a connector, or replaces its credential (`bearer`, `header`).',
    params: ConnectorPath,
    body: z.object({
      name: z.optional(Name),
      enabled: z.optional(z.boolean()),
      secret: z.optional(Printable(4096)),
    }),
    errors: { 400: [CONNECTOR_MESSAGES.nothing, CONNECTOR_MESSAGES.noCredential], 404: [CONNECTOR_MESSAGES.notFound] },
    run: async ({ org, params, body }) => {
      if (body.name === undefined && body.enabled === undefined && body.secret === undefined) {
        throw invalid(CONNECTOR_MESSAGES.nothing);
      }
      const connector = await requireConnector(org.orgId, params.connectorId, true);
      if (body.secret !== undefined && connector.authType !== 'bearer' && connector.authType !== 'header') {
        throw invalid(CONNECTOR_MESSAGES.noCredential);
      }
      const [secret] = body.secret !== undefined ? await sealFor(connector, [body.secret]) : [];
      const updated = await updateConnector(connector, {
        ...(body.name !== undefined ? { name: body.name } : {}),
        ...(body.enabled !== undefined ? { enabled: body.enabled } : {}),
        ...(secret !== undefined ? { secret } : {}),
        updatedAt: Date.now(),
      });
      return ok({ connector: shownConnector(updated) });
    },
  }),
  route({
    method: 'DELETE',
    path: '/v1/orgs/:orgId/connectors/:connectorId',
    scope: 'connectors:write',
    summary: 'Deletes a connector with its credentials, tokens and cached tools.',
    params: ConnectorPath,
    errors: { 404: [CONNECTOR_MESSAGES.notFound] },
    run: async ({ org, params }) => {
      await deleteConnector(await requireConnector(org.orgId, params.connectorId, true));
      return noContent();
    },
  }),
  route({
    method: 'POST',
    path: '/v1/orgs/:orgId/connectors/:connectorId/oauth/start',
    scope: 'connectors:write',
    summary:
      "Discovers the server's sign-in (MCP authorization), registers a client if it allows and none was given, and " +
      'stores a one-time state (10 minutes, this person) with a PKCE verifier. The URL to open in the browser.',
    params: ConnectorPath,
    body: z.object({ returnTo: z.optional(ReturnTo) }),
    errors: {
      400: [CONNECTOR_MESSAGES.notOauth, 'Could not start the sign-in: ...'],
      403: [CONNECTOR_MESSAGES.peopleOnly],
      404: [CONNECTOR_MESSAGES.notFound],
    },
    run: async ({ org, params, body, caller, event }) => {
      if (caller.kind !== 'user') throw forbidden(CONNECTOR_MESSAGES.peopleOnly);
      const connector = await requireConnector(org.orgId, params.connectorId);
      if (connector.authType !== 'oauth') throw invalid(CONNECTOR_MESSAGES.notOauth);
      const { startSignIn } = await signingIn();
      const url = await startSignIn(connector, caller.userId, body.returnTo, redirectUri(event.headers));
      return ok({ url });
    },
  }),
  route({
    method: 'POST',
    path: '/v1/orgs/:orgId/connectors/oauth/callback',
    scope: 'connectors:write',
    summary:
      'Where the sign-in returns: consumes the state (once; the same person and organization), exchanges the code, ' +
      'stores the tokens encrypted and runs `test`. `error` (the server refused) answers `connected: false`.',
    params: OrgPath,
    body: z.object({
      state: z.string().check(z.minLength(10), z.maxLength(300)),
      code: z.optional(z.string().check(z.minLength(1), z.maxLength(4000))),
      error: z.optional(z.string().check(z.maxLength(200))),
    }),
    errors: {
      403: [CONNECTOR_MESSAGES.peopleOnly],
      404: [CONNECTOR_MESSAGES.notFound],
      409: [CONNECTOR_MESSAGES.startAgain],
    },
    run: async ({ org, body, caller }) => {
      if (caller.kind !== 'user') throw forbidden(CONNECTOR_MESSAGES.peopleOnly);
      const [{ consumeState, finishSignIn }, { checkConnector }] = await Promise.all([signingIn(), checking()]);
      const state = await consumeState(body.state, org.orgId, caller.userId);
      const connector = await requireConnector(org.orgId, state.connectorId, true);
      let connected = false;
      if (body.error === undefined && body.code !== undefined) {
        connected = await finishSignIn(connector, state, body.code);
        if (connected) await checkConnector(await requireConnector(org.orgId, state.connectorId, true));
      }
      return ok({ connected, returnTo: state.returnTo, connectorId: state.connectorId });
    },
  }),
];
