import { CUSTOMER_BUCKET_PREFIX } from '../../shared/config';
import { describeError, log } from '../../shared/http/log';
import { type BucketRef, computeUsage, storage } from '../../shared/storage';

/**
 * The daily bucket usage job (a schedule, not an HTTP route): counts every customer bucket's files
 * and bytes and keeps them as the bucket's latest `usage`. Until it has run once, the storage
 * routes answer `usage: null`. `buckets` (names) limits a run to those buckets.
 *
 * Counting lists the bucket page by page on both targets, so the storage function's bundle stays
 * free of a metrics client; on AWS, S3's daily CloudWatch metrics (BucketSizeBytes,
 * NumberOfObjects) can replace the count here without touching the routes.
 */
export async function handler(event: { buckets?: string[] } = {}): Promise<{ measured: number; failed: number }> {
  const all = await storage.listBuckets(CUSTOMER_BUCKET_PREFIX);
  const wanted = event.buckets ? new Set(event.buckets) : undefined;
  const buckets: BucketRef[] = wanted ? all.filter((b) => wanted.has(b.name)) : all;
  let measured = 0;
  let failed = 0;
  for (const bucket of buckets) {
    try {
      await computeUsage(bucket);
      measured++;
    } catch (err) {
      // One bucket (deleted meanwhile, say) does not stop the others.
      failed++;
      log.warn('bucket usage failed', { bucket: bucket.name, error: describeError(err) });
    }
  }
  log.info('bucket usage measured', { measured, failed });
  return { measured, failed };
}
