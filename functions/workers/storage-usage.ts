import { setBucketFields } from '../../shared/domains/buckets/records';
import { CUSTOMER_BUCKET_PREFIX } from '../../shared/kernel/config';
import { describeError, log } from '../../shared/kernel/ground/log';
import { metrics } from '../../shared/ports/metrics';
import { type BucketRef, storage } from '../../shared/ports/object-storage';

/**
 * The daily bucket usage job (a schedule, not an HTTP route): keeps every customer bucket's latest
 * figures as its `usage`, from the metrics port (S3's daily storage metrics on AWS; counted
 * files and bytes on the local S3 server), and keeps them on the bucket's record. Until it has
 * run once (on AWS: until S3 has reported a bucket), the storage routes answer `usage: null`.
 * `buckets` (names) limits a run to those buckets.
 */
export async function handler(event: { buckets?: string[] } = {}): Promise<{ measured: number; failed: number }> {
  const all = await storage().listBuckets(CUSTOMER_BUCKET_PREFIX);
  const wanted = event.buckets ? new Set(event.buckets) : undefined;
  const buckets: BucketRef[] = wanted ? all.filter((b) => wanted.has(b.name)) : all;
  const port = metrics();
  let measured = 0;
  let failed = 0;
  for (const bucket of buckets) {
    try {
      const usage = await port.bucketUsage(bucket);
      if (usage) await setBucketFields(bucket.name, { usage });
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
