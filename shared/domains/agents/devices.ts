import { createHash, randomBytes, randomInt } from 'node:crypto';
import { conflict, invalid, notFound } from '../../kernel/ground/errors';
import { keyItems } from '../../kernel/identity/keys';
import { hostProblem, testAllowed } from '../../kernel/net/guarded-fetch';
import { newId } from '../../kernel/store/ids';
import { queryPrefix, transact } from '../../kernel/store/ops';
import { fieldUpdate, getItem, keys, putNew, TABLE } from '../../kernel/store/table';

/**
 * Self-hosted agent devices (the agents and agent-device groups): the device login that makes
 * them (RFC 8628, as `gh auth login`), their records and their network requests.
 *
 * A device login is two items: the login by the hash of its device code (`DEVLOGIN#…`; the code
 * itself is never stored) and its user code (`USERCODE#…`), both gone 15 minutes on (TTL). A
 * person of the organization approves the user code; the next token request writes the device,
 * its `app_dev_` token and the login's `issued` state in one transaction, so the token is shown
 * once. A device record's own field `version` is the agent program's, so its writes are
 * conditional on `rev`.
 */
export type Capability = 'http' | 'browser' | 'exec';

export interface DeviceRecord {
  deviceId: string;
  orgId: string;
  userId: string;
  name: string;
  ownerName: string | null;
  status: 'active' | 'revoked';
  version?: string;
  platform?: string;
  capabilities: Capability[];
  networkMode: 'allowlist' | 'full';
  hosts: string[];
  lastSeenAt?: number;
  createdAt: number;
  updatedAt: number;
  keyId: string;
  rev: number;
}

export interface NetworkRequest {
  orgId: string;
  deviceId: string;
  host: string;
  status: 'pending' | 'approved' | 'denied';
  reason?: string;
  createdAt: number;
  updatedAt: number;
}

interface LoginRecord {
  userCode: string;
  status: 'pending' | 'approved' | 'denied' | 'issued';
  expiresAt: number;
  interval: number;
  lastPollAt?: number;
  name?: string;
  platform?: string;
  version?: string;
  orgId?: string;
  userId?: string;
  ownerName?: string | null;
}

export const DEVICE_MESSAGES = {
  deviceNotFound: 'Device not found',
  requestNotFound: 'Request not found',
  ownerOnly: "Only the device's owner can add capabilities or allow full network access.",
  codeNotFound: 'That code is unknown or expired. Start the login on the device again.',
  codeUsed: 'That code was already used.',
  peopleOnly: 'Only people can approve a device.',
  changed: 'The device changed. Reload and try again.',
  tooManyHosts: 'A device allows 200 hosts at most. Remove some first.',
  badHost: (host: string) =>
    `${host} can't be allowed: a device allows public hostnames of two labels or more, optionally starting with *.`,
} as const;

/** RFC 8628 values: how long a login waits, how often the device may ask. */
export const LOGIN_SECONDS = 15 * 60;
export const LOGIN_INTERVAL = 5;
export const MAX_HOSTS = 200;

