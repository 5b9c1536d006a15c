import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { performance } from 'node:perf_hooks';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { groupFor } from '../../lib/route-groups';
import { httpClient } from './http';
import type { BenchPlatform } from './platform';
import { median, percentile } from './stats';

/**
 * Warm latency of `GET /v1/orgs/:orgId` against the same DynamoDB calls made bare with a document
 * client, side by side at two levels: the handler called directly against the bare calls, and the
 * route through the local gateway against a bare handler (the bare calls, the items as JSON)
 * mounted on a gateway of its own, so both pay the same HTTP hop and event mapping. Every series runs once per round, in a rotating order, so
 * DynamoDB Local's JIT warming up and any noise of the machine fall on all series alike.
 */

export interface Series {
  name: string;
  samples: number[];
  median: number;
  p95: number;
}

export interface WarmResult {
  series: Record<SeriesName, Series>;
  warmup: number;
  runs: number;
}

export type SeriesName =
  | 'gatewayJwt'
  | 'gatewayJwtUncounted'
  | 'bareJwt'
  | 'gatewayKey'
  | 'bareKey'
  | 'bareGatewayJwt'
  | 'bareGatewayKey'
  | 'handlerJwt'
  | 'handlerKey'
  | 'authJwt'
  | 'health'
  | 'httpFloor';

type Handler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2>;

/** The API Gateway v2 event of a GET, as the local gateway would build it. */
function getEvent(path: string, token: string): APIGatewayProxyEventV2 {
  const now = Date.now();
  return {
    version: '2.0',
    routeKey: 'ANY /v1/orgs/{orgId}',
    rawPath: path,
    rawQueryString: '',
    headers: { authorization: `Bearer ${token}`, host: '127.0.0.1' },
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName: '127.0.0.1',
      domainPrefix: '127',
      http: { method: 'GET', path, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'bench' },
      requestId: randomUUID(),
      routeKey: 'ANY /v1/orgs/{orgId}',
      stage: '$default',
      time: new Date(now).toUTCString(),
      timeEpoch: now,
    },
    isBase64Encoded: false,
  };
}

const context = (requestId: string) =>
  ({ awsRequestId: requestId, functionName: 'bench', getRemainingTimeInMillis: () => 30_000 }) as unknown as Context;

