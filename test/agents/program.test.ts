import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { storage } from '../../shared/ports/object-storage';
import { chromiumPath } from '../api/chromium';
import { TestPlatform } from '../helpers/platform';
import { startQueueWorker } from '../helpers/sqs';
import { until } from '../helpers/until';

/**
 * The agent program (`npm run agent`) as a child process against the local platform: its device
 * login approved through the API; an `http.batch` to a test server at `echo.localhost` waits
 * `blocked`, gets its host through request-access and approval, then runs and leaves its answers
 * behind `resultsUrl`; `exec` waits for a device with `exec`, runs `sleep 30` and is canceled
 * within a heartbeat; a killed program's job fails; a program started without --allow-exec fails
 * exec jobs; a revoked device's program stops; one whose platform does not answer keeps asking.
 */

// The test server's names, allowed on loopback as the guarded fetch allows test hosts (devices' hosts
// are otherwise public names only).
process.env.UNSAFE_TEST_ALLOW_HOSTS = 'echo.localhost,blocked.localhost';
let p: TestPlatform;
let worker: { stop: () => Promise<void> } | undefined;
let config: string;
let echo: Server;
let echoPort: number;
let chromium: string;
const children: ChildProcess[] = [];
const agents = () => `/v1/orgs/${p.org.orgId}/agents`;

beforeAll(async () => {
  process.env.ARTIFACTS_BUCKET = `agent-program-${Date.now().toString(36)}`;
  await storage().createBucket(process.env.ARTIFACTS_BUCKET);
  config = mkdtempSync(join(process.env.TEST_DATA_DIR as string, 'agent-config-'));
  chromium = await chromiumPath();
  echo = createServer((req, res) => {
    if (req.url === '/page') {
      res.setHeader('content-type', 'text/html');
      // The image is on a host the device may not reach: the browser is stopped before it asks.
      res.end(
        `<!doctype html><title>Echo page</title><h1>Hello from echo</h1><img src="http://blocked.localhost:${echoPort}/x.png">`,
      );
      return;
    }
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ path: req.url, host: req.headers.host }));
  });
  await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
  echoPort = (echo.address() as AddressInfo).port;
  // Jobs queue their expiry and heartbeat checks for the agent-checks worker.
  worker = await startQueueWorker('agent-checks');
  p = await TestPlatform.start();
});
afterAll(async () => {
  for (const c of children) c.kill('SIGKILL');
  echo.close();
  await p.close();
  await worker?.stop();
});

