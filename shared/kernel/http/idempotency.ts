import { createHash, randomUUID } from 'node:crypto';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { secrets } from '../../ports/secrets/index';
import { conflict, invalid } from '../ground/errors';
import { describeError, log } from '../ground/log';
import { db } from '../store/client';
import { DeleteCommand, GetCommand, UpdateCommand } from '../store/commands';
import { putOnce } from '../store/ops';
import { TABLE } from '../store/table';
import { HttpError } from './http-error';

/**
 * Idempotency keys as Stripe defines them: a write sent with `Idempotency-Key` runs once per
 * organization, caller and key for 24 hours. The first request claims the key with a conditional
 * put; a repeat with the same route and body answers the kept response with `Idempotent-Replayed:
 * true`; another body is 422; while the first still runs, 409. A 5xx or a 429 is not kept (the
 * record goes), so a retry runs again. Records live in the platform table and expire by TTL.
 *
 * The kept response is sealed with the secrets port's envelope (AES-256-GCM under a data key from
 * KMS, or the local master key), bound to `{ purpose: 'idempotency', scope }`: a create that answers
 * a secret once (an API key, a webhook's signing secret, a git password, a client secret) would
 * otherwise leave it in the table in clear for 24 hours. Every kept answer is sealed, not only those
 * known to hold a secret: no route can forget to say so. A replay opens it for the same scope only.
 */
export const IDEMPOTENCY_MESSAGES = {
  empty: 'Idempotency-Key must not be empty.',
  tooLong: 'Idempotency-Key is at most 255 characters.',
  mismatch: 'This idempotency key was used with another request.',
  running: 'A request with this idempotency key is in progress.',
} as const;

export const MAX_KEY = 255;
const KEEP_SECONDS = 24 * 3600;
/** A claim older than this is taken to be a request that died (its Lambda timed out or crashed). */
const LOCK_MS = 5 * 60_000;
/**
 * The most of a response kept (a DynamoDB item holds 400 KB); a larger one is answered, not kept.
 * Sealed and in base64url it grows by a third: 280 KB become about 374 KB.
 */
const MAX_KEPT = 280 * 1024;

type Result = APIGatewayProxyStructuredResultV2;

export interface Claim {
  pk: string;
  sk: string;
}

interface IdemRecord {
  status: 'running' | 'done';
  fingerprint: string;
  lockUntil: number;
  /** The kept response as JSON, sealed (the secrets port's envelope). */
  sealed?: string;
  /** A response kept in clear before responses were sealed (gone by TTL within a day). */
  response?: Result;
}

/** What a kept response is bound to: one organization's caller; it opens for that scope only. */
const sealContext = (pk: string) => ({ purpose: 'idempotency', scope: pk });

/**
 * Claims `key` for this request, or answers what a repeat should: the kept response (replay), or
 * the error of a mismatch or a request still running. `scope` names the organization and caller.
 */
export async function claim(
  scope: string,
  key: string,
  request: { method: string; path: string; body: string | undefined },
  now = Date.now(),
): Promise<{ claim: Claim } | { replay: Result }> {
  if (key.trim() === '') throw invalid(IDEMPOTENCY_MESSAGES.empty);
  if (key.length > MAX_KEY) throw invalid(IDEMPOTENCY_MESSAGES.tooLong);
  const itemKey = { pk: `IDEM#${scope}`, sk: key };
  const fingerprint = createHash('sha256')
    .update(`${request.method} ${request.path}\n`)
    .update(request.body ?? '')
    .digest('hex');
  try {
    // A claim the SDK repeats after its answer was lost is still this request's (putOnce).
    await putOnce({
      Item: {
        ...itemKey,
        status: 'running',
        fingerprint,
        lockUntil: now + LOCK_MS,
        ttl: Math.floor(now / 1000) + KEEP_SECONDS,
        claimId: randomUUID(),
      },
      ConditionExpression: 'attribute_not_exists(pk) OR (#status = :running AND lockUntil < :now)',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':running': 'running', ':now': now },
    });
    return { claim: itemKey };
  } catch (err) {
    if ((err as Error).name !== 'ConditionalCheckFailedException') throw err;
  }
  const found = (await db.send(new GetCommand({ TableName: TABLE(), Key: itemKey, ConsistentRead: true }))).Item as
    | IdemRecord
    | undefined;
  // Gone meanwhile (the first failed with a 5xx): the caller may try again.
  if (!found) throw conflict(IDEMPOTENCY_MESSAGES.running);
  if (found.fingerprint !== fingerprint) throw new HttpError(422, IDEMPOTENCY_MESSAGES.mismatch);
  if (found.status !== 'done' || !(found.sealed || found.response)) throw conflict(IDEMPOTENCY_MESSAGES.running);
  const response = found.sealed
    ? (JSON.parse((await secrets().decrypt(sealContext(itemKey.pk), [found.sealed]))[0] as string) as Result)
    : (found.response as Result);
  return { replay: { ...response, headers: { ...response.headers, 'idempotent-replayed': 'true' } } };
}

/** Keeps the response of a claimed request (below 500 and small enough), else lets the key go. */
export async function settle(claimed: Claim, response: Result): Promise<void> {
  try {
    const json = JSON.stringify(response);
    const size = Buffer.byteLength(json);
    // A 5xx or a 429 asks for the request again: a repeat runs it, never replays the refusal.
    const again = response.statusCode === undefined || response.statusCode >= 500 || response.statusCode === 429;
    if (again || size > MAX_KEPT) {
      await db.send(new DeleteCommand({ TableName: TABLE(), Key: claimed }));
      if (size > MAX_KEPT) log.warn('an idempotent response too large to keep was answered, not kept', { size });
      return;
    }
    const [sealed] = await secrets().encrypt(sealContext(claimed.pk), [json]);
    await db.send(
      new UpdateCommand({
        TableName: TABLE(),
        Key: claimed,
        UpdateExpression: 'SET #status = :done, sealed = :sealed',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':done': 'done', ':sealed': sealed },
      }),
    );
  } catch (err) {
    // The answer still goes out; a retry then finds the key running until its lock ends.
    log.error('idempotency_unsettled', { error: describeError(err) });
  }
}