const HOSTNAME = /^(\*\.)?([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * THE rule of a device's allowed hosts, on every path that adds one (PATCH, an approved network
 * request, a request filed by the device or by `request-access`): a lowercase hostname of two
 * labels or more, optionally `*.` for its subdomains, public as the guarded fetch judges names (no
 * `localhost`, `*.localhost`, `.local`, `.internal`), and no IP literal (`127.0.0.1`). A name a
 * test allows on loopback (`UNSAFE_TEST_ALLOW_HOSTS`, as the guarded fetch honours it; never set by
 * the stack nor by `npm start`) passes.
 */
export function isDeviceHost(host: string): boolean {
  if (host.length > 253 || !HOSTNAME.test(host)) return false;
  const name = host.replace(/^\*\./, '');
  if (/^\d+$/.test(name.slice(name.lastIndexOf('.') + 1))) return false;
  return testAllowed(name) || hostProblem(name) === undefined;
}

/** The host, if a device may allow it; 400 saying why not otherwise. */
export function checkDeviceHost(host: string): string {
  if (!isDeviceHost(host)) throw invalid(DEVICE_MESSAGES.badHost(host));
  return host;
}

const deviceKey = (orgId: string, deviceId: string) => ({ pk: `ORG#${orgId}`, sk: `DEVICE#${deviceId}` });
const requestKey = (orgId: string, deviceId: string, host: string) => ({
  pk: `ORG#${orgId}`,
  sk: `NETREQ#${deviceId}#${host}`,
});
const loginKey = (deviceCode: string) => ({
  pk: `DEVLOGIN#${createHash('sha256').update(deviceCode).digest('hex')}`,
  sk: 'LOGIN',
});
const userCodeKey = (userCode: string) => ({ pk: `USERCODE#${userCode}`, sk: 'CODE' });

/** Eight letters no one misreads (no vowels, no look-alikes), shown as `XXXX-XXXX`. */
const USER_CODE_LETTERS = 'BCDFGHJKLMNPQRSTVWXZ';
const newUserCode = () => {
  const letters = Array.from({ length: 8 }, () => USER_CODE_LETTERS[randomInt(USER_CODE_LETTERS.length)]).join('');
  return `${letters.slice(0, 4)}-${letters.slice(4)}`;
};
/** A user code as typed: case and the dash don't matter. */
export const normalUserCode = (typed: string) => {
  const letters = typed.toUpperCase().replace(/[^A-Z]/g, '');
  return letters.length === 8 ? `${letters.slice(0, 4)}-${letters.slice(4)}` : undefined;
};

/** Starts a device login: its device code (for the device) and user code (for the person). */
export async function startLogin(device: { name?: string; platform?: string; version?: string }) {
  const deviceCode = randomBytes(32).toString('base64url');
  const now = Date.now();
  const expiresAt = now + LOGIN_SECONDS * 1000;
  const ttl = Math.ceil(expiresAt / 1000) + 3600;
  for (let attempt = 0; ; attempt++) {
    const userCode = newUserCode();
    const login: LoginRecord = { userCode, status: 'pending', expiresAt, interval: LOGIN_INTERVAL, ...device };
    try {
      await transact(
        [
          putNew({ ...loginKey(deviceCode), ...login, ttl }),
          putNew({ ...userCodeKey(userCode), login: loginKey(deviceCode).pk, expiresAt, ttl }),
        ],
        [undefined, () => new Error('user code taken')],
      );
      return { deviceCode, userCode, expiresIn: LOGIN_SECONDS, interval: LOGIN_INTERVAL };
    } catch (err) {
      if ((err as Error).message !== 'user code taken' || attempt >= 5) throw err;
    }
  }
}

/** The login a typed user code names (not expired), with its key; undefined for an unknown code. */
async function loginOfUserCode(typed: string) {
  const code = normalUserCode(typed);
  const held = code ? await getItem<{ login: string; expiresAt: number }>(userCodeKey(code), true) : undefined;
  if (!held || held.expiresAt <= Date.now()) return undefined;
  const key = { pk: held.login, sk: 'LOGIN' };
  const login = await getItem<LoginRecord>(key, true);
  if (!login || login.expiresAt <= Date.now()) return undefined;
  return { key, login };
}

/**
 * What a person is asked to approve for a user code (the device's name and system), for the page
 * where they answer it; undefined for an unknown or expired code. Never the device code.
 */
export async function pendingLogin(
  typed: string,
): Promise<{ userCode: string; name?: string; platform?: string; status: LoginRecord['status'] } | undefined> {
  const found = await loginOfUserCode(typed);
  if (!found) return undefined;
  const { userCode, name, platform, status } = found.login;
  return { userCode, name, platform, status };
}

/** A person's answer to a user code: the device will be theirs, in `orgId`. */
export async function answerLogin(
  orgId: string,
  person: { userId: string; name: string | null },
  typed: string,
  approve: boolean,
): Promise<void> {
  const found = await loginOfUserCode(typed);
  if (!found) throw notFound(DEVICE_MESSAGES.codeNotFound);
  const { key, login } = found;
  if (login.status !== 'pending') throw conflict(DEVICE_MESSAGES.codeUsed);
  await transact(
    [
      {
        Update: {
          TableName: TABLE(),
          Key: key,
          UpdateExpression: 'SET #status = :next, orgId = :org, userId = :user, ownerName = :owner',
          ConditionExpression: '#status = :pending',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: {
            ':next': approve ? 'approved' : 'denied',
            ':org': orgId,
            ':user': person.userId,
            ':owner': person.name,
            ':pending': 'pending',
          },
        },
      },
    ],
    [DEVICE_MESSAGES.codeUsed],
  );
}

/** RFC 8628's answers while a login waits; the token once it was approved. */
export type TokenAnswer =
  | { error: 'authorization_pending' | 'slow_down' | 'expired_token' | 'access_denied' }
  | { token: string; deviceId: string; orgId: string };

export async function loginToken(deviceCode: string): Promise<TokenAnswer> {
  const key = loginKey(deviceCode);
  const login = await getItem<LoginRecord>(key, true);
  const now = Date.now();
  if (!login || login.expiresAt <= now || login.status === 'issued') return { error: 'expired_token' };
  if (login.status === 'denied') return { error: 'access_denied' };
  if (login.status === 'pending') {
    const tooSoon = login.lastPollAt !== undefined && now - login.lastPollAt < login.interval * 1000;
    await transact([
      {
        Update: {
          TableName: TABLE(),
          Key: key,
          UpdateExpression: 'SET lastPollAt = :now',
          ExpressionAttributeValues: { ':now': now },
        },
      },
    ]);
    return { error: tooSoon ? 'slow_down' : 'authorization_pending' };
  }
  // Approved: the device, its token and the login's end, together, once.
  const orgId = login.orgId as string;
  const deviceId = newId('dev_');
  const token = keyItems({ orgId, kind: 'device', scopes: [], name: login.name ?? 'Agent', deviceId });
  const device: DeviceRecord = {
    deviceId,
    orgId,
    userId: login.userId as string,
    name: login.name ?? 'Agent',
    ownerName: login.ownerName ?? null,
    status: 'active',
    ...(login.version ? { version: login.version } : {}),
    ...(login.platform ? { platform: login.platform } : {}),
    capabilities: ['http'],
    networkMode: 'allowlist',
    hosts: [],
    createdAt: now,
    updatedAt: now,
    keyId: token.key.keyId,
    rev: 1,
  };
  try {
    await transact(
      [
        {
          Update: {
            TableName: TABLE(),
            Key: key,
            UpdateExpression: 'SET #status = :issued',
            ConditionExpression: '#status = :approved',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: { ':issued': 'issued', ':approved': 'approved' },
          },
        },
        putNew({ ...deviceKey(orgId, deviceId), ...device }),
        ...token.items,
      ],
      [() => new Error('issued')],
    );
  } catch (err) {
    if ((err as Error).message === 'issued') return { error: 'expired_token' };
    throw err;
  }
  return { token: token.secret, deviceId, orgId };
}

export const listDevices = (orgId: string) => queryPrefix<DeviceRecord>(`ORG#${orgId}`, 'DEVICE#');
export const listRequests = (orgId: string) => queryPrefix<NetworkRequest>(`ORG#${orgId}`, 'NETREQ#');

export async function requireDevice(orgId: string, deviceId: string, consistent = false): Promise<DeviceRecord> {
  const device = await getItem<DeviceRecord>(deviceKey(orgId, deviceId), consistent);
  if (!device) throw notFound(DEVICE_MESSAGES.deviceNotFound);
  return device;
}

/** Writes `fields` on a device as it was read (409 otherwise). */
export async function updateDevice(device: DeviceRecord, fields: Partial<DeviceRecord>): Promise<void> {
  for (const host of fields.hosts ?? []) checkDeviceHost(host);
  const update = fieldUpdate(fields, {
    sets: ['#rev = #rev + :one'],
    names: { '#rev': 'rev' },
    values: { ':rev': device.rev, ':one': 1 },
  });
  await transact(
    [
      {
        Update: {
          TableName: TABLE(),
          Key: deviceKey(device.orgId, device.deviceId),
          ...update,
          ConditionExpression: '#rev = :rev',
        },
      },
    ],
    [DEVICE_MESSAGES.changed],
  );
}

/** Revokes a device and its token in one transaction: its next call is 401. */
export async function revokeDevice(device: DeviceRecord): Promise<void> {
  const stored = await getItem<{ hash: string }>(keys.orgKey(device.orgId, device.keyId), true);
  const revoke = (key: { pk: string; sk: string }) => ({
    Update: {
      TableName: TABLE(),
      Key: key,
      UpdateExpression: 'SET revoked = :yes',
      ExpressionAttributeValues: { ':yes': true },
    },
  });
  await transact([
    {
      Update: {
        TableName: TABLE(),
        Key: deviceKey(device.orgId, device.deviceId),
        UpdateExpression: 'SET #status = :revoked, updatedAt = :now, #rev = #rev + :one',
        ExpressionAttributeNames: { '#status': 'status', '#rev': 'rev' },
        ExpressionAttributeValues: { ':revoked': 'revoked', ':now': Date.now(), ':one': 1 },
      },
    },
    revoke(keys.orgKey(device.orgId, device.keyId)),
    ...(stored ? [revoke(keys.keyHash(stored.hash))] : []),
  ]);
}

/**
 * Files (or refreshes) the device's one pending request for a host. `bySelf`: the device asked
 * (it is marked seen); otherwise a job's `request-access` asked for it.
 */
export async function fileRequest(
  orgId: string,
  deviceId: string,
  host: string,
  reason: string | undefined,
  bySelf: boolean,
): Promise<void> {
  checkDeviceHost(host);
  const now = Date.now();
  const existing = await getItem<NetworkRequest>(requestKey(orgId, deviceId, host), true);
  const request: NetworkRequest = {
    orgId,
    deviceId,
    host,
    status: 'pending',
    ...(reason ? { reason } : {}),
    createdAt: existing?.status === 'pending' ? existing.createdAt : now,
    updatedAt: now,
  };
  await transact([
    { Put: { TableName: TABLE(), Item: { ...requestKey(orgId, deviceId, host), ...request } } },
    // The device must exist; asking for itself, it is marked seen too.
    bySelf
      ? {
          Update: {
            TableName: TABLE(),
            Key: deviceKey(orgId, deviceId),
            UpdateExpression: 'SET lastSeenAt = :now',
            ConditionExpression: 'attribute_exists(pk)',
            ExpressionAttributeValues: { ':now': now },
          },
        }
      : {
          ConditionCheck: {
            TableName: TABLE(),
            Key: deviceKey(orgId, deviceId),
            ConditionExpression: 'attribute_exists(pk)',
          },
        },
  ]);
}

/** A decision on a pending request: `approve` adds the host to the device's allowlist; anything else denies. */
export async function decideRequest(orgId: string, deviceId: string, host: string, approve: boolean): Promise<void> {
  const request = await getItem<NetworkRequest>(requestKey(orgId, deviceId, host), true);
  if (!request) throw notFound(DEVICE_MESSAGES.requestNotFound);
  const device = await requireDevice(orgId, deviceId, true);
  // A request filed before the rule held may name anything: it can be denied, never approved.
  if (approve) checkDeviceHost(host);
  const now = Date.now();
  const hosts = approve && !device.hosts.includes(host) ? [...device.hosts, host] : device.hosts;
  if (hosts.length > MAX_HOSTS) throw conflict(DEVICE_MESSAGES.tooManyHosts);
  await transact(
    [
      {
        Update: {
          TableName: TABLE(),
          Key: requestKey(orgId, deviceId, host),
          UpdateExpression: 'SET #status = :status, updatedAt = :now',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':status': approve ? 'approved' : 'denied', ':now': now },
        },
      },
      {
        Update: {
          TableName: TABLE(),
          Key: deviceKey(orgId, deviceId),
          UpdateExpression: 'SET hosts = :hosts, updatedAt = :now, #rev = #rev + :one',
          ConditionExpression: '#rev = :rev',
          ExpressionAttributeNames: { '#rev': 'rev' },
          ExpressionAttributeValues: { ':hosts': hosts, ':now': now, ':one': 1, ':rev': device.rev },
        },
      },
    ],
    [() => notFound(DEVICE_MESSAGES.requestNotFound), DEVICE_MESSAGES.changed],
  );
}

/** A device's poll marks it seen, with the program's version and platform when it tells them. */
export async function markSeen(device: DeviceRecord, seen: { version?: string; platform?: string }): Promise<void> {
  const now = Date.now();
  await transact([
    {
      Update: {
        TableName: TABLE(),
        Key: deviceKey(device.orgId, device.deviceId),
        UpdateExpression: `SET lastSeenAt = :now${seen.version ? ', #version = :version' : ''}${seen.platform ? ', #platform = :platform' : ''}`,
        ConditionExpression: 'attribute_exists(pk)',
        // DynamoDB refuses an empty name map: present only when a name is used.
        ...(seen.version || seen.platform
          ? {
              ExpressionAttributeNames: {
                ...(seen.version ? { '#version': 'version' } : {}),
                ...(seen.platform ? { '#platform': 'platform' } : {}),
              },
            }
          : {}),
        ExpressionAttributeValues: {
          ':now': now,
          ...(seen.version ? { ':version': seen.version } : {}),
          ...(seen.platform ? { ':platform': seen.platform } : {}),
        },
      },
    },
  ]);
}
