import { createHash, createHmac } from 'node:crypto';

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
  const query = [...q.entries()]
    .filter(([k]) => k !== 'X-Amz-Signature')
    .map(([k, v]) => [rfc3986(k), rfc3986(v)] as const)
    .sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : 1))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
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
