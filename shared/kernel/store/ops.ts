import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import {
  BatchWriteCommand,
  PutCommand,
  type PutCommandInput,
  QueryCommand,
  type QueryCommandInput,
  TransactWriteCommand,
  type TransactWriteCommandInput,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { conflict } from '../ground/errors';
import { db } from './client';
import { getItem, type Item, sleep, TABLE, versionedUpdate } from './table';

/**
 * The platform table's queries (page after page), batch deletes, transactions and versioned
 * updates. Apart from `./table` (keys and reads, which every function's start-up code uses), so
 * that a function loads these commands with the first route module or worker that needs them.
 */

/** All items of a query, page after page (for bounded sets: members, an organization's keys). */
export async function queryAll<T = Item>(input: Omit<QueryCommandInput, 'TableName'>): Promise<T[]> {
  const items: T[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const out = await db.send(new QueryCommand({ TableName: TABLE(), ...input, ExclusiveStartKey: start }));
    items.push(...((out.Items ?? []) as T[]));
    start = out.LastEvaluatedKey;
  } while (start);
  return items;
}

/** How many items a query matches, page after page (`Select: 'COUNT'`: no item is read back). */
export async function queryCount(input: Omit<QueryCommandInput, 'TableName' | 'Select'>): Promise<number> {
  let total = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const out = await db.send(
      new QueryCommand({ TableName: TABLE(), ...input, Select: 'COUNT', ExclusiveStartKey: start }),
    );
    total += out.Count ?? 0;
    start = out.LastEvaluatedKey;
  } while (start);
  return total;
}

/** Items of one partition whose sort key starts with `prefix`. */
export function queryPrefix<T = Item>(pk: string, prefix: string): Promise<T[]> {
  return queryAll<T>({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
    ExpressionAttributeValues: { ':pk': pk, ':p': prefix },
  });
}

/** Deletes keys in batches of 25, retrying unprocessed ones. */
export async function deleteMany(list: { pk: string; sk: string }[]): Promise<void> {
  for (let i = 0; i < list.length; i += 25) {
    let pending: Record<string, unknown>[] | undefined = list
      .slice(i, i + 25)
      .map((k) => ({ DeleteRequest: { Key: { pk: k.pk, sk: k.sk } } }));
    for (let attempt = 0; pending && pending.length > 0 && attempt < 8; attempt++) {
      if (attempt > 0) await sleep(20 * 2 ** attempt);
      const out = await db.send(new BatchWriteCommand({ RequestItems: { [TABLE()]: pending } }));
      pending = out.UnprocessedItems?.[TABLE()] as Record<string, unknown>[] | undefined;
    }
    if (pending && pending.length > 0) throw new Error('BatchWrite left items unprocessed');
  }
}

/** What a failed condition of a transaction item answers: a 409 message, or an error to throw. */
type TransactFailure = string | (() => Error) | undefined;

/**
 * Writes several items in one transaction. When an item's condition fails, the answer is the
 * failure given for it: a string is a 409 with that message (uniqueness without a
 * read-then-write: `putNew` items), a function makes the error to throw; `failures` may instead
 * be one function that explains the index of the failed item. A transaction cancelled only by a
 * conflict with another transaction is retried with backoff (nothing of it was written); anything
 * else goes to the backend error mapping.
 */
export async function transact(
  items: TransactWriteCommandInput['TransactItems'],
  failures: TransactFailure[] | ((index: number) => Promise<Error | undefined>) = [],
): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await db.send(new TransactWriteCommand({ TransactItems: items }));
      return;
    } catch (err) {
      const reasons = (err as { CancellationReasons?: { Code?: string }[] }).CancellationReasons;
      if ((err as Error).name !== 'TransactionCanceledException' || !reasons) throw err;
      const failed = (i: number) => reasons[i]?.Code === 'ConditionalCheckFailed';
      if (typeof failures === 'function') {
        const i = reasons.findIndex((_, j) => failed(j));
        const answer = i >= 0 ? await failures(i) : undefined;
        if (answer) throw answer;
      } else {
        const i = reasons.findIndex((_, j) => failed(j) && failures[j] !== undefined);
        const failure = failures[i];
        if (typeof failure === 'string') throw conflict(failure);
        if (failure) throw failure();
      }
      const conflicted = reasons.some((r) => r.Code === 'TransactionConflict');
      if (!conflicted || attempt >= 40) throw err;
      await sleep(10 + Math.random() * Math.min(400, 20 * 2 ** Math.min(attempt, 5)));
    }
  }
}

