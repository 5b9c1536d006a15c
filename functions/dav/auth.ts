import type { Signed } from '../../shared/domains/dav/places';
import { readEnv } from '../../shared/kernel/ground/env';
import { type Budget, spend } from '../../shared/kernel/http/rate-limits';
import { spendLikeAVerify, verifyAppPassword } from '../../shared/kernel/identity/app-passwords';
import { findUserByEmail } from '../../shared/kernel/identity/users';

/**
 * Sign-in of calendar and contacts programs: HTTP Basic, the person's email as the user name and
 * one of their app passwords (shared/kernel/identity/app-passwords.ts). Wrong attempts are counted
 * per user name and address with the platform's rate limits (shared/kernel/http/rate-limits.ts):
 * past `DAV_SIGNIN_FAILURES` (10) in 5 minutes that pair is answered 429 until the window ends,
 * right password or not, so a password can't be guessed from one place.
 */
export const REALM = 'Basic realm="Platform calendars and contacts", charset="UTF-8"';
const WINDOW_SECONDS = 300;
const failures = () => {
  const n = Number(readEnv('DAV_SIGNIN_FAILURES'));
  return Number.isFinite(n) && n > 0 ? n : 10;
};

/** Pairs refused until (ms): what this function knows between the counts' writes. */
const lockedUntil = new Map<string, number>();

export type SignIn = { signed: Signed } | { status: 401 } | { status: 429; retryAfter: number };

export function basicCredentials(header: string | undefined): { user: string; password: string } | undefined {
  const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '');
  if (!m) return undefined;
  const decoded = Buffer.from(m[1] as string, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  return { user: decoded.slice(0, colon).trim().toLowerCase(), password: decoded.slice(colon + 1) };
}

export async function signIn(header: string | undefined, ip: string, now = Date.now()): Promise<SignIn> {
  const given = basicCredentials(header);
  if (!given?.user || !given.password || given.user.length > 320) return { status: 401 };
  const scope = `dav-signin#${given.user}#${ip}`;
  const until = lockedUntil.get(scope);
  if (until !== undefined) {
    if (until > now) return { status: 429, retryAfter: Math.max(1, Math.ceil((until - now) / 1000)) };
    lockedUntil.delete(scope);
  }
  const user = await findUserByEmail(given.user);
  const password = user ? await verifyAppPassword(user.userId, given.password) : await spendLikeAVerify(given.password);
  if (user && password) {
    return { signed: { userId: user.userId, email: user.email, name: user.name ?? null, password } };
  }
  const budget: Budget = { scope, limit: failures(), windowSeconds: WINDOW_SECONDS };
  const count = spend([budget], now);
  if (count.over || count.remaining === 0) {
    if (lockedUntil.size > 10_000) lockedUntil.clear();
    lockedUntil.set(scope, now + count.reset * 1000);
  }
  if (count.over) return { status: 429, retryAfter: count.reset };
  return { status: 401 };
}
