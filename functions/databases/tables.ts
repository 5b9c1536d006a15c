import * as z from 'zod/mini';
import { getDatabase, listDatabases } from '../../shared/domains/databases/describe';
import {
  addIndex,
  INDEX_NOT_FOUND,
  LIST_ATTRIBUTES,
  LOCAL_INDEX,
  ON_DEMAND_ONLY,
  ONLY_INCLUDE_LISTS,
  removeIndex,
  SAME_KEYS,
} from '../../shared/domains/databases/indexes';
import { DATABASE_NOT_FOUND, forget, loadDatabase, requireTable } from '../../shared/domains/databases/load';
import { readMetrics } from '../../shared/domains/databases/metrics';
import { deleteDatabaseTable } from '../../shared/domains/databases/provision';
import {
  BILLING_MODES,
  CAPACITY_PROVISIONED,
  changeSettings,
  NOTHING_TO_CHANGE,
  ONE_AT_A_TIME,
  readSettings,
  TABLE_CLASSES,
  TTL_ATTRIBUTE,
} from '../../shared/domains/databases/settings';
import { PROTECTED } from '../../shared/domains/databases/tables';
import { changeTags, RESERVED_TAG, TOO_MANY_TAGS } from '../../shared/domains/databases/tags';
import { deleteResource } from '../../shared/domains/resources/delete';
import { KeyAttributeSchema } from '../../shared/domains/resources/schema';
import { accepted, noContent, ok, route } from '../../shared/kernel/http/route';
import { AttributeName, BACKEND, NOT_FOUND, Params } from './common';

