import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { invalid, notFound } from '../../kernel/ground/errors';
import { db } from '../../kernel/store/client';
import { DeleteCommand } from '../../kernel/store/commands';
import { PREFIXES } from '../../kernel/store/keys';
import { queryAll, transact } from '../../kernel/store/ops';
import { getItem, putNew, TABLE, versionedUpdate } from '../../kernel/store/table';
import { signin } from '../../ports/signin/index';
import type { ClientSpec, ClientType, NewSecret } from '../../ports/signin/port';

export const SIGNIN_CLIENT_MESSAGES = {
  notFound: 'Client not found',
  tooMany: 'A project can have up to 20 sign-in clients.',
  onlyWeb: 'Only web clients have a secret.',
  typeFixed: "A client's type can't be changed.",
  changed: 'The client changed. Reload and try again.',
  unavailable: "Sign-in clients need the identity provider's user pool: deploy with cognitoUserPoolId set.",
} as const;

export const MAX_CLIENTS = 20;
/** How long a secret replaced by a rotation keeps working, unless revoked first. */
export const PREVIOUS_SECRET_DAYS = 7;

interface StoredSecret {
  secretId: string;
  /** SHA-256 of the value (hex): the local identity provider checks it; the value is shown once. */
  hash: string;
  createdAt: number;
  expiresAt?: number;
}

/**
 * A sign-in client: one global item by client id (the identity provider finds it by the id
 * alone), listed by project on GSI1. Follows its project through a transfer: the routes find a
 * project's clients by project id, under the path's organization.
 */
export interface ClientRecord extends ClientSpec {
  pk: string;
  sk: string;
  gsi1pk: string;
  gsi1sk: string;
  clientId: string;
  projectId: string;
  orgId: string;
  createdBy: string;
  createdAt: number;
  updatedAt: number;
  version: number;
  secrets: StoredSecret[];
}

export const clientKey = (clientId: string) => ({ pk: `${PREFIXES.signinClients.client}${clientId}`, sk: 'CLIENT' });
const countKey = (projectId: string) => ({ pk: `${PREFIXES.signinClients.count}${projectId}`, sk: 'COUNT' });
const byProject = (projectId: string) => `${PREFIXES.signinClients.byProject}${projectId}`;
const hashOf = (value: string) => createHash('sha256').update(value).digest('hex');

/** The client as the API shows it: its secrets by id and dates, never their values. */
export function shownClient(c: ClientRecord) {
  return {
    clientId: c.clientId,
    projectId: c.projectId,
    name: c.name,
    type: c.type,
    redirectUris: c.redirectUris,
    allowedOrigins: c.allowedOrigins,
    scopes: c.scopes,
    secrets: c.secrets.map(({ secretId, createdAt, expiresAt }) => ({
      secretId,
      createdAt,
      ...(expiresAt !== undefined ? { expiresAt } : {}),
    })),
    createdBy: c.createdBy,
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
    version: c.version,
  };
}

export function listClients(projectId: string): Promise<ClientRecord[]> {
  return queryAll<ClientRecord>({
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :p',
    ExpressionAttributeValues: { ':p': byProject(projectId) },
  });
}

/** The project's client, or 404 `Client not found`. */
export async function requireClient(projectId: string, clientId: string): Promise<ClientRecord> {
  const c = clientId.length <= 128 ? await getItem<ClientRecord>(clientKey(clientId), true) : undefined;
  if (!c || c.projectId !== projectId) throw notFound(SIGNIN_CLIENT_MESSAGES.notFound);
  return c;
}

/** Reads a client by id alone (the identity provider). */
export const findClient = (clientId: string) => getItem<ClientRecord>(clientKey(clientId), true);

/** Stores a client the provider made: the project's count goes up in the same transaction (20 at most). */
export async function putClient(
  base: { orgId: string; projectId: string; createdBy: string },
  spec: ClientSpec,
  made: { clientId: string; secret?: NewSecret },
): Promise<ClientRecord> {
  const now = Date.now();
  const record: ClientRecord = {
    ...clientKey(made.clientId),
    gsi1pk: byProject(base.projectId),
    gsi1sk: `${String(now).padStart(15, '0')}#${made.clientId}`,
    clientId: made.clientId,
    ...base,
    ...spec,
    createdAt: now,
    updatedAt: now,
    version: 1,
    secrets: made.secret ? [{ secretId: made.secret.secretId, hash: hashOf(made.secret.value), createdAt: now }] : [],
  };
  await transact(
    [
      {
        Update: {
          TableName: TABLE(),
          Key: countKey(base.projectId),
          UpdateExpression: 'ADD n :one',
          ConditionExpression: 'attribute_not_exists(n) OR n < :max',
          ExpressionAttributeValues: { ':one': 1, ':max': MAX_CLIENTS },
        },
      },
      putNew(record as ClientRecord & Record<string, unknown>),
    ],
    [() => invalid(SIGNIN_CLIENT_MESSAGES.tooMany)],
  );
  return record;
}

