import {
  type _Object,
  type CORSRule,
  CopyObjectCommand,
  DeleteObjectsCommand,
  GetBucketCorsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListBucketsCommand,
  ListObjectsV2Command,
  PutBucketCorsCommand,
  PutObjectCommand,
  type S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { errorName } from './errors';
import type {
  BucketRef,
  CorsRule,
  DeleteOutcome,
  FileEntry,
  FolderPage,
  ObjectInfo,
  PresignOptions,
  StoragePort,
} from './port';

export { errorName };

/**
 * The S3 calls both adapters make the same way (the local S3 server speaks S3 for these).
 * Checksums only when an operation requires them: a presigned PUT would otherwise carry the CRC32
 * of an empty body, and S3 would refuse every real upload with it.
 */
export const S3_CLIENT_DEFAULTS: Partial<S3ClientConfig> = {
  requestChecksumCalculation: 'WHEN_REQUIRED',
  responseChecksumValidation: 'WHEN_REQUIRED',
};

/** The name S3 gives an error (`NotFound`, `NoSuchKey`, `NoSuchCORSConfiguration` …). */

/** S3's names for storage classes and encryption, as the spec names them. */
export function storageClassOf(value: string | undefined): ObjectInfo['storageClass'] {
  if (!value) return 'STANDARD';
  if (value === 'GLACIER') return 'ARCHIVE';
  if (value === 'GLACIER_IR') return 'ARCHIVE_IR';
  return value.replace(/^AWS_BACKUP_/, 'CLOUD_BACKUP_').replace(/^FSX_/, 'FS_') as ObjectInfo['storageClass'];
}

export function encryptionOf(value: string | undefined): ObjectInfo['encryption'] {
  if (!value) return undefined;
  if (value === 'aws:fsx') return 'cloud:fs';
  return value.replace(/^aws:/, 'cloud:') as ObjectInfo['encryption'];
}

const etagOf = (etag: string | undefined) => etag?.replace(/"/g, '');

/** A listed object as the objects route answers it. */
export function toFileEntry(o: _Object): FileEntry {
  return {
    key: o.Key as string,
    size: o.Size ?? 0,
    lastModified: o.LastModified?.getTime(),
    etag: etagOf(o.ETag),
    storageClass: storageClassOf(o.StorageClass),
  };
}

/** RFC 6266 filename for `Content-Disposition`: ASCII fallback plus the UTF-8 name. */
function attachment(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

type Shared = Pick<
  StoragePort,
  | 'bucketExists'
  | 'listBuckets'
  | 'listFolder'
  | 'listKeys'
  | 'headObject'
  | 'putFolder'
  | 'copyObject'
  | 'presignGet'
  | 'presignPut'
  | 'getCors'
  | 'putCors'
> & {
  /** DeleteObjects as S3 answers it (no versioning bookkeeping). */
  deleteObjects(bucket: BucketRef, objects: { key: string; versionId?: string }[]): Promise<DeleteOutcome>;
};

export function s3Operations(clientFor: (bucket?: BucketRef) => S3Client): Shared {
  return {
    async bucketExists(name: string): Promise<boolean> {
      try {
        await clientFor().send(new HeadBucketCommand({ Bucket: name }));
        return true;
      } catch (err) {
        if (['NotFound', 'NoSuchBucket', 'Forbidden'].includes(errorName(err) ?? '')) return false;
        throw err;
      }
    },

    async listBuckets(prefix: string): Promise<BucketRef[]> {
      const found: BucketRef[] = [];
      let token: string | undefined;
      do {
        const out = await clientFor().send(
          new ListBucketsCommand({ Prefix: prefix, ContinuationToken: token, MaxBuckets: 1000 }),
        );
        for (const b of out.Buckets ?? []) {
          if (b.Name?.startsWith(prefix)) found.push({ name: b.Name, region: b.BucketRegion });
        }
        token = out.ContinuationToken;
      } while (token);
      return found;
    },

    async listFolder(bucket, { prefix, limit, token }): Promise<FolderPage> {
      const out = await clientFor(bucket).send(
        new ListObjectsV2Command({
          Bucket: bucket.name,
          Prefix: prefix || undefined,
          Delimiter: '/',
          MaxKeys: Math.min(limit, 1000),
          ContinuationToken: token,
        }),
      );
      return {
        folders: (out.CommonPrefixes ?? []).map((p) => p.Prefix as string),
        // The folder's own marker object (`docs/` inside `docs/`) is the folder, not a file in it.
        files: (out.Contents ?? []).filter((o) => o.Key !== prefix).map(toFileEntry),
        nextToken: out.IsTruncated ? out.NextContinuationToken : undefined,
      };
    },

    async listKeys(bucket, prefix, max, token) {
      const out = await clientFor(bucket).send(
        new ListObjectsV2Command({
          Bucket: bucket.name,
          Prefix: prefix || undefined,
          MaxKeys: max,
          ContinuationToken: token,
        }),
      );
      return {
        keys: (out.Contents ?? []).map((o) => ({ key: o.Key as string, size: o.Size ?? 0 })),
        truncated: Boolean(out.IsTruncated),
        nextToken: out.IsTruncated ? out.NextContinuationToken : undefined,
      };
    },

    async headObject(bucket, key): Promise<ObjectInfo> {
      const out = await clientFor(bucket).send(new HeadObjectCommand({ Bucket: bucket.name, Key: key }));
      return {
        key,
        size: out.ContentLength ?? 0,
        contentType: out.ContentType,
        lastModified: out.LastModified?.getTime(),
        etag: etagOf(out.ETag),
        storageClass: storageClassOf(out.StorageClass),
        versionId: out.VersionId && out.VersionId !== 'null' ? out.VersionId : undefined,
        cacheControl: out.CacheControl,
        contentEncoding: out.ContentEncoding,
        contentDisposition: out.ContentDisposition,
        encryption: encryptionOf(out.ServerSideEncryption),
        metadata: { ...out.Metadata },
      };
    },

    async putFolder(bucket, key) {
      await clientFor(bucket).send(
        new PutObjectCommand({ Bucket: bucket.name, Key: key, Body: new Uint8Array(0), ContentLength: 0 }),
      );
    },

    async copyObject(bucket, from, to, options = {}) {
      await clientFor(bucket).send(
        new CopyObjectCommand({
          Bucket: bucket.name,
          Key: to,
          CopySource: `${bucket.name}/${from.split('/').map(encodeURIComponent).join('/')}`,
          CopySourceIfMatch: options.ifMatch,
        }),
      );
    },

    async deleteObjects(bucket, objects) {
      if (objects.length === 0) return { deleted: 0, errors: [] };
      const out = await clientFor(bucket).send(
        new DeleteObjectsCommand({
          Bucket: bucket.name,
          Delete: { Objects: objects.map((o) => ({ Key: o.key, VersionId: o.versionId })), Quiet: true },
        }),
      );
      const errors = (out.Errors ?? []).map((e) => ({
        key: e.Key ?? '',
        code: e.Code,
        message: e.Message || e.Code || 'Unknown error',
      }));
      return { deleted: objects.length - errors.length, errors };
    },

    presignGet(bucket, key, options: PresignOptions & { filename?: string }) {
      return getSignedUrl(
        clientFor(bucket),
        new GetObjectCommand({
          Bucket: bucket.name,
          Key: key,
          ResponseContentDisposition: options.filename ? attachment(options.filename) : undefined,
        }),
        { expiresIn: options.expiresIn, signingDate: options.signingDate },
      );
    },

    presignPut(bucket, key, options) {
      return getSignedUrl(
        clientFor(bucket),
        new PutObjectCommand({
          Bucket: bucket.name,
          Key: key,
          ContentType: options.contentType,
          ContentLength: options.size,
        }),
        // Content-Type is not signed by default: without this, any type could be sent.
        {
          expiresIn: options.expiresIn,
          signingDate: options.signingDate,
          signableHeaders: new Set(['content-type', 'content-length']),
        },
      );
    },

    async getCors(bucket): Promise<CorsRule[]> {
      try {
        const out = await clientFor(bucket).send(new GetBucketCorsCommand({ Bucket: bucket.name }));
        return (out.CORSRules ?? []).map(fromS3Cors);
      } catch (err) {
        if (errorName(err) === 'NoSuchCORSConfiguration') return [];
        throw err;
      }
    },

    async putCors(bucket, rules) {
      await clientFor(bucket).send(
        new PutBucketCorsCommand({ Bucket: bucket.name, CORSConfiguration: { CORSRules: rules.map(toS3Cors) } }),
      );
    },
  };
}

function fromS3Cors(r: CORSRule): CorsRule {
  return {
    ID: r.ID,
    AllowedHeaders: r.AllowedHeaders,
    AllowedMethods: r.AllowedMethods as CorsRule['AllowedMethods'],
    AllowedOrigins: r.AllowedOrigins,
    ExposeHeaders: r.ExposeHeaders,
    MaxAgeSeconds: r.MaxAgeSeconds,
  };
}

function toS3Cors(r: CorsRule): CORSRule {
  return {
    ID: r.ID,
    AllowedHeaders: r.AllowedHeaders,
    AllowedMethods: r.AllowedMethods ?? [],
    AllowedOrigins: r.AllowedOrigins ?? [],
    ExposeHeaders: r.ExposeHeaders,
    MaxAgeSeconds: r.MaxAgeSeconds,
  };
}
