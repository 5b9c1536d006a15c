import { createHmac, timingSafeEqual } from 'node:crypto';
import { readEnv } from '../ground/env';
import { invalid } from '../ground/errors';

export const INVALID_CURSOR = 'Invalid page cursor. Run the request again.';

function secret(): string {
  const s = readEnv('CURSOR_SECRET');
  if (!s) throw new Error('CURSOR_SECRET is not set');
  return s;
}

function mac(scope: string, payload: string): Buffer {
  return createHmac('sha256', secret()).update(scope).update('\0').update(payload).digest();
}

/**
 * An opaque page cursor: the last evaluated key as base64url JSON, signed with HMAC-SHA256 over
 * the list's scope (tenant and list, e.g. `org_1:deployments`). A cursor made by hand, altered,
 * or issued for another scope is refused with 400.
 */
export function encodeCursor(scope: string, key: Record<string, unknown> | undefined): string | null {
  if (!key) return null;
  const payload = Buffer.from(JSON.stringify(key)).toString('base64url');
  return `${payload}.${mac(scope, payload).toString('base64url')}`;
}

export function decodeCursor<T = Record<string, unknown>>(scope: string, cursor: string | undefined): T | undefined {
  if (cursor === undefined || cursor === '') return undefined;
  const [payload, sig, extra] = cursor.split('.');
  if (!payload || !sig || extra !== undefined) throw invalid(INVALID_CURSOR);
  const given = Buffer.from(sig, 'base64url');
  const expected = mac(scope, payload);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalid(INVALID_CURSOR);
  try {
    const value = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('not an object');
    return value as T;
  } catch {
    throw invalid(INVALID_CURSOR);
  }
}
