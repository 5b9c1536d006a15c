import {
  type BucketLocationConstraint,
  CreateBucketCommand,
  DeleteBucketCommand,
  DeleteBucketLifecycleCommand,
  GetBucketLifecycleConfigurationCommand,
  GetBucketVersioningCommand,
  GetPublicAccessBlockCommand,
  ListObjectVersionsCommand,
  PutBucketEncryptionCommand,
  PutBucketLifecycleConfigurationCommand,
  PutBucketPolicyCommand,
  PutBucketTaggingCommand,
  PutBucketVersioningCommand,
  PutPublicAccessBlockCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { config } from '../../kernel/config';
import { sdkSettings } from '../../kernel/ground/sdk-settings';
import { uploadCorsRule } from './cors';
import type { BucketRef, OldVersion, StoragePort, Versioning } from './port';
import { errorName, S3_CLIENT_DEFAULTS, s3Operations } from './s3';

/**
 * S3. One client per region, created on first use and kept: presigned links must be signed for
 * the bucket's own region, and the other calls go straight there instead of being redirected.
 */
const clients = new Map<string, S3Client>();
function clientFor(bucket?: BucketRef): S3Client {
  const region = bucket?.region ?? config.region;
  let client = clients.get(region);
  if (!client) {
    client = new S3Client({
      ...sdkSettings('objectStorage'),
      ...S3_CLIENT_DEFAULTS,
      region,
      followRegionRedirects: true,
    });
    clients.set(region, client);
  }
  return client;
}

const s3 = s3Operations(clientFor);

/** How many pages of ListObjectVersions one call reads at most, looking for old versions. */
const MAX_VERSION_PAGES = 5;

export const awsStorage = (): StoragePort => ({
  ...s3,

  async createBucket(name, options = {}) {
    const region = options.region ?? config.region;
    const client = clientFor({ name, region });
    await client.send(
      new CreateBucketCommand({
        Bucket: name,
        // New buckets have ACLs off (BucketOwnerEnforced) by default: nothing to set, no extra grant.
        CreateBucketConfiguration:
          region === 'us-east-1' ? undefined : { LocationConstraint: region as BucketLocationConstraint },
      }),
    );
    await client.send(
      new PutPublicAccessBlockCommand({
        Bucket: name,
        PublicAccessBlockConfiguration: {
          BlockPublicAcls: true,
          IgnorePublicAcls: true,
          BlockPublicPolicy: true,
          RestrictPublicBuckets: true,
        },
      }),
    );
    await client.send(
      new PutBucketEncryptionCommand({
        Bucket: name,
        ServerSideEncryptionConfiguration: {
          Rules: [{ ApplyServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' }, BucketKeyEnabled: true }],
        },
      }),
    );
    await client.send(
      new PutBucketPolicyCommand({
        Bucket: name,
        Policy: JSON.stringify({
          Version: '2012-10-17',
          Statement: [
            {
              Sid: 'SslOnly',
              Effect: 'Deny',
              Principal: '*',
              Action: 's3:*',
              Resource: [`arn:aws:s3:::${name}`, `arn:aws:s3:::${name}/*`],
              Condition: { Bool: { 'aws:SecureTransport': 'false' } },
            },
          ],
        }),
      }),
    );
    if (options.tags && Object.keys(options.tags).length > 0) {
      await client.send(
        new PutBucketTaggingCommand({
          Bucket: name,
          Tagging: { TagSet: Object.entries(options.tags).map(([Key, Value]) => ({ Key, Value })) },
        }),
      );
    }
    await s3.putCors({ name, region }, [uploadCorsRule()]);
  },

  async deleteBucket(name) {
    await clientFor().send(new DeleteBucketCommand({ Bucket: name }));
  },

  async deleteKeys(bucket, keys) {
    return s3.deleteObjects(
      bucket,
      keys.map((key) => ({ key })),
    );
  },

  async listOldVersions(bucket, max) {
    const versions: OldVersion[] = [];
    let keyMarker: string | undefined;
    let versionMarker: string | undefined;
    let truncated = false;
    // Current versions are files, not old versions: they are skipped, so a page may yield none.
    for (let page = 0; page < MAX_VERSION_PAGES && versions.length < max; page++) {
      const out = await clientFor(bucket).send(
        new ListObjectVersionsCommand({
          Bucket: bucket.name,
          MaxKeys: 1000,
          KeyMarker: keyMarker,
          VersionIdMarker: versionMarker,
        }),
      );
      for (const v of out.Versions ?? []) {
        if (!v.IsLatest && v.Key && v.VersionId) versions.push({ key: v.Key, versionId: v.VersionId });
      }
      for (const m of out.DeleteMarkers ?? []) {
        if (m.Key && m.VersionId) versions.push({ key: m.Key, versionId: m.VersionId });
      }
      truncated = Boolean(out.IsTruncated);
      if (!truncated) break;
      keyMarker = out.NextKeyMarker;
      versionMarker = out.NextVersionIdMarker;
    }
    if (versions.length > max) return { versions: versions.slice(0, max), truncated: true };
    return { versions, truncated };
  },

  async deleteVersions(bucket, versions) {
    return s3.deleteObjects(bucket, versions);
  },

  async getVersioning(bucket): Promise<Versioning> {
    const out = await clientFor(bucket).send(new GetBucketVersioningCommand({ Bucket: bucket.name }));
    // A bucket whose versioning was never turned on has no status at all.
    return out.Status === 'Enabled' || out.Status === 'Suspended' ? out.Status : 'Disabled';
  },

  async setVersioning(bucket, enabled) {
    const Status = enabled ? 'Enabled' : 'Suspended';
    await clientFor(bucket).send(
      new PutBucketVersioningCommand({ Bucket: bucket.name, VersioningConfiguration: { Status } }),
    );
    return Status;
  },

  async getLifecycle(bucket) {
    try {
      const out = await clientFor(bucket).send(new GetBucketLifecycleConfigurationCommand({ Bucket: bucket.name }));
      return out.Rules ?? [];
    } catch (err) {
      if (errorName(err) === 'NoSuchLifecycleConfiguration') return [];
      throw err;
    }
  },

  async putLifecycle(bucket, rules) {
    if (rules.length === 0) {
      await clientFor(bucket).send(new DeleteBucketLifecycleCommand({ Bucket: bucket.name }));
      return;
    }
    await clientFor(bucket).send(
      new PutBucketLifecycleConfigurationCommand({ Bucket: bucket.name, LifecycleConfiguration: { Rules: rules } }),
    );
  },

  async getPublicAccessBlocked(bucket) {
    try {
      const out = await clientFor(bucket).send(new GetPublicAccessBlockCommand({ Bucket: bucket.name }));
      const c = out.PublicAccessBlockConfiguration ?? {};
      return Boolean(c.BlockPublicAcls && c.IgnorePublicAcls && c.BlockPublicPolicy && c.RestrictPublicBuckets);
    } catch (err) {
      if (errorName(err) === 'NoSuchPublicAccessBlockConfiguration') return false;
      throw err;
    }
  },
});
