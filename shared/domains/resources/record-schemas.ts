import * as z from 'zod/mini';
import { RESOURCE_TYPES } from './resource-types';

/**
 * The records the resource routes (resources, databases, storage, repos) answer, each declared once and
 * registered by its id: lib/openapi.ts names them in `components.schemas`, the typed client declares a type
 * of each. Only documentation (functions/<group>/responses.ts) imports these values, so they stay out of
 * the Lambda bundles; code imports their types.
 */

/** Spec part A, "Resource record", as toResource answers it (no `version`, `keys` or `tags`). */
export const Resource = z
  .object({
    resourceId: z.string(),
    type: z.enum(RESOURCE_TYPES),
    name: z.string(),
    status: z.optional(z.enum(['error', 'active', 'creating', 'deleting'])),
    /** Why provisioning failed, when `status` is `error`. */
    error: z.optional(z.string()),
    description: z.optional(z.string()),
    createdAt: z.optional(z.number()),
    updatedAt: z.optional(z.number()),
    region: z.string(),
    orgId: z.string(),
    createdBy: z.string(),
    projectId: z.optional(z.string()),
    location: z.string(),
    arn: z.optional(z.string()),
    physicalName: z.string(),
  })
  .register(z.globalRegistry, { id: 'Resource' });
export type Resource = z.output<typeof Resource>;

/** Spec part A, "Bucket usage": the latest daily figures, null until the daily job measured them. */
export const Usage = z.nullable(
  z.object({
    sizeBytes: z.optional(z.int().check(z.minimum(0))),
    objects: z.optional(z.int().check(z.minimum(0))),
    at: z.optional(z.number()),
  }),
);

export const Versioning = z.enum(['Enabled', 'Suspended', 'Disabled']);

/** Spec part A, "Storage class values" (S3's names, as the spec renames them). */
export const StorageClass = z.enum([
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

export const StorageFile = z
  .object({
    key: z.string(),
    size: z.int().check(z.minimum(0)),
    /** Epoch milliseconds. */
    lastModified: z.optional(z.number()),
    etag: z.optional(z.string()),
    storageClass: StorageClass,
  })
  .register(z.globalRegistry, { id: 'StorageFile' });
export type StorageFile = z.output<typeof StorageFile>;

export const ObjectInfo = z
  .object({
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
  })
  .register(z.globalRegistry, { id: 'ObjectInfo' });
export type ObjectInfo = z.output<typeof ObjectInfo>;

/** Spec part A, "CorsRule": S3's own field names. */
export const CorsRule = z
  .object({
    ID: z.optional(z.string()),
    AllowedHeaders: z.optional(z.array(z.string())),
    AllowedMethods: z.optional(z.array(z.enum(['GET', 'PUT', 'POST', 'DELETE', 'HEAD']))),
    AllowedOrigins: z.optional(z.array(z.string())),
    ExposeHeaders: z.optional(z.array(z.string())),
    MaxAgeSeconds: z.optional(z.int()),
  })
  .register(z.globalRegistry, { id: 'CorsRule' });
export type CorsRule = z.output<typeof CorsRule>;

/** Spec part A, "LifecycleRule": `other` is a rule the platform did not write. */
export const LifecycleRule = z
  .object({
    id: z.string(),
    prefix: z.string(),
    enabled: z.boolean(),
    expirationDays: z.optional(z.int()),
    noncurrentDays: z.optional(z.int()),
    other: z.boolean(),
  })
  .register(z.globalRegistry, { id: 'LifecycleRule' });
export type LifecycleRule = z.output<typeof LifecycleRule>;

/** Seconds a presigned link stays valid. */
export const ExpiresIn = z.int().check(z.minimum(1));