export async function measureWarm(platform: BenchPlatform, warmup: number, runs: number): Promise<WarmResult> {
  const { createGateway, listen } = await import('../../lib/local/gateway');
  const gateway: Server = createGateway();
  const client = httpClient(`http://127.0.0.1:${await listen(gateway, 0)}`);
  // The cheapest possible answer over the same kind of connection: what the HTTP hop costs.
  const floor = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{}');
  });
  const floorClient = httpClient(`http://127.0.0.1:${await listen(floor, 0)}`);
  const db = DynamoDBDocumentClient.from(new DynamoDBClient({}), {
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
  });
  const table = platform.env.TABLE_NAME as string;
  const orgKey = { pk: `ORG#${platform.orgId}`, sk: 'ORG' };
  /** The route's own calls for a person: one BatchGet of the organization and the membership. */
  const bareJwtCall = async () => {
    const out = await db.send(
      new BatchGetCommand({
        RequestItems: { [table]: { Keys: [orgKey, { pk: orgKey.pk, sk: `MEMBER#${platform.userId}` }] } },
      }),
    );
    if ((out.Responses?.[table]?.length ?? 0) !== 2) throw new Error('bare BatchGet found no org and member');
    return out;
  };
  /** For an API key: one BatchGet of the key by its hash and the organization. */
  const bareKeyCall = async () => {
    const out = await db.send(
      new BatchGetCommand({
        RequestItems: { [table]: { Keys: [{ pk: `KEYHASH#${platform.keyHash}`, sk: 'KEY' }, orgKey] } },
      }),
    );
    if ((out.Responses?.[table]?.length ?? 0) !== 2) throw new Error('bare BatchGet found no key and org');
    return out;
  };
  // The bare calls as a Lambda handler, behind the same gateway code: no stack, no checks.
  const bareGateway: Server = createGateway({
    load: async () => async (event) => {
      const key = event.headers.authorization === `Bearer ${platform.apiKey}`;
      const out = await (key ? bareKeyCall() : bareJwtCall());
      return { statusCode: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(out.Responses) };
    },
  });
  const bareClient = httpClient(`http://127.0.0.1:${await listen(bareGateway, 0)}`);
  try {
    const orgPath = `/v1/orgs/${platform.orgId}`;
    const group = groupFor(orgPath);
    if (!group) throw new Error(`no route group serves ${orgPath}`);
    const { handler } = (await import(`../../functions/${group.name}/handler`)) as { handler: Handler };
    const { authenticate } = await import('../../shared/kernel/auth/authenticate');

    const ok = (what: string, status: number | undefined, detail = '') => {
      if (status !== 200) throw new Error(`${what} answered ${status} ${detail.slice(0, 300)}`);
    };
    const viaGateway = async (path: string, token?: string) => {
      const res = await client.get(path, token);
      ok(`GET ${path}`, res.status, res.body);
    };
    const viaHandler = async (token: string) => {
      const event = getEvent(orgPath, token);
      const res = await handler(event, context(event.requestContext.requestId));
      ok('handler', res.statusCode, res.body);
    };
    const calls: Record<SeriesName, () => Promise<void>> = {
      gatewayJwt: () => viaGateway(orgPath, platform.jwt),
      // The same with rate limits off (shared/kernel/http/rate-limits.ts reads the switch per request).
      gatewayJwtUncounted: async () => {
        process.env.RATE_LIMITS = 'off';
        try {
          await viaGateway(orgPath, platform.jwt);
        } finally {
          delete process.env.RATE_LIMITS;
        }
      },
      bareJwt: async () => {
        await bareJwtCall();
      },
      gatewayKey: () => viaGateway(orgPath, platform.apiKey),
      bareKey: async () => {
        await bareKeyCall();
      },
      bareGatewayJwt: async () => {
        const res = await bareClient.get(orgPath, platform.jwt);
        ok('bare handler through the gateway', res.status, res.body);
      },
      bareGatewayKey: async () => {
        const res = await bareClient.get(orgPath, platform.apiKey);
        ok('bare handler through the gateway', res.status, res.body);
      },
      handlerJwt: () => viaHandler(platform.jwt),
      handlerKey: () => viaHandler(platform.apiKey),
      // The JWT check alone (jose, JWKS cached): no DynamoDB, no HTTP.
      authJwt: async () => {
        await authenticate(`Bearer ${platform.jwt}`, false);
      },
      health: () => viaGateway('/health'),
      httpFloor: async () => {
        const res = await floorClient.get('/');
        ok('loopback floor', res.status);
      },
    };
    const names = Object.keys(calls) as SeriesName[];
    const samples = Object.fromEntries(names.map((n) => [n, [] as number[]])) as Record<SeriesName, number[]>;
    for (let round = 0; round < warmup + runs; round++) {
      for (let i = 0; i < names.length; i++) {
        const name = names[(round + i) % names.length] as SeriesName;
        const t0 = performance.now();
        await calls[name]();
        const t1 = performance.now();
        if (round >= warmup) samples[name].push(t1 - t0);
      }
    }
    const series = Object.fromEntries(
      names.map((n) => [
        n,
        { name: n, samples: samples[n], median: median(samples[n]), p95: percentile(samples[n], 95) },
      ]),
    ) as Record<SeriesName, Series>;
    return { series, warmup, runs };
  } finally {
    client.close();
    floorClient.close();
    bareClient.close();
    db.destroy();
    for (const server of [gateway, floor, bareGateway]) {
      server.closeAllConnections();
      server.close();
    }
  }
}
