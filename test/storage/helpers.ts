import { randomBytes } from 'node:crypto';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { ResourceRecord } from '../../shared/domains/resources/schema';
import { CUSTOMER_BUCKET_PREFIX } from '../../shared/kernel/config';
import { type BucketRef, storage } from '../../shared/ports/object-storage';
import { putRecord, someId } from '../helpers/records';

/**
 * A bucket resource as the resources group would leave it: the bucket made through the storage
 * port, the record written straight into the table (this group does not create buckets).
 */
export async function newBucket(
  orgId: string,
  createdBy = 'usr_test',
): Promise<{ resource: ResourceRecord; ref: BucketRef }> {
  const resourceId = someId('res_');
  const name = `${CUSTOMER_BUCKET_PREFIX}t-${randomBytes(6).toString('hex')}`;
  await storage().createBucket(name);
  const resource: ResourceRecord = {
    resourceId,
    type: 'bucket',
    name: `files-${randomBytes(3).toString('hex')}`,
    status: 'active',
    createdAt: Date.now(),
    region: 'eu-central-1',
    orgId,
    createdBy,
    location: 'fra',
    physicalName: name,
    version: 1,
  };
  await putRecord(orgId, `RES#bucket#${resourceId}`, { ...resource });
  return { resource, ref: { name, region: resource.region } };
}

/** The local S3 server, for arranging files that a test does not upload through a link. */
export const s3 = new S3Client({
  region: 'eu-central-1',
  endpoint: process.env.AWS_ENDPOINT_URL_S3,
  forcePathStyle: true,
});

export async function putFiles(bucket: string, keys: string[], body = 'x', concurrency = 24): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < keys.length) {
      const key = keys[next++] as string;
      await s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body }));
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, keys.length) }, worker));
}
