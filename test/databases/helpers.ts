import {
  type AttributeValue,
  BatchWriteItemCommand,
  DescribeTableCommand,
  DynamoDBClient,
} from '@aws-sdk/client-dynamodb';
import { dynamo as handlersDynamo } from '../../shared/kernel/store/client';
import type { TestPlatform } from '../helpers/platform';

/** The run's DynamoDB Local, for arranging and checking tables beside the API. */
export const dynamo = new DynamoDBClient({});

let n = 0;
export const unique = (base: string) => `${base}-${Date.now().toString(36)}-${(n++).toString(36)}`;

export interface Db {
  resourceId: string;
  physicalName: string;
  /** `/v1/orgs/:orgId/databases/:resourceId` */
  path: string;
}

/** A database created through the API (keys pk/sk strings unless given). */
export async function newDatabase(p: TestPlatform, keys: Record<string, unknown> = {}): Promise<Db> {
  const res = await p.post(`/v1/orgs/${p.org.orgId}/resources`, { type: 'database', name: unique('db'), ...keys });
  if (res.status !== 201) throw new Error(`create database: ${res.status} ${res.text}`);
  const r = res.body.resource;
  return {
    resourceId: r.resourceId,
    physicalName: r.physicalName,
    path: `/v1/orgs/${p.org.orgId}/databases/${r.resourceId}`,
  };
}

/** Writes items straight to the table, 25 a call. */
export async function seed(table: string, items: Record<string, AttributeValue>[]): Promise<void> {
  for (let i = 0; i < items.length; i += 25) {
    let pending: BatchWriteItemCommand['input']['RequestItems'] | undefined = {
      [table]: items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } })),
    };
    while (pending && Object.keys(pending).length > 0) {
      const out: { UnprocessedItems?: typeof pending } = await dynamo.send(
        new BatchWriteItemCommand({ RequestItems: pending }),
      );
      pending = out.UnprocessedItems;
    }
  }
}

/** Waits until every index of the table is ACTIVE (DynamoDB Local builds them in about a second). */
export async function indexesActive(table: string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    const { Table } = await dynamo.send(new DescribeTableCommand({ TableName: table }));
    if ((Table?.GlobalSecondaryIndexes ?? []).every((g) => g.IndexStatus === 'ACTIVE')) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`indexes of ${table} did not become active`);
}

/** Waits until the table has no index named `name` any more. */
export async function indexGone(table: string, name: string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    const { Table } = await dynamo.send(new DescribeTableCommand({ TableName: table }));
    if (!(Table?.GlobalSecondaryIndexes ?? []).some((g) => g.IndexName === name)) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`index ${name} of ${table} was not removed`);
}

/**
 * Runs `fn` while DescribeTable reports index `index` of `table` as still building (CREATING,
 * backfilling), as AWS does for minutes on a large table. DynamoDB Local builds a test index in
 * about a second, too fast to race against, so the description is held at the AWS SDK's boundary
 * (the handlers run in this process and share the client): the routes' own code runs unchanged.
 */
export async function whileIndexBuilds(table: string, index: string, fn: () => Promise<void>): Promise<void> {
  const name = `hold-${table}-${index}`;
  handlersDynamo.middlewareStack.add(
    (next, context) => async (args) => {
      const out = await next(args);
      const described = (out.output as { Table?: { TableName?: string; GlobalSecondaryIndexes?: any[] } }).Table;
      if (context.commandName === 'DescribeTableCommand' && described?.TableName === table) {
        for (const g of described.GlobalSecondaryIndexes ?? []) {
          if (g.IndexName === index) Object.assign(g, { IndexStatus: 'CREATING', Backfilling: true });
        }
      }
      return out;
    },
    { step: 'initialize', name },
  );
  try {
    await fn();
  } finally {
    handlersDynamo.middlewareStack.remove(name);
  }
}
