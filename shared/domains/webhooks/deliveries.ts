import { createHash, createHmac } from 'node:crypto';
import { readEnv } from '../../kernel/ground/env';
import { notFound } from '../../kernel/ground/errors';
import { describeError, log } from '../../kernel/ground/log';
import { guardedFetch, UnsafeUrlError } from '../../kernel/net/guarded-fetch';
import { db } from '../../kernel/store/client';
import { QueryCommand, UpdateCommand } from '../../kernel/store/commands';
import { decodeCursor, encodeCursor } from '../../kernel/store/cursor';
import { newId } from '../../kernel/store/ids';
import { PREFIXES } from '../../kernel/store/keys';
import { claimTry, putOnce } from '../../kernel/store/ops';
import { getItem, orgPk, TABLE } from '../../kernel/store/table';
import { queue } from '../../ports/queue';
import type { NotifyEvent } from '../notifications/kinds';
import { type EndpointRecord, endpointKey, listEndpoints, signingSecrets, WEBHOOK_MESSAGES } from './endpoints';
import type { DeliveryMessage } from './queue-messages';

/** One try: when, the answer's status or the error, how long it took. */
export interface Attempt {
  at: number;
  status?: number;
  error?: string;
  durationMs: number;
}

/**
 * A delivery of one event to one endpoint: pk `ORG#<orgId>`, sk `WHDELIVERY#<endpointId>#<deliveryId>`
 * (newest first per endpoint: the id starts with the event's time). The payload is kept as sent, so a
 * retry or a redelivery sends the same bytes under the same `webhook-id`.
 */
export interface DeliveryRecord {
  deliveryId: string;
  endpointId: string;
  orgId: string;
  eventId: string;
  kind: string;
  payload: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: Attempt[];
  createdAt: number;
  nextAttemptAt?: number;
  /** The try (its number of earlier tries) a worker is making now, until when, and its token. */
  claimedTry?: number;
  claimedUntil?: number;
  claimedBy?: string;
}

export type { DeliveryMessage } from './queue-messages';

const PREFIX = PREFIXES.webhooks.delivery;
const deliveryKey = (orgId: string, endpointId: string, deliveryId: string) => ({
  pk: orgPk(orgId),
  sk: `${PREFIX}${endpointId}#${deliveryId}`,
});

/** How long a delivery keeps being tried after it was made. */
export const RETRY_WINDOW_MS = 24 * 3_600_000;
const TIMEOUT_MS = 10_000;
/** Waits between tries (seconds), growing; WEBHOOK_RETRY_SECONDS scales them for tests. */
const WAITS = [30, 120, 600, 1800, 3600, 7200, 14_400, 28_800];
const waitAfter = (tries: number) =>
  (WAITS[Math.min(tries - 1, WAITS.length - 1)] as number) * Number(readEnv('WEBHOOK_RETRY_SCALE') ?? 1) * 1000;

/** The Standard Webhooks envelope: `type`, `timestamp`, `data`. */
export function payloadOf(event: NotifyEvent): string {
  return JSON.stringify({
    type: event.kind,
    timestamp: new Date(event.at).toISOString(),
    data: {
      eventId: event.eventId,
      orgId: event.orgId,
      resources: event.resources,
      attributes: event.attributes,
      title: event.title,
      ...(event.body !== undefined ? { body: event.body } : {}),
      ...(event.url !== undefined ? { url: event.url } : {}),
    },
  });
}

/**
 * Standard Webhooks' headers: `webhook-id`, `webhook-timestamp` (seconds), `webhook-signature`
 * (`v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">`, one per live secret, space-separated).
 */
export function signatureHeaders(
  id: string,
  body: string,
  secretsNow: string[],
  seconds = Math.floor(Date.now() / 1000),
) {
  const signed = `${id}.${seconds}.${body}`;
  const signatures = secretsNow.map(
    (s) =>
      `v1,${createHmac('sha256', Buffer.from(s.replace(/^whsec_/, ''), 'base64'))
        .update(signed)
        .digest('base64')}`,
  );
  return { 'webhook-id': id, 'webhook-timestamp': String(seconds), 'webhook-signature': signatures.join(' ') };
}

const send = (m: DeliveryMessage, delayMs: number) =>
  queue().send('WEBHOOKS_QUEUE_URL', m, delayMs > 0 ? { delaySeconds: Math.min(900, Math.ceil(delayMs / 1000)) } : {});

