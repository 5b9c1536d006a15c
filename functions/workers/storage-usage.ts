import { CUSTOMER_BUCKET_PREFIX, config } from '../../shared/config';
import { describeError, log } from '../../shared/ground/log';
import { type BucketRef, computeUsage, storage } from '../../shared/storage';
import { storeBucketMetrics } from '../../shared/storage/metrics-aws';

/**
 * The daily bucket usage job (a schedule, not an HTTP route): keeps every customer bucket's latest
 * figures as its `usage`. On AWS they come from S3's daily storage metrics in CloudWatch; the
 * local S3 server has none, so there the job counts each bucket's files and bytes. Until it has
 * run once (on AWS: until S3 has reported a bucket), the storage routes answer `usage: null`.
 * `buckets` (names) limits a run to those buckets.
 */
const measure: (bucket: BucketRef) => Promise<unknown> =
  config.target === 'aws' ? (b) => storeBucketMetrics(b) : (b) => computeUsage(b);

export async function handler(event: { buckets?: string[] } = {}): Promise<{ measured: number; failed: number }> {
  const all = await storage.listBuckets(CUSTOMER_BUCKET_PREFIX);
  const wanted = event.buckets ? new Set(event.buckets) : undefined;
  const buckets: BucketRef[] = wanted ? all.filter((b) => wanted.has(b.name)) : all;
  let measured = 0;
  let failed = 0;
  for (const bucket of buckets) {
    try {
      await measure(bucket);
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
