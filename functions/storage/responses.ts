import * as z from 'zod/mini';
import {
  CorsRule,
  ExpiresIn,
  LifecycleRule,
  ObjectInfo,
  Resource,
  StorageFile,
  Usage,
  Versioning,
} from '../../shared/domains/resources/record-schemas';
import type { ResponseDocs } from '../../shared/kernel/http/responses';

/** Success responses of the storage routes (see shared/kernel/http/responses.ts): documentation only. */

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
      files: z.array(StorageFile),
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
