import { invalid } from '../../kernel/ground/errors';
import { customerDynamo } from '../../ports/customer-tables/client';
import {
  DescribeContinuousBackupsCommand,
  DescribeTimeToLiveCommand,
  UpdateContinuousBackupsCommand,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
} from '../../ports/customer-tables/commands';
import { type Capability, isUnknownOperation, NOTES, supports } from './capabilities';
import { type Database, describe, onMissingTable } from './load';
import { billingModeOf, type SdkTable, tableClassOf } from './tables';

export const TABLE_CLASSES = ['STANDARD', 'STANDARD_INFREQUENT_ACCESS'] as const;
export const BILLING_MODES = ['PAY_PER_REQUEST', 'PROVISIONED'] as const;

export interface Settings {
  deletionProtection: boolean;
  pointInTimeRecovery: { enabled: boolean; supported: boolean };
  ttl: { attribute: string | null; enabled: boolean; status: string; supported: boolean };
  tableClass: string;
  billingMode: string;
  /** Read and write capacity units of a provisioned table; null on demand. */
  capacity: { read: number; write: number } | null;
  tags: Record<string, string>;
  /** Settings this platform's table store lacks (the local one: point-in-time recovery, table class, tags). */
  unsupported: Capability[];
  notes: string[];
}

export interface SettingsChange {
  deletionProtection?: boolean;
  pointInTimeRecovery?: boolean;
  ttl?: { enabled: boolean; attribute?: string };
  tableClass?: (typeof TABLE_CLASSES)[number];
  billingMode?: (typeof BILLING_MODES)[number];
  capacity?: { read: number; write: number };
}

export const NOTHING_TO_CHANGE = 'Nothing to change.';
export const TTL_ATTRIBUTE = 'Name the attribute that holds the expiry time.';
export const ONE_AT_A_TIME = 'Change the billing mode and the table class in separate requests.';
export const CAPACITY_PROVISIONED = 'Capacity applies to provisioned tables only.';
const DEFAULT_CAPACITY = { read: 5, write: 5 };

const client = (db: Database) => customerDynamo(db.region);

async function ttlOf(db: Database) {
  const out = await onMissingTable(db, () =>
    client(db).send(new DescribeTimeToLiveCommand({ TableName: db.physicalName })),
  );
  const d = out.TimeToLiveDescription;
  const status = d?.TimeToLiveStatus ?? 'DISABLED';
  return {
    attribute: d?.AttributeName ?? null,
    enabled: status === 'ENABLED' || status === 'ENABLING',
    status,
    supported: true,
  };
}

/** Point-in-time recovery: undefined where the store lacks it. */
async function pitrOf(db: Database): Promise<boolean | undefined> {
  if (!(await supports('pointInTimeRecovery'))) return undefined;
  try {
    const out = await client(db).send(new DescribeContinuousBackupsCommand({ TableName: db.physicalName }));
    return out.ContinuousBackupsDescription?.PointInTimeRecoveryDescription?.PointInTimeRecoveryStatus === 'ENABLED';
  } catch (err) {
    if (isUnknownOperation(err)) return undefined;
    throw err;
  }
}

function capacityOf(t: SdkTable) {
  if (billingModeOf(t) !== 'PROVISIONED') return null;
  return {
    read: t.ProvisionedThroughput?.ReadCapacityUnits ?? 0,
    write: t.ProvisionedThroughput?.WriteCapacityUnits ?? 0,
  };
}

/** The database's settings, with what this platform's table store lacks named in `unsupported` and `notes`. */
export async function readSettings(db: Database): Promise<Settings> {
  const [t, ttl, pitr] = await Promise.all([describe(db), ttlOf(db), pitrOf(db)]);
  const unsupported: Capability[] = [];
  if (pitr === undefined) unsupported.push('pointInTimeRecovery');
  if (!(await supports('tableClass'))) unsupported.push('tableClass');
  if (!(await supports('tags'))) unsupported.push('tags');
  return {
    deletionProtection: t.DeletionProtectionEnabled === true,
    pointInTimeRecovery: { enabled: pitr === true, supported: pitr !== undefined },
    ttl,
    tableClass: tableClassOf(t),
    billingMode: billingModeOf(t),
    capacity: capacityOf(t),
    tags: db.tags ?? {},
    unsupported,
    notes: unsupported.map((c) => NOTES[c]),
  };
}

