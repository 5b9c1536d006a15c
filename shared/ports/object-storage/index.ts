import { config } from '../../kernel/config';
import { lazyPort } from '../../kernel/ground/lazy';
import { purgeAndDeleteBucket } from './delete-bucket';
import type { BucketRef, StoragePort } from './port';

export type * from './port';

// The local adapter's path is computed: the functions' bundler leaves it out of the Lambda bundles.
const LOCAL_ADAPTER = './local';

/** The adapter for PLATFORM_TARGET, loaded on first use (S3's client is a chunk of its own). */
export const storage: StoragePort = lazyPort(() =>
  config.target === 'local'
    ? (import(LOCAL_ADAPTER) as Promise<{ localStorage: StoragePort }>).then((m) => m.localStorage)
    : import('./aws').then((m) => m.awsStorage),
);

/**
 * Deletes a bucket that holds no file: old versions and delete markers first, in bounded batches,
 * then the bucket and what the platform kept about it. Throws the spec's 409s (`DELETE
 * .../storage/:resourceId` and `DELETE .../resources/bucket/:resourceId` answer them as they are).
 */
export const deleteBucketAndVersions = (bucket: BucketRef): Promise<void> => purgeAndDeleteBucket(storage, bucket);

export { RESERVED_CORS_ID, splitCors, uploadCorsRule } from './cors';
export { deleteFailure } from './delete-bucket';
export { getBucketConfig, getBucketConfigs, type Usage } from './records';