/**
 * A conditional put (a create: `attribute_not_exists(pk)`, a claim, a lease) that is safe to
 * repeat. The SDK sends a put again when its answer was lost (the connection reset after DynamoDB
 * applied it), and the repeat fails its own condition: the item is there, and it is ours. So a
 * failed condition is taken as success when the stored item is the very item this put wrote (read
 * back consistently; what it holds is new ids, times and tokens of this request, which no other
 * writer has); else the `ConditionalCheckFailedException` goes on as before. (A transaction needs
 * none of this: the SDK repeats it with the same client request token, which DynamoDB takes as the
 * same transaction.)
 */
export async function putOnce<T extends { pk: string; sk: string }>(
  input: Omit<PutCommandInput, 'TableName' | 'Item'> & { Item: T },
): Promise<void> {
  try {
    await db.send(new PutCommand({ TableName: TABLE(), ...input }));
  } catch (err) {
    if ((err as Error).name !== 'ConditionalCheckFailedException') throw err;
    const stored = await getItem({ pk: input.Item.pk, sk: input.Item.sk }, true);
    if (!stored || !isDeepStrictEqual(stored, withoutUndefined(input.Item))) throw err;
  }
}

/** How long a worker holds a try it claimed: a POST's 10 s timeout and the writes around it, with room. */
const CLAIM_MS = 60_000;

/**
 * Claims try number `tryNumber` of some work on an item (a worker's POST of a webhook or a callback)
 * for CLAIM_MS: true when this caller holds it. `condition` (with `names` and `values`) says the try is
 * still to be made; a live claim of the same try by another caller refuses it, a lapsed one (its
 * worker died) does not. A claim that was applied but whose answer was lost (the SDK repeats the
 * call, which the condition then refuses) is known by its token.
 */
export async function claimTry(
  key: { pk: string; sk: string },
  claim: {
    tryNumber: number;
    condition: string;
    names?: Record<string, string>;
    values: Record<string, unknown>;
  },
): Promise<boolean> {
  const token = randomUUID();
  const now = Date.now();
  try {
    await db.send(
      new UpdateCommand({
        TableName: TABLE(),
        Key: key,
        UpdateExpression: 'SET claimedTry = :try, claimedUntil = :until, claimedBy = :token',
        ConditionExpression: `(${claim.condition}) AND (attribute_not_exists(claimedTry) OR claimedTry <> :try OR claimedUntil < :now)`,
        ...(claim.names ? { ExpressionAttributeNames: claim.names } : {}),
        ExpressionAttributeValues: {
          ...claim.values,
          ':try': claim.tryNumber,
          ':until': now + CLAIM_MS,
          ':token': token,
          ':now': now,
        },
      }),
    );
    return true;
  } catch (err) {
    if ((err as Error).name !== 'ConditionalCheckFailedException') throw err;
    return (await getItem<{ claimedBy?: string }>(key, true))?.claimedBy === token;
  }
}

/** What the document client stores of a value (it drops undefined values: `removeUndefinedValues`). */
function withoutUndefined(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutUndefined);
  if (typeof value !== 'object' || value === null || Object.getPrototypeOf(value) !== Object.prototype) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, withoutUndefined(v)]),
  );
}

/**
 * Updates fields of a versioned record and increments its `version`. With `expected`, succeeds
 * only while the stored `version` is that number (a stale one is 409 with `staleMessage`);
 * without it, only while the record exists (a missing one is 409 too: callers read it first).
 */
export async function updateVersioned<T = Item>(
  key: { pk: string; sk: string },
  expected: number | undefined,
  fields: Record<string, unknown>,
  staleMessage = 'This record changed since it was read. Reload and try again.',
): Promise<T> {
  try {
    const out = await db.send(
      new UpdateCommand({ ...versionedUpdate(key, expected, fields), ReturnValues: 'ALL_NEW' }),
    );
    return out.Attributes as T;
  } catch (err) {
    if ((err as Error).name === 'ConditionalCheckFailedException') throw conflict(staleMessage);
    throw err;
  }
}
