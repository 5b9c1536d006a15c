import { randomUUID } from 'node:crypto';
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { DomainError } from '../ground/errors';
import { db } from './client';
import { PREFIXES } from './keys';
import { putOnce } from './ops';
import { sleep, TABLE } from './table';

/** How a lease is taken: held at most `ttlMs` (a holder that died lets go then), waited for at most `waitMs`. */
export interface LeaseOptions {
  ttlMs?: number;
  waitMs?: number;
}

/**
 * One writer at a time for a read-modify-write on a system that has no conditional write of its
 * own (S3 bucket settings replace the whole configuration): `fn` runs while this request holds the
 * lease `name`, a record of the platform table (`LEASE#<name>`). Others wait for it (briefly, with
 * jitter) and answer 409 `busy` if it is not free in time; a lease of a holder that died expires
 * after `ttlMs`, so nothing stays locked.
 */
export async function withLease<T>(
  name: string,
  busy: string,
  fn: () => Promise<T>,
  options: LeaseOptions = {},
): Promise<T> {
  const release = await takeLease(name, busy, options);
  try {
    return await fn();
  } finally {
    await release();
  }
}

/**
 * Takes the lease `name` (as `withLease` does) and answers the call that lets it go, for a holder
 * whose critical section does not fit in one function (the middy stack's `If-Match`).
 */
export async function takeLease(name: string, busy: string, options: LeaseOptions = {}): Promise<() => Promise<void>> {
  const ttlMs = options.ttlMs ?? 30_000;
  const deadline = Date.now() + (options.waitMs ?? 10_000);
  const key = { pk: `${PREFIXES.store.lease}${name}`, sk: 'LEASE' };
  const holder = randomUUID();
  for (let attempt = 0; ; attempt++) {
    const now = Date.now();
    try {
      await putOnce({
        Item: { ...key, holder, until: now + ttlMs, ttl: Math.ceil((now + ttlMs) / 1000) + 3600 },
        ConditionExpression: 'attribute_not_exists(pk) OR #until < :now',
        ExpressionAttributeNames: { '#until': 'until' },
        ExpressionAttributeValues: { ':now': now },
      });
      break;
    } catch (err) {
      if ((err as Error).name !== 'ConditionalCheckFailedException') throw err;
      if (Date.now() > deadline) throw new DomainError('conflict', busy);
      await sleep(10 + Math.random() * Math.min(200, 10 * 2 ** Math.min(attempt, 5)));
    }
  }
  return async () => {
    await db
      .send(
        new DeleteCommand({
          TableName: TABLE(),
          Key: key,
          ConditionExpression: 'holder = :me',
          ExpressionAttributeValues: { ':me': holder },
        }),
      )
      .catch(() => undefined);
  };
}
