import { BatchGetCommand, type BatchGetCommandOutput, GetCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '../config';
import { db } from './client';
import { PREFIXES } from './keys';

/**
 * The platform table: `pk`/`sk`, plus GSI1 (`gsi1pk`/`gsi1sk`) for the reverse lookups
 * (a user's organizations, …). Every record of a tenant lives under `pk = ORG#<orgId>`, with a
 * sort key prefix per kind (see `keys`), so the organization's contents are counted by prefix.
 *
 * This module holds its keys and reads, what a function's start-up code needs; queries page by
 * page, batch deletes, transactions and versioned updates are in `./ops`, which loads with the
 * route modules and workers that use them, so their DynamoDB commands are not in a function's start.
 */
export const TABLE = () => config.tableName;

export type Item = Record<string, unknown> & { pk: string; sk: string };

const I = PREFIXES.identity;

export const keys = {
  org: (orgId: string) => ({ pk: `${I.org}${orgId}`, sk: 'ORG' }),
  orgSlug: (slug: string) => ({ pk: `${I.orgSlug}${slug}`, sk: 'ORGSLUG' }),
  member: (orgId: string, userId: string) => ({ pk: `${I.org}${orgId}`, sk: `${I.member}${userId}` }),
  team: (orgId: string, teamId: string) => ({ pk: `${I.org}${orgId}`, sk: `${I.team}${teamId}` }),
  invite: (orgId: string, inviteId: string) => ({ pk: `${I.org}${orgId}`, sk: `${I.invite}${inviteId}` }),
  /** The organization's pointer to one of its keys (deleted with the organization). */
  orgKey: (orgId: string, keyId: string) => ({ pk: `${I.org}${orgId}`, sk: `${I.key}${keyId}` }),
  /** A key or device token, by the SHA-256 of its secret: one GetItem authenticates. */
  keyHash: (hash: string) => ({ pk: `${I.keyHash}${hash}`, sk: 'KEY' }),
  user: (userId: string) => ({ pk: `${I.user}${userId}`, sk: 'USER' }),
  userEmail: (email: string) => ({ pk: `${I.email}${email.toLowerCase()}`, sk: 'EMAIL' }),
};

/** The partition of an organization (`ORG#<orgId>`), and of a user (`USER#<userId>`). */
export const orgPk = (orgId: string) => `${I.org}${orgId}`;
export const userPk = (userId: string) => `${I.user}${userId}`;

/**
 * Sort key prefixes of what an organization holds; `functions/orgs/contents.ts` counts them.
 * Members, teams and invites all start with `MEMBER` (`people`), so one Query reads them together.
 */
export const ORG_PREFIX = {
  member: I.member,
  team: I.team,
  invite: I.invite,
  people: 'MEMBER',
  key: I.key,
  project: PREFIXES.projects.project,
  repository: `${PREFIXES.resources.resource}repository#`,
  database: `${PREFIXES.resources.resource}database#`,
  bucket: `${PREFIXES.resources.resource}bucket#`,
  connector: PREFIXES.connectors.connector,
  agent: PREFIXES.agents.device,
  doc: PREFIXES.pages.page,
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

/** A put that succeeds only when no item has this key. */
export const putNew = (item: Item) => ({
  Put: { TableName: TABLE(), Item: item, ConditionExpression: 'attribute_not_exists(pk)' },
});

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
