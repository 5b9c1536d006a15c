import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import {
  BatchWriteCommand,
  PutCommand,
  type PutCommandInput,
  QueryCommand,
  type QueryCommandInput,
  ScanCommand,
  type ScanCommandInput,
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

type Key = Record<string, unknown>;
type QueryInput = Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey'>;
type ScanInput = Omit<ScanCommandInput, 'TableName' | 'ExclusiveStartKey'>;

/** One page of a query or a scan: its items, how many it matched, and the key to go on from. */
export interface Page<T> {
  items: T[];
  count: number;
  next: Key | undefined;
}

/** The one LastEvaluatedKey loop: pages of `read`, from `start`, until the last (or the caller stops). */
async function* paged<T>(
  read: (start: Key | undefined) => Promise<{ Items?: unknown[]; Count?: number; LastEvaluatedKey?: Key }>,
  start: Key | undefined,
): AsyncGenerator<Page<T>> {
  do {
    const out = await read(start);
    start = out.LastEvaluatedKey;
    yield { items: (out.Items ?? []) as T[], count: out.Count ?? 0, next: start };
  } while (start);
}

/**
 * The pages of a query (of the table or an index), from `start`, read as the caller asks for them:
 * a loop that has enough stops, and no page more is read. `input` may be a function, called before
 * each page (a `Limit` of what is still wanted).
 */
export function queryPages<T = Item>(input: QueryInput | (() => QueryInput), start?: Key): AsyncGenerator<Page<T>> {
  return paged<T>(
    (from) =>
      db.send(
        new QueryCommand({
          TableName: TABLE(),
          ...(typeof input === 'function' ? input() : input),
          ExclusiveStartKey: from,
        }),
      ),
    start,
  );
}

/** One page of a query, from `start` (a page of a listing the caller pages with a cursor). */
export async function queryPage<T = Item>(input: QueryInput, start?: Key): Promise<Page<T>> {
  for await (const page of queryPages<T>(input, start)) return page;
  throw new Error('unreachable: a query answers one page at least');
}

/** The pages of a scan of the whole table (migrations only), as queryPages. */
export function scanPages<T = Item>(input: ScanInput, start?: Key): AsyncGenerator<Page<T>> {
  return paged<T>((from) => db.send(new ScanCommand({ TableName: TABLE(), ...input, ExclusiveStartKey: from })), start);
}

/** All items of a query, page after page (for bounded sets: members, an organization's keys). */
export async function queryAll<T = Item>(input: QueryInput): Promise<T[]> {
  const items: T[] = [];
  for await (const page of queryPages<T>(input)) items.push(...page.items);
  return items;
}

/** All items of a scan, page after page. */
export async function scanAll<T = Item>(input: ScanInput): Promise<T[]> {
  const items: T[] = [];
  for await (const page of scanPages<T>(input)) items.push(...page.items);
  return items;
}

/** How many items a query matches, page after page (`Select: 'COUNT'`: no item is read back). */
export async function queryCount(input: Omit<QueryInput, 'Select'>): Promise<number> {
  let total = 0;
  for await (const page of queryPages({ ...input, Select: 'COUNT' })) total += page.count;
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
