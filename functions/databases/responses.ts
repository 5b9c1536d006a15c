import * as z from 'zod/mini';
import { BILLING_MODES, TABLE_CLASSES } from '../../shared/domains/databases/settings';
import { Resource } from '../../shared/domains/resources/record-schemas';
import type { ResponseDocs } from '../../shared/kernel/http/responses';

/** Success responses of the databases routes (see shared/kernel/http/responses.ts): documentation only. */

const count = z.int().check(z.minimum(0));

const KeyAttribute = z.object({ name: z.string(), type: z.enum(['S', 'N', 'B']) });
const BillingMode = z.enum(BILLING_MODES);
const TableClass = z.enum(TABLE_CLASSES);

/** Spec part A, "Table description (databases)". Statuses are DynamoDB's (`UPDATING` while an index is busy). */
const TableDescription = z.object({
  name: z.string(),
  status: z.string(),
  partitionKey: KeyAttribute,
  sortKey: z.optional(KeyAttribute),
  indexes: z.array(
    z.object({
      name: z.string(),
      kind: z.enum(['local', 'global']),
      partitionKey: KeyAttribute,
      sortKey: z.optional(KeyAttribute),
      projection: z.object({
        type: z.enum(['ALL', 'KEYS_ONLY', 'INCLUDE']),
        attributes: z.optional(z.array(z.string())),
      }),
      /** Global indexes only. */
      status: z.optional(z.string()),
      /** Global indexes only: not queryable yet. */
      backfilling: z.optional(z.boolean()),
      itemCount: z.optional(count),
      sizeBytes: z.optional(count),
    }),
  ),
  itemCount: count,
  sizeBytes: count,
  billingMode: BillingMode,
  tableClass: TableClass,
  deletionProtection: z.boolean(),
  createdAt: z.optional(z.number()),
});

/** The list's summary of a table. */
const TableSummary = z.object({
  status: z.string(),
  itemCount: count,
  sizeBytes: count,
  partitionKey: KeyAttribute,
  sortKey: z.optional(KeyAttribute),
  indexCount: count,
  deletionProtection: z.boolean(),
});

/** A database of the list: with its table's summary, or `table: null` and why (`error` replaces the cause). */
const DatabaseEntry = z.union([
  z.extend(Resource, { table: TableSummary }),
  z.extend(Resource, { table: z.null(), error: z.enum(['missing', 'unavailable']) }),
]);

/**
 * Spec part A, "Attribute value": exactly one type key. `M` and `L` nest attribute values; the
 * nesting is left open here (the OpenAPI generator takes no recursive schemas).
 */
const AttributeValue = z.union([
  z.object({ S: z.string() }),
  z.object({ N: z.string() }),
  /** Base64. */
  z.object({ B: z.string() }),
  z.object({ BOOL: z.boolean() }),
  z.object({ NULL: z.literal(true) }),
  z.object({ M: z.record(z.string(), z.unknown()) }),
  z.object({ L: z.array(z.unknown()) }),
  z.object({ SS: z.array(z.string()) }),
  z.object({ NS: z.array(z.string()) }),
  z.object({ BS: z.array(z.string()) }),
]);
const Item = z.record(z.string(), AttributeValue);

/** One page of a scan or a query; `cursor` is there while more items may follow. */
const Page = z.object({
  items: z.array(Item),
  count,
  scanned: count,
  cursor: z.optional(z.string()),
  /** Capacity units the call consumed. */
  consumed: z.optional(z.number().check(z.minimum(0))),
});

const Capacity = z.nullable(z.object({ read: count, write: count }));

const Metrics = z.object({
  itemCount: count,
  sizeBytes: count,
  averageItemBytes: count,
  indexes: z.array(z.object({ name: z.string(), status: z.string(), itemCount: count, sizeBytes: count })),
  billingMode: BillingMode,
  /** Provisioned tables only; null on demand. */
  capacity: Capacity,
  source: z.literal('DescribeTable'),
  refreshedEvery: z.literal('6 hours'),
  at: z.number(),
});

const Capability = z.enum(['pointInTimeRecovery', 'tableClass', 'tags']);

const Settings = z.object({
  deletionProtection: z.boolean(),
  pointInTimeRecovery: z.object({ enabled: z.boolean(), supported: z.boolean() }),
  ttl: z.object({
    attribute: z.nullable(z.string()),
    enabled: z.boolean(),
    status: z.enum(['ENABLING', 'DISABLING', 'ENABLED', 'DISABLED']),
    supported: z.boolean(),
  }),
  tableClass: TableClass,
  billingMode: BillingMode,
  capacity: Capacity,
  tags: z.record(z.string(), z.string()),
  /** What this platform's table store lacks, explained in `notes`. */
  unsupported: z.array(Capability),
  notes: z.array(z.string()),
});

const SettingName = z.enum([
  'deletionProtection',
  'billingMode',
  'capacity',
  'tableClass',
  'ttl',
  'pointInTimeRecovery',
]);

export const responses: ResponseDocs = {
  'GET /v1/orgs/:orgId/databases': { 200: z.object({ databases: z.array(DatabaseEntry) }) },
  'GET /v1/orgs/:orgId/databases/:resourceId': {
    200: z.object({ database: Resource, table: z.nullable(TableDescription) }),
  },
  'POST /v1/orgs/:orgId/databases/:resourceId/scan': { 200: Page },
  'POST /v1/orgs/:orgId/databases/:resourceId/query': { 200: Page },
  'POST /v1/orgs/:orgId/databases/:resourceId/items/get': { 200: z.object({ item: Item }) },
  /** 201 when it created the item, 200 when it replaced `original`. */
  'PUT /v1/orgs/:orgId/databases/:resourceId/items': { 200: z.object({ item: Item }), 201: z.object({ item: Item }) },
  'POST /v1/orgs/:orgId/databases/:resourceId/items/delete': { 204: null },
  'POST /v1/orgs/:orgId/databases/:resourceId/indexes': { 202: z.object({ table: TableDescription }) },
  'DELETE /v1/orgs/:orgId/databases/:resourceId/indexes/:indexName': { 202: z.object({ table: TableDescription }) },
  'GET /v1/orgs/:orgId/databases/:resourceId/metrics': { 200: z.object({ metrics: Metrics }) },
  'GET /v1/orgs/:orgId/databases/:resourceId/settings': { 200: z.object({ settings: Settings }) },
  'PATCH /v1/orgs/:orgId/databases/:resourceId/settings': {
    200: z.object({ settings: Settings, applied: z.array(SettingName), skipped: z.array(SettingName) }),
  },
  'PATCH /v1/orgs/:orgId/databases/:resourceId/tags': {
    200: z.object({ tags: z.record(z.string(), z.string()), applied: z.boolean(), notes: z.array(z.string()) }),
  },
  'DELETE /v1/orgs/:orgId/databases/:resourceId': { 204: null },
};
