import type { Server } from 'node:http';
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import {
  type AttributeValue,
  BatchGetItemCommand,
  BatchWriteItemCommand,
  DynamoDBClient,
  QueryCommand,
} from '@aws-sdk/client-dynamodb';
import type { BenchPlatform } from './platform';
import { median, percentile } from './stats';

/**
 * The latency of one `query` page through the API (local gateway → databases function →
 * authentication → DynamoDB Query) against the same Query made directly with the SDK, on the same
 * DynamoDB Local. Goal (issue 5): API ÷ direct ≤ 1.3 at the median. Both series run once per round,
 * in alternating order, so DynamoDB Local warming up and the machine's noise fall on both alike.
 */

export interface QuerySeries {
  median: number;
  p95: number;
}

export interface QueryPageFigures {
  /** Items per page (the route's `limit`). */
  limit: number;
  /** Approximate size of one item in bytes. */
  itemBytes: number;
  api: QuerySeries;
  direct: QuerySeries;
  /**
   * `GET /v1/orgs/:orgId` through the same gateway with the same token: authentication's own
   * DynamoDB round trip plus the HTTP hop, which every route pays before it runs.
   */
  authFloor: QuerySeries;
  /**
   * The same Query and authentication's BatchGet (organization and membership) sent together
   * with the SDK: the least a read that authorizes in parallel can take on this engine.
   */
  engineFloor: QuerySeries;
  /** api.median ÷ direct.median: the goal. */
  ratio: number;
  /** api.median ÷ engineFloor.median: what the route adds to the two calls it must make. */
  ratioToFloor: number;
  /** (api.median − authFloor.median) ÷ direct.median: what the route adds on top of authentication. */
  ratioBeyondAuth: number;
}

export interface DatabaseQueryResult {
  goal: number;
  warmup: number;
  runs: number;
  pages: QueryPageFigures[];
  /** True when every page size met the goal. */
  met: boolean;
}

export interface DatabaseQueryOptions {
  warmup?: number;
  runs?: number;
  /** Page sizes measured; the route's default (25) and its maximum (100) unless given. */
  limits?: number[];
  /** Bytes of payload per item (default 200). */
  itemBytes?: number;
}

export const QUERY_RATIO_GOAL = 1.3;

/** GET and POST (JSON) on one kept-alive loopback connection. */
function poster(baseUrl: string) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const base = new URL(baseUrl);
  const send = (
    method: 'GET' | 'POST',
    path: string,
    token: string,
    body?: unknown,
  ): Promise<{ status: number; body: string }> =>
    new Promise((resolve, reject) => {
      const data = body === undefined ? Buffer.alloc(0) : Buffer.from(JSON.stringify(body));
      const req = request(
        {
          agent,
          host: base.hostname,
          port: base.port,
          path,
          method,
          headers: {
            authorization: `Bearer ${token}`,
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
            'content-length': String(data.length),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
          res.on('error', reject);
        },
      );
      req.setTimeout(10_000, () => req.destroy(new Error(`${method} ${path} timed out`)));
      req.on('error', reject);
      req.end(data);
    });
  return {
    post: (path: string, token: string, body: unknown) => send('POST', path, token, body),
    get: (path: string, token: string) => send('GET', path, token),
    close: () => agent.destroy(),
  };
}

/**
 * `benchDatabaseQuery(platform, options?)`: creates a database through the API on the bench
 * platform, fills one partition, measures, and deletes the database again.
 */
