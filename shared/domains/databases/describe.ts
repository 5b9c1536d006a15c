import { listResources } from '../resources/records';
import { type ResourceRecord, toResource } from '../resources/schema';
import { forget, loadDatabase } from './load';
import { refreshStatus } from './status';
import { describeTable, type TableOut, tableOut } from './tables';

/** `GET .../databases/:resourceId`: the record and its table; `table` is null when there is none. */
export async function getDatabase(orgId: string, resourceId: string) {
  const r = await loadDatabase(orgId, resourceId);
  let table: TableOut | null = null;
  if (r.status !== 'error') {
    const t = await describeTable(r.region, r.physicalName);
    if (t) table = tableOut(t);
    else forget(orgId, resourceId);
  }
  return { database: toResource(r), table };
}

type Summary =
  | {
      table: Pick<
        TableOut,
        'status' | 'itemCount' | 'sizeBytes' | 'partitionKey' | 'sortKey' | 'deletionProtection'
      > & { indexCount: number };
    }
  | { table: null; error: 'unavailable' | 'missing' };

async function summaryOf(r: ResourceRecord): Promise<Summary> {
  if (r.status === 'error') return { table: null, error: 'missing' };
  try {
    const t = await describeTable(r.region, r.physicalName);
    if (!t) return { table: null, error: 'missing' };
    const d = tableOut(t);
    return {
      table: {
        status: d.status,
        itemCount: d.itemCount,
        sizeBytes: d.sizeBytes,
        partitionKey: d.partitionKey,
        ...(d.sortKey ? { sortKey: d.sortKey } : {}),
        indexCount: d.indexes.length,
        deletionProtection: d.deletionProtection,
      },
    };
  } catch {
    // Throttled or refused: the list still answers, this one database says why it has no figures.
    return { table: null, error: 'unavailable' };
  }
}

/**
 * `GET .../databases`: every database of the organization, oldest first, each with a summary of
 * its table (described in parallel), or `table: null` with `error`: `missing` when it has no
 * table (deleted outside the platform, or provisioning failed), `unavailable` when the table
 * store did not answer for it.
 */
export async function listDatabases(orgId: string) {
  const records = await Promise.all((await listResources(orgId, 'database')).map(refreshStatus));
  records.sort((a, b) => (a.createdAt ?? 0) - (b.createdAt ?? 0));
  const summaries = await Promise.all(records.map(summaryOf));
  return records.map((r, i) => ({ ...toResource(r), ...summaries[i] }));
}
