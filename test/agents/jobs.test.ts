import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { BatchWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '../../shared/kernel/store/client';
import { newId } from '../../shared/kernel/store/ids';
import { getItem, TABLE } from '../../shared/kernel/store/table';
import { storage } from '../../shared/ports/object-storage';
import { TestPlatform } from '../helpers/platform';
import { startQueueWorker } from '../helpers/sqs';
import { until } from '../helpers/until';
import { loggedInDevice } from './helpers';

/**
 * Agent jobs: created with the spec's exact refusals, claimed by the oldest-first poll of a device
 * that may run them (capability and allowlist; one claim however many polls), kept alive by
 * heartbeats, canceled, completed with results behind a 5-minute link, expired and failed when the
 * device stops, as their record is read.
 */
let p: TestPlatform;
let worker: { stop: () => Promise<void> } | undefined;
const agents = () => `/v1/orgs/${p.org.orgId}/agents`;
const httpJob = (host = 'api.example.com', extra: Record<string, unknown> = {}) => ({
  type: 'http.batch',
  label: 'fetch',
  input: { requests: [{ method: 'GET', url: `https://${host}/v1/items` }] },
  ...extra,
});

beforeAll(async () => {
  process.env.ARTIFACTS_BUCKET = `agent-results-${Date.now().toString(36)}`;
  await storage().createBucket(process.env.ARTIFACTS_BUCKET);
  // Jobs queue their expiry and heartbeat checks for the agent-checks worker; jobs that end raise
  // agent.job_done / agent.job_failed for the notify worker.
  process.env.OUTBOX_DIR = mkdtempSync(join(process.env.TEST_DATA_DIR as string, 'agent-outbox-'));
  process.env.MAIL_FROM = 'notifications@localhost';
  worker = await startQueueWorker('agent-checks', 'notify');
  p = await TestPlatform.start();
});
afterAll(async () => {
  await p.close();
  await worker?.stop();
});

/** A device allowed `hosts` (through network requests approved by the owner). */
async function deviceFor(hosts: string[]) {
  const device = await loggedInDevice(p);
  for (const host of hosts) {
    await p.post('/v1/agent/network-requests', { host }, { token: device.token });
    await p.post(`${agents()}/requests/${device.deviceId}/${host}/approve`);
  }
  return device;
}

const poll = (token: string) => p.post('/v1/agent/poll', { version: '1.2.3', platform: 'linux-x64' }, { token });
const setJob = (jobId: string, expression: string, values: Record<string, unknown>) =>
  db.send(
    new UpdateCommand({
      TableName: TABLE(),
      Key: { pk: `ORG#${p.org.orgId}`, sk: `JOB#${jobId}` },
      UpdateExpression: expression,
      ExpressionAttributeValues: values,
    }),
  );

describe('create', () => {
  it('queues a job with its hosts; every refusal of the spec', async () => {
    const made = await p.post(`${agents()}/jobs`, httpJob('api.example.com', { hosts: ['cdn.example.com'] }));
    expect(made.status).toBe(201);
    expect(made.body).toEqual({ jobId: expect.stringMatching(/^job_/), expiresAt: expect.any(Number) });
    const got = await p.get(`${agents()}/jobs/${made.body.jobId}`);
    expect(got.body).toMatchObject({
      job: {
        status: 'queued',
        type: 'http.batch',
        label: 'fetch',
        hosts: ['cdn.example.com', 'api.example.com'],
        createdBy: p.owner.userId,
      },
      resultsUrl: null,
    });
    const refusals: [Record<string, unknown>, number, string][] = [
      [httpJob('a.example.com', { ttlSeconds: 59 }), 400, 'ttlSeconds must be between 60 and 604800.'],
      [httpJob('a.example.com', { ttlSeconds: 604_801 }), 400, 'ttlSeconds must be between 60 and 604800.'],
      [
        httpJob('a.example.com', { callbackUrl: 'http://hooks.example.com/x' }),
        400,
        'callbackUrl must be a public https URL.',
      ],
      [
        httpJob('a.example.com', { callbackUrl: 'https://localhost/x' }),
        400,
        'callbackUrl must be a public https URL.',
      ],
      [
        httpJob('a.example.com', { callbackUrl: 'https://169.254.169.254/' }),
        400,
        'callbackUrl must be a public https URL.',
      ],
      [{ type: 'browser.batch', input: { pages: [] } }, 400, 'Invalid browser.batch input. pages:'],
      [
        { type: 'http.batch', input: { requests: [{ url: 'ftp://x.example.com/' }] } },
        400,
        'Invalid http.batch input. requests.0.url:',
      ],
      [{ type: 'http.batch' }, 400, 'Invalid request'],
      [{ type: 'exec', input: { command: 'ls -la' } }, 400, 'Invalid exec input. command:'],
    ];
    // Every kind of URL the guard refuses, refused when the job is made.
    for (const url of [
      'https://hooks.example.com:8443/x',
      'https://user:pw@hooks.example.com/x',
      'https://app.localhost/x',
      'https://intranet/x',
      'https://printer.local/x',
      'https://db.corp.internal/x',
      'https://127.0.0.1/x',
      'https://10.0.0.8/x',
      'https://100.64.0.1/x',
      'https://[fd00::1]/x',
      'https://[fe80::1]/x',
      'https://[::ffff:127.0.0.1]/x',
      'https://[::127.0.0.1]/x',
      'https://[::a9fe:a9fe]/x',
    ]) {
      refusals.push([httpJob('a.example.com', { callbackUrl: url }), 400, 'callbackUrl must be a public https URL.']);
    }
    // A name that does not resolve says so (.invalid never does).
    refusals.push([
      httpJob('a.example.com', { callbackUrl: 'https://nowhere.invalid/x' }),
      400,
      "callbackUrl's host nowhere.invalid does not resolve.",
    ]);
    // exec's argv, folder and variables as a process takes them.
    refusals.push(
      [{ type: 'exec', input: { command: ['ls', 'a\0b'] } }, 400, 'Invalid exec input. command.1: NUL bytes'],
      [{ type: 'exec', input: { command: ['ls'], cwd: 'x\0' } }, 400, 'Invalid exec input. cwd: NUL bytes'],
      [{ type: 'exec', input: { command: ['env'], env: { 'A=B': 'x' } } }, 400, 'Invalid exec input. env'],
      [{ type: 'exec', input: { command: ['env'], env: { A: 'x\0' } } }, 400, 'Invalid exec input. env.A: NUL bytes'],
    );
    for (const [body, status, message] of refusals) {
      const res = await p.post(`${agents()}/jobs`, body);
      expect([res.status, res.body.error]).toEqual([status, expect.stringContaining(message)]);
    }
    const big = await p.post(`${agents()}/jobs`, {
      type: 'http.batch',
      input: { requests: [{ url: 'https://a.example.com/', body: 'x'.repeat(300 * 1024) }] },
    });
    expect(big.status).toBe(413);
    expect(big.body).toEqual({ error: 'Job input too large (300 KB max).' });
    const runOnly = await p.apiKey(['agents:run', 'agents:read']);
    const exec = await p.post(`${agents()}/jobs`, { type: 'exec', input: { command: ['ls'] } }, { token: runOnly });
    expect(exec.status).toBe(403);
    expect((await p.post(`${agents()}/jobs`, httpJob(), { token: runOnly })).status).toBe(201);
  });
});

describe('claim, run, complete', () => {
  it('a device claims only what it may run, oldest first, with a results link; results come back by link', async () => {
    const device = await deviceFor(['claims.example.com']);
    const other = await p.post(`${agents()}/jobs`, httpJob('elsewhere.example.com'));
    const first = await p.post(`${agents()}/jobs`, httpJob('claims.example.com'));
    const second = await p.post(`${agents()}/jobs`, httpJob('claims.example.com'));
    await p.post(`${agents()}/jobs`, { type: 'exec', input: { command: ['true'] } });
    const got = await poll(device.token);
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({
      policy: { capabilities: ['http'], networkMode: 'allowlist', hosts: ['claims.example.com'] },
      job: {
        jobId: first.body.jobId,
        type: 'http.batch',
        hosts: ['claims.example.com'],
        uploadUrl: expect.any(String),
      },
      nextPollMs: expect.any(Number),
    });
    expect(got.body.job.input).toEqual({ requests: [{ method: 'GET', url: 'https://claims.example.com/v1/items' }] });
    const running = (await p.get(`${agents()}/jobs/${first.body.jobId}`)).body.job;
    expect(running).toMatchObject({ status: 'running', deviceId: device.deviceId, claimedAt: expect.any(Number) });
    expect(
      (await p.post(`/v1/agent/jobs/${first.body.jobId}/heartbeat`, { progress: 'half' }, { token: device.token }))
        .body,
    ).toEqual({
      ok: true,
      cancel: false,
    });
    const put = await fetch(got.body.job.uploadUrl, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ responses: [{ status: 200 }] }),
    });
    expect(put.status).toBe(200);
    expect(
      (await p.post(`/v1/agent/jobs/${first.body.jobId}/complete`, { status: 'done' }, { token: device.token })).body,
    ).toEqual({ ok: true });
    const done = await p.get(`${agents()}/jobs/${first.body.jobId}`);
    expect(done.body.job).toMatchObject({ status: 'done', completedAt: expect.any(Number) });
    expect(await (await fetch(done.body.resultsUrl)).json()).toEqual({ responses: [{ status: 200 }] });
    // Links: the upload for 15 minutes, the results for 5.
    const lifetime = (link: string) => new URL(link).searchParams.get('X-Amz-Expires');
    expect([lifetime(got.body.job.uploadUrl), lifetime(done.body.resultsUrl)]).toEqual(['900', '300']);
    // The end reaches its creator as agent.job_done.
    const notice = await until(async () =>
      ((await p.get('/v1/me/notifications')).body.notices as { event: string; title: string }[] | undefined)?.find(
        (n) => n.event === 'agent.job_done',
      ),
    );
    expect(notice.title).toBe('Agent job "fetch" is done');
    // A repeat changes nothing; the next poll gets the next job; the others wait for a device that may run them.
    await p.post(
      `/v1/agent/jobs/${first.body.jobId}/complete`,
      { status: 'failed', error: 'late' },
      { token: device.token },
    );
    expect((await p.get(`${agents()}/jobs/${first.body.jobId}`)).body.job.status).toBe('done');
    expect((await poll(device.token)).body.job.jobId).toBe(second.body.jobId);
    const idle = await poll(device.token);
    expect(idle.body.job).toBeNull();
    // The server paces its devices: soon after a claim, a few seconds when idle, each with up to 1 s of jitter.
    const within = (ms: number, from: number) => ms >= from && ms < from + 1000;
    expect([within(got.body.nextPollMs, 1000), within(idle.body.nextPollMs, 5000)]).toEqual([true, true]);
    expect((await p.get(`${agents()}/jobs/${other.body.jobId}`)).body.job.status).toBe('queued');
    const seen = (await p.get(agents())).body.devices.find((d: { deviceId: string }) => d.deviceId === device.deviceId);
    expect(seen).toMatchObject({ version: '1.2.3', platform: 'linux-x64', lastSeenAt: expect.any(Number) });
  });

  it('`*.` in the allowlist covers subdomains, not the name itself; `full` covers every host', async () => {
    // An organization of its own: `full` would claim other tests' queued jobs.
    const { org, owner } = await p.newOrg();
    const as = { token: owner.token };
    const device = await loggedInDeviceOf(org.orgId, owner.token);
    const path = `/v1/orgs/${org.orgId}/agents/devices/${device.deviceId}`;
    expect((await p.patch(path, { hosts: ['*.wild.example.com'] }, as)).status).toBe(200);
    const bare = await p.post(`/v1/orgs/${org.orgId}/agents/jobs`, httpJob('wild.example.com'), as);
    const sub = await p.post(`/v1/orgs/${org.orgId}/agents/jobs`, httpJob('a.b.wild.example.com'), as);
    expect((await poll(device.token)).body.job.jobId).toBe(sub.body.jobId);
    expect((await poll(device.token)).body.job).toBeNull();
    expect((await p.patch(path, { networkMode: 'full' }, as)).status).toBe(200);
    expect((await poll(device.token)).body.job.jobId).toBe(bare.body.jobId);
  });

  it('20 polls at one job from five devices: one claim', async () => {
    const devices = await Promise.all(Array.from({ length: 5 }, () => deviceFor(['race.example.com'])));
    const job = await p.post(`${agents()}/jobs`, httpJob('race.example.com'));
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => poll((devices[i % 5] as { token: string }).token)),
    );
    const claims = answers.filter((a) => a.body.job?.jobId === job.body.jobId);
    expect(claims).toHaveLength(1);
  });

  it("another device's job is 404 to it; results links only while running", async () => {
    const a = await deviceFor(['mine.example.com']);
    const b = await deviceFor([]);
    const job = await p.post(`${agents()}/jobs`, httpJob('mine.example.com'));
    expect((await poll(a.token)).body.job.jobId).toBe(job.body.jobId);
    for (const action of ['heartbeat', 'upload-url', 'complete']) {
      const res = await p.post(`/v1/agent/jobs/${job.body.jobId}/${action}`, { status: 'done' }, { token: b.token });
      expect([action, res.status, res.body]).toEqual([action, 404, { error: 'Job not found' }]);
    }
    expect((await p.post(`/v1/agent/jobs/${job.body.jobId}/upload-url`, {}, { token: a.token })).body).toEqual({
      uploadUrl: expect.any(String),
    });
    await p.post(`/v1/agent/jobs/${job.body.jobId}/complete`, { status: 'failed', error: 'boom' }, { token: a.token });
    expect((await p.get(`${agents()}/jobs/${job.body.jobId}`)).body).toMatchObject({
      job: { status: 'failed', error: 'boom' },
      resultsUrl: null,
    });
    expect((await p.post(`/v1/agent/jobs/${job.body.jobId}/upload-url`, {}, { token: a.token })).status).toBe(404);
  });
  it('results over 100 MB fail the job and are not kept', async () => {
    const device = await deviceFor(['big.example.com']);
    const job = await p.post(`${agents()}/jobs`, httpJob('big.example.com'));
    const claimed = await poll(device.token);
    expect(claimed.body.job.jobId).toBe(job.body.jobId);
    const put = await fetch(claimed.body.job.uploadUrl, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: Buffer.alloc(100 * 1024 * 1024 + 1, 0x20),
    });
    expect(put.status).toBe(200);
    await p.post(`/v1/agent/jobs/${job.body.jobId}/complete`, { status: 'done' }, { token: device.token });
    expect((await p.get(`${agents()}/jobs/${job.body.jobId}`)).body).toMatchObject({
      job: { status: 'failed', error: 'The results are larger than 100 MB.' },
      resultsUrl: null,
    });
    const key = `agent-results/${p.org.orgId}/${job.body.jobId}`;
    expect(
      await storage()
        .headObject({ name: process.env.ARTIFACTS_BUCKET as string }, key)
        .catch(() => 'gone'),
    ).toBe('gone');
  });
});

