import { CloudWatchClient, GetMetricDataCommand } from '@aws-sdk/client-cloudwatch';
import {
  CreateBucketCommand,
  DeleteBucketCommand,
  DeleteBucketLifecycleCommand,
  DeleteObjectsCommand,
  GetBucketLifecycleConfigurationCommand,
  GetBucketVersioningCommand,
  GetPublicAccessBlockCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  ListObjectVersionsCommand,
  PutBucketCorsCommand,
  PutBucketEncryptionCommand,
  PutBucketPolicyCommand,
  PutBucketTaggingCommand,
  PutPublicAccessBlockCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import { purgeAndDeleteBucket } from '../../shared/domains/buckets/delete-bucket';
import { getBucketConfig } from '../../shared/domains/buckets/records';
import { awsMetrics } from '../../shared/ports/metrics/aws';
import { awsStorage } from '../../shared/ports/object-storage/aws';

/**
 * The AWS adapter of the storage port, against the S3 calls it must make (the local S3 server
 * can't stand in for versioning, lifecycle or the public access block).
 */
const s3 = mockClient(S3Client);
const endpoint = process.env.AWS_ENDPOINT_URL_S3;
beforeAll(() => {
  // Links are signed for S3 itself here, not the local server.
  delete process.env.AWS_ENDPOINT_URL_S3;
});
afterAll(() => {
  process.env.AWS_ENDPOINT_URL_S3 = endpoint;
  s3.restore();
});
beforeEach(() => s3.reset());

const s3Error = (name: string, message = name) =>
  new S3ServiceException({ name, message, $fault: 'client', $metadata: { httpStatusCode: 400 } });
const ref = { name: 'plt-aws-test', region: 'eu-west-1' };

describe('bucket creation', () => {
  it('creates a private, encrypted, SSL-only bucket in its region with the upload CORS rule', async () => {
    await awsStorage().createBucket('plt-new', { region: 'eu-west-1', tags: { org: 'org_1' } });
    expect(s3.commandCalls(CreateBucketCommand)[0]?.args[0].input).toEqual({
      Bucket: 'plt-new',
      CreateBucketConfiguration: { LocationConstraint: 'eu-west-1' },
    });
    expect(s3.commandCalls(PutPublicAccessBlockCommand)[0]?.args[0].input.PublicAccessBlockConfiguration).toEqual({
      BlockPublicAcls: true,
      IgnorePublicAcls: true,
      BlockPublicPolicy: true,
      RestrictPublicBuckets: true,
    });
    expect(s3.commandCalls(PutBucketEncryptionCommand)).toHaveLength(1);
    const policy = JSON.parse(s3.commandCalls(PutBucketPolicyCommand)[0]?.args[0].input.Policy as string);
    expect(policy.Statement[0]).toMatchObject({
      Effect: 'Deny',
      Condition: { Bool: { 'aws:SecureTransport': 'false' } },
    });
    expect(s3.commandCalls(PutBucketTaggingCommand)[0]?.args[0].input.Tagging?.TagSet).toEqual([
      { Key: 'org', Value: 'org_1' },
    ]);
    const cors = s3.commandCalls(PutBucketCorsCommand)[0]?.args[0].input.CORSConfiguration?.CORSRules;
    expect(cors?.map((r) => r.ID)).toEqual(['reserved-uploads']);
  });

  it('sends no location constraint in us-east-1', async () => {
    await awsStorage().createBucket('plt-east', { region: 'us-east-1' });
    expect(s3.commandCalls(CreateBucketCommand)[0]?.args[0].input.CreateBucketConfiguration).toBeUndefined();
    expect(s3.commandCalls(PutBucketTaggingCommand)).toHaveLength(0);
  });
});

describe('settings', () => {
  it('reads versioning: a bucket never versioned is Disabled', async () => {
    s3.on(GetBucketVersioningCommand).resolvesOnce({}).resolvesOnce({ Status: 'Suspended' });
    expect(await awsStorage().getVersioning(ref)).toBe('Disabled');
    expect(await awsStorage().getVersioning(ref)).toBe('Suspended');
  });

  it('reads a missing public access block as not blocked, and all four settings as blocked', async () => {
    s3.on(GetPublicAccessBlockCommand)
      .rejectsOnce(s3Error('NoSuchPublicAccessBlockConfiguration'))
      .resolvesOnce({
        PublicAccessBlockConfiguration: {
          BlockPublicAcls: true,
          IgnorePublicAcls: true,
          BlockPublicPolicy: true,
          RestrictPublicBuckets: false,
        },
      })
      .resolvesOnce({
        PublicAccessBlockConfiguration: {
          BlockPublicAcls: true,
          IgnorePublicAcls: true,
          BlockPublicPolicy: true,
          RestrictPublicBuckets: true,
        },
      });
    expect(await awsStorage().getPublicAccessBlocked(ref)).toBe(false);
    expect(await awsStorage().getPublicAccessBlocked(ref)).toBe(false);
    expect(await awsStorage().getPublicAccessBlocked(ref)).toBe(true);
  });

  it('reads no lifecycle configuration as no rules, and removes it when the last rule goes', async () => {
    s3.on(GetBucketLifecycleConfigurationCommand).rejects(s3Error('NoSuchLifecycleConfiguration'));
    expect(await awsStorage().getLifecycle(ref)).toEqual([]);
    await awsStorage().putLifecycle(ref, []);
    expect(s3.commandCalls(DeleteBucketLifecycleCommand)).toHaveLength(1);
  });
});

describe('objects', () => {
  it('names storage classes and encryption as the spec does', async () => {
    s3.on(HeadObjectCommand).resolves({
      ContentLength: 5,
      StorageClass: 'GLACIER_IR',
      ServerSideEncryption: 'aws:kms',
      VersionId: 'v1',
      Metadata: { a: 'b' },
    });
    expect(await awsStorage().headObject(ref, 'k')).toMatchObject({
      key: 'k',
      size: 5,
      storageClass: 'ARCHIVE_IR',
      encryption: 'cloud:kms',
      versionId: 'v1',
      metadata: { a: 'b' },
    });
  });

  it('signs upload links for the bucket region, bound to content type and size', async () => {
    const url = new URL(
      await awsStorage().presignPut(ref, 'a b.txt', { contentType: 'text/plain', size: 3, expiresIn: 900 }),
    );
    expect(url.host).toBe('plt-aws-test.s3.eu-west-1.amazonaws.com');
    expect(url.searchParams.get('X-Amz-Credential')).toContain('/eu-west-1/s3/aws4_request');
    expect(url.searchParams.get('X-Amz-SignedHeaders')).toBe('content-length;content-type;host');
    expect(url.searchParams.get('X-Amz-Expires')).toBe('900');
    expect([...url.searchParams.keys()].filter((k) => k.toLowerCase().includes('checksum'))).toEqual([]);
  });

  it('reports per-key failures of DeleteObjects', async () => {
    s3.on(DeleteObjectsCommand).resolves({ Errors: [{ Key: 'b', Code: 'AccessDenied', Message: 'Access Denied' }] });
    expect(await awsStorage().deleteKeys(ref, ['a', 'b'])).toEqual({
      deleted: 1,
      errors: [{ key: 'b', code: 'AccessDenied', message: 'Access Denied' }],
    });
  });

  it('lists old versions and delete markers, never current files', async () => {
    s3.on(ListObjectVersionsCommand)
      .resolvesOnce({
        Versions: [
          { Key: 'a', VersionId: 'a2', IsLatest: true },
          { Key: 'a', VersionId: 'a1', IsLatest: false },
        ],
        DeleteMarkers: [{ Key: 'b', VersionId: 'b2', IsLatest: true }],
        IsTruncated: true,
        NextKeyMarker: 'b',
        NextVersionIdMarker: 'b2',
      })
      .resolvesOnce({ Versions: [{ Key: 'c', VersionId: 'c1', IsLatest: false }], IsTruncated: false });
    expect(await awsStorage().listOldVersions(ref, 1000)).toEqual({
      versions: [
        { key: 'a', versionId: 'a1' },
        { key: 'b', versionId: 'b2' },
        { key: 'c', versionId: 'c1' },
      ],
      truncated: false,
    });
    expect(s3.commandCalls(ListObjectVersionsCommand)[1]?.args[0].input).toMatchObject({
      KeyMarker: 'b',
      VersionIdMarker: 'b2',
    });
  });
});

describe('bucket deletion on S3', () => {
  const purge = () =>
    purgeAndDeleteBucket(awsStorage(), { name: `plt-aws-${Date.now()}-${Math.random()}`.replace('.', '') });

  it('refuses a bucket with files', async () => {
    s3.on(ListObjectsV2Command).resolves({ Contents: [{ Key: 'a', Size: 1 }], IsTruncated: true });
    await expect(purge()).rejects.toMatchObject({
      kind: 'conflict',
      message: 'Delete every file in this bucket first.',
    });
    expect(s3.commandCalls(DeleteBucketCommand)).toHaveLength(0);
  });

  it("answers Couldn't delete when S3 refuses old versions", async () => {
    s3.on(ListObjectsV2Command).resolves({});
    s3.on(ListObjectVersionsCommand).resolves({
      Versions: [
        { Key: 'a', VersionId: 'a1', IsLatest: false },
        { Key: 'b', VersionId: 'b1', IsLatest: false },
      ],
    });
    s3.on(DeleteObjectsCommand).resolves({
      Errors: [
        { Key: 'a', VersionId: 'a1', Code: 'AccessDenied', Message: 'Access Denied' },
        { Key: 'b', VersionId: 'b1', Code: 'AccessDenied', Message: 'Access Denied' },
      ],
    });
    await expect(purge()).rejects.toMatchObject({
      kind: 'conflict',
      message: "Couldn't delete 2 files: Access Denied",
    });
  });

  it('answers Files were added when S3 finds files as the bucket goes', async () => {
    s3.on(ListObjectsV2Command).resolves({});
    s3.on(ListObjectVersionsCommand).resolves({ DeleteMarkers: [{ Key: 'a', VersionId: 'm1', IsLatest: true }] });
    s3.on(DeleteObjectsCommand).resolves({});
    s3.on(DeleteBucketCommand).rejects(s3Error('BucketNotEmpty', 'The bucket you tried to delete is not empty'));
    await expect(purge()).rejects.toMatchObject({
      kind: 'conflict',
      message: 'Files were added while deleting. Delete them first.',
    });
    expect(s3.commandCalls(DeleteObjectsCommand)[0]?.args[0].input.Delete?.Objects).toEqual([
      { Key: 'a', VersionId: 'm1' },
    ]);
  });

  it('counts a bucket already gone from S3 as deleted', async () => {
    s3.on(ListObjectsV2Command).rejects(s3Error('NoSuchBucket'));
    await expect(purge()).resolves.toBeUndefined();
  });
});

describe('usage from S3 storage metrics', () => {
  const cw = mockClient(CloudWatchClient);
  afterAll(() => cw.restore());
  beforeEach(() => cw.reset());

  it('answers the latest daily figures: size over every storage class, object count', async () => {
    const day = Date.UTC(2026, 0, 2);
    cw.on(GetMetricDataCommand).resolves({
      MetricDataResults: [
        { Id: 'size', Values: [2048, 1024], Timestamps: [new Date(day), new Date(day - 86400000)] },
        { Id: 'objects', Values: [3, 2], Timestamps: [new Date(day), new Date(day - 86400000)] },
      ],
    });
    const name = `plt-metrics-${Date.now()}`;
    expect(await awsMetrics().bucketUsage({ name, region: 'eu-west-1' }, day + 3600000)).toEqual({
      sizeBytes: 2048,
      objects: 3,
      at: day,
    });
    // An adapter answers figures; the usage worker keeps them (test/storage/storage.test.ts).
    expect(await getBucketConfig(name)).toBeUndefined();
    const input = cw.commandCalls(GetMetricDataCommand)[0]?.args[0].input;
    expect(input?.MetricDataQueries?.[0]?.Expression).toContain(`BucketName="${name}"`);
    expect(input?.MetricDataQueries?.[1]?.MetricStat?.Metric?.Dimensions).toContainEqual({
      Name: 'StorageType',
      Value: 'AllStorageTypes',
    });
  });

  it('answers nothing while S3 has reported no figures', async () => {
    cw.on(GetMetricDataCommand).resolves({ MetricDataResults: [{ Id: 'size', Values: [] }, { Id: 'objects' }] });
    const name = `plt-metrics-new-${Date.now()}`;
    expect(await awsMetrics().bucketUsage({ name })).toBeUndefined();
    expect(await getBucketConfig(name)).toBeUndefined();
  });
});
