import { conflict, invalid, notFound } from '../../kernel/ground/errors';
import {
  answerDeviceCode,
  CODE_INTERVAL,
  CODE_SECONDS,
  DEVICE_CODE_MESSAGES,
  type DeviceCodeRecord,
  findUserCode,
  ISSUED_ALREADY,
  type PollError,
  pollDeviceCode,
  startDeviceCode,
} from '../../kernel/identity/device-codes';
import { keyItems } from '../../kernel/identity/keys';
import { hostProblem, testAllowed } from '../../kernel/net/guarded-fetch';
import { newId } from '../../kernel/store/ids';
import { PREFIXES } from '../../kernel/store/keys';
import { queryPrefix, transact } from '../../kernel/store/ops';
import { fieldUpdate, getItem, keys, orgPk, putNew, TABLE } from '../../kernel/store/table';
import type { DeviceRecord, NetworkRequest } from './record-schemas';

/**
 * Self-hosted agent devices (the agents and agent-device groups): the device login that makes
 * them (RFC 8628, as `gh auth login`), their records and their network requests.
 *
 * A device login is a device code (shared/kernel/identity/device-codes.ts) of kind `agent`: a
 * person of the organization approves the user code; the next token request writes the device,
 * its `app_dev_` token and the login's `issued` state in one transaction, so the token is shown
 * once. A device record's own field `version` is the agent program's, so its writes are
 * conditional on `rev`.
 */
export type { DeviceRecord } from './record-schemas';
export type Capability = DeviceRecord['capabilities'][number];

export const DEVICE_MESSAGES = {
  deviceNotFound: 'Device not found',
  requestNotFound: 'Request not found',
  ownerOnly: "Only the device's owner can add capabilities or allow full network access.",
  codeNotFound: DEVICE_CODE_MESSAGES.codeNotFound,
  codeUsed: DEVICE_CODE_MESSAGES.codeUsed,
  peopleOnly: 'Only people can approve a device.',
  changed: 'The device changed. Reload and try again.',
  tooManyHosts: 'A device allows 200 hosts at most. Remove some first.',
  badHost: (host: string) =>
    `${host} can't be allowed: a device allows public hostnames of two labels or more, optionally starting with *.`,
} as const;

/** RFC 8628 values: how long a login waits, how often the device may ask. */
export const LOGIN_SECONDS = CODE_SECONDS;
export const LOGIN_INTERVAL = CODE_INTERVAL;
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

const deviceKey = (orgId: string, deviceId: string) => ({
  pk: orgPk(orgId),
  sk: `${PREFIXES.agents.device}${deviceId}`,
});
const requestKey = (orgId: string, deviceId: string, host: string) => ({
  pk: orgPk(orgId),
  sk: `${PREFIXES.agents.networkRequest}${deviceId}#${host}`,
});
/** A device's capabilities: always `http`, then what else is asked, once each, in one order. */
const capabilitiesOf = (asked: readonly string[] = []): Capability[] =>
  (['http', 'browser', 'exec'] as const).filter((c) => c === 'http' || asked.includes(c));

/**
 * Starts a device login: its device code (for the device) and user code (for the person). The
 * program may ask for more than `http` (`--allow-exec`): the person who approves the login becomes
 * the device's owner, who alone may add capabilities, so approving it grants them.
 */
export const startLogin = (device: {
  name?: string;
  platform?: string;
  version?: string;
  capabilities?: Capability[];
}) =>
  startDeviceCode('agent', {
    ...device,
    ...(device.capabilities ? { capabilities: capabilitiesOf(device.capabilities) } : {}),
  });

/**
 * What a person is asked to approve for a user code (the device's name and system), for the page
 * where they answer it; undefined for an unknown or expired code. Never the device code.
 */
export async function pendingLogin(typed: string): Promise<
  | {
      userCode: string;
      name?: string;
      platform?: string;
      capabilities: Capability[];
      status: DeviceCodeRecord['status'];
    }
  | undefined
> {
  const found = await findUserCode(typed, 'agent');
  if (!found) return undefined;
  const { userCode, name, platform, status, capabilities } = found.login;
  return { userCode, name, platform, capabilities: capabilitiesOf(capabilities), status };
}

/** A person's answer to a user code: the device will be theirs, in `orgId`. */
export async function answerLogin(
  orgId: string,
  person: { userId: string; name: string | null },
  typed: string,
  approve: boolean,
): Promise<void> {
  const found = await findUserCode(typed, 'agent');
  if (!found) throw notFound(DEVICE_MESSAGES.codeNotFound);
  await answerDeviceCode(found, { orgId, userId: person.userId, ownerName: person.name }, approve);
}

/** RFC 8628's answers while a login waits; the token once it was approved. */
export type TokenAnswer = PollError | { token: string; deviceId: string; orgId: string };

export async function loginToken(deviceCode: string): Promise<TokenAnswer> {
  const polled = await pollDeviceCode(deviceCode, 'agent');
  if ('error' in polled) return polled;
  // Approved: the device, its token and the login's end, together, once.
  const { login } = polled;
  const now = Date.now();
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
    capabilities: capabilitiesOf(login.capabilities),
    networkMode: 'allowlist',
    hosts: [],
    createdAt: now,
    updatedAt: now,
    keyId: token.key.keyId,
    rev: 1,
  };
  try {
    await transact(
      [polled.issued, putNew({ ...deviceKey(orgId, deviceId), ...device }), ...token.items],
      [ISSUED_ALREADY],
    );
  } catch (err) {
    if ((err as Error).message === ISSUED_ALREADY().message) return { error: 'expired_token' };
    throw err;
  }
  return { token: token.secret, deviceId, orgId };
}

export const listDevices = (orgId: string) => queryPrefix<DeviceRecord>(orgPk(orgId), PREFIXES.agents.device);
export const listRequests = (orgId: string) =>
  queryPrefix<NetworkRequest>(orgPk(orgId), PREFIXES.agents.networkRequest);

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