/** The program with `args`, its output collected line by line. */
function program(args: string[], home = config) {
  // One process (tsx as a loader, not its CLI, which runs the program in a child): a kill reaches it.
  const tsx = pathToFileURL(require.resolve('tsx')).href;
  const child = spawn(process.execPath, ['--import', tsx, join(__dirname, '..', '..', 'agent', 'main.ts'), ...args], {
    env: {
      PATH: process.env.PATH,
      HOME: home,
      XDG_CONFIG_HOME: home,
      PLATFORM_URL: p.baseUrl,
      AGENT_LOGIN_POLL_MS: '200',
      AGENT_POLL_MS: '200',
      AGENT_HEARTBEAT_MS: '300',
      AGENT_RETRY_MS: '200',
      AGENT_CHROMIUM: chromium,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  child.stdout?.on('data', (d) => {
    out += d;
  });
  child.stderr?.on('data', (d) => {
    out += d;
  });
  return { child, output: () => out };
}

const job = async (jobId: string) => (await p.get(`${agents()}/jobs/${jobId}`)).body;
const waitingOf = async (jobId: string) =>
  ((await p.get(agents())).body.jobs as { jobId: string; waiting: unknown }[]).find((j) => j.jobId === jobId)?.waiting;

let deviceId: string;

it('logs in through the device login: a person approves the code, the token is kept for this user only', async () => {
  const login = program(['login', '--name', 'ci box']);
  const code = await until(() => /code: ([A-Z]{4}-[A-Z]{4})/.exec(login.output())?.[1]);
  expect(login.output()).toContain(`npm run local -- agent approve ${code}`);
  expect((await p.post(`${agents()}/login`, { userCode: code })).body).toEqual({ ok: true });
  const [exit] = (await once(login.child, 'exit')) as [number];
  expect(exit).toBe(0);
  const file = join(config, 'platform', 'agent.json');
  expect(statSync(file).mode & 0o777).toBe(0o600);
  const saved = JSON.parse(readFileSync(file, 'utf8')) as { token: string; deviceId: string; baseUrl: string };
  expect(saved).toMatchObject({ token: expect.stringMatching(/^app_dev_/), baseUrl: p.baseUrl });
  deviceId = saved.deviceId;
  const device = (await p.get(agents())).body.devices.find((d: { deviceId: string }) => d.deviceId === deviceId);
  expect(device).toMatchObject({ name: 'ci box', userId: p.owner.userId, capabilities: ['http'] });
});

it('http.batch: blocked, access requested and approved, run at echo.localhost, answers behind resultsUrl', async () => {
  const runner = program(['run', '--allow-exec']);
  await until(() => runner.output().includes('polling'));
  const made = await p.post(`${agents()}/jobs`, {
    type: 'http.batch',
    input: { requests: [{ url: `http://echo.localhost:${echoPort}/hello?x=1` }] },
  });
  expect(await until(() => waitingOf(made.body.jobId))).toMatchObject({
    reason: 'blocked',
    devices: [{ deviceId, online: true, hosts: ['echo.localhost'] }],
  });
  const asked = await p.post(`${agents()}/jobs/${made.body.jobId}/request-access`, { deviceId });
  expect(asked.body.requested).toEqual(['echo.localhost']);
  await p.post(`${agents()}/requests/${deviceId}/echo.localhost/approve`);
  const done = await until(async () => {
    const got = await job(made.body.jobId);
    return got.job.status === 'done' ? got : undefined;
  });
  const results = (await (await fetch(done.resultsUrl)).json()) as { responses: { status: number; body: string }[] };
  expect(results.responses[0]?.status).toBe(200);
  expect(JSON.parse(results.responses[0]?.body as string)).toEqual({
    path: '/hello?x=1',
    host: `echo.localhost:${echoPort}`,
  });

  // exec: waits for a device with exec; the owner adds it; `sleep 30` runs and is canceled within a heartbeat.
  const sleeper = await p.post(`${agents()}/jobs`, { type: 'exec', input: { command: ['sleep', '30'] } });
  expect(await until(() => waitingOf(sleeper.body.jobId))).toMatchObject({
    reason: 'blocked',
    devices: [{ deviceId, capability: 'exec' }],
  });
  expect((await p.patch(`${agents()}/devices/${deviceId}`, { capabilities: ['http', 'exec'] })).status).toBe(200);
  await until(async () => ((await job(sleeper.body.jobId)).job.status === 'running' ? true : undefined));
  expect((await p.post(`${agents()}/jobs/${sleeper.body.jobId}/cancel`)).body).toEqual({ status: 'canceling' });
  const canceledAt = Date.now();
  await until(async () => ((await job(sleeper.body.jobId)).job.status === 'canceled' ? true : undefined), 5000);
  expect(Date.now() - canceledAt).toBeLessThan(5000);
  runner.child.kill('SIGTERM');
  await once(runner.child, 'exit');
});

it('browser.batch: a page in Chromium with its title, text and screenshot; a host outside the allowlist is stopped and requested', async () => {
  expect((await p.patch(`${agents()}/devices/${deviceId}`, { capabilities: ['http', 'exec', 'browser'] })).status).toBe(
    200,
  );
  const runner = program(['run']);
  try {
    await until(() => runner.output().includes('polling'));
    const made = await p.post(`${agents()}/jobs`, {
      type: 'browser.batch',
      input: {
        pages: [{ url: `http://echo.localhost:${echoPort}/page`, text: true, screenshot: true, waitFor: 'h1' }],
      },
    });
    expect(made.status).toBe(201);
    const ended = await until(async () => {
      const got = await job(made.body.jobId);
      return ['done', 'failed'].includes(got.job.status) ? got : undefined;
    }, 80_000);
    // The program's own account of the job, when it did not end done.
    expect({
      status: ended.job.status,
      error: ended.job.error,
      output: ended.job.status === 'done' ? '' : runner.output(),
    }).toEqual({
      status: 'done',
      error: undefined,
      output: '',
    });
    const results = (await (await fetch(ended.resultsUrl)).json()) as {
      pages: { status: number; title: string; text: string; screenshot: string; blockedHosts?: string[] }[];
    };
    expect(results.pages[0]).toMatchObject({ status: 200, title: 'Echo page', blockedHosts: ['blocked.localhost'] });
    expect(results.pages[0]?.text).toContain('Hello from echo');
    expect(
      Buffer.from(results.pages[0]?.screenshot as string, 'base64')
        .subarray(1, 4)
        .toString(),
    ).toBe('PNG');
    const requests = (await p.get(agents())).body.requests as { deviceId: string; host: string }[];
    expect(requests).toContainEqual(expect.objectContaining({ deviceId, host: 'blocked.localhost' }));
  } finally {
    runner.child.kill('SIGTERM');
    await once(runner.child, 'exit');
  }
}, 120_000);

it('five programs and 100 jobs: each job claimed once, all done', async () => {
  // Five more devices of the owner, each logged in through its own program and allowed echo.localhost.
  const runners = await Promise.all(
    Array.from({ length: 5 }, async (_, i) => {
      const home = mkdtempSync(join(process.env.TEST_DATA_DIR as string, `agent-${i}-`));
      const login = program(['login', '--name', `racer ${i}`], home);
      const code = await until(() => /code: ([A-Z]{4}-[A-Z]{4})/.exec(login.output())?.[1]);
      await p.post(`${agents()}/login`, { userCode: code });
      await once(login.child, 'exit');
      const saved = JSON.parse(readFileSync(join(home, 'platform', 'agent.json'), 'utf8')) as { deviceId: string };
      await p.patch(`${agents()}/devices/${saved.deviceId}`, { hosts: ['echo.localhost'] });
      return program(['run'], home);
    }),
  );
  const jobs = await Promise.all(
    Array.from({ length: 100 }, (_, i) =>
      p.post(`${agents()}/jobs`, {
        type: 'http.batch',
        input: { requests: [{ url: `http://echo.localhost:${echoPort}/job/${i}` }] },
      }),
    ),
  );
  const ids = jobs.map((j) => j.body.jobId as string);
  // The programs say each job they finish; then the records are read once.
  const served = () => runners.flatMap((r) => [...r.output().matchAll(/job (job_\S+) done/g)].map((m) => m[1]));
  await until(() => served().length >= ids.length, 100_000);
  expect(served().sort()).toEqual([...ids].sort());
  const finished = await Promise.all(ids.map(job));
  expect(finished.every((j) => j.job.status === 'done')).toBe(true);
  expect(new Set(finished.map((j) => j.job.deviceId)).size).toBeGreaterThan(1);
  for (const r of runners) r.child.kill('SIGTERM');
}, 120_000);

it('a program killed mid-job: the job fails; without --allow-exec exec fails; a revoked device: the program stops', async () => {
  // Two minutes without a heartbeat, shortened here alone (elsewhere a busy machine would fail live jobs).
  process.env.AGENT_HEARTBEAT_LIMIT_MS = '1500';
  try {
    const runner = program(['run', '--allow-exec']);
    await until(() => runner.output().includes('polling'));
    const made = await p.post(`${agents()}/jobs`, { type: 'exec', input: { command: ['sleep', '30'] } });
    await until(async () => ((await job(made.body.jobId)).job.status === 'running' ? true : undefined));
    runner.child.kill('SIGKILL');
    const failed = await until(async () => {
      const got = await job(made.body.jobId);
      return got.job.status === 'failed' ? got.job : undefined;
    });
    expect(failed.error).toBe('The device stopped reporting.');
  } finally {
    delete process.env.AGENT_HEARTBEAT_LIMIT_MS;
  }

  const again = program(['run']);
  await until(() => again.output().includes('polling'));
  const refused = await p.post(`${agents()}/jobs`, { type: 'exec', input: { command: ['true'] } });
  const ended = await until(async () => {
    const got = await job(refused.body.jobId);
    return got.job.status === 'running' || got.job.status === 'queued' ? undefined : got.job;
  });
  expect([ended.status, ended.error]).toEqual([
    'failed',
    'exec is not allowed on this device: start it with --allow-exec.',
  ]);
  expect((await p.delete(`${agents()}/devices/${deviceId}`)).status).toBe(204);
  const [exit] = (await once(again.child, 'exit')) as [number];
  expect(exit).toBe(1);
  expect(again.output()).toContain('the device was revoked');
});

it('a platform that does not answer: the program says so and asks again, it does not stop', async () => {
  // A port nobody listens on.
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const port = (closed.address() as AddressInfo).port;
  await new Promise((resolve) => closed.close(resolve));
  const home = mkdtempSync(join(process.env.TEST_DATA_DIR as string, 'agent-away-'));
  mkdirSync(join(home, 'platform'));
  const away = { baseUrl: `http://127.0.0.1:${port}`, token: 'app_dev_x', deviceId: 'dev_away', orgId: p.org.orgId };
  writeFileSync(join(home, 'platform', 'agent.json'), JSON.stringify(away), { mode: 0o600 });
  const runner = program(['run'], home);
  try {
    await until(() => runner.output().split('The platform did not answer').length > 2);
    expect(runner.child.exitCode).toBeNull();
  } finally {
    runner.child.kill('SIGTERM');
  }
});
