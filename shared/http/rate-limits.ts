import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { HttpError } from '../ground/errors';
import { describeError, log } from '../ground/log';
import { hashSecret, KEY_PREFIX } from '../identity/keys';
import { db } from '../store/client';
import { TABLE } from '../store/table';

/**
 * Rate limits per organization and per API key, in fixed windows counted in the platform table
 * (one item per budget and window, gone by TTL). A budget comes from the environment until the
 * platform's plans set them (`RATE_LIMIT_ORG`, `RATE_LIMIT_KEY` per `RATE_LIMIT_WINDOW_SECONDS`;
 * `RATE_LIMITS=off` turns counting off). Only callers that passed authentication are counted, so
 * nobody spends another organization's budget for long: a count starts beside authentication's own
 * round trip and is given back when authentication refuses.
 *
 * A read is counted beside its own calls (no wait on its path) and answered 429 if the count came
 * back over; a write is counted first, with a condition, so a refused write changes nothing. A
 * window a container already saw over is refused before any call.
 */
export interface Budget {
  scope: string;
  limit: number;
  windowSeconds: number;
}

export interface Count {
  limit: number;
  remaining: number;
  /** Seconds until the window ends. */
  reset: number;
  over: boolean;
}

/** What a started count needs to be given back (its caller failed authentication). */
export interface Counting {
  budgets: Budget[];
  at: number;
  result: Promise<Count>;
}

const DEFAULTS = { org: 3000, key: 1200, window: 60 };
const num = (name: string, fallback: number) => {
  const v = Number(process.env[name]);
  return Number.isFinite(v) && v > 0 ? v : fallback;
};

export const rateLimitsOn = () => process.env.RATE_LIMITS !== 'off';

/**
 * The budgets a request spends: its organization's, for a key its key's (named by the key's hash:
 * counting starts beside authentication, before the key's record is read), and a route's own.
 */
export function budgetsOf(orgId: string, token: string | undefined, own?: 'builds'): Budget[] {
  const windowSeconds = num('RATE_LIMIT_WINDOW_SECONDS', DEFAULTS.window);
  const budgets = [{ scope: `org#${orgId}`, limit: num('RATE_LIMIT_ORG', DEFAULTS.org), windowSeconds }];
  // Builds are the platform's dearest work: a lower budget of their own, per organization and minute.
  if (own === 'builds')
    budgets.push({ scope: `org#${orgId}#builds`, limit: num('RATE_LIMIT_BUILDS', 30), windowSeconds: 60 });
  if (token && (token.startsWith(KEY_PREFIX.api) || token.startsWith(KEY_PREFIX.agent))) {
    budgets.push({ scope: `key#${hashSecret(token)}`, limit: num('RATE_LIMIT_KEY', DEFAULTS.key), windowSeconds });
  }
  return budgets;
}

const windowOf = (b: Budget, now: number) => Math.floor(now / 1000 / b.windowSeconds);
const resetOf = (b: Budget, now: number) =>
  Math.max(1, Math.ceil(((windowOf(b, now) + 1) * b.windowSeconds * 1000 - now) / 1000));

/** Windows this container saw over: refused at once until they end. */
const overUntil = new Map<string, number>();

/** The seconds to wait when one of the budgets is known to be over in this window, else undefined. */
export function knownOver(budgets: Budget[], now = Date.now()): Count | undefined {
  for (const b of budgets) {
    const until = overUntil.get(`${b.scope}#${windowOf(b, now)}`);
    if (until !== undefined && until > now) return { limit: b.limit, remaining: 0, reset: resetOf(b, now), over: true };
  }
  return undefined;
}

/**
 * Counts one request against each budget (all at once); `conditional` (a write): a budget already
 * spent is not counted further. Answers the tightest budget. A counter that can't be written does
 * not refuse the request (logged): limits protect, they never break the API.
 */
export async function count(budgets: Budget[], conditional: boolean, now = Date.now()): Promise<Count> {
  const counts = await Promise.all(
    budgets.map(async (b): Promise<Count> => {
      const window = windowOf(b, now);
      const reset = resetOf(b, now);
      try {
        const out = await db.send(
          new UpdateCommand({
            TableName: TABLE(),
            Key: { pk: `RATE#${b.scope}#${window}`, sk: 'RATE' },
            UpdateExpression: 'ADD n :one SET #ttl = if_not_exists(#ttl, :ttl)',
            ...(conditional ? { ConditionExpression: 'attribute_not_exists(n) OR n < :max' } : {}),
            ExpressionAttributeNames: { '#ttl': 'ttl' },
            ExpressionAttributeValues: {
              ':one': 1,
              ':ttl': Math.floor(now / 1000) + b.windowSeconds + 60,
              ...(conditional ? { ':max': b.limit } : {}),
            },
            ReturnValues: 'UPDATED_NEW',
          }),
        );
        const n = Number(out.Attributes?.n ?? 0);
        const over = n > b.limit;
        if (n >= b.limit) overUntil.set(`${b.scope}#${window}`, (window + 1) * b.windowSeconds * 1000);
        return { limit: b.limit, remaining: Math.max(0, b.limit - n), reset, over };
      } catch (err) {
        if ((err as Error).name === 'ConditionalCheckFailedException') {
          overUntil.set(`${b.scope}#${window}`, (window + 1) * b.windowSeconds * 1000);
          return { limit: b.limit, remaining: 0, reset, over: true };
        }
        log.warn('rate_uncounted', { error: describeError(err) });
        return { limit: b.limit, remaining: b.limit, reset, over: false };
      }
    }),
  );
  return counts.reduce((a, b) => (b.over && !a.over ? b : !a.over && b.remaining < a.remaining ? b : a));
}

/**
 * Gives a count back: its caller was refused by authentication (a bad key, not a member), and
 * nobody spends another organization's budget. In the background: the refusal does not wait.
 */
export function refund(counting: Counting): void {
  void counting.result
    .then(async (c) => {
      if (c.over) return;
      await Promise.all(
        counting.budgets.map((b) =>
          db.send(
            new UpdateCommand({
              TableName: TABLE(),
              Key: { pk: `RATE#${b.scope}#${windowOf(b, counting.at)}`, sk: 'RATE' },
              UpdateExpression: 'ADD n :minus',
              ExpressionAttributeValues: { ':minus': -1 },
            }),
          ),
        ),
      );
    })
    .catch((err: unknown) => log.warn('rate_unrefunded', { error: describeError(err) }));
}

/** The IETF RateLimit header fields of a count. */
export const rateHeaders = (c: Count): Record<string, string> => ({
  'ratelimit-limit': String(c.limit),
  'ratelimit-remaining': String(c.remaining),
  'ratelimit-reset': String(c.reset),
});

/** 429 with `Retry-After` and the headers. */
export const tooMany = (c: Count) =>
  new HttpError(
    429,
    `Too many requests. Try again in ${c.reset} seconds.`,
    {},
    {
      ...rateHeaders(c),
      'retry-after': String(c.reset),
    },
  );
