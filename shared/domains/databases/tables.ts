import { conflict } from '../../kernel/ground/errors';
import { sleep } from '../../kernel/store/table';
import { customerDynamo } from '../../ports/customer-tables/client';
import {
  CreateTableCommand,
  DeleteTableCommand,
  DescribeTableCommand,
  type GlobalSecondaryIndexDescription,
  type KeySchemaElement,
  type LocalSecondaryIndexDescription,
  type TableDescription as SdkTable,
} from '../../ports/customer-tables/commands';
import type { KeyAttribute, KeySchema } from '../resources/schema';

/** Spec part A, "Table description (databases)". */
export interface IndexOut {
  name: string;
  kind: 'local' | 'global';
  partitionKey: KeyAttribute;
  sortKey?: KeyAttribute;
  projection: { type: 'ALL' | 'KEYS_ONLY' | 'INCLUDE'; attributes?: string[] };
  status?: string;
  backfilling?: boolean;
  itemCount?: number;
  sizeBytes?: number;
}

export interface TableOut {
  name: string;
  status: string;
  partitionKey: KeyAttribute;
  sortKey?: KeyAttribute;
  indexes: IndexOut[];
  itemCount: number;
  sizeBytes: number;
  billingMode: string;
  tableClass: string;
  deletionProtection: boolean;
  createdAt?: number;
}

export type { SdkTable };

const isNotFound = (err: unknown) => (err as Error).name === 'ResourceNotFoundException';

