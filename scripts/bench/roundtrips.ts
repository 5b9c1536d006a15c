import type { Server } from 'node:http';
import { performance } from 'node:perf_hooks';
import { ROOT } from '../build';
import { jsonFromChild } from './child';
import { expectOk, httpClient } from './http';
import type { BenchPlatform } from './platform';
import { startCountingProxy, wavesOf } from './proxy';

/**
 * DynamoDB round trips per request, counted on the wire. The SDK reads its endpoint once per
 * client, so this runs in its own process whose AWS_ENDPOINT_URL_DYNAMODB is the counting proxy,
 * and the latency figures of the main process keep their direct connection.
 */

export interface RoundTrip {
  route: string;
  caller: 'JWT' | 'API key';
  /** Round trips each measured request waited for: calls answered before the request was (after warm-up). */
  counts: number[];
  /** Calls each measured request left in the background (answered after it was: rate-limit counts and the like). */
  background: number[];
  /** Sequential waves of each measured request (parallel calls count once). */
  waves: number[];
  /** Operations of the last measured request. */
  operations: string[];
}

interface Input {
  orgId: string;
  jwt: string;
  apiKey: string;
}

const MEASURED = 3;
const WARMUP = 3;

/** The fixed requests counted; new route groups need not change them. */
const cases = (input: Input): { route: string; path: string; caller: RoundTrip['caller']; token: string }[] => [
  { route: 'GET /v1/orgs/:orgId', path: `/v1/orgs/${input.orgId}`, caller: 'JWT', token: input.jwt },
  { route: 'GET /v1/orgs/:orgId', path: `/v1/orgs/${input.orgId}`, caller: 'API key', token: input.apiKey },
  { route: 'GET /v1/me', path: '/v1/me', caller: 'JWT', token: input.jwt },
  { route: 'GET /v1/me', path: '/v1/me', caller: 'API key', token: input.apiKey },
  { route: 'GET /v1/orgs/:orgId/members', path: `/v1/orgs/${input.orgId}/members`, caller: 'JWT', token: input.jwt },
  {
    route: 'GET /v1/orgs/:orgId/members',
    path: `/v1/orgs/${input.orgId}/members`,
    caller: 'API key',
    token: input.apiKey,
  },
];

/** Runs in the parent: spawns this file under tsx and parses what it prints. */
export function countRoundTrips(platform: BenchPlatform, timeoutMs = 60_000): Promise<RoundTrip[]> {
  const input: Input = { orgId: platform.orgId, jwt: platform.jwt, apiKey: platform.apiKey };
  return jsonFromChild<RoundTrip[]>(['--import', 'tsx', __filename], {
    cwd: ROOT,
    env: { ...process.env, ...platform.env, BENCH_ROUNDTRIPS: JSON.stringify(input) },
    timeoutMs,
    what: 'counting round trips',
  });
}

/**
 * Runs in the child: proxy → env → gateway, then each case WARMUP times to warm, MEASURED times
 * counted. Each measured request starts once DynamoDB has been quiet for a while (no call of an
 * earlier request's background work in flight or starting), and is counted until it is quiet again:
 * calls answered before the request's own answer are its round trips, the rest its background.
 */
async function main(): Promise<void> {
  const input = JSON.parse(process.env.BENCH_ROUNDTRIPS as string) as Input;
  const proxy = await startCountingProxy(process.env.AWS_ENDPOINT_URL_DYNAMODB as string);
  process.env.AWS_ENDPOINT_URL_DYNAMODB = proxy.endpoint;
  const { createGateway, listen } = await import('../../lib/local/gateway');
  const gateway: Server = createGateway();
  const client = httpClient(`http://127.0.0.1:${await listen(gateway, 0)}`);
  try {
    const results: RoundTrip[] = [];
    for (const c of cases(input)) {
      for (let i = 0; i < WARMUP; i++) await expectOk(client, c.path, c.token);
      const counts: number[] = [];
      const background: number[] = [];
      const waves: number[] = [];
      let operations: string[] = [];
      for (let i = 0; i < MEASURED; i++) {
        await proxy.quiet();
        proxy.reset();
        await expectOk(client, c.path, c.token);
        const answeredAt = performance.now();
        await proxy.quiet();
        const calls = proxy.seen();
        const waited = calls.filter((call) => call.end <= answeredAt);
        operations = waited.map((call) => call.operation);
        counts.push(waited.length);
        background.push(calls.length - waited.length);
        waves.push(wavesOf(waited));
      }
      results.push({ route: c.route, caller: c.caller, counts, background, waves, operations });
    }
    process.stdout.write(JSON.stringify(results));
  } finally {
    client.close();
    gateway.closeAllConnections();
    gateway.close();
    await proxy.close();
  }
}

if (require.main === module) {
  // Exits explicitly: an SDK socket or timer left open must not keep the child alive.
  main()
    .then(() => process.exit(0))
    .catch((err: unknown) => {
      process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      process.exit(1);
    });
}