export async function benchDatabaseQuery(
  platform: BenchPlatform,
  options: DatabaseQueryOptions = {},
): Promise<DatabaseQueryResult> {
  const warmup = options.warmup ?? 50;
  const runs = options.runs ?? 300;
  const limits = options.limits ?? [25, 100];
  const itemBytes = options.itemBytes ?? 200;
  const { createGateway, listen } = await import('../../lib/local/gateway');
  const gateway: Server = createGateway();
  const http = poster(`http://127.0.0.1:${await listen(gateway, 0)}`);
  const direct = new DynamoDBClient({
    endpoint: platform.dynamoEndpoint,
    region: platform.env.AWS_REGION,
  });
  let dbPath: string | undefined;
  try {
    const created = await http.post(`/v1/orgs/${platform.orgId}/resources`, platform.jwt, {
      type: 'database',
      name: `bench-query-${Date.now().toString(36)}`,
    });
    if (created.status !== 201)
      throw new Error(`creating the bench database answered ${created.status} ${created.body}`);
    const resource = JSON.parse(created.body).resource as { resourceId: string; physicalName: string };
    dbPath = `/v1/orgs/${platform.orgId}/databases/${resource.resourceId}`;
    const table = resource.physicalName;

    const count = Math.max(...limits);
    const items: Record<string, AttributeValue>[] = Array.from({ length: count }, (_, i) => ({
      pk: { S: 'bench' },
      sk: { S: `item#${String(i).padStart(5, '0')}` },
      n: { N: String(i) },
      data: { S: 'x'.repeat(itemBytes) },
    }));
    for (let i = 0; i < items.length; i += 25) {
      let pending: Record<string, { PutRequest: { Item: Record<string, AttributeValue> } }[]> | undefined = {
        [table]: items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } })),
      };
      while (pending && Object.keys(pending).length > 0) {
        const out = await direct.send(new BatchWriteItemCommand({ RequestItems: pending }));
        pending = out.UnprocessedItems as typeof pending;
      }
    }

    const pages: QueryPageFigures[] = [];
    for (const limit of limits) {
      const viaApi = async () => {
        const res = await http.post(`${dbPath}/query`, platform.jwt, { partition: { S: 'bench' }, limit });
        if (res.status !== 200) throw new Error(`query answered ${res.status} ${res.body.slice(0, 300)}`);
        if (JSON.parse(res.body).count !== limit) throw new Error('query answered a short page');
      };
      // What the route sends, placeholders included.
      const viaSdk = async () => {
        const out = await direct.send(
          new QueryCommand({
            TableName: table,
            KeyConditionExpression: '#n0 = :v0',
            ExpressionAttributeNames: { '#n0': 'pk' },
            ExpressionAttributeValues: { ':v0': { S: 'bench' } },
            Limit: limit,
            ScanIndexForward: true,
            ReturnConsumedCapacity: 'TOTAL',
          }),
        );
        if (out.Count !== limit) throw new Error('direct Query answered a short page');
      };
      const { keys } = await import('../../shared/kernel/store/table');
      const org = keys.org(platform.orgId);
      const member = keys.member(platform.orgId, platform.userId);
      const platformTable = platform.env.TABLE_NAME as string;
      const engineFloor = async () => {
        const [auth] = await Promise.all([
          direct.send(
            new BatchGetItemCommand({
              RequestItems: {
                [platformTable]: {
                  Keys: [org, member].map((k) => ({ pk: { S: k.pk }, sk: { S: k.sk } })),
                },
              },
            }),
          ),
          viaSdk(),
        ]);
        if ((auth.Responses?.[platformTable]?.length ?? 0) !== 2) throw new Error('the floor BatchGet found no member');
      };
      const authFloor = async () => {
        const res = await http.get(`/v1/orgs/${platform.orgId}`, platform.jwt);
        if (res.status !== 200) throw new Error(`GET /v1/orgs/:orgId answered ${res.status}`);
      };
      const calls = { api: viaApi, direct: viaSdk, authFloor, engineFloor };
      const names = Object.keys(calls) as (keyof typeof calls)[];
      const samples = {
        api: [] as number[],
        direct: [] as number[],
        authFloor: [] as number[],
        engineFloor: [] as number[],
      };
      for (let round = 0; round < warmup + runs; round++) {
        for (let i = 0; i < names.length; i++) {
          const which = names[(round + i) % names.length] as keyof typeof calls;
          const t0 = performance.now();
          await calls[which]();
          if (round >= warmup) samples[which].push(performance.now() - t0);
        }
      }
      const series = (v: number[]) => ({ median: median(v), p95: percentile(v, 95) });
      const api = series(samples.api);
      const sdk = series(samples.direct);
      const floor = series(samples.authFloor);
      const both = series(samples.engineFloor);
      pages.push({
        limit,
        itemBytes,
        api,
        direct: sdk,
        authFloor: floor,
        engineFloor: both,
        ratio: api.median / sdk.median,
        ratioToFloor: api.median / both.median,
        ratioBeyondAuth: (api.median - floor.median) / sdk.median,
      });
    }
    return { goal: QUERY_RATIO_GOAL, warmup, runs, pages, met: pages.every((p) => p.ratio <= QUERY_RATIO_GOAL) };
  } finally {
    if (dbPath) await deleteDatabase(gateway, dbPath, platform.jwt).catch(() => undefined);
    http.close();
    direct.destroy();
    gateway.closeAllConnections();
    gateway.close();
  }
}

async function deleteDatabase(gateway: Server, path: string, token: string): Promise<void> {
  const address = gateway.address();
  if (!address || typeof address === 'string') return;
  await fetch(`http://127.0.0.1:${address.port}${path}`, {
    method: 'DELETE',
    headers: { authorization: `Bearer ${token}` },
  });
}

/** The markdown rows of the figures, for the bench report. */
export function renderDatabaseQuery(r: DatabaseQueryResult): string {
  const ms = (v: number) => `${v.toFixed(2)} ms`;
  const lines = [
    `Query page through the API vs the same Query with the SDK (goal ≤ ${r.goal}×; ${r.warmup} warm-up + ${r.runs} rounds):`,
    '',
    '| page | API median (p95) | SDK median (p95) | auth floor median | ratio | goal | ratio beyond auth | engine floor median | API ÷ engine floor |',
    '|---|---|---|---|---|---|---|---|---|',
    ...r.pages.map(
      (p) =>
        `| ${p.limit} items of ~${p.itemBytes} B | ${ms(p.api.median)} (${ms(p.api.p95)}) | ` +
        `${ms(p.direct.median)} (${ms(p.direct.p95)}) | ${ms(p.authFloor.median)} | ${p.ratio.toFixed(2)}× | ` +
        `${p.ratio <= r.goal ? 'met' : '**missed**'} | ${p.ratioBeyondAuth.toFixed(2)}× | ` +
        `${ms(p.engineFloor.median)} | ${p.ratioToFloor.toFixed(2)}× |`,
    ),
    '',
    'Auth floor: `GET /v1/orgs/:orgId` through the same gateway with the same token (the HTTP hop and the ' +
      "authentication's DynamoDB round trip every route pays); ratio beyond auth = (API − floor) ÷ SDK. " +
      "Engine floor: the route's two calls (authentication's BatchGet and the Query) sent together with the " +
      'SDK. The route sends them together (reads authorize in parallel), but DynamoDB Local answers ' +
      'concurrent requests largely one after the other, so on this engine two calls take about 1.6× one: ' +
      'the 1.3× goal against a single Query is out of reach here by construction, and API ÷ engine floor ' +
      'is what the platform itself adds. On DynamoDB, which serves the two at once, the floor is the ' +
      'slower of the two.',
  ];
  return `${lines.join('\n')}\n`;
}