/**
 * Fans an event out to the organization's enabled endpoints subscribed to its kind: one delivery
 * each (a conditional put on an id made of event and endpoint: a redelivered event makes none
 * again), then its first try queued. A redelivered event queues the first try again of a delivery
 * that has no try yet: the queueing may have failed after the record was written (the event came
 * back for it), and a try is claimed before it is made, so two messages of it POST once.
 */
export async function fanOut(event: NotifyEvent): Promise<number> {
  const endpoints = (await listEndpoints(event.orgId)).filter((e) => e.enabled && e.events.includes(event.kind));
  let made = 0;
  for (const e of endpoints) {
    const hash = createHash('sha256').update(`${event.eventId}\0${e.endpointId}`).digest('hex').slice(0, 16);
    const deliveryId = `msg_${event.eventId.slice(4, 14)}${hash}`;
    const record: DeliveryRecord = {
      deliveryId,
      endpointId: e.endpointId,
      orgId: e.orgId,
      eventId: event.eventId,
      kind: event.kind,
      payload: payloadOf(event),
      status: 'pending',
      attempts: [],
      createdAt: Date.now(),
    };
    try {
      await putOnce({
        Item: { ...deliveryKey(e.orgId, e.endpointId, deliveryId), ...record },
        ConditionExpression: 'attribute_not_exists(pk)',
      });
    } catch (err) {
      if ((err as Error).name !== 'ConditionalCheckFailedException') throw err;
      const existing = await getItem<DeliveryRecord>(deliveryKey(e.orgId, e.endpointId, deliveryId), true);
      if (existing?.status === 'pending' && existing.attempts.length === 0 && existing.nextAttemptAt === undefined)
        await send({ orgId: e.orgId, endpointId: e.endpointId, deliveryId, notBefore: 0 }, 0);
      continue;
    }
    await send({ orgId: e.orgId, endpointId: e.endpointId, deliveryId, notBefore: 0 }, 0);
    made++;
  }
  return made;
}

/**
 * One try of a delivery, once per message of its chain (a repeated message sends nothing): POSTed through the guarded fetch (10 s, no redirects, the reply capped),
 * signed with every live secret. A 2xx ends it `succeeded`; anything else records the try and
 * queues the next after a growing wait, until 24 hours after the delivery was made: then `failed`.
 * A URL the guard refuses now fails it at once. Answers what happened.
 */
export async function attemptDelivery(m: DeliveryMessage, now = Date.now()): Promise<string> {
  if (m.notBefore > now) {
    await send(m, m.notBefore - now);
    return 'waiting';
  }
  const key = deliveryKey(m.orgId, m.endpointId, m.deliveryId);
  const [d, e] = await Promise.all([
    getItem<DeliveryRecord>(key, true),
    getItem<EndpointRecord>(endpointKey(m.orgId, m.endpointId), true),
  ]);
  if (d?.status !== 'pending') return 'none';
  // A message of a try already made (SQS delivers at least once; the next try has its own
  // message, `notBefore` its `nextAttemptAt`): nothing is sent again.
  if ((d.nextAttemptAt ?? 0) !== m.notBefore) return 'none';
  if (!e) return record(key, d, { at: now, error: 'The endpoint was deleted.', durationMs: 0 }, 'failed');
  // Two messages of one try at once (two workers): the one that claims it POSTs. One that dies
  // holding it leaves its message to come back after the queue's visibility timeout (minutes), when
  // the claim has lapsed.
  const claimed = await claimTry(key, {
    tryNumber: d.attempts.length,
    condition: '#status = :pending AND size(attempts) = :tries',
    names: { '#status': 'status' },
    values: { ':pending': 'pending', ':tries': d.attempts.length },
  });
  if (!claimed) return 'none';
  const started = Date.now();
  let attempt: Attempt;
  let refused = false;
  try {
    const res = await guardedFetch(e.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'platform-webhooks',
        ...signatureHeaders(d.deliveryId, d.payload, await signingSecrets(e)),
      },
      body: d.payload,
      timeoutMs: TIMEOUT_MS,
      maxBytes: 4096,
    });
    attempt = { at: now, status: res.status, durationMs: Date.now() - started };
  } catch (err) {
    refused = err instanceof UnsafeUrlError;
    attempt = { at: now, error: (err as Error).message.slice(0, 300), durationMs: Date.now() - started };
  }
  if (attempt.status !== undefined && attempt.status >= 200 && attempt.status < 300) {
    return record(key, d, attempt, 'succeeded');
  }
  const next = now + waitAfter(d.attempts.length + 1);
  if (refused || next > d.createdAt + RETRY_WINDOW_MS) return record(key, d, attempt, 'failed');
  // The next try queued first, then this one recorded: a failure between them brings this message
  // back (tried again, never lost); the next try's message then finds another `nextAttemptAt`.
  await send({ ...m, notBefore: next }, next - now);
  await record(key, d, attempt, 'pending', next);
  return 'retry';
}

