import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { BenchPlatform } from './platform';
import { median, percentile } from './stats';

/**
 * The poll that claims a job (`POST /v1/agent/poll` through the local gateway: the device token
 * checked, the device read, the queued index read, the claim written, the device marked seen, a
 * results link signed) against the two calls the claim itself needs, made bare with a document
 * client: the Query of the queued index and the conditional UpdateItem. One fresh job per round.
 */
export interface AgentFigures {
  runs: number;
  poll: { api: number; bare: number };
  /** Create to done of a one-request http.batch through the agent program, and the request made directly. */
  program: { runs: number; pollMs: number; createToDone: number; p95: number; direct: number };
}

export async function benchAgents(platform: BenchPlatform, options: { runs?: number } = {}): Promise<AgentFigures> {
  const runs = options.runs ?? 50;
  process.env.ARTIFACTS_BUCKET ??= 'platform-bench-artifacts';
  const { createGateway, listen } = await import('../../lib/local/gateway');
  const { startLogin, answerLogin, loginToken } = await import('../../shared/domains/agents/devices');
  const { createJob } = await import('../../shared/domains/agents/jobs');
  // Jobs queue their checks: the run's SQS engine has every worker's queue (scripts/bench/platform.ts).
  const gateway = createGateway();
  const port = await listen(gateway, 0);
  const client = DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint: platform.dynamoEndpoint }));
  try {
    const login = await startLogin({ name: 'bench' });
    await answerLogin(platform.orgId, { userId: platform.userId, name: 'Bench' }, login.userCode, true);
    const device = await loginToken(login.deviceCode);
    if (!('token' in device)) throw new Error(`bench device login: ${device.error}`);
    const newJob = (orgId: string) =>
      createJob({
        orgId,
        type: 'http.batch',
        createdBy: platform.userId,
        expiresAt: Date.now() + 3_600_000,
        hosts: [],
        input: { requests: [{ method: 'GET', url: 'http://bench.localhost/' }] },
        createdAt: Date.now(),
      });
    // The bare calls claim jobs of an organization no device polls, so the two series never meet.
    const bareOrg = `org_bench${randomBytes(6).toString('hex')}`;
    const table = process.env.TABLE_NAME as string;
    const api: number[] = [];
    const bare: number[] = [];
    for (let i = 0; i < runs + 5; i++) {
      await newJob(platform.orgId);
      const t0 = performance.now();
      const res = await fetch(`http://127.0.0.1:${port}/v1/agent/poll`, {
        method: 'POST',
        headers: { authorization: `Bearer ${device.token}`, 'content-type': 'application/json' },
        body: '{}',
      });
      const body = (await res.json()) as { job: unknown };
      const t1 = performance.now();
      if (!body.job) throw new Error('the bench poll claimed nothing');

      const bareJob = await newJob(bareOrg);
      const t2 = performance.now();
      const queued = await client.send(
        new QueryCommand({
          TableName: table,
          IndexName: 'gsi1',
          KeyConditionExpression: 'gsi1pk = :q',
          ExpressionAttributeValues: { ':q': `JOBQ#${bareOrg}` },
          Limit: 50,
        }),
      );
      const first = queued.Items?.[0] as { pk: string; sk: string } | undefined;
      await client.send(
        new UpdateCommand({
          TableName: table,
          Key: { pk: first?.pk ?? `ORG#${bareOrg}`, sk: first?.sk ?? `JOB#${bareJob.jobId}` },
          UpdateExpression: 'SET #s = :running REMOVE gsi1pk, gsi1sk',
          ConditionExpression: '#s = :queued',
          ExpressionAttributeNames: { '#s': 'status' },
          ExpressionAttributeValues: { ':running': 'running', ':queued': 'queued' },
        }),
      );
      const t3 = performance.now();
      if (i >= 5) {
        api.push(t1 - t0);
        bare.push(t3 - t2);
      }
    }
    const program = await createToDone(platform, port, device.token, device.deviceId);
    return { runs, poll: { api: median(api), bare: median(bare) }, program };
  } finally {
    client.destroy();
    gateway.closeAllConnections();
    gateway.close();
  }
}

/**
 * The agent program (agent/main.ts, as `npm run agent -- run` starts it) serving one-request
 * `http.batch` jobs to a loopback server at `echo.localhost`: from `POST …/agents/jobs` to the job
 * read `done` (the program's poll interval, its claim, the request, the results' upload, complete),
 * against the same request made directly.
 */
