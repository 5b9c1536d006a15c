import { notFound } from '../ground/errors';
import { newId, newSecret } from '../store/ids';
import { PREFIXES } from '../store/keys';
import { queryPrefix, transact } from '../store/ops';
import { getItem, keys, putNew, TABLE, userPk } from '../store/table';
import {
  answerDeviceCode,
  DEVICE_CODE_MESSAGES,
  findUserCode,
  ISSUED_ALREADY,
  type PollError,
  pollDeviceCode,
  startDeviceCode,
} from './device-codes';
import { hashSecret, KEY_PREFIX, type SessionRecord } from './key-secrets';

/**
 * People's sessions of the command line (`platform login`, as `gh auth login`): a device code of
 * kind `person` (./device-codes.ts) that the person approves while signed in; the token request
 * then issues an `app_ses_` token that acts as that person, as the identity provider's tokens
 * do: what it may do in an organization is the person's current role there, read at each request.
 * It lasts 90 days; the person lists and revokes their sessions (`/v1/me/sessions`).
 *
 * A session is two items: by the hash of its token (`KEYHASH#…`, what authentication reads, as
 * for keys) and under its person (`USER#<userId>`, `SESSION#<sessionId>`, with the hash), written
 * together with the code's `issued` state, so the token is shown once.
 */

export const SESSION_DAYS = 90;
export const SESSION_MESSAGES = {
  ...DEVICE_CODE_MESSAGES,
  peopleOnly: 'Only people can approve a login.',
  sessionNotFound: 'Session not found',
} as const;

const sessionKey = (userId: string, sessionId: string) => ({
  pk: userPk(userId),
  sk: `${PREFIXES.identity.session}${sessionId}`,
});

/** Starts a person's login: the device code for the command line, the user code for the person. */
export const startSessionLogin = (program: { name?: string; platform?: string; version?: string }) =>
  startDeviceCode('person', program);

/** What a person is asked to approve for a user code, for the approval page; undefined when unknown. */
export async function pendingSessionLogin(typed: string) {
  const found = await findUserCode(typed, 'person');
  if (!found) return undefined;
  const { userCode, name, platform, status } = found.login;
  return { userCode, name, platform, status };
}

/** The person's answer to a user code of a login: approved, the command line becomes them. */
export async function answerSessionLogin(
  person: { userId: string; email?: string; name?: string },
  typed: string,
  approve: boolean,
): Promise<void> {
  const found = await findUserCode(typed, 'person');
  if (!found) throw notFound(SESSION_MESSAGES.codeNotFound);
  await answerDeviceCode(
    found,
    { userId: person.userId, email: person.email ?? null, ownerName: person.name ?? null },
    approve,
  );
}

/** RFC 8628's answers while a login waits; the session's token once it was approved (once). */
export async function sessionToken(
  deviceCode: string,
): Promise<PollError | { token: string; sessionId: string; expiresAt: number }> {
  const polled = await pollDeviceCode(deviceCode, 'person');
  if ('error' in polled) return polled;
  const { login } = polled;
  const token = newSecret(KEY_PREFIX.session);
  const hash = hashSecret(token);
  const now = Date.now();
  const session: SessionRecord = {
    kind: 'session',
    sessionId: newId('ses_'),
    userId: login.userId as string,
    email: login.email ?? null,
    name: login.ownerName ?? null,
    label: login.name ?? 'platform CLI',
    createdAt: now,
    expiresAt: now + SESSION_DAYS * 24 * 3600 * 1000,
  };
  const ttl = Math.ceil(session.expiresAt / 1000) + 24 * 3600;
  try {
    await transact(
      [
        polled.issued,
        putNew({ ...keys.keyHash(hash), ...session, ttl }),
        putNew({ ...sessionKey(session.userId, session.sessionId), ...session, hash, ttl }),
      ],
      [ISSUED_ALREADY],
    );
  } catch (err) {
    if ((err as Error).message === ISSUED_ALREADY().message) return { error: 'expired_token' };
    throw err;
  }
  return { token, sessionId: session.sessionId, expiresAt: session.expiresAt };
}

/** A person's sessions, newest first (never their tokens). */
export async function listSessions(userId: string) {
  const all = await queryPrefix<SessionRecord & { hash: string }>(userPk(userId), PREFIXES.identity.session);
  return all
    .filter((s) => s.expiresAt > Date.now())
    .sort((a, b) => b.createdAt - a.createdAt)
    .map(({ sessionId, label, createdAt, expiresAt }) => ({ sessionId, label, createdAt, expiresAt }));
}

/** Ends one of the person's sessions: its token stops working at once. */
export async function revokeSession(userId: string, sessionId: string): Promise<void> {
  const stored = await getItem<SessionRecord & { hash: string }>(sessionKey(userId, sessionId), true);
  if (!stored) throw notFound(SESSION_MESSAGES.sessionNotFound);
  await transact([
    { Delete: { TableName: TABLE(), Key: sessionKey(userId, sessionId) } },
    { Delete: { TableName: TABLE(), Key: keys.keyHash(stored.hash) } },
  ]);
}
