import {
  BatchGetCommand,
  type BatchGetCommandOutput,
  BatchWriteCommand,
  GetCommand,
  QueryCommand,
  type QueryCommandInput,
  TransactWriteCommand,
  type TransactWriteCommandInput,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { config } from '../config';
import { conflict } from '../ground/errors';
import { db } from './client';

/**
 * The platform table: `pk`/`sk`, plus GSI1 (`gsi1pk`/`gsi1sk`) for the reverse lookups
 * (a user's organizations, …). Every record of a tenant lives under `pk = ORG#<orgId>`, with a
 * sort key prefix per kind (see `keys`), so the organization's contents are counted by prefix.
 */
export const TABLE = () => config.tableName;

export type Item = Record<string, unknown> & { pk: string; sk: string };

export const keys = {
  org: (orgId: string) => ({ pk: `ORG#${orgId}`, sk: 'ORG' }),
  orgSlug: (slug: string) => ({ pk: `ORGSLUG#${slug}`, sk: 'ORGSLUG' }),
  member: (orgId: string, userId: string) => ({ pk: `ORG#${orgId}`, sk: `MEMBER#${userId}` }),
  team: (orgId: string, teamId: string) => ({ pk: `ORG#${orgId}`, sk: `MEMBERTEAM#${teamId}` }),
  invite: (orgId: string, inviteId: string) => ({ pk: `ORG#${orgId}`, sk: `MEMBERINVITE#${inviteId}` }),
  /** The organization's pointer to one of its keys (deleted with the organization). */
  orgKey: (orgId: string, keyId: string) => ({ pk: `ORG#${orgId}`, sk: `KEY#${keyId}` }),
  /** A key or device token, by the SHA-256 of its secret: one GetItem authenticates. */
  keyHash: (hash: string) => ({ pk: `KEYHASH#${hash}`, sk: 'KEY' }),
  user: (userId: string) => ({ pk: `USER#${userId}`, sk: 'USER' }),
  userEmail: (email: string) => ({ pk: `EMAIL#${email.toLowerCase()}`, sk: 'EMAIL' }),
};

/**
 * Sort key prefixes of what an organization holds; `functions/orgs/contents.ts` counts them.
 * Members, teams and invites all start with `MEMBER` (`people`), so one Query reads them together.
 */
export const ORG_PREFIX = {
  member: 'MEMBER#',
  team: 'MEMBERTEAM#',
  invite: 'MEMBERINVITE#',
  people: 'MEMBER',
  key: 'KEY#',
  project: 'PRJ#',
  repository: 'RES#repository#',
  database: 'RES#database#',
  bucket: 'RES#bucket#',
  connector: 'CON#',
  agent: 'DEV#',
  doc: 'PAGE#',
} as const;

export async function getItem<T = Item>(key: { pk: string; sk: string }, consistent = false): Promise<T | undefined> {
  const out = await db.send(new GetCommand({ TableName: TABLE(), Key: key, ConsistentRead: consistent }));
  return out.Item as T | undefined;
}

/** Reads up to 100 keys in one call (and retries unprocessed keys); order follows `list`. */
export async function getMany<T = Item>(
  list: { pk: string; sk: string }[],
  consistent = false,
): Promise<(T | undefined)[]> {
  if (list.length === 0) return [];
  const found = new Map<string, Item>();
  for (let i = 0; i < list.length; i += 100) {
    let pending: Record<string, unknown>[] | undefined = list.slice(i, i + 100);
    for (let attempt = 0; pending && pending.length > 0 && attempt < 8; attempt++) {
      if (attempt > 0) await sleep(20 * 2 ** attempt);
      const out: BatchGetCommandOutput = await db.send(
        new BatchGetCommand({
          RequestItems: { [TABLE()]: { Keys: pending, ...(consistent ? { ConsistentRead: true } : {}) } },
        }),
      );
      for (const item of out.Responses?.[TABLE()] ?? []) found.set(`${item.pk}\0${item.sk}`, item as Item);
      pending = out.UnprocessedKeys?.[TABLE()]?.Keys;
    }
    if (pending && pending.length > 0) throw new Error('BatchGet left keys unprocessed');
  }
  return list.map((k) => found.get(`${k.pk}\0${k.sk}`) as T | undefined);
}

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

/** A put that succeeds only when no item has this key. */
export const putNew = (item: Item) => ({
  Put: { TableName: TABLE(), Item: item, ConditionExpression: 'attribute_not_exists(pk)' },
});

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

/**
 * The update of updateVersioned (fields set, `undefined` ones removed, `version` incremented, on
 * the condition that the record exists and, with `expected`, is at that version), for a transaction.
 */
export function versionedUpdate(
  key: { pk: string; sk: string },
  expected: number | undefined,
  fields: Record<string, unknown>,
) {
  const update = fieldUpdate(fields, {
    sets: ['#version = #version + :one'],
    names: { '#version': 'version' },
    values: { ':one': 1 },
  });
  if (expected !== undefined) update.ExpressionAttributeValues[':expected'] = expected;
  return {
    TableName: TABLE(),
    Key: key,
    ...update,
    ConditionExpression:
      expected === undefined ? 'attribute_exists(pk)' : 'attribute_exists(pk) AND #version = :expected',
  };
}

/**
 * An update expression that sets `fields` (an `undefined` value removes the attribute), after the
 * `base` sets, names and values a caller writes itself, with `removes` removed too. Names and
 * values are `#f<i>` and `:f<i>`.
 */
export function fieldUpdate(
  fields: Record<string, unknown>,
  base: { sets?: string[]; names?: Record<string, string>; values?: Record<string, unknown>; removes?: string[] } = {},
) {
  const names: Record<string, string> = { ...base.names };
  const values: Record<string, unknown> = { ...base.values };
  const sets = [...(base.sets ?? [])];
  const removes = [...(base.removes ?? [])];
  Object.entries(fields).forEach(([name, value], i) => {
    names[`#f${i}`] = name;
    if (value === undefined) removes.push(`#f${i}`);
    else {
      values[`:f${i}`] = value;
      sets.push(`#f${i} = :f${i}`);
    }
  });
  return {
    UpdateExpression:
      `${sets.length ? `SET ${sets.join(', ')}` : ''}${removes.length ? ` REMOVE ${removes.join(', ')}` : ''}`.trim(),
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  };
}

/** Strips the table's own attributes from a record before it is answered. */
export function publicFields<T extends Record<string, unknown>>(item: T): Omit<T, 'pk' | 'sk' | 'gsi1pk' | 'gsi1sk'> {
  const { pk: _pk, sk: _sk, gsi1pk: _g1, gsi1sk: _g2, ...rest } = item;
  return rest;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
