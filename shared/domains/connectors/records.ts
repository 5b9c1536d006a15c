import { readEnv } from '../../kernel/ground/env';
import { invalid, notFound } from '../../kernel/ground/errors';
import { ORG_NOT_FOUND } from '../../kernel/ground/messages';
import { orgIsActive } from '../../kernel/identity/orgs';
import { db } from '../../kernel/store/client';
import { UpdateCommand } from '../../kernel/store/commands';
import { newId } from '../../kernel/store/ids';
import { PREFIXES } from '../../kernel/store/keys';
import { queryPrefix, transact } from '../../kernel/store/ops';
import { fieldUpdate, getItem, keys, ORG_PREFIX, putNew, TABLE } from '../../kernel/store/table';
import { secrets } from '../../ports/secrets';

/**
 * Connectors to remote MCP servers (spec part B, "Connector"): one record per connector under
 * `CON#<id>` in the organization's partition (counted by the organization's contents), its slug
 * reserved by its own item (`CONSLUG#`), the organization's count in `CONCOUNT` (at most 50, held
 * by the create's transaction), its cached tools in `CONTOOLS#<id>#<n>` (gzip'd JSON in parts) and
 * its OAuth tokens in `CONTOKEN#<id>`. Credentials (the secret, the OAuth client secret, tokens)
 * are envelope-encrypted under the organization and the connector, never answered.
 */
export type Transport = 'http' | 'sse';
export type AuthType = 'none' | 'bearer' | 'header' | 'oauth';

export interface ConnectorRecord {
  connectorId: string;
  orgId: string;
  name: string;
  slug: string;
  url: string;
  transport: Transport;
  authType: AuthType;
  headerName?: string;
  enabled: boolean;
  status: 'ok' | 'unknown' | 'error';
  lastError?: string;
  lastCheckedAt?: number;
  accessExpiresAt?: number;
  createdBy: string;
  createdAt: number;
  updatedAt: number;
  toolCount: number;
  omittedTools: number;
  /** How many `CONTOOLS#` parts hold the cached tools, and their digest (an unchanged list is not written again). */
  toolParts?: number;
  toolsDigest?: string;
  /** Encrypted credential (`bearer`, `header`). */
  secret?: string;
  oauthClientId?: string;
  /** Encrypted. */
  oauthClientSecret?: string;
  /** OAuth: the issuer signed in to, whether its client was registered dynamically, whether tokens are held. */
  oauthServer?: string;
  oauthRegistered?: boolean;
  oauthConnected?: boolean;
  /** A scope the server asked for in a 403 (`insufficient_scope`): the next sign-in asks for it. */
  oauthScope?: string;
  version: number;
}

export const CONNECTOR_MESSAGES = {
  notFound: 'Connector not found',
  tooMany: 'An organization can have up to 50 connectors.',
  slugTaken: (slug: string) => `Slug "${slug}" is already in use.`,
  nothing: 'Nothing to update.',
  noCredential: "This connector doesn't use a credential.",
  needsSecret: 'Enter a secret: bearer and header authentication send one.',
  needsHeaderName: 'Enter a header name: header authentication sends the secret in it.',
  badHeaderName: "Enter a valid header name (letters, digits and !#$%&'*+.^_`|~-), not one MCP or HTTP reserves.",
  headerNameOnly: 'headerName is only for header authentication.',
  oauthOnly: 'oauthClientId and oauthClientSecret are only for OAuth.',
  clientSecretWithoutId: 'oauthClientSecret needs oauthClientId.',
  notOauth: "This connector doesn't use OAuth.",
  peopleOnly: 'Signing in to a connector needs a signed-in user.',
  startAgain: 'Start the sign-in again.',
  changed: 'The connector changed. Reload and try again.',
} as const;

export const MAX_CONNECTORS = 50;

/**
 * `npm start` alone sets it (bin/local.ts): servers on the person's own machine (loopback `http`)
 * may be connectors. The stack never sets it.
 */
export const loopbackAllowed = () => readEnv('LOCAL_CONNECTORS_LOOPBACK') === 'true';

export const connectorKey = (orgId: string, connectorId: string) => ({
  pk: keys.org(orgId).pk,
  sk: `${ORG_PREFIX.connector}${connectorId}`,
});
const slugKey = (orgId: string, slug: string) => ({ pk: keys.org(orgId).pk, sk: `${PREFIXES.connectors.slug}${slug}` });
const countKey = (orgId: string) => ({ pk: keys.org(orgId).pk, sk: 'CONCOUNT' });
export const toolPartKey = (orgId: string, connectorId: string, n: number) => ({
  pk: keys.org(orgId).pk,
  sk: `${PREFIXES.connectors.tools}${connectorId}#${n}`,
});
export const tokenKey = (orgId: string, connectorId: string) => ({
  pk: keys.org(orgId).pk,
  sk: `${PREFIXES.connectors.token}${connectorId}`,
});

