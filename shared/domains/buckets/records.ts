import { db } from '../../kernel/store/client';
import { UpdateCommand } from '../../kernel/store/commands';
import { PREFIXES } from '../../kernel/store/keys';
import { deleteMany, queryAll } from '../../kernel/store/ops';
import { getItem, getMany, TABLE } from '../../kernel/store/table';
import type { Usage } from '../../ports/metrics/port';

export type { Usage };

/**
 * What the platform keeps about a bucket beside its storage, under `BUCKETCFG#<bucket name>`
 * (bucket names are unique platform-wide): the latest usage figures (written by the storage-usage
 * worker) and the start of an unfinished deletion (delete-bucket.ts). Deleted with the bucket.
 * The object-storage port keeps none of it: its adapters answer S3's operations only.
 */
export const bucketConfigKey = (name: string) => ({ pk: `${PREFIXES.objectStorage.bucket}${name}`, sk: 'CFG' });

export interface BucketConfig {
  usage?: Usage;
  /** Set when a deletion removed old versions but could not finish; see delete-bucket.ts. */
  deleteStartedAt?: number;
}

export function getBucketConfig(name: string, consistent = false) {
  return getItem<BucketConfig>(bucketConfigKey(name), consistent);
}

/** One BatchGet for a list of buckets (the bucket list route). */
export function getBucketConfigs(names: string[]): Promise<(BucketConfig | undefined)[]> {
  return getMany<BucketConfig>(names.map(bucketConfigKey));
}

/** Sets (or, with `undefined`, removes) fields of the record, creating it when needed. */
export async function setBucketFields(
  name: string,
  fields: Partial<Record<keyof BucketConfig, unknown>>,
): Promise<void> {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const sets: string[] = [];
  const removes: string[] = [];
  Object.entries(fields).forEach(([field, value], i) => {
    names[`#f${i}`] = field;
    if (value === undefined) removes.push(`#f${i}`);
    else {
      values[`:v${i}`] = value;
      sets.push(`#f${i} = :v${i}`);
    }
  });
  if (sets.length === 0 && removes.length === 0) return;
  await db.send(
    new UpdateCommand({
      TableName: TABLE(),
      Key: bucketConfigKey(name),
      UpdateExpression: [
        sets.length ? `SET ${sets.join(', ')}` : '',
        removes.length ? `REMOVE ${removes.join(', ')}` : '',
      ]
        .filter(Boolean)
        .join(' '),
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: sets.length ? values : undefined,
    }),
  );
}

/** Removes every item the platform kept about the bucket. */
export async function deleteBucketRecords(name: string): Promise<void> {
  const items = await queryAll<{ pk: string; sk: string }>({
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': bucketConfigKey(name).pk },
    ProjectionExpression: 'pk, sk',
  });
  await deleteMany(items);
}
