import { createHash, randomBytes, randomInt } from 'node:crypto';
import { conflict } from '../ground/errors';
import { PREFIXES } from '../store/keys';
import { transact } from '../store/ops';
import { getItem, putNew, TABLE } from '../store/table';

/**
 * Device codes (RFC 8628, as `gh auth login`): a program without a browser shows a user code, a
 * person signed in elsewhere approves it, the program asks for its token every `interval` seconds.
 * Two kinds share them: an agent device's login (shared/domains/agents/devices.ts, approved in an
 * organization) and a person's `platform login` (./sessions.ts, approved by the person).
 *
 * A code is two items: the login by the hash of its device code (`DEVLOGIN#…`; the code itself is
 * never stored) and its user code (`USERCODE#…`), both gone 15 minutes on (TTL). The token request
 * after the approval writes what the kind issues together with the login's `issued` state (the
 * `issued` item below, in the issuer's transaction), so a token is shown once.
 */
export type DeviceCodeKind = 'agent' | 'person';

export interface DeviceCodeRecord {
  /** Unset on codes made before people could log in: agents'. */
  kind?: DeviceCodeKind;
  userCode: string;
  status: 'pending' | 'approved' | 'denied' | 'issued';
  expiresAt: number;
  interval: number;
  lastPollAt?: number;
  /** What the program says it is. */
  name?: string;
  platform?: string;
  version?: string;
  /** An agent program's asked capabilities (`--allow-exec`): the approver grants them with the login. */
  capabilities?: string[];
  /** Who answered (and for an agent, in which organization). */
  userId?: string;
  orgId?: string;
  ownerName?: string | null;
  email?: string | null;
}

export const DEVICE_CODE_MESSAGES = {
  codeNotFound: 'That code is unknown or expired. Start the login on the device again.',
  codeUsed: 'That code was already used.',
} as const;

/** RFC 8628 values: how long a code waits, how often the program may ask. */
export const CODE_SECONDS = 15 * 60;
export const CODE_INTERVAL = 5;

type Key = { pk: string; sk: string };
type TransactItem = NonNullable<Parameters<typeof transact>[0]>[number];
const loginKey = (deviceCode: string): Key => ({
  pk: `${PREFIXES.identity.deviceLogin}${createHash('sha256').update(deviceCode).digest('hex')}`,
  sk: 'LOGIN',
});
const userCodeKey = (userCode: string) => ({ pk: `${PREFIXES.identity.userCode}${userCode}`, sk: 'CODE' });

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

/** Starts a code of `kind`: its device code (for the program) and user code (for the person). */
export async function startDeviceCode(
  kind: DeviceCodeKind,
  program: { name?: string; platform?: string; version?: string; capabilities?: string[] },
) {
  const deviceCode = randomBytes(32).toString('base64url');
  const expiresAt = Date.now() + CODE_SECONDS * 1000;
  const ttl = Math.ceil(expiresAt / 1000) + 3600;
  for (let attempt = 0; ; attempt++) {
    const userCode = newUserCode();
    const login: DeviceCodeRecord = {
      kind,
      userCode,
      status: 'pending',
      expiresAt,
      interval: CODE_INTERVAL,
      ...program,
    };
    try {
      await transact(
        [
          putNew({ ...loginKey(deviceCode), ...login, ttl }),
          putNew({ ...userCodeKey(userCode), login: loginKey(deviceCode).pk, expiresAt, ttl }),
        ],
        [undefined, () => new Error('user code taken')],
      );
      return { deviceCode, userCode, expiresIn: CODE_SECONDS, interval: CODE_INTERVAL };
    } catch (err) {
      if ((err as Error).message !== 'user code taken' || attempt >= 5) throw err;
    }
  }
}

/** The code of `kind` a typed user code names (not expired), with its key; undefined otherwise. */
export async function findUserCode(
  typed: string,
  kind: DeviceCodeKind,
): Promise<{ key: Key; login: DeviceCodeRecord } | undefined> {
  const code = normalUserCode(typed);
  const held = code ? await getItem<{ login: string; expiresAt: number }>(userCodeKey(code), true) : undefined;
  if (!held || held.expiresAt <= Date.now()) return undefined;
  const key = { pk: held.login, sk: 'LOGIN' };
  const login = await getItem<DeviceCodeRecord>(key, true);
  if (!login || login.expiresAt <= Date.now() || (login.kind ?? 'agent') !== kind) return undefined;
  return { key, login };
}

/** A person's answer to a found code, once: `answer` (who, where) is kept for the token request. */
export async function answerDeviceCode(
  found: { key: Key; login: DeviceCodeRecord },
  answer: Pick<DeviceCodeRecord, 'userId' | 'orgId' | 'ownerName' | 'email'>,
  approve: boolean,
): Promise<void> {
  if (found.login.status !== 'pending') throw conflict(DEVICE_CODE_MESSAGES.codeUsed);
  const fields = Object.entries(answer).filter(([, v]) => v !== undefined);
  await transact(
    [
      {
        Update: {
          TableName: TABLE(),
          Key: found.key,
          UpdateExpression: `SET #status = :next${fields.map(([name]) => `, #${name} = :${name}`).join('')}`,
          ConditionExpression: '#status = :pending',
          ExpressionAttributeNames: {
            '#status': 'status',
            ...Object.fromEntries(fields.map(([name]) => [`#${name}`, name])),
          },
          ExpressionAttributeValues: {
            ':next': approve ? 'approved' : 'denied',
            ':pending': 'pending',
            ...Object.fromEntries(fields.map(([name, value]) => [`:${name}`, value])),
          },
        },
      },
    ],
    [DEVICE_CODE_MESSAGES.codeUsed],
  );
}

/** RFC 8628's answers while a code waits. */
export type PollError = { error: 'authorization_pending' | 'slow_down' | 'expired_token' | 'access_denied' };

/**
 * A token request of a code of `kind`: RFC 8628's error while it waits (noting the time, for
 * `slow_down`), or the approved login and `issued`, the item that ends it in the issuer's
 * transaction (its condition fails when another request issued first: then `expired_token`).
 */
export async function pollDeviceCode(
  deviceCode: string,
  kind: DeviceCodeKind,
): Promise<PollError | { login: DeviceCodeRecord; issued: TransactItem }> {
  const key = loginKey(deviceCode);
  const login = await getItem<DeviceCodeRecord>(key, true);
  const now = Date.now();
  if (!login || login.expiresAt <= now || login.status === 'issued' || (login.kind ?? 'agent') !== kind) {
    return { error: 'expired_token' };
  }
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
  return {
    login,
    issued: {
      Update: {
        TableName: TABLE(),
        Key: key,
        UpdateExpression: 'SET #status = :issued',
        ConditionExpression: '#status = :approved',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':issued': 'issued', ':approved': 'approved' },
      },
    },
  };
}

/** The marker an issuer's transaction throws when the code's `issued` item failed its condition. */
export const ISSUED_ALREADY = () => new Error('issued');
