import { backendError } from '../../kernel/ground/backend-errors';
import { notFound } from '../../kernel/ground/errors';
import { getResource } from '../resources/records';
import type { KeySchema, ResourceRecord } from '../resources/schema';
import { refreshStatus } from './status';
import { describeTable, keySchemaOf, type SdkTable } from './tables';

export const DATABASE_NOT_FOUND = 'Database not found';
export const TABLE_NOT_FOUND = 'Table not found';

/** A database with a table: `active` (or `deleting` while its table still answers). */
export type Database = ResourceRecord & { keys: KeySchema };

/**
 * What a data route needs of a database (its table's name, region and key schema) never changes
 * for a resource id, so it is kept in memory after one read: a page of `query` is then one
 * DynamoDB round trip beyond authentication. Only usable databases are kept; a table that turns
 * out to be gone sends the caller back to the record (see `onMissingTable`).
 */
const cache = new Map<string, Database>();
const MAX_CACHED = 1000;
const cacheKey = (orgId: string, resourceId: string) => `${orgId}\0${resourceId}`;

export function forget(orgId: string, resourceId: string): void {
  cache.delete(cacheKey(orgId, resourceId));
  tables.delete(cacheKey(orgId, resourceId));
}

/** The database record, read now: 404 `Database not found`; a `creating` one gets its status refreshed. */
export async function loadDatabase(orgId: string, resourceId: string): Promise<ResourceRecord> {
  const r = await getResource(orgId, 'database', resourceId);
  if (!r) {
    forget(orgId, resourceId);
    throw notFound(DATABASE_NOT_FOUND);
  }
  return refreshStatus(r);
}

/** 404 `Table not found` while the database has no table: provisioning failed, or it is still being made. */
export function requireTable(r: ResourceRecord): Database {
  if (r.status === 'error' || r.status === 'creating' || !r.keys) throw notFound(TABLE_NOT_FOUND);
  return r as Database;
}

/** The database of a data route: from memory when it was read before, else from the record. */
export async function databaseFor(orgId: string, resourceId: string): Promise<Database> {
  const hit = cache.get(cacheKey(orgId, resourceId));
  if (hit) return hit;
  const db = requireTable(await loadDatabase(orgId, resourceId));
  if (db.status === 'active') {
    if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value as string);
    cache.set(cacheKey(orgId, resourceId), db);
  }
  return db;
}

/**
 * Runs a data call; when DynamoDB says the table is gone, the record decides the answer: deleted
 * through the platform meanwhile → 404 `Database not found`, else the mapping table's 404 (the
 * table was deleted outside the platform).
 */
export async function onMissingTable<T>(db: Database, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if ((err as Error).name !== 'ResourceNotFoundException') throw err;
    forget(db.orgId, db.resourceId);
    const now = await getResource(db.orgId, 'database', db.resourceId);
    if (!now) throw notFound(DATABASE_NOT_FOUND);
    throw err;
  }
}

/** The 404 of a table deleted outside the platform, as the mapping table words it. */
export const tableGone = () => backendError({ name: 'ResourceNotFoundException' });

/** Table descriptions, for index key schemas; refreshed when an index is not found in them. */
const tables = new Map<string, SdkTable>();

/** The table's description, read now (the mapping table's 404 when it is gone). */
export async function describe(db: ResourceRecord): Promise<SdkTable> {
  const t = await describeTable(db.region, db.physicalName);
  if (!t) {
    tables.delete(cacheKey(db.orgId, db.resourceId));
    throw tableGone();
  }
  if (tables.size >= MAX_CACHED) tables.delete(tables.keys().next().value as string);
  tables.set(cacheKey(db.orgId, db.resourceId), t);
  return t;
}

/**
 * The key schema of the table (from the record) or of one of its indexes (from a description
 * read before, or read now when the index is not in it): undefined when there is no such index.
 */
export async function keysOf(db: Database, index: string | undefined): Promise<KeySchema | undefined> {
  if (index === undefined) return db.keys;
  const known = tables.get(cacheKey(db.orgId, db.resourceId));
  const fromCache = known && keySchemaOf(known, index);
  if (fromCache) return fromCache;
  return keySchemaOf(await onMissingTable(db, () => describe(db)), index);
}
