/**
 * The object-storage port (S3 on AWS; the local S3 server plus a small settings shim on one
 * machine). Handlers see only this interface; the adapter is picked once from PLATFORM_TARGET.
 *
 * Bucket settings the local S3 server lacks (versioning, lifecycle, public access block) are kept
 * by the local adapter itself, so every route answers as on AWS.
 */
export interface StoragePort {
  /** Creates a private bucket (public access blocked, SSL only, encrypted on AWS). */
  createBucket(name: string, options?: { region?: string; tags?: Record<string, string> }): Promise<void>;
  /** Deletes an empty bucket. */
  deleteBucket(name: string): Promise<void>;
  /** True when the bucket exists and this platform can reach it. */
  bucketExists(name: string): Promise<boolean>;
}
