import { type BucketRef, storage } from '../object-storage';
import type { MetricsPort, Usage } from './port';

/**
 * Counts a bucket's files and bytes, page by page (spec part A "Bucket usage": `{ sizeBytes,
 * objects, at }`), as the local S3 server keeps no storage metrics.
 */
async function countUsage(bucket: BucketRef, now = Date.now()): Promise<Usage> {
  let sizeBytes = 0;
  let objects = 0;
  let token: string | undefined;
  do {
    const page = await storage().listKeys(bucket, '', 1000, token);
    for (const k of page.keys) sizeBytes += k.size;
    objects += page.keys.length;
    token = page.nextToken;
  } while (token);
  return { sizeBytes, objects, at: now };
}

export function localMetrics(): MetricsPort {
  return { bucketUsage: countUsage };
}
