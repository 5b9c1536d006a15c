import { invalid } from '../../kernel/ground/errors';
import { type DeleteOutcome, storage } from '../../ports/object-storage';
import type { Bucket } from './buckets';
import { deleteFailure } from './delete-bucket';
import { assertFolderPath } from './objects';

export const NOTHING = 'Nothing to delete.';
export const WHOLE_BUCKET = 'Pick folders to delete, not the whole bucket.';

/** Files under the given folders removed per call at most: one S3 listing and one DeleteObjects. */
export const DELETE_BATCH = 1000;

/**
 * Deletes `keys` (all of them, at most 1,000) and the files under `prefixes`, at most
 * DELETE_BATCH of those per call. `done: false` means files remain: call again with the same body.
 * Files S3 refuses to delete (per key) make the call a 409, after the others went.
 */
export async function deleteObjects(bucket: Bucket, keys: string[], prefixes: string[]) {
  if (keys.length === 0 && prefixes.length === 0) throw invalid(NOTHING);
  if (prefixes.some((p) => p === '' || p === '/')) throw invalid(WHOLE_BUCKET);
  for (const p of prefixes) assertFolderPath(p);

  const result: DeleteOutcome = { deleted: 0, errors: [] };
  const add = (o: DeleteOutcome) => {
    result.deleted += o.deleted;
    result.errors.push(...o.errors);
  };
  if (keys.length > 0) add(await storage().deleteKeys(bucket.ref, [...new Set(keys)]));

  let budget = DELETE_BATCH;
  let done = true;
  for (const prefix of new Set(prefixes)) {
    if (budget === 0) {
      done = false;
      break;
    }
    const page = await storage().listKeys(bucket.ref, prefix, budget);
    if (page.keys.length > 0) {
      add(
        await storage().deleteKeys(
          bucket.ref,
          page.keys.map((k) => k.key),
        ),
      );
      budget -= page.keys.length;
    }
    if (page.truncated) {
      done = false;
      break;
    }
  }
  const failure = deleteFailure(result);
  if (failure) throw failure;
  return { deleted: result.deleted, done };
}
