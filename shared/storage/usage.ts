import type { BucketRef, StoragePort } from './index';
import { setBucketFields, type Usage } from './records';

/**
 * Counts a bucket's files and bytes, page by page, and keeps the figures as the bucket's latest
 * usage (`{ sizeBytes, objects, at }`, spec part A "Bucket usage"). Run once a day by the usage
 * worker; until it has run, a bucket's `usage` is null.
 */
export async function measureUsage(port: StoragePort, bucket: BucketRef, now = Date.now()): Promise<Usage> {
  let sizeBytes = 0;
  let objects = 0;
  let token: string | undefined;
  do {
    const page = await port.listKeys(bucket, '', 1000, token);
    for (const k of page.keys) sizeBytes += k.size;
    objects += page.keys.length;
    token = page.nextToken;
  } while (token);
  const usage: Usage = { sizeBytes, objects, at: now };
  await setBucketFields(bucket.name, { usage });
  return usage;
}
