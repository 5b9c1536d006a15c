import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data).digest();
const rfc3986 = (s: string) =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * The signature S3 computes for a request made with a presigned link (SigV4, query auth), given
 * the headers the request really sends (`host` included or taken from the link). S3 refuses the
 * request when it differs from the link's `X-Amz-Signature`. The local S3 server does not check
 * V4 signatures, so lib/local/s3-server.ts checks presigned links with this in front of it.
 */
export function presignedSignature(
  link: string,
  method: string,
  headers: Record<string, string | string[] | undefined>,
  secret: string,
): string {
  const url = new URL(link);
  const q = url.searchParams;
  const signed = (q.get('X-Amz-SignedHeaders') ?? '').split(';');
  const all: Record<string, string> = { host: url.host };
  for (const [k, v] of Object.entries(headers)) if (v !== undefined) all[k.toLowerCase()] = String(v);
  const unsigned = new URLSearchParams([...q.entries()].filter(([k]) => k !== 'X-Amz-Signature'));
  const query = canonicalQuery(unsigned);
  const canonical = [
    method.toUpperCase(),
    url.pathname,
    query,
    ...signed.map((h) => `${h}:${(all[h] ?? '').trim().replace(/\s+/g, ' ')}`),
    '',
    signed.join(';'),
    q.get('X-Amz-Content-Sha256') ?? 'UNSIGNED-PAYLOAD',
  ].join('\n');
  const [, date, region, service] = (q.get('X-Amz-Credential') ?? '').split('/');
  const scope = `${date}/${region}/${service}/aws4_request`;
  const toSign = [
    'AWS4-HMAC-SHA256',
    q.get('X-Amz-Date'),
    scope,
    createHash('sha256').update(canonical).digest('hex'),
  ].join('\n');
  let key: Buffer = hmac(`AWS4${secret}`, date ?? '');
  for (const part of [region, service, 'aws4_request']) key = hmac(key, part ?? '');
  return hmac(key, toSign).toString('hex');
}

/**
 * Compares a signature a request gave with the one computed in constant time: the engines listen
 * on loopback beside tenant code, which could otherwise time its guesses byte by byte.
 */
export function sameSignature(given: string | null | undefined, expected: string): boolean {
  const a = Buffer.from(given ?? '');
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The platform's key pair for its local engines (lib/local/credentials.ts). */
export interface EngineCredentials {
  accessKeyId: string;
  secretAccessKey: string;
}

/** Why a request was refused, in the words of the service's own error. */
export type AuthFailure = 'missing' | 'unknown-key' | 'mismatch' | 'skewed';

/** How far a request's `x-amz-date` may be from now, as AWS allows. */
const MAX_SKEW_MS = 15 * 60_000;

function canonicalQuery(search: URLSearchParams): string {
  return [...search.entries()]
    .map(([k, v]) => [rfc3986(k), rfc3986(v)] as const)
    .sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
}

const amzDate = (value: string) =>
  Date.parse(value.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, '$1-$2-$3T$4:$5:$6Z'));

/**
 * Checks a request signed with SigV4 in its `Authorization` header, as AWS does: the key is the
 * platform's, the date is within 15 minutes, and the signature over the canonical request (method,
 * path as sent, sorted query, the signed headers, the payload hash) matches. The payload hash is
 * `x-amz-content-sha256` when sent (S3), else the SHA-256 of `body` (DynamoDB's JSON).
 */
export function verifyHeaderSignature(
  request: { method: string; url: string; headers: Record<string, string | string[] | undefined>; body?: Buffer },
  credentials: EngineCredentials,
  now = Date.now(),
): AuthFailure | undefined {
  const auth = request.headers.authorization;
  if (typeof auth !== 'string' || !auth.startsWith('AWS4-HMAC-SHA256 ')) return 'missing';
  const fields = Object.fromEntries(
    auth
      .slice('AWS4-HMAC-SHA256 '.length)
      .split(',')
      .map((part) => part.trim().split('=') as [string, string]),
  ) as Record<string, string | undefined>;
  const [accessKeyId, date, region, service, terminal] = (fields.Credential ?? '').split('/');
  if (accessKeyId !== credentials.accessKeyId) return 'unknown-key';
  const header = (name: string) => {
    const v = request.headers[name];
    return Array.isArray(v) ? v.join(',') : (v ?? '');
  };
  const stamp = header('x-amz-date');
  const at = amzDate(stamp);
  if (!Number.isFinite(at)) return 'mismatch';
  if (Math.abs(now - at) > MAX_SKEW_MS) return 'skewed';
  const signed = (fields.SignedHeaders ?? '').split(';');
  if (!signed.includes('host') || terminal !== 'aws4_request' || !stamp.startsWith(date ?? '-')) return 'mismatch';
  // The path exactly as sent (a URL object would resolve `.` and `..` segments the client signed).
  const [path = '/', query = ''] = request.url.split(/\?(.*)/s);
  const payload =
    header('x-amz-content-sha256') ||
    createHash('sha256')
      .update(request.body ?? Buffer.alloc(0))
      .digest('hex');
  const canonical = [
    request.method.toUpperCase(),
    path,
    canonicalQuery(new URLSearchParams(query)),
    ...signed.map((h) => `${h}:${header(h).trim().replace(/\s+/g, ' ')}`),
    '',
    signed.join(';'),
    payload,
  ].join('\n');
  const scope = `${date}/${region}/${service}/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', stamp, scope, createHash('sha256').update(canonical).digest('hex')].join('\n');
  let key: Buffer = hmac(`AWS4${credentials.secretAccessKey}`, date ?? '');
  for (const part of [region, service, 'aws4_request']) key = hmac(key, part ?? '');
  const expected = hmac(key, toSign).toString('hex');
  return sameSignature(fields.Signature, expected) ? undefined : 'mismatch';
}
