import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '../../kernel/store/client';
import { PREFIXES } from '../../kernel/store/keys';
import { deleteMany, queryAll } from '../../kernel/store/ops';
import { getItem, getMany, TABLE } from '../../kernel/store/table';

/**
 * What the platform keeps about a bucket beside S3, under `BUCKETCFG#<bucket name>` (bucket names
 * are unique platform-wide): the latest usage figures (both targets), the start of an unfinished
 * deletion (both targets) and, on the local platform only, the settings the local S3 server lacks
 * (see local.ts). Deleted with the bucket.
 */
export const bucketConfigKey = (name: string) => ({ pk: `${PREFIXES.objectStorage.bucket}${name}`, sk: 'CFG' });

/** Spec part A, "Bucket usage": the latest daily figures. */
export interface Usage {
  sizeBytes?: number;
  objects?: number;
  at?: number;
}

export interface BucketConfig {
  usage?: Usage;
  /** Set when a deletion removed old versions but could not finish; see delete-bucket.ts. */
  deleteStartedAt?: number;
}

export function getBucketConfig<T extends BucketConfig = BucketConfig>(name: string, consistent = false) {
  return getItem<T>(bucketConfigKey(name), consistent);
}

/** One BatchGet for a list of buckets (the bucket list route). */
export function getBucketConfigs(names: string[]): Promise<(BucketConfig | undefined)[]> {
  return getMany<BucketConfig>(names.map(bucketConfigKey));
}

/** Sets (or, with `undefined`, removes) fields of the record, creating it when needed. */
export async function setBucketFields(name: string, fields: Record<string, unknown>): Promise<void> {
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

/** Removes every item kept about the bucket (its settings record and, locally, its old versions). */
export async function deleteBucketRecords(name: string): Promise<void> {
  const items = await queryAll<{ pk: string; sk: string }>({
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': bucketConfigKey(name).pk },
    ProjectionExpression: 'pk, sk',
  });
  await deleteMany(items);
}
