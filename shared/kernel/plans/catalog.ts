import { conflict, notFound } from '../ground/errors';
import { db } from '../store/client';
import { PutCommand } from '../store/commands';
import { PREFIXES } from '../store/keys';
import { queryAll, transact, updateVersioned } from '../store/ops';
import { type Item, TABLE } from '../store/table';

/**
 * The platform's catalogs (regions and locations, plans, models): one partition each in the
 * platform table, read in one Query, seeded once with defaults (from the configuration) the first
 * time anyone reads it. The `SEEDED` item says it was: an operator's later changes are never
 * overwritten by the defaults, and two first readers seed it once (a transaction).
 */
export const CATALOG = {
  /** Regions (`REGION#<id>`), locations (`LOCATION#<id>`) and the default location (`DEFAULT`). */
  geo: `${PREFIXES.plans.platform}GEO`,
  plans: `${PREFIXES.plans.platform}PLANS`,
  models: `${PREFIXES.plans.platform}MODELS`,
} as const;

const SEEDED = 'SEEDED';

/** Every entry of a catalog (its `SEEDED` mark left out), seeded with `seed()` on the first read. */
export async function readCatalog<T>(pk: string, seed: () => Omit<Item, 'pk'>[], consistent = false): Promise<T[]> {
  const read = (c: boolean) =>
    queryAll<Item>({
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': pk },
      ConsistentRead: c,
    });
  const items = await read(consistent);
  if (items.some((i) => i.sk === SEEDED)) return items.filter((i) => i.sk !== SEEDED) as unknown as T[];
  const create = (item: Record<string, unknown>) => ({
    Put: { TableName: TABLE(), Item: item, ConditionExpression: 'attribute_not_exists(pk)' },
  });
  try {
    await transact([
      create({ pk, sk: SEEDED, at: Date.now() }),
      ...seed().map((i) => create({ ...i, pk, version: 1, updatedAt: Date.now() })),
    ]);
  } catch (err) {
    // Seeded by another reader meanwhile (a condition failed): its entries are read below. A
    // transaction cancelled for another reason (throttling) wrote nothing: it is the caller's error.
    const reasons = (err as { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? [];
    if (!reasons.some((r) => r.Code === 'ConditionalCheckFailed')) throw err;
  }
  return (await read(true)).filter((i) => i.sk !== SEEDED) as unknown as T[];
}

/**
 * Writes one entry: a new one (every field its kind needs is given) is created at version 1;
 * an existing one gets the fields given, guarded by `ifVersion` when given (stale: 409).
 */
export async function putEntry<T>(input: {
  key: { pk: string; sk: string };
  existing: { version: number } | undefined;
  fields: Record<string, unknown>;
  ifVersion?: number;
  stale: string;
  notFoundMessage: string;
  /** The fields a new entry must have. */
  required: string[];
}): Promise<{ entry: T; created: boolean }> {
  const { key, existing, fields, ifVersion, stale } = input;
  const now = Date.now();
  if (!existing) {
    if (ifVersion !== undefined || input.required.some((f) => fields[f] === undefined)) {
      throw notFound(input.notFoundMessage);
    }
    const item = { ...key, ...fields, version: 1, updatedAt: now };
    try {
      await db.send(
        new PutCommand({ TableName: TABLE(), Item: item, ConditionExpression: 'attribute_not_exists(pk)' }),
      );
    } catch (err) {
      if ((err as Error).name === 'ConditionalCheckFailedException') throw conflict(stale);
      throw err;
    }
    return { entry: item as unknown as T, created: true };
  }
  const entry = await updateVersioned<T>(key, ifVersion, { ...fields, updatedAt: now }, stale);
  return { entry, created: false };
}