/** The databases and their tables: describe, indexes, metrics, settings, tags, delete. */
export const tableRoutes = [
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/databases',
    scope: 'resources:read',
    summary:
      'The databases, oldest first, each with a summary of its table, or `table: null` with `error` ' +
      '`missing` (no table) or `unavailable` (the table store did not answer).',
    read: async ({ orgId }) => ({ databases: await listDatabases(orgId) }),
  }),
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/databases/:resourceId',
    scope: 'resources:read',
    summary: 'The database and its table description; `table` is null when the table does not exist.',
    params: Params,
    errors: { 404: [DATABASE_NOT_FOUND] },
    read: ({ orgId, params }) => getDatabase(orgId, params.resourceId),
  }),
  route({
    method: 'POST',
    path: '/v1/orgs/:orgId/databases/:resourceId/indexes',
    scope: 'resources:write',
    summary: 'Adds a global secondary index; 202 with the table, `UPDATING` while the index backfills.',
    params: Params,
    body: z.object({
      name: z.string().check(z.regex(/^[A-Za-z0-9_.-]{3,255}$/, 'Use 3-255 letters, digits, _ . or -.')),
      partitionKey: KeyAttributeSchema,
      sortKey: z.optional(KeyAttributeSchema),
      projection: z.object({
        type: z.enum(['ALL', 'KEYS_ONLY', 'INCLUDE']),
        attributes: z.optional(
          z.array(z.string().check(z.minLength(1), z.maxLength(255))).check(z.minLength(1), z.maxLength(20)),
        ),
      }),
    }),
    errors: {
      400: [LIST_ATTRIBUTES, ONLY_INCLUDE_LISTS, SAME_KEYS, '... is already a ... key attribute; use that type.'],
      404: NOT_FOUND,
      409: [ON_DEMAND_ONLY, 'An index named ... already exists.', ...BACKEND[409]],
      429: BACKEND[429],
      502: BACKEND[502],
    },
    run: async ({ org, params, body }) => {
      const db = requireTable(await loadDatabase(org.orgId, params.resourceId));
      return accepted({ table: await addIndex(db, body) });
    },
  }),
  route({
    method: 'DELETE',
    path: '/v1/orgs/:orgId/databases/:resourceId/indexes/:indexName',
    scope: 'resources:write',
    summary: 'Removes a global secondary index; 202 with the table while DynamoDB removes it.',
    params: z.object({ orgId: z.string(), resourceId: z.string(), indexName: z.string() }),
    errors: {
      400: [LOCAL_INDEX],
      404: [...NOT_FOUND, INDEX_NOT_FOUND],
      409: ['Wait for index ... to finish building, then try again.', ...BACKEND[409]],
      429: BACKEND[429],
      502: BACKEND[502],
    },
    run: async ({ org, params }) => {
      const db = requireTable(await loadDatabase(org.orgId, params.resourceId));
      return accepted({ table: await removeIndex(db, params.indexName) });
    },
  }),
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/databases/:resourceId/metrics',
    scope: 'resources:read',
    summary: 'Items and bytes of the table and its indexes, and provisioned capacity, as DynamoDB describes them.',
    params: Params,
    errors: { 404: NOT_FOUND, ...BACKEND },
    run: async ({ org, params }) => {
      const db = requireTable(await loadDatabase(org.orgId, params.resourceId));
      return ok({ metrics: await readMetrics(db) });
    },
  }),
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/databases/:resourceId/settings',
    scope: 'resources:read',
    summary:
      'Deletion protection, point-in-time recovery, time to live, table class, billing mode and capacity, tags; ' +
      "what this platform's table store lacks is named in `unsupported` and `notes`.",
    params: Params,
    errors: { 404: NOT_FOUND, ...BACKEND },
    run: async ({ org, params }) => {
      const db = requireTable(await loadDatabase(org.orgId, params.resourceId));
      return ok({ settings: await readSettings(db) });
    },
  }),
  route({
    method: 'PATCH',
    path: '/v1/orgs/:orgId/databases/:resourceId/settings',
    scope: 'resources:write',
    summary:
      "Changes settings; answers them with `applied` and `skipped` (settings this platform's table store lacks " +
      'are skipped, not failed).',
    params: Params,
    body: z.object({
      deletionProtection: z.optional(z.boolean()),
      pointInTimeRecovery: z.optional(z.boolean()),
      ttl: z.optional(z.object({ enabled: z.boolean(), attribute: z.optional(AttributeName) })),
      tableClass: z.optional(z.enum(TABLE_CLASSES)),
      billingMode: z.optional(z.enum(BILLING_MODES)),
      capacity: z.optional(
        z.object({
          read: z.int().check(z.minimum(1), z.maximum(40000)),
          write: z.int().check(z.minimum(1), z.maximum(40000)),
        }),
      ),
    }),
    errors: {
      400: [NOTHING_TO_CHANGE, TTL_ATTRIBUTE, ONE_AT_A_TIME, CAPACITY_PROVISIONED],
      404: NOT_FOUND,
      ...BACKEND,
    },
    run: async ({ org, params, body }) => {
      const db = requireTable(await loadDatabase(org.orgId, params.resourceId));
      return ok(await changeSettings(db, body));
    },
  }),
  route({
    method: 'PATCH',
    path: '/v1/orgs/:orgId/databases/:resourceId/tags',
    scope: 'resources:write',
    summary:
      'Sets (`"key": "value"`) and removes (`"key": null`) tags; kept on the database and applied to the table ' +
      'where the table store supports tags (`applied`).',
    params: Params,
    body: z.object({
      tags: z
        .record(
          z
            .string()
            .check(
              z.regex(/^[\p{L}\p{Z}\p{N}_.:/=+\-@]{1,128}$/u, 'Use 1-128 letters, digits, spaces and _ . : / = + - @.'),
            ),
          z.nullable(
            z
              .string()
              .check(
                z.regex(
                  /^[\p{L}\p{Z}\p{N}_.:/=+\-@]{0,256}$/u,
                  'Use up to 256 letters, digits, spaces and _ . : / = + - @.',
                ),
              ),
          ),
        )
        .check(z.refine((t) => Object.keys(t).length >= 1 && Object.keys(t).length <= 50, 'Change 1 to 50 tags.')),
    }),
    errors: {
      ...BACKEND,
      400: [RESERVED_TAG, TOO_MANY_TAGS],
      404: NOT_FOUND,
      409: ['This resource changed since it was read. Reload and try again.', ...BACKEND[409]],
    },
    run: async ({ org, params, body }) => {
      const db = requireTable(await loadDatabase(org.orgId, params.resourceId));
      return ok(await changeTags(db, body.tags));
    },
  }),
  route({
    method: 'DELETE',
    path: '/v1/orgs/:orgId/databases/:resourceId',
    scope: 'resources:write',
    summary:
      'Deletes the database and its table (the same deletion as DELETE .../resources/database/:resourceId). ' +
      'A table already gone does not keep the record.',
    params: Params,
    errors: {
      404: [DATABASE_NOT_FOUND],
      409: [PROTECTED, 'Wait for index ... to finish ..., then try again.', ...BACKEND[409]],
      429: BACKEND[429],
      502: BACKEND[502],
    },
    run: async ({ org, params }) => {
      const db = await loadDatabase(org.orgId, params.resourceId);
      await deleteResource(db, deleteDatabaseTable);
      forget(org.orgId, params.resourceId);
      return noContent();
    },
  }),
];
