import * as z from 'zod/mini';
import { Resource } from '../../shared/domains/resources/record-schemas';
import type { ResponseDocs } from '../../shared/kernel/http/responses';

/** Success responses of the storage routes (see shared/kernel/http/responses.ts): documentation only. */

/** Spec part A, "Bucket usage": the latest daily figures, null until the daily job measured them. */
const Usage = z.nullable(
  z.object({
    sizeBytes: z.optional(z.int().check(z.minimum(0))),
    objects: z.optional(z.int().check(z.minimum(0))),
    at: z.optional(z.number()),
  }),
);

const Versioning = z.enum(['Enabled', 'Suspended', 'Disabled']);

/** Spec part A, "Storage class values" (S3's names, as the spec renames them). */
const StorageClass = z.enum([
  'STANDARD',
  'STANDARD_IA',
  'ONEZONE_IA',
  'INTELLIGENT_TIERING',
  'REDUCED_REDUNDANCY',
  'DEEP_ARCHIVE',
  'ARCHIVE',
  'ARCHIVE_IR',
  'EXPRESS_ONEZONE',
  'OUTPOSTS',
  'SNOW',
  'CLOUD_BACKUP_LOW_COST_WARM',
  'CLOUD_BACKUP_WARM',
  'FS_ONTAP',
  'FS_OPENZFS',
]);

const File = z.object({
  key: z.string(),
  size: z.int().check(z.minimum(0)),
  /** Epoch milliseconds. */
  lastModified: z.optional(z.number()),
  etag: z.optional(z.string()),
  storageClass: StorageClass,
});

const ObjectInfo = z.object({
  key: z.string(),
  size: z.int().check(z.minimum(0)),
  contentType: z.optional(z.string()),
  lastModified: z.optional(z.number()),
  etag: z.optional(z.string()),
  storageClass: StorageClass,
  versionId: z.optional(z.string()),
  cacheControl: z.optional(z.string()),
  contentEncoding: z.optional(z.string()),
  contentDisposition: z.optional(z.string()),
  encryption: z.optional(z.enum(['AES256', 'cloud:backup', 'cloud:fs', 'cloud:kms', 'cloud:kms:dsse'])),
  metadata: z.record(z.string(), z.string()),
});

/** Spec part A, "CorsRule": S3's own field names. */
const CorsRule = z.object({
  ID: z.optional(z.string()),
  AllowedHeaders: z.optional(z.array(z.string())),
  AllowedMethods: z.optional(z.array(z.enum(['GET', 'PUT', 'POST', 'DELETE', 'HEAD']))),
  AllowedOrigins: z.optional(z.array(z.string())),
  ExposeHeaders: z.optional(z.array(z.string())),
  MaxAgeSeconds: z.optional(z.int()),
});

/** Spec part A, "LifecycleRule": `other` is a rule the platform did not write. */
const LifecycleRule = z.object({
  id: z.string(),
  prefix: z.string(),
  enabled: z.boolean(),
  expirationDays: z.optional(z.int()),
  noncurrentDays: z.optional(z.int()),
  other: z.boolean(),
});

/** Seconds a presigned link stays valid. */
const ExpiresIn = z.int().check(z.minimum(1));

export const responses: ResponseDocs = {
  'GET /v1/orgs/:orgId/storage': {
    200: z.object({ buckets: z.array(z.extend(Resource, { usage: Usage })) }),
  },
  'GET /v1/orgs/:orgId/storage/:resourceId': {
    200: z.object({ bucket: Resource, versioning: z.nullable(Versioning), usage: Usage }),
  },
  'GET /v1/orgs/:orgId/storage/:resourceId/objects': {
    200: z.object({
      prefix: z.string(),
      folders: z.array(z.string()),
      files: z.array(File),
      cursor: z.nullable(z.string()),
    }),
  },
  'GET /v1/orgs/:orgId/storage/:resourceId/object': { 200: z.object({ object: ObjectInfo }) },
  'GET /v1/orgs/:orgId/storage/:resourceId/download': { 200: z.object({ url: z.string(), expiresIn: ExpiresIn }) },
  'POST /v1/orgs/:orgId/storage/:resourceId/uploads': {
    200: z.object({
      uploads: z.array(z.object({ key: z.string(), url: z.string(), contentType: z.string() })),
      expiresIn: ExpiresIn,
    }),
  },
  'POST /v1/orgs/:orgId/storage/:resourceId/folders': { 201: z.object({ key: z.string() }) },
  'POST /v1/orgs/:orgId/storage/:resourceId/objects/delete': {
    200: z.object({ deleted: z.int().check(z.minimum(0)), done: z.boolean() }),
  },
  'GET /v1/orgs/:orgId/storage/:resourceId/settings': {
    200: z.object({
      versioning: Versioning,
      cors: z.array(CorsRule),
      cloudCors: CorsRule,
      lifecycle: z.array(LifecycleRule),
      publicAccessBlocked: z.boolean(),
    }),
  },
  'PUT /v1/orgs/:orgId/storage/:resourceId/cors': { 200: z.object({ cors: z.array(CorsRule) }) },
  'PUT /v1/orgs/:orgId/storage/:resourceId/versioning': {
    200: z.object({ versioning: z.enum(['Enabled', 'Suspended']) }),
  },
  'POST /v1/orgs/:orgId/storage/:resourceId/lifecycle': {
    201: z.object({ rule: LifecycleRule, lifecycle: z.array(LifecycleRule) }),
  },
  'DELETE /v1/orgs/:orgId/storage/:resourceId/lifecycle/:ruleId': {
    200: z.object({ lifecycle: z.array(LifecycleRule) }),
  },
  'DELETE /v1/orgs/:orgId/storage/:resourceId': { 204: null },
};
