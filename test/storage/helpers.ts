import { createHash, createHmac, randomBytes } from 'node:crypto';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { CUSTOMER_BUCKET_PREFIX } from '../../shared/config';
import type { Resource } from '../../shared/schemas/resource';
import { type BucketRef, storage } from '../../shared/storage';
import { putRecord, someId } from '../helpers/records';

/**
 * A bucket resource as the resources group would leave it: the bucket made through the storage
 * port, the record written straight into the table (this group does not create buckets).
 */
export async function newBucket(
  orgId: string,
  createdBy = 'usr_test',
): Promise<{ resource: Resource; ref: BucketRef }> {
  const resourceId = someId('res_');
  const name = `${CUSTOMER_BUCKET_PREFIX}t-${randomBytes(6).toString('hex')}`;
  await storage.createBucket(name);
  const resource: Resource = {
    resourceId,
    type: 'bucket',
    name: `files-${randomBytes(3).toString('hex')}`,
    status: 'active',
    createdAt: Date.now(),
    region: 'eu-central-1',
    orgId,
    createdBy,
    location: 'fra',
    physicalName: name,
    version: 1,
  };
  await putRecord(orgId, `RES#bucket#${resourceId}`, { ...resource });
  return { resource, ref: { name, region: resource.region } };
}

/** The local S3 server, for arranging files that a test does not upload through a link. */
export const s3 = new S3Client({
  region: 'eu-central-1',
  endpoint: process.env.AWS_ENDPOINT_URL_S3,
  forcePathStyle: true,
  credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
});

export async function putFiles(bucket: string, keys: string[], body = 'x', concurrency = 24): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < keys.length) {
      const key = keys[next++] as string;
      await s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body }));
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, keys.length) }, worker));
}

const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data).digest();
const rfc3986 = (s: string) =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * The signature S3 computes for a request made with a presigned link (SigV4, query auth), given
 * the headers the request really sends. S3 refuses the request when it differs from the link's
 * `X-Amz-Signature`. (The local S3 server checks a link's expiry but not its signature, so the
 * tests check the binding this way.)
 */
export function signatureFor(link: string, method: string, headers: Record<string, string>, secret = 'S3RVER'): string {
  const url = new URL(link);
  const q = url.searchParams;
  const signed = (q.get('X-Amz-SignedHeaders') ?? '').split(';');
  const all: Record<string, string> = { host: url.host };
  for (const [k, v] of Object.entries(headers)) all[k.toLowerCase()] = v;
  const query = [...q.entries()]
    .filter(([k]) => k !== 'X-Amz-Signature')
    .map(([k, v]) => [rfc3986(k), rfc3986(v)])
    .sort(([a], [b]) => ((a as string) < (b as string) ? -1 : 1))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  const canonical = [
    method,
    url.pathname,
    query,
    ...signed.map((h) => `${h}:${(all[h] ?? '').trim()}`),
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
  let key: Buffer = hmac(`AWS4${secret}`, date as string);
  for (const part of [region, service, 'aws4_request']) key = hmac(key, part as string);
  return hmac(key, toSign).toString('hex');
}
