import { storage } from '../../shared/ports/object-storage';
import { TestPlatform } from '../helpers/platform';
import { type Receiver, startReceiver } from '../helpers/receiver';
import { startQueueWorker } from '../helpers/sqs';
import { loggedInDevice } from './helpers';

/**
 * Job callbacks through the agent-callbacks worker (its queue on the local SQS engine, as on AWS)
 * to a real HTTPS receiver on loopback, reached only through the guarded fetch's test allowlist:
 * one delivery per end, `{ jobId, orgId, status, error?, completedAt }` and nothing else, tried
 * again after failures with a growing delay.
 */
let p: TestPlatform;
let worker: { stop: () => Promise<void> } | undefined;
let receiver: Receiver;

beforeAll(async () => {
  process.env.ARTIFACTS_BUCKET = `agent-callbacks-${Date.now().toString(36)}`;
  await storage().createBucket(process.env.ARTIFACTS_BUCKET);
  receiver = await startReceiver();
  process.env.AGENT_CALLBACK_DELAY_SECONDS = '1';
  worker = await startQueueWorker('agent-callbacks', 'agent-checks');
  p = await TestPlatform.start();
});
afterAll(async () => {
  await p.close();
  await worker?.stop();
  receiver.close();
  delete process.env.AGENT_CALLBACK_DELAY_SECONDS;
});

const agents = () => `/v1/orgs/${p.org.orgId}/agents`;
const callsTo = (path: string) => receiver.callsTo(path).map((r) => ({ path: r.path, body: JSON.parse(r.body) }));
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
    callbackUrl: `https://localhost:${receiver.port}${path}`,
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
  receiver.scripted.set('/flaky', [500, 503]);
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
