import { describeError, log } from '../ground/log';
import { db } from '../store/client';
import { PutCommand, type QueryCommandInput } from '../store/commands';
import { decodeCursor, encodeCursor } from '../store/cursor';
import { PREFIXES } from '../store/keys';
import { queryPages, transact } from '../store/ops';
import { TABLE } from '../store/table';

/** Who did it: a person (with the email of their token) or a key. */
export interface AuditActor {
  kind: 'user' | 'api_key' | 'agent_key' | 'device';
  id: string;
  email: string | null;
}

/**
 * One write of the API, as the audit log keeps it: who, what, on which ids, with which result.
 * Names of the fields sent, never their values.
 */
export interface AuditEntry {
  /** The organization it happened in (the platform organization's for `/v1/platform` routes); null for a person's own settings. */
  orgId: string | null;
  at: number;
  actor: AuditActor;
  action: string;
  /** `METHOD path` of the route. */
  route: string;
  /** The path's ids (its parameters), by name. */
  target: Record<string, string>;
  status: number;
  requestId: string;
  ip: string | null;
  userAgent: string | null;
  /** Top-level names of the body, never the values. */
  fields: string[];
}

/** Kept a year: the table's TTL removes older entries. */
export const AUDIT_KEEP_SECONDS = 365 * 24 * 3600;

const pad = (at: number) => String(at).padStart(15, '0');
export const dayOf = (at: number) => new Date(at).toISOString().slice(0, 10);
const partition = (orgId: string | null, actor: AuditActor) =>
  orgId ? `${PREFIXES.audit.org}${orgId}` : `${PREFIXES.audit.org}~${actor.id}`;

/**
 * The entry's keys: its organization's partition, by time then request id (so a repeat of the
 * same request lands on the same key), and the platform-wide GSI by day.
 */
export function auditItem(entry: AuditEntry) {
  const sk = `${pad(entry.at)}#${entry.requestId}`;
  return {
    pk: partition(entry.orgId, entry.actor),
    sk,
    gsi1pk: `${PREFIXES.audit.day}${dayOf(entry.at)}`,
    gsi1sk: sk,
    ...entry,
    actorId: entry.actor.id,
    actorEmail: entry.actor.email ?? undefined,
    targets: Object.values(entry.target),
    ttl: Math.floor(entry.at / 1000) + AUDIT_KEEP_SECONDS,
  };
}

/** Extra writes that belong with the entry (the platform's counters), in its transaction. */
export type WithEntry = NonNullable<Parameters<typeof transact>[0]>;

const ATTEMPTS = 3;

/**
 * Writes one entry, once: a repeat of its request id changes nothing (nor do the writes that go
 * with it). A failed write is tried again, then logged as `audit_unwritten` (ids only).
 */
export async function writeAudit(entry: AuditEntry, also: WithEntry = []): Promise<boolean> {
  const put = {
    Put: { TableName: TABLE(), Item: auditItem(entry), ConditionExpression: 'attribute_not_exists(pk)' },
  };
  for (let attempt = 1; ; attempt++) {
    try {
      // A repeat is a ConditionalCheckFailed: written before, nothing to do.
      if (also.length === 0) await db.send(new PutCommand(put.Put));
      else await transact([put, ...also], [() => new AlreadyWritten()]);
      return true;
    } catch (err) {
      if (err instanceof AlreadyWritten || (err as Error).name === 'ConditionalCheckFailedException') return false;
      if (attempt >= ATTEMPTS) {
        log.error('audit_unwritten', {
          requestId: entry.requestId,
          orgId: entry.orgId,
          action: entry.action,
          status: entry.status,
          error: describeError(err),
        });
        return false;
      }
      await new Promise((resolve) => setTimeout(resolve, 25 * 2 ** attempt));
    }
  }
}

class AlreadyWritten extends Error {}

export interface AuditFilters {
  actor?: string;
  action?: string;
  target?: string;
  from?: number;
  to?: number;
  cursor?: string;
  limit: number;
}

/** The public shape of an entry. */
export function shownEntry(item: Record<string, unknown>): AuditEntry & { at: string } {
  return {
    orgId: (item.orgId as string | null) ?? null,
    at: new Date(item.at as number).toISOString(),
    actor: item.actor as AuditActor,
    action: item.action as string,
    route: item.route as string,
    target: (item.target as Record<string, string>) ?? {},
    status: item.status as number,
    requestId: item.requestId as string,
    ip: (item.ip as string | null) ?? null,
    userAgent: (item.userAgent as string | null) ?? null,
    fields: (item.fields as string[]) ?? [],
  } as unknown as AuditEntry & { at: string };
}