/** The table's description, or undefined when it does not exist (deleted outside the platform). */
export async function describeTable(region: string, name: string): Promise<SdkTable | undefined> {
  try {
    const out = await customerDynamo(region).send(new DescribeTableCommand({ TableName: name }));
    return out.Table;
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

function attributeOf(t: SdkTable, name: string): KeyAttribute {
  const type = t.AttributeDefinitions?.find((a) => a.AttributeName === name)?.AttributeType ?? 'S';
  return { name, type };
}

function keysOf(t: SdkTable, schema: KeySchemaElement[] | undefined): KeySchema {
  const hash = schema?.find((k) => k.KeyType === 'HASH')?.AttributeName ?? '';
  const range = schema?.find((k) => k.KeyType === 'RANGE')?.AttributeName;
  return { partitionKey: attributeOf(t, hash), ...(range ? { sortKey: attributeOf(t, range) } : {}) };
}

/** The key schema of the table, or of one of its indexes (undefined: no index by that name). */
export function keySchemaOf(t: SdkTable, index?: string): KeySchema | undefined {
  if (index === undefined) return keysOf(t, t.KeySchema);
  const found = [...(t.GlobalSecondaryIndexes ?? []), ...(t.LocalSecondaryIndexes ?? [])].find(
    (i) => i.IndexName === index,
  );
  return found ? keysOf(t, found.KeySchema) : undefined;
}

/** An index is busy while it is created (and backfilled), updated or removed. */
export const indexBusy = (g: GlobalSecondaryIndexDescription) =>
  (g.IndexStatus !== undefined && g.IndexStatus !== 'ACTIVE') || g.Backfilling === true;

function indexOut(
  t: SdkTable,
  i: GlobalSecondaryIndexDescription | LocalSecondaryIndexDescription,
  kind: IndexOut['kind'],
): IndexOut {
  const keys = keysOf(t, i.KeySchema);
  const g = i as GlobalSecondaryIndexDescription;
  const out: IndexOut = {
    name: i.IndexName ?? '',
    kind,
    partitionKey: keys.partitionKey,
    ...(keys.sortKey ? { sortKey: keys.sortKey } : {}),
    projection: {
      type: (i.Projection?.ProjectionType ?? 'ALL') as IndexOut['projection']['type'],
      ...(i.Projection?.NonKeyAttributes ? { attributes: i.Projection.NonKeyAttributes } : {}),
    },
  };
  if (kind === 'global') {
    out.status = g.IndexStatus ?? 'ACTIVE';
    // DynamoDB Local never reports Backfilling: a CREATING index is not queryable yet either way.
    out.backfilling = g.Backfilling === true || g.IndexStatus === 'CREATING';
  }
  if (i.ItemCount !== undefined) out.itemCount = i.ItemCount;
  if (i.IndexSizeBytes !== undefined) out.sizeBytes = i.IndexSizeBytes;
  return out;
}

/**
 * The table's status as the API reports it: `UPDATING` while an index is created, backfilled or
 * removed, even where the engine keeps the table itself `ACTIVE` meanwhile (DynamoDB Local does).
 */
export function statusOf(t: SdkTable): string {
  const status = t.TableStatus ?? 'ACTIVE';
  if (status === 'ACTIVE' && (t.GlobalSecondaryIndexes ?? []).some(indexBusy)) return 'UPDATING';
  return status;
}

export const billingModeOf = (t: SdkTable) => t.BillingModeSummary?.BillingMode ?? 'PROVISIONED';
export const tableClassOf = (t: SdkTable) => t.TableClassSummary?.TableClass ?? 'STANDARD';

/** The spec's table description of a DynamoDB description. */
export function tableOut(t: SdkTable): TableOut {
  const keys = keysOf(t, t.KeySchema);
  return {
    name: t.TableName ?? '',
    status: statusOf(t),
    partitionKey: keys.partitionKey,
    ...(keys.sortKey ? { sortKey: keys.sortKey } : {}),
    indexes: [
      ...(t.GlobalSecondaryIndexes ?? []).map((i) => indexOut(t, i, 'global')),
      ...(t.LocalSecondaryIndexes ?? []).map((i) => indexOut(t, i, 'local')),
    ],
    itemCount: t.ItemCount ?? 0,
    sizeBytes: t.TableSizeBytes ?? 0,
    billingMode: billingModeOf(t),
    tableClass: tableClassOf(t),
    deletionProtection: t.DeletionProtectionEnabled === true,
    ...(t.CreationDateTime ? { createdAt: t.CreationDateTime.getTime() } : {}),
  };
}

/** Creates an on-demand table with `keys`; answers the new table's description. */
export async function createTable(
  region: string,
  name: string,
  keys: KeySchema,
  tags: Record<string, string>,
): Promise<SdkTable> {
  const attrs = keys.sortKey ? [keys.partitionKey, keys.sortKey] : [keys.partitionKey];
  const out = await customerDynamo(region).send(
    new CreateTableCommand({
      TableName: name,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: attrs.map((a) => ({ AttributeName: a.name, AttributeType: a.type })),
      KeySchema: [
        { AttributeName: keys.partitionKey.name, KeyType: 'HASH' },
        ...(keys.sortKey ? [{ AttributeName: keys.sortKey.name, KeyType: 'RANGE' as const }] : []),
      ],
      Tags: Object.entries(tags).map(([Key, Value]) => ({ Key, Value })),
    }),
  );
  return out.TableDescription ?? {};
}

/**
 * Waits up to `ms` for a new table to be ACTIVE (DynamoDB Local: at once; AWS: a few seconds for
 * an on-demand table). Answers the last description; a table still CREATING is left to the lazy
 * status refresh of the routes that read it.
 */
export async function waitForTable(region: string, name: string, ms: number): Promise<SdkTable | undefined> {
  const until = Date.now() + ms;
  for (let delay = 100; ; delay = Math.min(delay * 2, 1000)) {
    const t = await describeTable(region, name);
    if (t?.TableStatus !== 'CREATING' || Date.now() + delay > until) return t;
    await sleep(delay);
  }
}

export const PROTECTED = 'Turn off deletion protection first.';

/** `Wait for index byEmail to finish building, then try again.` while an index is busy. */
export function indexBusyMessage(g: GlobalSecondaryIndexDescription): string {
  const doing = g.IndexStatus === 'DELETING' ? 'deleting' : g.IndexStatus === 'UPDATING' ? 'updating' : 'building';
  return `Wait for index ${g.IndexName} to finish ${doing}, then try again.`;
}

/**
 * Deletes a customer table under the spec's rules: 409 while deletion protection is on or an
 * index is busy. Answers `missing` when the table was already gone (deleted outside the platform).
 */
export async function deleteTable(region: string, name: string): Promise<'deleted' | 'missing'> {
  const t = await describeTable(region, name);
  if (!t) return 'missing';
  if (t.DeletionProtectionEnabled) throw conflict(PROTECTED);
  const busy = (t.GlobalSecondaryIndexes ?? []).find(indexBusy);
  if (busy) throw conflict(indexBusyMessage(busy));
  try {
    await customerDynamo(region).send(new DeleteTableCommand({ TableName: name }));
    return 'deleted';
  } catch (err) {
    if (isNotFound(err)) return 'missing';
    // Turned on between the description and the call: the same answer as above.
    if ((err as Error).name === 'ValidationException' && /protect/i.test((err as Error).message)) {
      throw conflict(PROTECTED);
    }
    throw err;
  }
}
