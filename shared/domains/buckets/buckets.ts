import { notFound } from '../../kernel/ground/errors';
import { type BucketRef, storage, type Versioning } from '../../ports/object-storage';
import { getResource, listResources, removeResource } from '../resources/records';
import { type ResourceRecord, toResource } from '../resources/schema';
import { deleteBucketAndVersions } from './delete-bucket';
import { getBucketConfig, getBucketConfigs } from './records';

export const BUCKET_NOT_FOUND = 'Bucket not found';

export interface Bucket {
  resource: ResourceRecord;
  ref: BucketRef;
}

/** The organization's bucket `resourceId`, or 404 `Bucket not found`. */
export async function loadBucket(orgId: string, resourceId: string): Promise<Bucket> {
  const resource = await getResource(orgId, 'bucket', resourceId);
  if (!resource) throw notFound(BUCKET_NOT_FOUND);
  return { resource, ref: { name: resource.physicalName, region: resource.region } };
}

/** Every bucket of the organization with its latest usage: one Query and one BatchGet. */
export async function listBuckets(orgId: string) {
  const resources = await listResources(orgId, 'bucket');
  const configs = await getBucketConfigs(resources.map((r) => r.physicalName));
  return resources.map((r, i) => ({ ...toResource(r), usage: configs[i]?.usage ?? null }));
}

export async function describeBucket(bucket: Bucket) {
  const [config, versioning] = await Promise.all([
    getBucketConfig(bucket.ref.name),
    // Spec: `versioning` is null when unknown (the bucket can't be reached, say).
    storage()
      .getVersioning(bucket.ref)
      .catch((): Versioning | null => null),
  ]);
  return { bucket: toResource(bucket.resource), versioning, usage: config?.usage ?? null };
}

/**
 * Deletes the bucket (see deleteBucketAndVersions for its 409s), then its resource record with
 * its name reservation and project link (the same removal the resources group uses).
 */
export async function deleteBucket(bucket: Bucket): Promise<void> {
  await deleteBucketAndVersions(bucket.ref);
  await removeResource(bucket.resource);
}
