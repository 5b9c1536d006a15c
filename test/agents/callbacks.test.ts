import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { storage } from '../../shared/storage';
import { TestPlatform } from '../helpers/platform';
import { startQueueWorker } from '../helpers/sqs';
import { loggedInDevice } from './helpers';

/**
 * Job callbacks through the agent-callbacks worker (its queue on the local SQS engine, as on AWS)
 * to a real HTTPS receiver on loopback, reached only through the guarded fetch's test allowlist:
 * one delivery per end, `{ jobId, orgId, status, error?, completedAt }` and nothing else, tried
 * again after failures with a growing delay.
 */
const tls = join(__dirname, '..', 'fixtures', 'tls');
let p: TestPlatform;
let worker: { stop: () => Promise<void> } | undefined;
let receiver: Server;
let port: number;
const received: { path: string; body: Record<string, unknown> }[] = [];
/** Answers per path: the first ones in the list, then 200. */
const scripted = new Map<string, number[]>();

beforeAll(async () => {
  process.env.ARTIFACTS_BUCKET = `agent-callbacks-${Date.now().toString(36)}`;
  await storage.createBucket(process.env.ARTIFACTS_BUCKET);
  receiver = createServer(
    { key: readFileSync(join(tls, 'receiver.key')), cert: readFileSync(join(tls, 'receiver.crt')) },
    (req, res) => {
      let body = '';
      req.on('data', (d) => {
        body += d;
      });
      req.on('end', () => {
        received.push({ path: req.url ?? '', body: JSON.parse(body) });
        const status = scripted.get(req.url ?? '')?.shift() ?? 200;
        res.writeHead(status);
        res.end();
      });
    },
  );
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  port = (receiver.address() as AddressInfo).port;
  Object.assign(process.env, {
    UNSAFE_TEST_ALLOW_HOSTS: 'localhost',
    UNSAFE_TEST_CA_FILE: join(tls, 'receiver.crt'),
    AGENT_CALLBACK_DELAY_SECONDS: '1',
  });
  worker = await startQueueWorker('agent-callbacks', 'agent-checks');
  p = await TestPlatform.start();
});
afterAll(async () => {
  await p.close();
  await worker?.stop();
  receiver.closeAllConnections();
  receiver.close();
  for (const name of ['UNSAFE_TEST_ALLOW_HOSTS', 'UNSAFE_TEST_CA_FILE', 'AGENT_CALLBACK_DELAY_SECONDS'])
    delete process.env[name];
});

const agents = () => `/v1/orgs/${p.org.orgId}/agents`;
const callsTo = (path: string) => received.filter((r) => r.path === path);
async function until(check: () => boolean, ms = 15_000) {
  for (const start = Date.now(); !check(); ) {
    if (Date.now() - start > ms) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function jobWithCallback(path: string, host: string) {
  const made = await p.post(`${agents()}/jobs`, {
    type: 'http.batch',
    input: { requests: [{ url: `https://${host}/x` }] },
    callbackUrl: `https://localhost:${port}${path}`,
  });
  expect(made.status).toBe(201);
  return made.body.jobId as string;
}

it('a job that ends calls its callback once, with its end and no links', async () => {
  const device = await loggedInDevice(p);
  await p.post('/v1/agent/network-requests', { host: 'cb.example.com' }, { token: device.token });
  await p.post(`${agents()}/requests/${device.deviceId}/cb.example.com/approve`);
  const jobId = await jobWithCallback('/done', 'cb.example.com');
  // A poll that tells nothing of the program (no version, no platform).
  const polled = await p.post('/v1/agent/poll', {}, { token: device.token });
  expect(polled.body.job.jobId).toBe(jobId);
  await p.post(`/v1/agent/jobs/${jobId}/complete`, { status: 'failed', error: 'boom' }, { token: device.token });
  await p.post(`/v1/agent/jobs/${jobId}/complete`, { status: 'done' }, { token: device.token });
  await until(() => callsTo('/done').length > 0);
  await new Promise((r) => setTimeout(r, 1500));
  expect(callsTo('/done')).toEqual([
    {
      path: '/done',
      body: { jobId, orgId: p.org.orgId, status: 'failed', error: 'boom', completedAt: expect.any(Number) },
    },
  ]);
});

it('a failing receiver is tried again, with a growing delay, until it answers', async () => {
  scripted.set('/flaky', [500, 503]);
  const jobId = await jobWithCallback('/flaky', 'nobody.example.com');
  expect((await p.post(`${agents()}/jobs/${jobId}/cancel`)).body).toEqual({ status: 'canceled' });
  await until(() => callsTo('/flaky').length >= 3);
  await new Promise((r) => setTimeout(r, 1500));
  const calls = callsTo('/flaky');
  expect(calls).toHaveLength(3);
  for (const c of calls)
    expect(c.body).toEqual({ jobId, orgId: p.org.orgId, status: 'canceled', completedAt: expect.any(Number) });
});

it('a job nobody reads still ends: its device went quiet, the agent-checks worker fails it and the callback goes', async () => {
  process.env.AGENT_HEARTBEAT_LIMIT_MS = '500';
  process.env.AGENT_CHECK_DELAY_SECONDS = '1';
  try {
    const device = await loggedInDevice(p);
    await p.post('/v1/agent/network-requests', { host: 'quiet.example.com' }, { token: device.token });
    await p.post(`${agents()}/requests/${device.deviceId}/quiet.example.com/approve`);
    const jobId = await jobWithCallback('/quiet', 'quiet.example.com');
    expect((await p.post('/v1/agent/poll', {}, { token: device.token })).body.job.jobId).toBe(jobId);
    // No heartbeat, no complete, and nobody reads the job: only the check ends it.
    await until(() => callsTo('/quiet').length > 0);
    expect(callsTo('/quiet')).toEqual([
      {
        path: '/quiet',
        body: {
          jobId,
          orgId: p.org.orgId,
          status: 'failed',
          error: 'The device stopped reporting.',
          completedAt: expect.any(Number),
        },
      },
    ]);
  } finally {
    delete process.env.AGENT_HEARTBEAT_LIMIT_MS;
    delete process.env.AGENT_CHECK_DELAY_SECONDS;
  }
});
