import { storage } from '../../ports/object-storage';
import type { BackendDelete } from '../resources/delete';
import type { ResourceRecord } from '../resources/schema';
import { deleteBucketAndVersions } from './delete-bucket';

/** Creates the bucket of a new bucket resource; answers its ARN. */
export async function provisionBucket(r: ResourceRecord, tags: Record<string, string>): Promise<string> {
  await storage().createBucket(r.physicalName, { region: r.region, tags });
  return `arn:aws:s3:::${r.physicalName}`;
}

/**
 * A bucket's backend: the storage port's deletion, with the spec's 409s (files left, old versions
 * still being removed, files added meanwhile). A bucket already gone is no reason to keep the record.
 */
export const deleteBucketBackend: BackendDelete = (r) =>
  deleteBucketAndVersions({ name: r.physicalName, region: r.region });
