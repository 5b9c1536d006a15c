import { randomBytes } from 'node:crypto';
import { invalid, notFound } from '../../kernel/ground/errors';
import { orgIsActive } from '../../kernel/identity/orgs';
import { newId } from '../../kernel/store/ids';
import { PREFIXES } from '../../kernel/store/keys';
import { queryPrefix, transact } from '../../kernel/store/ops';
import { getItem, orgPk, putNew, TABLE, versionedUpdate } from '../../kernel/store/table';
import { secrets } from '../../ports/secrets';
import type { EventKind } from '../notifications/kinds';

export const WEBHOOK_MESSAGES = {
  notFound: 'Webhook endpoint not found',
  tooMany: 'An organization can have up to 20 webhook endpoints.',
  changed: 'The endpoint changed. Reload and try again.',
  url: 'The URL must be a public https URL.',
  deliveryNotFound: 'Delivery not found',
} as const;

export const MAX_ENDPOINTS = 20;
/** How long the secret a rotation replaced still signs (a second signature beside the new one's). */
export const PREVIOUS_SECRET_MS = 24 * 3_600_000;

interface SealedSecret {
  sealed: string;
  createdAt: number;
  expiresAt?: number;
}

/**
 * A webhook endpoint: pk `ORG#<orgId>`, sk `WEBHOOK#<endpointId>`. Its signing secrets are sealed by
 * the secrets port (their context names the organization and endpoint) and never answered.
 */
export interface EndpointRecord {
  endpointId: string;
  orgId: string;
  url: string;
  events: EventKind[];
  description?: string;
  enabled: boolean;
  createdBy: string;
  createdAt: number;
  updatedAt: number;
  version: number;
  secrets: SealedSecret[];
}

const PREFIX = PREFIXES.webhooks.endpoint;
export const endpointKey = (orgId: string, endpointId: string) => ({
  pk: orgPk(orgId),
  sk: `${PREFIX}${endpointId}`,
});
const context = (orgId: string, endpointId: string) => ({ purpose: 'webhook', orgId, endpointId });

/** A new signing secret as Standard Webhooks writes it: `whsec_` and 32 random bytes, base64. */
export const newSigningSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

export function shownEndpoint(e: EndpointRecord) {
  return {
    endpointId: e.endpointId,
    orgId: e.orgId,
    url: e.url,
    events: e.events,
    ...(e.description !== undefined ? { description: e.description } : {}),
    enabled: e.enabled,
    createdBy: e.createdBy,
    createdAt: e.createdAt,
    updatedAt: e.updatedAt,
    version: e.version,
  };
}

export const listEndpoints = (orgId: string) => queryPrefix<EndpointRecord>(orgPk(orgId), PREFIX);

export async function requireEndpoint(orgId: string, endpointId: string): Promise<EndpointRecord> {
  const e = endpointId.startsWith('whe_')
    ? await getItem<EndpointRecord>(endpointKey(orgId, endpointId), true)
    : undefined;
  if (!e) throw notFound(WEBHOOK_MESSAGES.notFound);
  return e;
}

export async function createEndpoint(
  orgId: string,
  input: { url: string; events: EventKind[]; description?: string; enabled: boolean },
  createdBy: string,
): Promise<{ endpoint: EndpointRecord; secret: string }> {
  if ((await listEndpoints(orgId)).length >= MAX_ENDPOINTS) throw invalid(WEBHOOK_MESSAGES.tooMany);
  const now = Date.now();
  const endpointId = newId('whe_', now);
  const secret = newSigningSecret();
  const [sealed] = await secrets().encrypt(context(orgId, endpointId), [secret]);
  const endpoint: EndpointRecord = {
    endpointId,
    orgId,
    ...input,
    createdBy,
    createdAt: now,
    updatedAt: now,
    version: 1,
    secrets: [{ sealed: sealed as string, createdAt: now }],
  };
  await transact([putNew({ ...endpointKey(orgId, endpointId), ...endpoint }), orgIsActive(orgId)]);
  return { endpoint, secret };
}

export async function updateEndpoint(e: EndpointRecord, fields: Partial<EndpointRecord>, expected = e.version) {
  const set = { ...fields, updatedAt: Date.now() };
  await transact(
    [{ Update: versionedUpdate(endpointKey(e.orgId, e.endpointId), expected, set) }],
    [WEBHOOK_MESSAGES.changed],
  );
  return { ...e, ...set, version: expected + 1 } as EndpointRecord;
}

export async function deleteEndpoint(e: EndpointRecord): Promise<void> {
  await transact([{ Delete: { TableName: TABLE(), Key: endpointKey(e.orgId, e.endpointId) } }]);
}

/** A new secret; the current one keeps signing beside it for 24 hours. */
export async function rotateSecret(e: EndpointRecord): Promise<{ endpoint: EndpointRecord; secret: string }> {
  const now = Date.now();
  const secret = newSigningSecret();
  const [sealed] = await secrets().encrypt(context(e.orgId, e.endpointId), [secret]);
  const kept = e.secrets
    .filter((s) => s.expiresAt === undefined || s.expiresAt > now)
    .slice(0, 1)
    .map((s) => ({ ...s, expiresAt: Math.min(s.expiresAt ?? now + PREVIOUS_SECRET_MS, now + PREVIOUS_SECRET_MS) }));
  const endpoint = await updateEndpoint(e, { secrets: [{ sealed: sealed as string, createdAt: now }, ...kept] });
  return { endpoint, secret };
}

/** The secrets that sign now, newest first (the delivery worker). */
export async function signingSecrets(e: EndpointRecord, now = Date.now()): Promise<string[]> {
  const live = e.secrets.filter((s) => s.expiresAt === undefined || s.expiresAt > now);
  return secrets().decrypt(
    context(e.orgId, e.endpointId),
    live.map((s) => s.sealed),
  );
}
