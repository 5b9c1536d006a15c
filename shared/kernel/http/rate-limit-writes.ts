import { db } from '../store/client';
import { UpdateCommand } from '../store/commands';
import { PREFIXES } from '../store/keys';
import { TABLE } from '../store/table';

/**
 * The rate limits' one write (shared/kernel/http/rate-limits.ts): adds `n` to a budget's window item
 * (created with its expiry) and answers the window's total. A module of its own, loaded with the
 * first count a function writes, so its DynamoDB command is not part of a function's start.
 */
export async function addToWindow(scope: string, window: number, n: number, expiresAt: number): Promise<number> {
  const out = await db.send(
    new UpdateCommand({
      TableName: TABLE(),
      Key: { pk: `${PREFIXES.http.rate}${scope}#${window}`, sk: 'RATE' },
      UpdateExpression: 'ADD n :n SET #ttl = if_not_exists(#ttl, :ttl)',
      ExpressionAttributeNames: { '#ttl': 'ttl' },
      ExpressionAttributeValues: { ':n': n, ':ttl': expiresAt },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  return Number(out.Attributes?.n ?? 0);
}