async function createToDone(platform: BenchPlatform, port: number, token: string, deviceId: string) {
  const runs = 20;
  const pollMs = 100;
  const { createServer } = await import('node:http');
  const { spawn } = await import('node:child_process');
  const { mkdtempSync, mkdirSync, writeFileSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const { pathToFileURL } = await import('node:url');
  const { fileRequest, decideRequest } = await import('../../shared/domains/agents/devices');
  const echo = createServer((req, res) => res.end(JSON.stringify({ path: req.url })));
  await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
  const echoPort = (echo.address() as { port: number }).port;
  // A loopback host the bench may allow, as the agents' tests do (never set by npm start or the stack).
  process.env.UNSAFE_TEST_ALLOW_HOSTS = 'echo.localhost';
  await fileRequest(platform.orgId, deviceId, 'echo.localhost', 'bench', false);
  await decideRequest(platform.orgId, deviceId, 'echo.localhost', true);
  const home = mkdtempSync(join(tmpdir(), 'bench-agent-'));
  mkdirSync(join(home, 'platform'), { recursive: true });
  const baseUrl = `http://127.0.0.1:${port}`;
  writeFileSync(
    join(home, 'platform', 'agent.json'),
    JSON.stringify({ baseUrl, token, deviceId, orgId: platform.orgId }),
    { mode: 0o600 },
  );
  const tsx = pathToFileURL(require.resolve('tsx')).href;
  const child = spawn(process.execPath, ['--import', tsx, join(__dirname, '..', '..', 'agent', 'main.ts'), 'run'], {
    env: {
      PATH: process.env.PATH,
      HOME: home,
      XDG_CONFIG_HOME: home,
      AGENT_POLL_MS: String(pollMs),
      UNSAFE_TEST_ALLOW_HOSTS: 'echo.localhost',
    },
    stdio: 'ignore',
  });
  const headers = { authorization: `Bearer ${platform.jwt}`, 'content-type': 'application/json' };
  const times: number[] = [];
  const direct: number[] = [];
  try {
    for (let i = 0; i < runs + 3; i++) {
      const url = `http://echo.localhost:${echoPort}/job/${i}`;
      const t0 = performance.now();
      const made = (await (
        await fetch(`${baseUrl}/v1/orgs/${platform.orgId}/agents/jobs`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ type: 'http.batch', input: { requests: [{ url }] } }),
        })
      ).json()) as { jobId: string };
      for (;;) {
        const got = (await (
          await fetch(`${baseUrl}/v1/orgs/${platform.orgId}/agents/jobs/${made.jobId}`, { headers })
        ).json()) as { job: { status: string } };
        if (got.job.status === 'done') break;
        if (got.job.status !== 'queued' && got.job.status !== 'running') throw new Error(`bench job ${got.job.status}`);
        await new Promise((r) => setTimeout(r, 5));
      }
      const t1 = performance.now();
      const t2 = performance.now();
      await (await fetch(`http://127.0.0.1:${echoPort}/job/${i}`)).text();
      const t3 = performance.now();
      // The first rounds start the program's runtime (its first poll, the first TLS-free connects).
      if (i >= 3) {
        times.push(t1 - t0);
        direct.push(t3 - t2);
      }
    }
  } finally {
    child.kill('SIGTERM');
    echo.close();
    rmSync(home, { recursive: true, force: true });
  }
  return { runs, pollMs, createToDone: median(times), p95: percentile(times, 95), direct: median(direct) };
}

export function renderAgents(f: AgentFigures): string {
  return [
    `A poll that claims a job through the local gateway vs the Query and conditional UpdateItem of the claim made bare, ` +
      `median of ${f.runs} rounds (one fresh job each):`,
    '',
    '| operation | through the API | bare calls | ratio |',
    '|---|--:|--:|--:|',
    `| poll that claims | ${f.poll.api.toFixed(2)} ms | ${f.poll.bare.toFixed(2)} ms | ${(f.poll.api / f.poll.bare).toFixed(2)}× |`,
    '',
    `Create to done of a one-request \`http.batch\` through the agent program (polling every ${f.program.pollMs} ms ` +
      `when idle; \`npm run agent\` polls as the server's \`nextPollMs\` says), median of ${f.program.runs}, ` +
      `reported beside the same request made directly: ${f.program.createToDone.toFixed(1)} ms ` +
      `(p95 ${f.program.p95.toFixed(1)} ms) vs ${f.program.direct.toFixed(2)} ms. The difference is the queue: ` +
      'the wait for the next poll, the claim, the results uploaded by link, complete, and the read that sees it.',
    '',
  ].join('\n');
}