describe('cancel, expiry, a stopped device', () => {
  it('queued: canceled at once; running: canceling until the device stops; finished: 409', async () => {
    const device = await deviceFor(['cancel.example.com']);
    const queued = await p.post(`${agents()}/jobs`, httpJob('nobody.example.com'));
    expect((await p.post(`${agents()}/jobs/${queued.body.jobId}/cancel`)).body).toEqual({ status: 'canceled' });
    const again = await p.post(`${agents()}/jobs/${queued.body.jobId}/cancel`);
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ error: 'This job already finished.' });
    const job = await p.post(`${agents()}/jobs`, httpJob('cancel.example.com'));
    expect((await poll(device.token)).body.job.jobId).toBe(job.body.jobId);
    expect((await p.post(`${agents()}/jobs/${job.body.jobId}/cancel`)).body).toEqual({ status: 'canceling' });
    expect((await p.post(`/v1/agent/jobs/${job.body.jobId}/heartbeat`, {}, { token: device.token })).body).toEqual({
      ok: true,
      cancel: true,
    });
    await p.post(`/v1/agent/jobs/${job.body.jobId}/complete`, { status: 'done' }, { token: device.token });
    expect((await p.get(`${agents()}/jobs/${job.body.jobId}`)).body.job).toMatchObject({
      status: 'canceled',
      canceledBy: p.owner.userId,
    });
    expect((await p.post(`${agents()}/jobs/job_nope/cancel`)).body).toEqual({ error: 'Job not found' });
  });

  it('a queued job past its time is expired and never claimed; a running one whose device went quiet fails', async () => {
    const device = await deviceFor(['late.example.com']);
    const stale = await p.post(`${agents()}/jobs`, httpJob('late.example.com', { ttlSeconds: 60 }));
    await setJob(stale.body.jobId, 'SET expiresAt = :past', { ':past': Date.now() - 1 });
    expect((await poll(device.token)).body.job).toBeNull();
    expect((await p.get(`${agents()}/jobs/${stale.body.jobId}`)).body.job.status).toBe('expired');
    const quiet = await p.post(`${agents()}/jobs`, httpJob('late.example.com'));
    expect((await poll(device.token)).body.job.jobId).toBe(quiet.body.jobId);
    await setJob(quiet.body.jobId, 'SET heartbeatAt = :then', { ':then': Date.now() - 3 * 60_000 });
    expect((await p.get(`${agents()}/jobs/${quiet.body.jobId}`)).body.job).toMatchObject({
      status: 'failed',
      error: 'The device stopped reporting.',
    });
    const listed = (await p.get(agents())).body.jobs as { jobId: string; status: string }[];
    expect(listed.find((j) => j.jobId === quiet.body.jobId)?.status).toBe('failed');
  });
});