/** What a connector's credentials are encrypted under: a value moved to another connector does not decrypt. */
export const connectorContext = (orgId: string, connectorId: string) => ({
  purpose: 'connector',
  orgId,
  connectorId,
});

/** Header names MCP or HTTP itself sets: a tenant's credential header can't be one of them. */
const RESERVED_HEADERS = new Set([
  'accept',
  'accept-encoding',
  'connection',
  'content-encoding',
  'content-length',
  'content-type',
  'cookie',
  'expect',
  'host',
  'keep-alive',
  'last-event-id',
  'mcp-protocol-version',
  'mcp-session-id',
  'origin',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/;
export const validHeaderName = (name: string) => TOKEN.test(name) && !RESERVED_HEADERS.has(name.toLowerCase());

export type NewConnector = Pick<ConnectorRecord, 'name' | 'slug' | 'url' | 'transport' | 'authType' | 'headerName'> & {
  secret?: string;
  oauthClientId?: string;
  oauthClientSecret?: string;
};

/** The spec's checks of a new connector's credentials (400s), before anything is written. */
export function checkCredentials(input: NewConnector): void {
  const credential = input.authType === 'bearer' || input.authType === 'header';
  if (input.secret !== undefined && !credential) throw invalid(CONNECTOR_MESSAGES.noCredential);
  if (credential && input.secret === undefined) throw invalid(CONNECTOR_MESSAGES.needsSecret);
  if (input.headerName !== undefined && input.authType !== 'header') throw invalid(CONNECTOR_MESSAGES.headerNameOnly);
  if (input.authType === 'header') {
    if (!input.headerName) throw invalid(CONNECTOR_MESSAGES.needsHeaderName);
    if (!validHeaderName(input.headerName)) throw invalid(CONNECTOR_MESSAGES.badHeaderName);
  }
  if ((input.oauthClientId !== undefined || input.oauthClientSecret !== undefined) && input.authType !== 'oauth') {
    throw invalid(CONNECTOR_MESSAGES.oauthOnly);
  }
  if (input.oauthClientSecret !== undefined && input.oauthClientId === undefined) {
    throw invalid(CONNECTOR_MESSAGES.clientSecretWithoutId);
  }
}

/**
 * Creates a connector. One transaction: the organization is active, its count below 50, the slug
 * free; so 50 parallel creates of one slug give one connector, and an organization never holds 51.
 */
export async function createConnector(orgId: string, createdBy: string, input: NewConnector): Promise<ConnectorRecord> {
  const now = Date.now();
  const connectorId = newId('con_', now);
  const plain = [input.secret, input.oauthClientSecret].filter((v): v is string => v !== undefined);
  const sealed = plain.length > 0 ? await secrets().encrypt(connectorContext(orgId, connectorId), plain) : [];
  const record: ConnectorRecord = {
    connectorId,
    orgId,
    name: input.name,
    slug: input.slug,
    url: input.url,
    transport: input.transport,
    authType: input.authType,
    ...(input.headerName ? { headerName: input.headerName } : {}),
    enabled: true,
    status: 'unknown',
    createdBy,
    createdAt: now,
    updatedAt: now,
    toolCount: 0,
    omittedTools: 0,
    ...(input.secret !== undefined ? { secret: sealed[0] } : {}),
    ...(input.oauthClientId !== undefined ? { oauthClientId: input.oauthClientId } : {}),
    ...(input.oauthClientSecret !== undefined ? { oauthClientSecret: sealed[sealed.length - 1] } : {}),
    version: 1,
  };
  await transact(
    [
      orgIsActive(orgId),
      {
        Update: {
          TableName: TABLE(),
          Key: countKey(orgId),
          UpdateExpression: 'SET #n = if_not_exists(#n, :zero) + :one',
          ConditionExpression: 'attribute_not_exists(#n) OR #n < :max',
          ExpressionAttributeNames: { '#n': 'count' },
          ExpressionAttributeValues: { ':zero': 0, ':one': 1, ':max': MAX_CONNECTORS },
        },
      },
      putNew({ ...slugKey(orgId, input.slug), connectorId }),
      putNew({ ...connectorKey(orgId, connectorId), ...record }),
    ],
    [
      () => notFound(ORG_NOT_FOUND),
      () => invalid(CONNECTOR_MESSAGES.tooMany),
      CONNECTOR_MESSAGES.slugTaken(input.slug),
    ],
  );
  return record;
}

export async function listConnectors(orgId: string): Promise<ConnectorRecord[]> {
  return queryPrefix<ConnectorRecord>(keys.org(orgId).pk, ORG_PREFIX.connector);
}

/** The connector, or 404 `Connector not found`. */
export async function requireConnector(orgId: string, connectorId: string, consistent = false) {
  const found = await getItem<ConnectorRecord>(connectorKey(orgId, connectorId), consistent);
  if (!found) throw notFound(CONNECTOR_MESSAGES.notFound);
  return found;
}

/**
 * Sets fields of a connector that still exists (a removed one is 404); `undefined` removes a
 * field. With `extra` items (its tools, its tokens) in one transaction. The record as written.
 */
export async function updateConnector(
  c: ConnectorRecord,
  fields: Partial<Record<keyof ConnectorRecord, unknown>>,
  extra: { Put?: Record<string, unknown>; Delete?: Record<string, unknown> }[] = [],
): Promise<ConnectorRecord> {
  const update = {
    TableName: TABLE(),
    Key: connectorKey(c.orgId, c.connectorId),
    ConditionExpression: 'attribute_exists(pk)',
    ...fieldUpdate(fields, {
      sets: ['#version = #version + :one'],
      names: { '#version': 'version' },
      values: { ':one': 1 },
    }),
  };
  if (extra.length === 0) {
    try {
      const out = await db.send(new UpdateCommand({ ...update, ReturnValues: 'ALL_NEW' }));
      return out.Attributes as ConnectorRecord;
    } catch (err) {
      if ((err as Error).name === 'ConditionalCheckFailedException') throw notFound(CONNECTOR_MESSAGES.notFound);
      throw err;
    }
  }
  await transact([{ Update: update }, ...(extra as never[])], [() => notFound(CONNECTOR_MESSAGES.notFound)]);
  const written: Record<string, unknown> = { ...c, ...fields, version: c.version + 1 };
  for (const [name, value] of Object.entries(fields)) if (value === undefined) delete written[name];
  return written as unknown as ConnectorRecord;
}

/** Encrypts a connector's new credential. */
export async function sealFor(c: Pick<ConnectorRecord, 'orgId' | 'connectorId'>, values: string[]): Promise<string[]> {
  return secrets().encrypt(connectorContext(c.orgId, c.connectorId), values);
}

export async function openFor(c: Pick<ConnectorRecord, 'orgId' | 'connectorId'>, values: string[]): Promise<string[]> {
  return secrets().decrypt(connectorContext(c.orgId, c.connectorId), values);
}

/**
 * Deletes a connector with its slug, its count, its tokens and its cached tools, in one
 * transaction (404 when it is already gone).
 */
export async function deleteConnector(c: ConnectorRecord): Promise<void> {
  const parts = Array.from({ length: c.toolParts ?? 0 }, (_, n) => toolPartKey(c.orgId, c.connectorId, n));
  await transact(
    [
      {
        Delete: {
          TableName: TABLE(),
          Key: connectorKey(c.orgId, c.connectorId),
          ConditionExpression: 'attribute_exists(pk)',
        },
      },
      { Delete: { TableName: TABLE(), Key: slugKey(c.orgId, c.slug) } },
      {
        Update: {
          TableName: TABLE(),
          Key: countKey(c.orgId),
          UpdateExpression: 'SET #n = #n - :one',
          ConditionExpression: '#n > :zero',
          ExpressionAttributeNames: { '#n': 'count' },
          ExpressionAttributeValues: { ':zero': 0, ':one': 1 },
        },
      },
      { Delete: { TableName: TABLE(), Key: tokenKey(c.orgId, c.connectorId) } },
      ...parts.map((key) => ({ Delete: { TableName: TABLE(), Key: key } })),
    ],
    [() => notFound(CONNECTOR_MESSAGES.notFound)],
  );
}

/** A connector as the API shows it: no credential, no storage field. */
export function shownConnector(c: ConnectorRecord) {
  return {
    connectorId: c.connectorId,
    orgId: c.orgId,
    name: c.name,
    slug: c.slug,
    url: c.url,
    transport: c.transport,
    authType: c.authType,
    ...(c.headerName ? { headerName: c.headerName } : {}),
    enabled: c.enabled,
    status: c.status,
    ...(c.lastError ? { lastError: c.lastError } : {}),
    ...(c.lastCheckedAt ? { lastCheckedAt: c.lastCheckedAt } : {}),
    ...(c.accessExpiresAt ? { accessExpiresAt: c.accessExpiresAt } : {}),
    createdBy: c.createdBy,
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
    hasSecret: c.secret !== undefined || c.oauthClientSecret !== undefined,
    toolCount: c.toolCount,
    omittedTools: c.omittedTools,
    ...(c.authType === 'oauth'
      ? {
          oauth: {
            connected: c.oauthConnected === true,
            server: c.oauthServer ?? null,
            registered: c.oauthRegistered ?? (c.oauthClientId ? false : null),
          },
        }
      : {}),
  };
}