async function record(
  key: { pk: string; sk: string },
  d: DeliveryRecord,
  attempt: Attempt,
  status: DeliveryRecord['status'],
  nextAttemptAt?: number,
): Promise<string> {
  try {
    await db.send(
      new UpdateCommand({
        TableName: TABLE(),
        Key: key,
        UpdateExpression: nextAttemptAt
          ? 'SET #status = :status, attempts = list_append(attempts, :a), nextAttemptAt = :n'
          : 'SET #status = :status, attempts = list_append(attempts, :a) REMOVE nextAttemptAt',
        ConditionExpression: '#status = :pending AND size(attempts) = :tries',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':status': status,
          ':a': [attempt],
          ':pending': 'pending',
          ':tries': d.attempts.length,
          ...(nextAttemptAt ? { ':n': nextAttemptAt } : {}),
        },
      }),
    );
  } catch (err) {
    // Another try of the same delivery moved it first (a repeated message): this one counts nothing.
    if ((err as Error).name === 'ConditionalCheckFailedException') return 'none';
    log.warn('a webhook delivery was not recorded', { deliveryId: d.deliveryId, error: describeError(err) });
    throw err;
  }
  return status;
}

/** The endpoint's deliveries, newest first, without their payloads. */
export async function listDeliveries(orgId: string, endpointId: string, limit: number, cursor: string | undefined) {
  const scope = `${orgId}:webhook-deliveries:${endpointId}`;
  const out = await db.send(
    new QueryCommand({
      TableName: TABLE(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
      ExpressionAttributeValues: { ':pk': orgPk(orgId), ':p': `${PREFIX}${endpointId}#` },
      ScanIndexForward: false,
      Limit: limit,
      ExclusiveStartKey: decodeCursor(scope, cursor),
    }),
  );
  return {
    deliveries: ((out.Items ?? []) as DeliveryRecord[]).map((d) => shownDelivery(d)),
    cursor: encodeCursor(scope, out.LastEvaluatedKey),
  };
}

export function shownDelivery(d: DeliveryRecord, withPayload = false) {
  return {
    deliveryId: d.deliveryId,
    endpointId: d.endpointId,
    eventId: d.eventId,
    kind: d.kind,
    status: d.status,
    attempts: d.attempts,
    createdAt: d.createdAt,
    ...(d.nextAttemptAt !== undefined && d.status === 'pending' ? { nextAttemptAt: d.nextAttemptAt } : {}),
    ...(withPayload ? { payload: JSON.parse(d.payload) as unknown } : {}),
  };
}

export async function requireDelivery(orgId: string, endpointId: string, deliveryId: string): Promise<DeliveryRecord> {
  const d = deliveryId.startsWith('msg_')
    ? await getItem<DeliveryRecord>(deliveryKey(orgId, endpointId, deliveryId), true)
    : undefined;
  if (!d) throw notFound(WEBHOOK_MESSAGES.deliveryNotFound);
  return d;
}

/**
 * Sends a delivery again (a person asked): a new delivery of the same payload under a new id, so
 * its tries are its own; the receiver tells them apart by `webhook-id`.
 */
export async function redeliver(d: DeliveryRecord): Promise<DeliveryRecord> {
  const now = Date.now();
  const copy: DeliveryRecord = {
    ...d,
    deliveryId: newId('msg_', now),
    status: 'pending',
    attempts: [],
    createdAt: now,
  };
  delete copy.nextAttemptAt;
  delete copy.claimedTry;
  delete copy.claimedUntil;
  delete copy.claimedBy;
  // The key last: a record read from the table carries its own.
  await putOnce({
    Item: { ...copy, ...deliveryKey(d.orgId, d.endpointId, copy.deliveryId) },
    ConditionExpression: 'attribute_not_exists(pk)',
  });
  await send({ orgId: d.orgId, endpointId: d.endpointId, deliveryId: copy.deliveryId, notBefore: 0 }, 0);
  return copy;
}