describe('a revoked device', () => {
  it('its running job fails and its canceling job is canceled, at once', async () => {
    const device = await deviceFor(['revoke.example.com']);
    const running = await p.post(`${agents()}/jobs`, httpJob('revoke.example.com'));
    const canceling = await p.post(`${agents()}/jobs`, httpJob('revoke.example.com'));
    const queued = await p.post(`${agents()}/jobs`, httpJob('revoke.example.com'));
    expect((await poll(device.token)).body.job.jobId).toBe(running.body.jobId);
    expect((await poll(device.token)).body.job.jobId).toBe(canceling.body.jobId);
    expect((await p.post(`${agents()}/jobs/${canceling.body.jobId}/cancel`)).body).toEqual({ status: 'canceling' });
    expect((await p.delete(`${agents()}/devices/${device.deviceId}`)).status).toBe(204);
    const status = async (jobId: string) => (await p.get(`${agents()}/jobs/${jobId}`)).body.job;
    expect(await status(running.body.jobId)).toMatchObject({ status: 'failed', error: 'The device was revoked.' });
    expect((await status(canceling.body.jobId)).status).toBe('canceled');
    // A queued job waits for another device.
    expect((await status(queued.body.jobId)).status).toBe('queued');
  });
});

describe('waiting and request-access', () => {
  it('lists say why a queued job waits; request-access files the hosts a device lacks', async () => {
    // A fresh organization: no device yet.
    const { org, owner } = await p.newOrg();
    const path = `/v1/orgs/${org.orgId}/agents`;
    const as = { token: owner.token };
    const job = await p.post(`${path}/jobs`, httpJob('wait.example.com'), as);
    const waiting = async () =>
      ((await p.get(path, as)).body.jobs as { jobId: string; waiting: unknown }[]).find(
        (j) => j.jobId === job.body.jobId,
      )?.waiting;
    expect(await waiting()).toEqual({ reason: 'no_devices' });
    const device = await loggedInDeviceOf(org.orgId, owner.token);
    expect(await waiting()).toEqual({
      reason: 'blocked',
      devices: [
        { deviceId: device.deviceId, name: 'laptop', online: false, hosts: ['wait.example.com'], network: 'allowlist' },
      ],
    });
    const asked = await p.post(`${path}/jobs/${job.body.jobId}/request-access`, { deviceId: device.deviceId }, as);
    expect(asked.body).toEqual({
      requested: ['wait.example.com'],
      notified: false,
      missing: { hosts: ['wait.example.com'], network: 'allowlist' },
    });
    expect((await p.get(path, as)).body.requests.map((r: { host: string }) => r.host)).toEqual(['wait.example.com']);
    await p.post(`${path}/requests/${device.deviceId}/wait.example.com/approve`, undefined, as);
    // Capable now, but never seen polling: offline.
    expect(await waiting()).toEqual({ reason: 'offline', devices: [{ deviceId: device.deviceId, name: 'laptop' }] });
    expect((await p.post(`${path}/jobs/${job.body.jobId}/request-access`, { deviceId: 'dev_nope' }, as)).body).toEqual({
      error: 'Device not found',
    });
    expect((await poll(device.token)).body.job.jobId).toBe(job.body.jobId);
    expect(await waiting()).toBeNull();
    const late = await p.post(`${path}/jobs/${job.body.jobId}/request-access`, { deviceId: device.deviceId }, as);
    expect(late.status).toBe(409);
    expect(late.body).toEqual({ error: 'Only queued jobs wait for access.' });
  });

  it('a device busy with a job (heartbeats, no polls) is not named offline', async () => {
    const { org, owner } = await p.newOrg();
    const path = `/v1/orgs/${org.orgId}/agents`;
    const as = { token: owner.token };
    const device = await loggedInDeviceOf(org.orgId, owner.token);
    await p.post('/v1/agent/network-requests', { host: 'busy.example.com' }, { token: device.token });
    await p.post(`${path}/requests/${device.deviceId}/busy.example.com/approve`, undefined, as);
    const first = await p.post(`${path}/jobs`, httpJob('busy.example.com'), as);
    expect((await poll(device.token)).body.job.jobId).toBe(first.body.jobId);
    const second = await p.post(`${path}/jobs`, httpJob('busy.example.com'), as);
    // Two minutes on: the device ran the first job all along, its last poll long ago.
    await db.send(
      new UpdateCommand({
        TableName: TABLE(),
        Key: { pk: `ORG#${org.orgId}`, sk: `DEVICE#${device.deviceId}` },
        UpdateExpression: 'SET lastSeenAt = :then',
        ExpressionAttributeValues: { ':then': Date.now() - 120_000 },
      }),
    );
    const beat = await p.post(`/v1/agent/jobs/${first.body.jobId}/heartbeat`, {}, { token: device.token });
    expect(beat.body).toEqual({ ok: true, cancel: false });
    const listed = (await p.get(path, as)).body.jobs as { jobId: string; waiting: unknown }[];
    // An online device may run it: it waits for nothing but that device's next poll.
    expect(listed.find((j) => j.jobId === second.body.jobId)?.waiting).toBeNull();
  });

  it("asks only for the job's hosts a device may allow (no IP literal, no localhost)", async () => {
    const device = await loggedInDevice(p);
    const job = await p.post(`${agents()}/jobs`, {
      type: 'http.batch',
      input: {
        requests: [
          { method: 'GET', url: 'https://access.example.com/' },
          { method: 'GET', url: 'http://127.0.0.1:8080/' },
          { method: 'GET', url: 'http://localhost:8080/' },
        ],
      },
    });
    expect(job.status).toBe(201);
    const asked = await p.post(`${agents()}/jobs/${job.body.jobId}/request-access`, { deviceId: device.deviceId });
    expect(asked.body).toEqual({
      requested: ['access.example.com'],
      notified: false,
      missing: { hosts: ['access.example.com', '127.0.0.1', 'localhost'], network: 'allowlist' },
    });
    const filed = (await p.get(agents())).body.requests.filter(
      (r: { deviceId: string }) => r.deviceId === device.deviceId,
    );
    expect(filed.map((r: { host: string }) => r.host)).toEqual(['access.example.com']);
  });
});

