import { conflict } from '../../kernel/ground/errors';
import { type BucketRef, type DeleteOutcome, type StoragePort, storage } from '../../ports/object-storage';
import { errorName } from '../../ports/object-storage/errors';
import { deleteBucketRecords, getBucketConfig, setBucketFields } from './records';

export const NOT_EMPTY = 'Delete every file in this bucket first.';
export const STILL_REMOVING = 'Still removing old file versions. Try again to continue.';
export const FILES_ADDED = 'Files were added while deleting. Delete them first.';

/** Old versions removed per call: one S3 DeleteObjects, so a call stays well inside its time limit. */
export const VERSION_BATCH = 1000;

/**
 * How long a deletion that had to stop (409 `Still removing …`) may be continued: within it, the
 * next call goes on removing old versions without asking again whether the bucket holds files, so
 * a file uploaded in between is caught by S3 itself when the bucket goes (`Files were added …`).
 */
const CONTINUE_WITHIN_MS = 60 * 60 * 1000;

/** `Couldn't delete 3 files: <S3's first message>`: the spec's per-key failure. */
export function deleteFailure(outcome: DeleteOutcome): Error | undefined {
  const first = outcome.errors[0];
  if (!first) return undefined;
  const n = outcome.errors.length;
  return conflict(`Couldn't delete ${n} file${n === 1 ? '' : 's'}: ${first.message}`);
}

/**
 * Deletes a bucket that holds no file: old versions and delete markers first, in bounded batches,
 * then the bucket and what the platform kept about it. Throws the spec's 409s (`DELETE
 * .../storage/:resourceId` and `DELETE .../resources/bucket/:resourceId` answer them as they are).
 */
export const deleteBucketAndVersions = (bucket: BucketRef): Promise<void> => purgeAndDeleteBucket(storage(), bucket);

/**
 * Deletes a bucket without files through `port`: first its old versions and delete markers (at
 * most VERSION_BATCH per call), then the bucket itself and the platform's records of it. A bucket
 * already gone from S3 counts as deleted. Spec 409s:
 * - `Delete every file in this bucket first.` — it holds files (folders' marker objects too);
 * - `Still removing old file versions. Try again to continue.` — more old versions remain;
 * - `Couldn't delete N file(s): …` — S3 refused some old versions;
 * - `Files were added while deleting. Delete them first.` — S3 found files when the bucket went.
 */
export async function purgeAndDeleteBucket(port: StoragePort, bucket: BucketRef): Promise<void> {
  try {
    const started = (await getBucketConfig(bucket.name, true))?.deleteStartedAt;
    const continuing = started !== undefined && Date.now() - started < CONTINUE_WITHIN_MS;
    if (!continuing) {
      const page = await port.listKeys(bucket, '', 1);
      if (page.keys.length > 0) throw conflict(NOT_EMPTY);
    }
    const { versions, truncated } = await port.listOldVersions(bucket, VERSION_BATCH);
    if (versions.length > 0 || truncated) {
      if (!continuing) await setBucketFields(bucket.name, { deleteStartedAt: Date.now() });
      const failure = deleteFailure(await port.deleteVersions(bucket, versions));
      if (failure) throw failure;
      if (truncated) throw conflict(STILL_REMOVING);
    }
    try {
      await port.deleteBucket(bucket.name);
      await deleteBucketRecords(bucket.name);
    } catch (err) {
      if (errorName(err) !== 'BucketNotEmpty') throw err;
      // The next attempt starts over, asking first whether the bucket holds files.
      await setBucketFields(bucket.name, { deleteStartedAt: undefined });
      throw conflict(FILES_ADDED);
    }
  } catch (err) {
    if (errorName(err) !== 'NoSuchBucket') throw err;
    await deleteBucketRecords(bucket.name);
  }
}