/**
 * Applies the changes one backend call at a time (DynamoDB takes one kind of table update per
 * call): deletion protection, billing mode or capacity, table class, time to live, point-in-time
 * recovery. A setting this platform's table store lacks is skipped and named in the answer.
 * A table still busy with an earlier change answers 409 through the mapping table.
 */
export async function changeSettings(
  db: Database,
  change: SettingsChange,
): Promise<{ settings: Settings; applied: string[]; skipped: string[] }> {
  if (Object.values(change).every((v) => v === undefined)) throw invalid(NOTHING_TO_CHANGE);
  if (change.ttl?.enabled && !change.ttl.attribute) throw invalid(TTL_ATTRIBUTE);
  if (change.tableClass !== undefined && (change.billingMode !== undefined || change.capacity !== undefined)) {
    throw invalid(ONE_AT_A_TIME);
  }
  const t = await describe(db);
  const mode = change.billingMode ?? billingModeOf(t);
  if (change.capacity && mode !== 'PROVISIONED') throw invalid(CAPACITY_PROVISIONED);

  const applied: string[] = [];
  const skipped: string[] = [];
  const update = (input: Omit<ConstructorParameters<typeof UpdateTableCommand>[0], 'TableName'>) =>
    onMissingTable(db, () => client(db).send(new UpdateTableCommand({ TableName: db.physicalName, ...input })));

  if (change.deletionProtection !== undefined) {
    if (change.deletionProtection !== (t.DeletionProtectionEnabled === true)) {
      await update({ DeletionProtectionEnabled: change.deletionProtection });
    }
    applied.push('deletionProtection');
  }

  if (change.billingMode !== undefined || change.capacity !== undefined) {
    const current = billingModeOf(t);
    if (mode === 'PAY_PER_REQUEST') {
      if (current !== 'PAY_PER_REQUEST') await update({ BillingMode: 'PAY_PER_REQUEST' });
    } else {
      const c = change.capacity ?? capacityOf(t) ?? DEFAULT_CAPACITY;
      const throughput = { ReadCapacityUnits: c.read, WriteCapacityUnits: c.write };
      await update({
        BillingMode: 'PROVISIONED',
        ProvisionedThroughput: throughput,
        // Leaving on-demand, every global index needs its own capacity too.
        ...(current !== 'PROVISIONED' && t.GlobalSecondaryIndexes?.length
          ? {
              GlobalSecondaryIndexUpdates: t.GlobalSecondaryIndexes.map((g) => ({
                Update: { IndexName: g.IndexName, ProvisionedThroughput: throughput },
              })),
            }
          : {}),
      });
    }
    applied.push(change.capacity ? 'capacity' : 'billingMode');
    if (change.capacity && change.billingMode) applied.push('billingMode');
  }

  if (change.tableClass !== undefined) {
    if (!(await supports('tableClass'))) skipped.push('tableClass');
    else {
      if (change.tableClass !== tableClassOf(t)) await update({ TableClass: change.tableClass });
      applied.push('tableClass');
    }
  }

  if (change.ttl !== undefined) {
    const ttl = await ttlOf(db);
    const attribute = change.ttl.enabled ? change.ttl.attribute : ttl.attribute;
    const same = ttl.enabled === change.ttl.enabled && (!change.ttl.enabled || ttl.attribute === attribute);
    if (!same && attribute) {
      await onMissingTable(db, () =>
        client(db).send(
          new UpdateTimeToLiveCommand({
            TableName: db.physicalName,
            TimeToLiveSpecification: { AttributeName: attribute, Enabled: change.ttl?.enabled === true },
          }),
        ),
      );
    }
    applied.push('ttl');
  }

  if (change.pointInTimeRecovery !== undefined) {
    let done = false;
    if (await supports('pointInTimeRecovery')) {
      try {
        await client(db).send(
          new UpdateContinuousBackupsCommand({
            TableName: db.physicalName,
            PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: change.pointInTimeRecovery },
          }),
        );
        done = true;
      } catch (err) {
        if (!isUnknownOperation(err)) throw err;
      }
    }
    (done ? applied : skipped).push('pointInTimeRecovery');
  }

  return { settings: await readSettings(db), applied, skipped };
}