describe('the list', () => {
  it('holds the 50 latest jobs, newest first', async () => {
    const { org, owner } = await p.newOrg();
    const path = `/v1/orgs/${org.orgId}/agents`;
    const made: string[] = [];
    for (let i = 0; i < 51; i++) {
      made.push((await p.post(`${path}/jobs`, httpJob('list.example.com'), { token: owner.token })).body.jobId);
    }
    const listed = ((await p.get(path, { token: owner.token })).body.jobs as { jobId: string }[]).map((j) => j.jobId);
    expect(listed).toEqual(made.slice(1).reverse());
  });
});

/** A device of another organization, approved by its owner. */
async function loggedInDeviceOf(orgId: string, ownerToken: string) {
  const start = await p.post('/v1/agent/login', { name: 'laptop' }, { token: null });
  await p.post(`/v1/orgs/${orgId}/agents/login`, { userCode: start.body.userCode }, { token: ownerToken });
  const token = await p.post('/v1/agent/login/token', { deviceCode: start.body.deviceCode }, { token: null });
  return token.body as { token: string; deviceId: string };
}

describe('a poll over a long backlog of jobs the device may not run', () => {
  it('reads a bounded window: a job behind 230 others is claimed by a later poll, and the others stay queued', async () => {
    const device = await deviceFor(['backlog.example.com']);
    const model = await p.post(`${agents()}/jobs`, httpJob('elsewhere.example.com'));
    expect(model.status).toBe(201);
    const key = (jobId: string) => ({ pk: `ORG#${p.org.orgId}`, sk: `JOB#${jobId}` });
    const record = (await getItem<Record<string, unknown>>(key(model.body.jobId), true)) as Record<string, unknown>;
    // 229 more like it, older (written as the create writes them: the job and its place in the queue).
    const fillers = Array.from({ length: 229 }, (_, i) => {
      const jobId = newId('job_');
      const createdAt = (record.createdAt as number) - 1000 - i;
      return { ...record, ...key(jobId), jobId, createdAt, gsi1sk: `${String(createdAt).padStart(15, '0')}#${jobId}` };
    });
    for (let i = 0; i < fillers.length; i += 25)
      await db.send(
        new BatchWriteCommand({
          RequestItems: { [TABLE()]: fillers.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } })) },
        }),
      );
    const wanted = await p.post(`${agents()}/jobs`, httpJob('backlog.example.com'));
    expect(wanted.status).toBe(201);

    // The first poll reads the oldest 200 and stops there: the job it may run is further back.
    const first = await poll(device.token);
    expect([first.status, first.body.job]).toEqual([200, null]);
    // The next ones go on from where it stopped.
    let claimed: string | undefined;
    for (let n = 0; n < 5 && !claimed; n++) claimed = (await poll(device.token)).body.job?.jobId;
    expect(claimed).toBe(wanted.body.jobId);
    const left = await Promise.all(
      [model.body.jobId, ...fillers.slice(0, 5).map((f) => f.jobId)].map(
        async (jobId) => (await getItem<{ status: string }>(key(jobId), true))?.status,
      ),
    );
    expect(left).toEqual(Array(6).fill('queued'));
  });
});
