import { createHash, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { conflict, notFound } from '../ground/errors';
import { db } from '../store/client';
import { DeleteCommand, UpdateCommand } from '../store/commands';
import { newId } from '../store/ids';
import { PREFIXES } from '../store/keys';
import { putOnce, queryPrefix } from '../store/ops';
import { getItem, TABLE, userPk } from '../store/table';

/**
 * A person's app passwords: what calendar and contacts programs (CalDAV, CardDAV: Apple Calendar,
 * Thunderbird, DAVx⁵, vdirsyncer) sign in with, over HTTP Basic with the person's email as the
 * user name. Each is scoped (`calendars`, `contacts`), read-only or read-write, shown once when
 * created, listed by name with when it was made and last used, and revoked one by one.
 *
 * A password is `<passwordId>.<secret>`: the id finds its record (`USER#<userId>`,
 * `APPPW#<passwordId>`), the secret is kept as scrypt of it under a salt of its own, compared in
 * constant time. A verified password's scrypt is remembered in memory (by the hash of what was
 * presented and the stored hash), so a program's many requests cost one scrypt; the record is read
 * at each request, so a revoked password stops at once.
 */
export const APP_PASSWORD_SCOPES = ['calendars', 'contacts'] as const;
export type AppPasswordScope = (typeof APP_PASSWORD_SCOPES)[number];
export const APP_PASSWORD_ACCESS = ['read', 'readwrite'] as const;
export type AppPasswordAccess = (typeof APP_PASSWORD_ACCESS)[number];
export const MAX_APP_PASSWORDS = 25;
/** How often `lastUsedAt` is written at most (a program syncs many times an hour). */
const LAST_USED_EVERY_MS = 60_000;

export const APP_PASSWORD_MESSAGES = {
  peopleOnly: 'Only people have app passwords.',
  notFound: 'App password not found',
  tooMany: `A person can have at most ${MAX_APP_PASSWORDS} app passwords: revoke one first.`,
} as const;

export interface AppPasswordRecord {
  passwordId: string;
  userId: string;
  name: string;
  scopes: AppPasswordScope[];
  access: AppPasswordAccess;
  createdAt: number;
  lastUsedAt: number | null;
  /** scrypt of the secret (hex) under `salt` (hex). */
  hash: string;
  salt: string;
}

export type ShownAppPassword = Omit<AppPasswordRecord, 'hash' | 'salt' | 'userId'>;

const keyOf = (userId: string, passwordId: string) => ({
  pk: userPk(userId),
  sk: `${PREFIXES.identity.appPassword}${passwordId}`,
});
const ID = /^apw_[0-9a-z]{26}$/;

export const shownAppPassword = (r: AppPasswordRecord): ShownAppPassword => ({
  passwordId: r.passwordId,
  name: r.name,
  scopes: r.scopes,
  access: r.access,
  createdAt: r.createdAt,
  lastUsedAt: r.lastUsedAt ?? null,
});

const scryptHex = (secret: string, salt: string) =>
  new Promise<string>((resolve, reject) =>
    scrypt(secret, Buffer.from(salt, 'hex'), 32, { N: 16384, r: 8, p: 1 }, (err, key) =>
      err ? reject(err) : resolve(key.toString('hex')),
    ),
  );

/** Makes an app password: its record, and the password itself (answered once, never stored). */
export async function createAppPassword(
  userId: string,
  input: { name: string; scopes: AppPasswordScope[]; access: AppPasswordAccess },
): Promise<{ appPassword: ShownAppPassword; password: string }> {
  const existing = await queryPrefix<AppPasswordRecord>(userPk(userId), PREFIXES.identity.appPassword);
  if (existing.length >= MAX_APP_PASSWORDS) throw conflict(APP_PASSWORD_MESSAGES.tooMany);
  const passwordId = newId('apw_');
  const secret = randomBytes(24).toString('base64url');
  const salt = randomBytes(16).toString('hex');
  const record: AppPasswordRecord = {
    passwordId,
    userId,
    name: input.name,
    scopes: [...new Set(input.scopes)].sort() as AppPasswordScope[],
    access: input.access,
    createdAt: Date.now(),
    lastUsedAt: null,
    hash: await scryptHex(secret, salt),
    salt,
  };
  await putOnce({ Item: { ...keyOf(userId, passwordId), ...record }, ConditionExpression: 'attribute_not_exists(pk)' });
  return { appPassword: shownAppPassword(record), password: `${passwordId}.${secret}` };
}

/** The person's app passwords, newest first (never their secrets). */
export async function listAppPasswords(userId: string): Promise<ShownAppPassword[]> {
  const all = await queryPrefix<AppPasswordRecord>(userPk(userId), PREFIXES.identity.appPassword);
  return all.sort((a, b) => b.createdAt - a.createdAt).map(shownAppPassword);
}

/** Revokes one of the person's app passwords: it stops working at once. */
export async function revokeAppPassword(userId: string, passwordId: string): Promise<void> {
  try {
    await db.send(
      new DeleteCommand({
        TableName: TABLE(),
        Key: keyOf(userId, passwordId),
        ConditionExpression: 'attribute_exists(pk)',
      }),
    );
  } catch (err) {
    if ((err as Error).name === 'ConditionalCheckFailedException') throw notFound(APP_PASSWORD_MESSAGES.notFound);
    throw err;
  }
}

/**
 * The work of a verify, for a password that names no record (or a person who is not one): an
 * answer as slow as a wrong password's, so timing tells nothing of which passwords exist.
 */
export async function spendLikeAVerify(presented: string): Promise<undefined> {
  await scryptHex(presented, '00'.repeat(16));
  return undefined;
}

/** Verified presentations: sha256(presented) → the stored hash it matched. */
const verified = new Map<string, string>();

/**
 * The app password `presented` is, for the person `userId`, or undefined (unknown, revoked,
 * another person's, wrong). Marks it used (at most once a minute).
 */
export async function verifyAppPassword(userId: string, presented: string): Promise<AppPasswordRecord | undefined> {
  const dot = presented.indexOf('.');
  const passwordId = presented.slice(0, dot);
  if (dot < 0 || !ID.test(passwordId) || presented.length > 200) return undefined;
  const record = await getItem<AppPasswordRecord>(keyOf(userId, passwordId), true);
  if (!record) return spendLikeAVerify(presented);
  const seen = createHash('sha256').update(presented).digest('hex');
  if (verified.get(seen) !== record.hash) {
    const hash = await scryptHex(presented.slice(dot + 1), record.salt);
    const a = Buffer.from(hash, 'hex');
    const b = Buffer.from(record.hash, 'hex');
    if (a.length !== b.length || !timingSafeEqual(a, b)) return undefined;
    if (verified.size > 1000) verified.clear();
    verified.set(seen, record.hash);
  }
  const now = Date.now();
  if (!record.lastUsedAt || now - record.lastUsedAt > LAST_USED_EVERY_MS) {
    await db
      .send(
        new UpdateCommand({
          TableName: TABLE(),
          Key: keyOf(userId, passwordId),
          UpdateExpression: 'SET lastUsedAt = :now',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':now': now },
        }),
      )
      .catch(() => undefined); // Revoked meanwhile, or a failed write: using it still works.
    record.lastUsedAt = now;
  }
  return record;
}