/** Writes fields of the client as it was read (409 otherwise). */
export async function updateClient(c: ClientRecord, fields: Partial<ClientRecord>): Promise<ClientRecord> {
  const set = { ...fields, updatedAt: Date.now() };
  await transact(
    [{ Update: versionedUpdate(clientKey(c.clientId), c.version, set) }],
    [SIGNIN_CLIENT_MESSAGES.changed],
  );
  return { ...c, ...set, version: c.version + 1 };
}

/** Removes the record and counts it out. */
export async function deleteClientRecord(c: ClientRecord): Promise<void> {
  await transact([
    { Delete: { TableName: TABLE(), Key: clientKey(c.clientId) } },
    {
      Update: {
        TableName: TABLE(),
        Key: countKey(c.projectId),
        UpdateExpression: 'ADD n :minus',
        ExpressionAttributeValues: { ':minus': -1 },
      },
    },
  ]);
}

/** A rotation: the new secret first; the others end in 7 days (or sooner, if they already did). */
export function rotatedSecrets(c: ClientRecord, added: NewSecret, now = Date.now()): StoredSecret[] {
  const end = now + PREVIOUS_SECRET_DAYS * 86_400_000;
  return [
    { secretId: added.secretId, hash: hashOf(added.value), createdAt: now },
    ...c.secrets.map((s) => ({ ...s, expiresAt: Math.min(s.expiresAt ?? end, end) })),
  ];
}

/** Whether `value` is one of the client's secrets still in force (the local identity provider). */
export function secretHolds(c: ClientRecord, value: string, now = Date.now()): boolean {
  const given = Buffer.from(hashOf(value), 'hex');
  return c.secrets.some(
    (s) => (s.expiresAt === undefined || s.expiresAt > now) && timingSafeEqual(Buffer.from(s.hash, 'hex'), given),
  );
}

/** Every client of a project, removed at the provider and here (the project's delete; safe to run again). */
export async function forgetProjectClients(projectId: string): Promise<void> {
  for (const c of await listClients(projectId)) {
    await signin().remove(c.clientId);
    await deleteClientRecord(c);
  }
}

export type { ClientType };

/** A refresh token of the local identity provider: stored by its hash, one use (each use gives the next). */
interface RefreshRecord {
  clientId: string;
  sub: string;
  email: string;
  scope: string[];
  ttl: number;
}
const refreshKey = (token: string) => ({ pk: `${PREFIXES.signinClients.refresh}${hashOf(token)}`, sk: 'TOKEN' });

export async function newRefreshToken(
  grant: { clientId: string; sub: string; email: string; scope: string[] },
  seconds: number,
): Promise<string> {
  const token = `rt_${randomBytes(32).toString('base64url')}`;
  const record: RefreshRecord = {
    clientId: grant.clientId,
    sub: grant.sub,
    email: grant.email,
    scope: grant.scope,
    ttl: Math.floor(Date.now() / 1000) + seconds,
  };
  await transact([putNew({ ...refreshKey(token), ...record })]);
  return token;
}

/** Consumes a refresh token of `clientId` (a conditional delete: one use); undefined if unknown, used or expired. */
export async function takeRefreshToken(token: string, clientId: string): Promise<RefreshRecord | undefined> {
  if (!token.startsWith('rt_')) return undefined;
  try {
    const out = await db.send(
      new DeleteCommand({
        TableName: TABLE(),
        Key: refreshKey(token),
        ConditionExpression: 'clientId = :c AND #ttl > :now',
        ExpressionAttributeNames: { '#ttl': 'ttl' },
        ExpressionAttributeValues: { ':c': clientId, ':now': Math.floor(Date.now() / 1000) },
        ReturnValues: 'ALL_OLD',
      }),
    );
    return out.Attributes as RefreshRecord | undefined;
  } catch (err) {
    if ((err as Error).name === 'ConditionalCheckFailedException') return undefined;
    throw err;
  }
}
