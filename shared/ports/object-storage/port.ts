import type { CorsRule, ObjectInfo } from '../../domains/resources/record-schemas';

/**
 * An object's details and a bucket's CORS rule cross the port as the storage routes answer them:
 * their record schemas (shared/domains/resources/record-schemas.ts) are the source.
 */
export type { CorsRule, ObjectInfo };

/**
 * A bucket's lifecycle rule as S3 words it (what `getLifecycle`/`putLifecycle` carry): the fields
 * the platform reads and writes. A rule the platform did not write may carry more of S3's (its
 * transitions, tags …): they are kept as read and written back unchanged.
 */
export interface S3LifecycleRule {
  ID?: string;
  Status: 'Enabled' | 'Disabled' | undefined;
  /** S3's older, deprecated place of a rule's prefix. */
  Prefix?: string;
  Filter?: { Prefix?: string; And?: { Prefix?: string } };
  Expiration?: { Days?: number; Date?: Date; ExpiredObjectDeleteMarker?: boolean };
  NoncurrentVersionExpiration?: { NoncurrentDays?: number; NewerNoncurrentVersions?: number };
}

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
  /** Deletes an empty bucket (S3's `BucketNotEmpty` when it is not). */
  deleteBucket(name: string): Promise<void>;
  /** True when the bucket exists and this platform can reach it. */
  bucketExists(name: string): Promise<boolean>;

  /** The platform's buckets whose names start with `prefix` (for the daily usage job). */
  listBuckets(prefix: string): Promise<BucketRef[]>;
  /** One page of a folder: sub-folders and files directly under `prefix`. */
  listFolder(bucket: BucketRef, input: { prefix: string; limit: number; token?: string }): Promise<FolderPage>;
  /** Up to `max` (at most 1,000) keys under `prefix`, at any depth, in key order; `token` continues. */
  listKeys(bucket: BucketRef, prefix: string, max: number, token?: string): Promise<KeyPage>;
  /** A file's metadata (S3 `NotFound` when there is none). */
  headObject(bucket: BucketRef, key: string): Promise<ObjectInfo>;
  /** An empty object whose key ends with `/`: how S3 consoles show an empty folder. */
  putFolder(bucket: BucketRef, key: string): Promise<void>;
  /**
   * Copies `from` to `to` in the bucket (S3's CopyObject: server-side, up to 5 GB). With `ifMatch`,
   * only while `from` still has that ETag (S3 answers `PreconditionFailed` otherwise).
   */
  copyObject(bucket: BucketRef, from: string, to: string, options?: { ifMatch?: string }): Promise<void>;
  /** Deletes up to 1,000 keys at once; S3 reports failures per key. */
  deleteKeys(bucket: BucketRef, keys: string[]): Promise<DeleteOutcome>;
  /** Old versions and delete markers (never current files), at most `max` of them. */
  listOldVersions(bucket: BucketRef, max: number): Promise<{ versions: OldVersion[]; truncated: boolean }>;
  /** Deletes up to 1,000 old versions or delete markers. */
  deleteVersions(bucket: BucketRef, versions: OldVersion[]): Promise<DeleteOutcome>;

  /** A presigned GET, valid `expiresIn` seconds; `filename` makes browsers save it under that name. */
  presignGet(bucket: BucketRef, key: string, options: PresignOptions & { filename?: string }): Promise<string>;
  /**
   * A presigned PUT bound to the content type and, when given, the size (signed headers). Without
   * a size any length is accepted: the caller checks what arrived (HeadObject).
   */
  presignPut(
    bucket: BucketRef,
    key: string,
    options: PresignOptions & { contentType: string; size?: number },
  ): Promise<string>;

  getVersioning(bucket: BucketRef): Promise<Versioning>;
  setVersioning(bucket: BucketRef, enabled: boolean): Promise<Versioning>;
  /** Every CORS rule of the bucket, the platform's own `reserved-uploads` rule included. */
  getCors(bucket: BucketRef): Promise<CorsRule[]>;
  /** Replaces every CORS rule of the bucket (callers keep the reserved rule in the list). */
  putCors(bucket: BucketRef, rules: CorsRule[]): Promise<void>;
  /** The lifecycle rules in S3's own shape, rules the platform did not write included. */
  getLifecycle(bucket: BucketRef): Promise<S3LifecycleRule[]>;
  /** Replaces the lifecycle rules (an empty list removes the configuration). */
  putLifecycle(bucket: BucketRef, rules: S3LifecycleRule[]): Promise<void>;
  /** True when every public access is blocked (all four settings of the public access block). */
  getPublicAccessBlocked(bucket: BucketRef): Promise<boolean>;
}

/** A bucket by its S3 name and its region (links are signed for the bucket's own region). */
export interface BucketRef {
  name: string;
  region?: string;
}

export type Versioning = 'Enabled' | 'Suspended' | 'Disabled';

export interface PresignOptions {
  expiresIn: number;
  /** When the link's validity starts (now unless given). */
  signingDate?: Date;
}

export interface FileEntry {
  key: string;
  size: number;
  lastModified?: number;
  etag?: string;
  storageClass: string;
}

export interface FolderPage {
  folders: string[];
  files: FileEntry[];
  /** S3's continuation token when there is a next page. */
  nextToken?: string;
}

export interface KeyPage {
  keys: { key: string; size: number }[];
  truncated: boolean;
  nextToken?: string;
}

export interface DeleteOutcome {
  deleted: number;
  errors: { key: string; code?: string; message: string }[];
}

export interface OldVersion {
  key: string;
  versionId: string;
}