function filterOf(f: AuditFilters, orgId?: string) {
  const parts: string[] = [];
  const values: Record<string, unknown> = {};
  if (f.actor) {
    parts.push('(actorId = :actor OR actorEmail = :actorEmail)');
    values[':actor'] = f.actor;
    values[':actorEmail'] = f.actor.toLowerCase();
  }
  if (f.action) {
    parts.push('begins_with(#action, :action)');
    values[':action'] = f.action;
  }
  if (f.target) {
    parts.push('contains(targets, :target)');
    values[':target'] = f.target;
  }
  if (orgId) {
    parts.push('orgId = :org');
    values[':org'] = orgId;
  }
  return {
    ...(parts.length ? { FilterExpression: parts.join(' AND ') } : {}),
    ...(f.action ? { ExpressionAttributeNames: { '#action': 'action' } } : {}),
    values,
  };
}

/** Reads one key range newest first until `limit` entries pass the filters, or it ends. */
async function collect(
  input: Omit<QueryCommandInput, 'TableName'>,
  limit: number,
  start: Record<string, unknown> | undefined,
  keyOf: (item: Record<string, unknown>) => Record<string, unknown>,
): Promise<{ items: Record<string, unknown>[]; next?: Record<string, unknown> }> {
  const items: Record<string, unknown>[] = [];
  let read = 0;
  const pages = queryPages<Record<string, unknown>>(
    () => ({ ...input, ScanIndexForward: false, Limit: Math.max(limit - items.length, 50) }),
    start,
  );
  for await (const page of pages) {
    for (const item of page.items) {
      items.push(item);
      if (items.length === limit) {
        const more = page.next !== undefined || item !== page.items[page.items.length - 1];
        return { items, next: more ? keyOf(item) : undefined };
      }
    }
    // A sparse filter over a long range: the page ends here, the cursor goes on from it.
    if (page.next && ++read === 20) return { items, next: page.next };
  }
  return { items };
}

const MAX = '999999999999999';

/** An organization's audit log (or a person's own, for `~<userId>`), newest first. */
export async function listAudit(
  orgId: string,
  f: AuditFilters,
): Promise<{ entries: ReturnType<typeof shownEntry>[]; cursor: string | null }> {
  const scope = `${orgId}:audit`;
  const start = decodeCursor(scope, f.cursor);
  const filter = filterOf(f);
  const { items, next } = await collect(
    {
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :lo AND :hi',
      ExpressionAttributeValues: {
        ':pk': `${PREFIXES.audit.org}${orgId}`,
        ':lo': pad(f.from ?? 0),
        ':hi': `${f.to !== undefined ? pad(f.to) : MAX}#~`,
        ...filter.values,
      },
      ...(filter.FilterExpression ? { FilterExpression: filter.FilterExpression } : {}),
      ...(filter.ExpressionAttributeNames ? { ExpressionAttributeNames: filter.ExpressionAttributeNames } : {}),
    },
    f.limit,
    start,
    (item) => ({ pk: item.pk, sk: item.sk }),
  );
  return { entries: items.map(shownEntry), cursor: encodeCursor(scope, next) };
}

/**
 * Every organization's entries and the platform's own, newest first, from the GSI by day: the
 * days from `to` back to `from` (at most 90), one partition at a time.
 */
export async function listPlatformAudit(
  f: AuditFilters,
  now = Date.now(),
): Promise<{ entries: ReturnType<typeof shownEntry>[]; cursor: string | null }> {
  const scope = 'platform:audit';
  const to = f.to ?? now;
  const from = f.from ?? to - 30 * 86_400_000;
  const start = decodeCursor<{ day: string; key?: Record<string, unknown> }>(scope, f.cursor);
  let day = start?.day ?? dayOf(to);
  let key = start?.key;
  const filter = filterOf(f);
  const entries: Record<string, unknown>[] = [];
  const first = dayOf(from);
  while (day >= first) {
    const { items, next } = await collect(
      {
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :day AND gsi1sk BETWEEN :lo AND :hi',
        ExpressionAttributeValues: {
          ':day': `${PREFIXES.audit.day}${day}`,
          ':lo': pad(from),
          ':hi': `${pad(to)}#~`,
          ...filter.values,
        },
        ...(filter.FilterExpression ? { FilterExpression: filter.FilterExpression } : {}),
        ...(filter.ExpressionAttributeNames ? { ExpressionAttributeNames: filter.ExpressionAttributeNames } : {}),
      },
      f.limit - entries.length,
      key,
      (item) => ({ pk: item.pk, sk: item.sk, gsi1pk: item.gsi1pk, gsi1sk: item.gsi1sk }),
    );
    entries.push(...items);
    if (next) return { entries: entries.map(shownEntry), cursor: encodeCursor(scope, { day, key: next }) };
    key = undefined;
    day = dayOf(Date.parse(`${day}T00:00:00Z`) - 86_400_000);
    if (entries.length >= f.limit) {
      const more = day >= first;
      return { entries: entries.map(shownEntry), cursor: more ? encodeCursor(scope, { day }) : null };
    }
  }
  return { entries: entries.map(shownEntry), cursor: null };
}
