import { type Database, describe } from './load';
import { billingModeOf } from './tables';

/**
 * The database's figures as DynamoDB describes the table: items and bytes of the table and of
 * each index, and the capacity of a provisioned table. DynamoDB refreshes the counts about every
 * six hours (DynamoDB Local: at once); request-level figures would come from CloudWatch, which
 * this route does not read: each scan and query answers its own `consumed` capacity instead.
 */
export async function readMetrics(db: Database) {
  const t = await describe(db);
  const itemCount = t.ItemCount ?? 0;
  const sizeBytes = t.TableSizeBytes ?? 0;
  const provisioned = billingModeOf(t) === 'PROVISIONED';
  return {
    itemCount,
    sizeBytes,
    averageItemBytes: itemCount > 0 ? Math.round(sizeBytes / itemCount) : 0,
    indexes: (t.GlobalSecondaryIndexes ?? []).map((g) => ({
      name: g.IndexName ?? '',
      status: g.IndexStatus ?? 'ACTIVE',
      itemCount: g.ItemCount ?? 0,
      sizeBytes: g.IndexSizeBytes ?? 0,
    })),
    billingMode: billingModeOf(t),
    capacity: provisioned
      ? {
          read: t.ProvisionedThroughput?.ReadCapacityUnits ?? 0,
          write: t.ProvisionedThroughput?.WriteCapacityUnits ?? 0,
        }
      : null,
    source: 'DescribeTable',
    refreshedEvery: '6 hours',
    at: Date.now(),
  };
}
