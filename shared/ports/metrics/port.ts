import type { BucketRef } from '../object-storage/port';

/** Spec part A, "Bucket usage": a bucket's latest daily figures. */
export interface Usage {
  sizeBytes?: number;
  objects?: number;
  at?: number;
}

/**
 * The metrics port: figures the platform reports but does not count on every request. AWS: S3's
 * daily storage metrics in CloudWatch. One machine: the local S3 server has none, so its adapter
 * counts the bucket's files and bytes. Adapters answer figures; the usage worker keeps them.
 */
export interface MetricsPort {
  /** A bucket's latest size and object count, or undefined while none are known (a young bucket on AWS). */
  bucketUsage(bucket: BucketRef, now?: number): Promise<Usage | undefined>;
}
