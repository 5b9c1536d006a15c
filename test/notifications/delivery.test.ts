import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { moveDueTimers, startTimers } from '../../lib/local/timers';
import { failDeployment } from '../../shared/domains/deployments/finish';
import { transition } from '../../shared/domains/deployments/records';
import { handleNotifyMessage, stepTimer } from '../../shared/domains/notifications/deliver';
import { noticeKey } from '../../shared/domains/notifications/notices';
import { listPeople } from '../../shared/domains/repos/people';
import { fanOut } from '../../shared/domains/webhooks/deliveries';
import { db } from '../../shared/kernel/store/client';
import { getItem, TABLE } from '../../shared/kernel/store/table';
import { storage } from '../../shared/ports/object-storage';
import { scheduler } from '../../shared/ports/scheduler';
import { dueSortKey, TIMER_PK } from '../../shared/ports/scheduler/local';
import { loggedInDevice } from '../agents/helpers';
import { type Person, TestPlatform } from '../helpers/platform';
import { startQueueWorker } from '../helpers/sqs';
import { until } from '../helpers/until';
import { addDeployment, createProject } from '../projects/fixtures';

/**
 * Delivery (spec part B, "Events"; issue: Delivery, Timers): events raised by the platform's own
 * writes reach the notify worker; the protocols attached to the resource, else the organization's,
 * decide who gets which steps; email, texts and calls land in the local outbox in order; an ack
 * stops the rest; a step runs once however often its timer fires; quiet hours hold and override.
 * Timers are moved by `moveDueTimers` with the test's own clock.
 */
let p: TestPlatform;
let worker: { stop: () => Promise<void> } | undefined;
let outbox: string;
let n = 0;
const unique = (base = 'ntf') => `${base}-${Date.now().toString(36)}-${(n++).toString(36)}`;
const MINUTE = 60_000;

beforeAll(async () => {
  outbox = mkdtempSync(join(process.env.TEST_DATA_DIR as string, 'outbox-'));
  process.env.OUTBOX_DIR = outbox;
  process.env.MAIL_FROM = 'notifications@localhost';
  worker = await startQueueWorker('notify');
  p = await TestPlatform.start();
});
afterAll(async () => {
  await p.close();
  await worker?.stop();
});

/** What the outbox holds for `to` (an email address or a phone number), in the order sent. */
function sentTo(to: string): { kind: string; text: string }[] {
  return readdirSync(outbox)
    .sort()
    .map((f) => ({ f, text: readFileSync(join(outbox, f), 'utf8') }))
    .filter(({ text }) => text.includes(to))
    .map(({ f, text }) => ({ kind: f.endsWith('.eml') ? 'email' : f.endsWith('.sms.json') ? 'sms' : 'voice', text }));
}

const notices = (person: Person, query = '') => p.get(`/v1/me/notifications${query}`, { token: person.token });

/**
 * Waits for the timer of step `n` of a notice. A step sends first and sets the next step's timer
 * after, so a test that moves the clock as soon as a message is out must wait for the timer too.
 */
const timerOf = (userNoticeId: string, n: number) =>
  until(async () => getItem({ pk: TIMER_PK, sk: stepTimer(userNoticeId, n) }, true));

async function noticeOf(person: Person, event: string) {
  return until(async () => {
    const res = await notices(person);
    return res.body.notices?.find((x: { event: string }) => x.event === event);
  });
}

/** A repository and an issue assigned to `assignee`, raising issue.assigned. */
async function assignIssue(assignee: Person, orgId = p.org.orgId, token?: string) {
  const name = unique('repo');
  expect((await p.post(`/v1/orgs/${orgId}/repos`, { name }, { token })).status).toBe(201);
  const res = await p.post(
    `/v1/orgs/${orgId}/repos/${name}/issues`,
    { title: 'Pager test', assignees: [assignee.userId] },
    { token },
  );
  expect(res.status).toBe(201);
  return name;
}

/** A fresh organization with one developer and a protocol of `rules` (attached nowhere: organization-wide). */
async function orgWithProtocol(rules: unknown[]) {
  const { org, owner } = await p.newOrg();
  const dev = await p.person('developer', org.orgId);
  const made = await p.post(`/v1/orgs/${org.orgId}/notify/protocols`, { name: 'Pager', rules }, { token: owner.token });
  expect(made.status).toBe(201);
  return { org, owner, dev, protocol: made.body.protocol };
}

const escalation = (extra: Record<string, unknown> = {}) => ({
  events: ['issue.assigned'],
  steps: [
    { afterMinutes: 0, channels: ['inapp', 'email'] },
    { afterMinutes: 5, channels: ['sms'] },
    { afterMinutes: 15, channels: ['voice'] },
  ],
  ...extra,
});

describe('notices', () => {
  it('an assignee gets one in-app notice when no protocol applies; the actor none; keys get 403', async () => {
    const dev = await p.person('developer');
    await assignIssue(dev);
    const notice = await noticeOf(dev, 'issue.assigned');
    expect(notice).toEqual({
      noticeId: expect.stringMatching(/^nte_[0-9a-z]{10}[0-9a-f]{16}$/),
      orgId: p.org.orgId,
      event: 'issue.assigned',
      title: expect.stringContaining('Pager test'),
      read: false,
      requireAck: false,
      createdAt: expect.any(Number),
    });
    expect(
      (await notices(p.owner)).body.notices.filter((x: { event: string }) => x.event === 'issue.assigned'),
    ).toEqual([]);
    const key = await p.apiKey();
    for (const [method, path, body] of [
      ['GET', '/v1/me/notifications', undefined],
      ['POST', '/v1/me/notifications/read', { noticeIds: [notice.noticeId] }],
      ['POST', `/v1/me/notifications/${notice.noticeId}/ack`, undefined],
      ['GET', '/v1/me/notifications/settings', undefined],
      ['PUT', '/v1/me/notifications/settings', { phone: null, quietHours: null }],
    ] as const) {
      const res = await p.call(method, path, { token: key, body });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: 'Notifications belong to people.' });
    }
  });

  it('a @handle in a comment raises issue.mentioned for that member', async () => {
    const { org, owner } = await p.newOrg();
    const mira = await p.person('developer', org.orgId);
    const handle = (await listPeople(org.orgId)).find((x) => x.userId === mira.userId)?.handle as string;
    const name = unique('repo');
    await p.post(`/v1/orgs/${org.orgId}/repos`, { name }, { token: owner.token });
    await p.post(`/v1/orgs/${org.orgId}/repos/${name}/issues`, { title: 'Help' }, { token: owner.token });
    const comment = await p.post(
      `/v1/orgs/${org.orgId}/repos/${name}/issues/1/comments`,
      { body: `@${handle} can you look? (mail me at someone@example.com)` },
      { token: owner.token },
    );
    expect(comment.status).toBe(201);
    const notice = await noticeOf(mira, 'issue.mentioned');
    expect(notice).toMatchObject({ event: 'issue.mentioned', body: expect.stringContaining('can you look') });
  });

  it('pages newest first with a signed cursor; marks read (others’ ids passed over)', async () => {
    const dev = await p.person('developer');
    await assignIssue(dev);
    await assignIssue(dev);
    await until(async () => ((await notices(dev)).body.notices.length >= 2 ? true : undefined));
    const first = await notices(dev, '?limit=1');
    expect(first.body.notices).toHaveLength(1);
    expect(typeof first.body.cursor).toBe('string');
    const second = await notices(dev, `?limit=1&cursor=${encodeURIComponent(first.body.cursor)}`);
    expect(second.body.notices[0].createdAt).toBeLessThanOrEqual(first.body.notices[0].createdAt);
    expect(second.body.notices[0].noticeId).not.toBe(first.body.notices[0].noticeId);
    const bad = await notices(dev, '?cursor=forged.cursor');
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: 'Invalid page cursor. Run the request again.' });
    expect((await notices(dev, '?limit=101')).status).toBe(400);

    const id = first.body.notices[0].noticeId;
    // The owner can't mark the developer's notice.
    expect((await p.post('/v1/me/notifications/read', { noticeIds: [id] })).body).toEqual({ ok: true });
    expect((await notices(dev, '?limit=1')).body.notices[0].read).toBe(false);
    const read = await p.post('/v1/me/notifications/read', { noticeIds: [id, 'nte_nothing'] }, { token: dev.token });
    expect(read.body).toEqual({ ok: true });
    expect((await notices(dev, '?limit=1')).body.notices[0].read).toBe(true);
    expect((await p.post('/v1/me/notifications/read', { noticeIds: [] }, { token: dev.token })).status).toBe(400);
  });

  it('acks once: 20 parallel acks answer one true; another person’s notice is 404', async () => {
    const dev = await p.person('developer');
    await assignIssue(dev);
    const notice = await noticeOf(dev, 'issue.assigned');
    const other = await p.post(`/v1/me/notifications/${notice.noticeId}/ack`);
    expect(other.status).toBe(404);
    expect(other.body).toEqual({ error: 'Notice not found' });
    const acks = await Promise.all(
      Array.from({ length: 20 }, () =>
        p.post(`/v1/me/notifications/${notice.noticeId}/ack`, undefined, { token: dev.token }),
      ),
    );
    expect(acks.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(acks.filter((r) => r.body.acked === true)).toHaveLength(1);
    expect(acks.filter((r) => r.body.acked === false)).toHaveLength(19);
    const after = (await notices(dev)).body.notices.find((x: { noticeId: string }) => x.noticeId === notice.noticeId);
    expect(after).toMatchObject({ ackedAt: expect.any(Number), read: true });
  });

  it('ids carry the spec’s `nte_`; a notice stored with the former `ntc_` id is still listed, read and acked by it', async () => {
    const dev = await p.person('developer');
    await assignIssue(dev);
    const notice = await noticeOf(dev, 'issue.assigned');
    expect(notice.noticeId).toMatch(/^nte_/);
    // The same notice as it was stored before ids took the spec's prefix.
    const stored = await getItem<Record<string, unknown>>(noticeKey(dev.userId, notice.noticeId), true);
    const legacyId = `ntc_${notice.noticeId.slice(4)}`;
    await db.send(
      new PutCommand({
        TableName: TABLE(),
        Item: { ...stored, ...noticeKey(dev.userId, legacyId), noticeId: legacyId },
      }),
    );
    const listed = (await notices(dev)).body.notices.map((x: { noticeId: string }) => x.noticeId);
    expect(listed.indexOf(notice.noticeId)).toBeLessThan(listed.indexOf(legacyId));
    expect(listed).toContain(legacyId);
    const read = await p.post('/v1/me/notifications/read', { noticeIds: [legacyId] }, { token: dev.token });
    expect(read.body).toEqual({ ok: true });
    const ack = (id: string) => p.post(`/v1/me/notifications/${id}/ack`, undefined, { token: dev.token });
    for (const id of [legacyId, notice.noticeId]) {
      expect((await ack(id)).body).toEqual({ acked: true });
      expect((await ack(id)).body).toEqual({ acked: false });
    }
    const after = (await notices(dev)).body.notices.find((x: { noticeId: string }) => x.noticeId === legacyId);
    expect(after).toMatchObject({ read: true, ackedAt: expect.any(Number) });
    expect((await ack('ntx_nothing')).status).toBe(404);
  });

  it('settings: phone in E.164 and quiet hours in a known zone, or 400', async () => {
    const dev = await p.person('developer');
    expect((await p.get('/v1/me/notifications/settings', { token: dev.token })).body).toEqual({
      settings: { phone: null, quietHours: null },
    });
    const set = { phone: '+4915112345678', quietHours: { start: '22:00', end: '07:00', timeZone: 'Europe/Berlin' } };
    expect((await p.put('/v1/me/notifications/settings', set, { token: dev.token })).body).toEqual({ settings: set });
    expect((await p.get('/v1/me/notifications/settings', { token: dev.token })).body).toEqual({ settings: set });
    for (const bad of [
      { ...set, phone: '015112345678' },
      { ...set, quietHours: { ...set.quietHours, timeZone: 'Mars/Olympus' } },
      { ...set, quietHours: { ...set.quietHours, start: '25:00' } },
    ]) {
      expect((await p.put('/v1/me/notifications/settings', bad, { token: dev.token })).status).toBe(400);
    }
  });
});

describe('escalation', () => {
  it('sends email, text and call in order as the clock moves; a repeated step sends nothing', async () => {
    const { org, owner, dev } = await orgWithProtocol([escalation()]);
    const phone = `+4915${String(Date.now()).slice(-9)}`;
    await p.put('/v1/me/notifications/settings', { phone, quietHours: null }, { token: dev.token });
    const start = Date.now();
    await assignIssue(dev, org.orgId, owner.token);
    const notice = await noticeOf(dev, 'issue.assigned');
    expect(notice.requireAck).toBe(true);
    await until(async () => (sentTo(dev.email).length === 1 ? true : undefined));
    expect(sentTo(phone)).toEqual([]);
    await timerOf(notice.noticeId, 1);

    await moveDueTimers(start + 4 * MINUTE);
    await new Promise((r) => setTimeout(r, 300));
    expect(sentTo(phone)).toEqual([]);
    await moveDueTimers(start + 6 * MINUTE);
    await until(async () => (sentTo(phone).length === 1 ? true : undefined));
    expect(sentTo(phone)[0]?.kind).toBe('sms');

    // The timer of step 1 again (SQS redelivery, a late timer): nothing more is sent.
    await handleNotifyMessage({ type: 'step', userId: dev.userId, noticeId: notice.noticeId, step: 1 }, fanOut);
    expect(sentTo(phone)).toHaveLength(1);

    await timerOf(notice.noticeId, 2);
    await moveDueTimers(start + 16 * MINUTE);
    await until(async () => (sentTo(phone).length === 2 ? true : undefined));
    expect(sentTo(phone).map((x) => x.kind)).toEqual(['sms', 'voice']);
    expect(sentTo(dev.email).map((x) => x.kind)).toEqual(['email']);
    expect(sentTo(dev.email)[0]?.text).toContain('Subject: #1 in');
  });

  it('an ack stops the later steps', async () => {
    const { org, owner, dev } = await orgWithProtocol([escalation()]);
    const phone = `+4916${String(Date.now()).slice(-9)}`;
    await p.put('/v1/me/notifications/settings', { phone, quietHours: null }, { token: dev.token });
    const start = Date.now();
    await assignIssue(dev, org.orgId, owner.token);
    const notice = await noticeOf(dev, 'issue.assigned');
    await until(async () => (sentTo(dev.email).length === 1 ? true : undefined));
    const timer = { pk: TIMER_PK, sk: stepTimer(notice.noticeId, 1) };
    expect(await until(async () => getItem(timer, true))).toBeDefined();
    const ack = await p.post(`/v1/me/notifications/${notice.noticeId}/ack`, undefined, { token: dev.token });
    expect(ack.body).toEqual({ acked: true });
    // The ack deletes the next step's timer (best effort).
    expect(await getItem(timer, true)).toBeUndefined();
    // The timer may already be on its way: running it sends nothing.
    await handleNotifyMessage({ type: 'step', userId: dev.userId, noticeId: notice.noticeId, step: 1 }, fanOut);
    await moveDueTimers(start + 30 * MINUTE);
    await new Promise((r) => setTimeout(r, 500));
    expect(sentTo(phone)).toEqual([]);
  });

  it('without a phone number, texts and calls go by email', async () => {
    const { org, owner, dev } = await orgWithProtocol([
      escalation({ steps: [{ afterMinutes: 0, channels: ['sms'] }] }),
    ]);
    await assignIssue(dev, org.orgId, owner.token);
    await until(async () => (sentTo(dev.email).length === 1 ? true : undefined));
    expect(sentTo(dev.email)[0]?.kind).toBe('email');
  });

  it('roles pick the recipients: owners and admins, not the assignee', async () => {
    const { org, owner, dev } = await orgWithProtocol([escalation({ roles: ['owner'] })]);
    await assignIssue(dev, org.orgId, owner.token);
    await noticeOf(owner, 'issue.assigned');
    await new Promise((r) => setTimeout(r, 300));
    expect((await notices(dev)).body.notices).toEqual([]);
  });

  it('userIds pick members (a non-member is passed over), not the assignee', async () => {
    const { org, owner } = await p.newOrg();
    const dev = await p.person('developer', org.orgId);
    const lead = await p.person('viewer', org.orgId);
    const stranger = await p.person('developer');
    const made = await p.post(
      `/v1/orgs/${org.orgId}/notify/protocols`,
      { name: 'Lead', rules: [escalation({ userIds: [lead.userId, stranger.userId] })] },
      { token: owner.token },
    );
    expect(made.status).toBe(201);
    await assignIssue(dev, org.orgId, owner.token);
    expect(await noticeOf(lead, 'issue.assigned')).toMatchObject({ orgId: org.orgId, requireAck: true });
    await new Promise((r) => setTimeout(r, 300));
    expect((await notices(dev)).body.notices).toEqual([]);
    const theirs = (await notices(stranger)).body.notices.filter((x: { orgId: string }) => x.orgId === org.orgId);
    expect(theirs).toEqual([]);
  });

  it('the service desk SLA template pages the assignee and the owners and admins', async () => {
    const { org, owner } = await p.newOrg();
    const dev = await p.person('developer', org.orgId);
    const made = await p.post(
      `/v1/orgs/${org.orgId}/notify/protocols`,
      { template: 'service-desk-sla' },
      { token: owner.token },
    );
    expect(made.status).toBe(201);
    const event = {
      eventId: `evt_sla_${unique()}`,
      kind: 'issue.sla_breached' as const,
      orgId: org.orgId,
      at: Date.now(),
      resources: [],
      attributes: { space: 'DESK', key: 'DESK-1' },
      people: [dev.userId],
      title: 'DESK-1 breached "Fast": Printer on fire',
    };
    await handleNotifyMessage({ type: 'event', event }, fanOut);
    for (const person of [dev, owner]) {
      expect(await noticeOf(person, 'issue.sla_breached')).toMatchObject({ requireAck: true });
    }
    // The same event again (SQS delivers at least once): still one notice each, one email each.
    await handleNotifyMessage({ type: 'event', event }, fanOut);
    for (const person of [dev, owner]) {
      const all = (await notices(person)).body.notices.filter(
        (x: { event: string }) => x.event === 'issue.sla_breached',
      );
      expect(all).toHaveLength(1);
      expect(sentTo(person.email)).toHaveLength(1);
    }
  });

  it('quiet hours hold all but in-app until they end; a rule may override them', async () => {
    const now = new Date();
    const hhmm = (d: Date) =>
      `${String(d.getUTCHours()).padStart(2, '0')}:${String(d.getUTCMinutes()).padStart(2, '0')}`;
    const quietHours = {
      start: hhmm(new Date(now.getTime() - 60 * MINUTE)),
      end: hhmm(new Date(now.getTime() + 60 * MINUTE)),
      timeZone: 'UTC',
    };
    const held = await orgWithProtocol([escalation({ steps: [{ afterMinutes: 0, channels: ['inapp', 'email'] }] })]);
    await p.put('/v1/me/notifications/settings', { phone: null, quietHours }, { token: held.dev.token });
    await assignIssue(held.dev, held.org.orgId, held.owner.token);
    const heldNotice = await noticeOf(held.dev, 'issue.assigned');
    await timerOf(heldNotice.noticeId, 0);
    expect(sentTo(held.dev.email)).toEqual([]);
    await moveDueTimers(now.getTime() + 62 * MINUTE);
    await until(async () => (sentTo(held.dev.email).length === 1 ? true : undefined));

    const loud = await orgWithProtocol([
      escalation({ steps: [{ afterMinutes: 0, channels: ['email'] }], overrideQuietHours: true }),
    ]);
    await p.put('/v1/me/notifications/settings', { phone: null, quietHours }, { token: loud.dev.token });
    await assignIssue(loud.dev, loud.org.orgId, loud.owner.token);
    await until(async () => (sentTo(loud.dev.email).length === 1 ? true : undefined));
  });

  it('a failed production deployment escalates to its creator through the protocol attached to its project, until acknowledged', async () => {
    const { org, owner, dev, protocol } = await orgWithProtocol([
      {
        events: ['deployment.failed'],
        match: { target: ['production'] },
        steps: [
          { afterMinutes: 0, channels: ['inapp', 'email'] },
          { afterMinutes: 5, channels: ['sms'] },
          { afterMinutes: 15, channels: ['voice'] },
        ],
      },
    ]);
    const phone = `+4917${String(Date.now()).slice(-9)}`;
    await p.put('/v1/me/notifications/settings', { phone, quietHours: null }, { token: dev.token });
    const project = await createProject(p, {}, org.orgId, owner.token);
    const attached = await p.post(
      `/v1/orgs/${org.orgId}/notify/protocols/${protocol.protocolId}/attachments`,
      { type: 'project', id: project.projectId },
      { token: owner.token },
    );
    expect(attached.status).toBe(201);
    // A preview deployment does not match the rule: its creator gets a plain notice only.
    const preview = await addDeployment(org.orgId, project.projectId, { status: 'building', createdBy: dev.userId });
    await failDeployment(org.orgId, preview.deploymentId, 'Preview broke.');
    await until(async () => ((await notices(dev)).body.notices.length === 1 ? true : undefined));
    expect(sentTo(dev.email)).toEqual([]);

    const start = Date.now();
    const d = await addDeployment(org.orgId, project.projectId, {
      status: 'building',
      target: 'production',
      createdBy: dev.userId,
    });
    await failDeployment(org.orgId, d.deploymentId, 'The build failed: exit code 1.');
    const notice = await until(async () =>
      (await notices(dev)).body.notices.find((x: { body?: string }) => x.body === 'The build failed: exit code 1.'),
    );
    expect(notice).toMatchObject({ event: 'deployment.failed', requireAck: true });
    await until(async () => (sentTo(dev.email).length === 1 ? true : undefined));
    expect(sentTo(dev.email)[0]?.text).toContain('The build failed: exit code 1.');
    await timerOf(notice.noticeId, 1);
    await moveDueTimers(start + 6 * MINUTE);
    await until(async () => (sentTo(phone).length === 1 ? true : undefined));
    expect((await p.post(`/v1/me/notifications/${notice.noticeId}/ack`, undefined, { token: dev.token })).body).toEqual(
      {
        acked: true,
      },
    );
    await moveDueTimers(start + 20 * MINUTE);
    await new Promise((r) => setTimeout(r, 500));
    expect(sentTo(phone).map((x) => x.kind)).toEqual(['sms']);
  });

  it('a deployment that becomes ready notifies its creator (deployment.ready)', async () => {
    const dev = await p.person('developer');
    const project = await createProject(p);
    const d = await addDeployment(p.org.orgId, project.projectId, { status: 'deploying', createdBy: dev.userId });
    expect(
      await transition(p.org.orgId, d.deploymentId, ['deploying'], 'ready', { readyAt: Date.now() }),
    ).toBeDefined();
    expect(await noticeOf(dev, 'deployment.ready')).toMatchObject({
      title: `Deployment ${d.deploymentId} (preview) is ready`,
      requireAck: false,
    });
  });

  it("an agent job that fails notifies its creator, with the device's error", async () => {
    process.env.ARTIFACTS_BUCKET ??= `notify-results-${Date.now().toString(36)}`;
    await storage()
      .createBucket(process.env.ARTIFACTS_BUCKET)
      .catch(() => undefined);
    const device = await loggedInDevice(p);
    const agents = `/v1/orgs/${p.org.orgId}/agents`;
    await p.post('/v1/agent/network-requests', { host: 'jobs.example.com' }, { token: device.token });
    await p.post(`${agents}/requests/${device.deviceId}/jobs.example.com/approve`);
    const job = await p.post(`${agents}/jobs`, {
      type: 'http.batch',
      label: 'nightly',
      input: { requests: [{ method: 'GET', url: 'https://jobs.example.com/v1' }] },
    });
    expect(job.status).toBe(201);
    const claimed = await p.post('/v1/agent/poll', {}, { token: device.token });
    expect(claimed.body.job.jobId).toBe(job.body.jobId);
    const done = await p.post(
      `/v1/agent/jobs/${job.body.jobId}/complete`,
      { status: 'failed', error: 'jobs.example.com answered 503' },
      { token: device.token },
    );
    expect(done.status).toBe(200);
    const notice = await noticeOf(p.owner, 'agent.job_failed');
    expect(notice).toMatchObject({ title: 'Agent job "nightly" failed', body: 'jobs.example.com answered 503' });
    // One that ends done: agent.job_done.
    const next = await p.post(`${agents}/jobs`, {
      type: 'http.batch',
      label: 'hourly',
      input: { requests: [{ method: 'GET', url: 'https://jobs.example.com/v2' }] },
    });
    expect((await p.post('/v1/agent/poll', {}, { token: device.token })).body.job.jobId).toBe(next.body.jobId);
    const ok = await p.post(`/v1/agent/jobs/${next.body.jobId}/complete`, { status: 'done' }, { token: device.token });
    expect(ok.status).toBe(200);
    expect(await noticeOf(p.owner, 'agent.job_done')).toMatchObject({ title: expect.stringContaining('hourly') });
  });

  it('timers are records until they are due: moved once, cancellable', async () => {
    const { org, owner, dev } = await orgWithProtocol([
      escalation({
        steps: [
          { afterMinutes: 0, channels: ['inapp'] },
          { afterMinutes: 60, channels: ['email'] },
        ],
      }),
    ]);
    const start = Date.now();
    await assignIssue(dev, org.orgId, owner.token);
    const notice = await noticeOf(dev, 'issue.assigned');
    const timer = await until(async () =>
      getItem<{ at: number; message: { step: number } }>({ pk: TIMER_PK, sk: stepTimer(notice.noticeId, 1) }, true),
    );
    expect(timer.message.step).toBe(1);
    expect(timer.at).toBeGreaterThanOrEqual(start + 60 * MINUTE);
    await moveDueTimers(start + 30 * MINUTE);
    expect(await getItem({ pk: TIMER_PK, sk: stepTimer(notice.noticeId, 1) }, true)).toBeDefined();
    expect(await moveDueTimers(start + 61 * MINUTE)).toBeGreaterThanOrEqual(1);
    await until(async () => (sentTo(dev.email).length === 1 ? true : undefined));
    expect(await getItem({ pk: TIMER_PK, sk: stepTimer(notice.noticeId, 1) }, true)).toBeUndefined();
    await scheduler().schedule('cancelled-timer', start, {
      type: 'step',
      userId: dev.userId,
      noticeId: 'nte_x',
      step: 0,
    });
    await scheduler().cancel('cancelled-timer');
    expect(await getItem({ pk: TIMER_PK, sk: 'cancelled-timer' }, true)).toBeUndefined();
  });
  it('a restart keeps due items: a timer that came due while npm start was stopped is moved by the next start', async () => {
    const { org, owner, dev } = await orgWithProtocol([
      escalation({
        steps: [
          { afterMinutes: 0, channels: ['inapp'] },
          { afterMinutes: 60, channels: ['email'] },
        ],
      }),
    ]);
    // The first run of npm start's loop: the timer is not due, it stays a record.
    const first = startTimers(50);
    await assignIssue(dev, org.orgId, owner.token);
    const notice = await noticeOf(dev, 'issue.assigned');
    const key = { pk: TIMER_PK, sk: stepTimer(notice.noticeId, 1) };
    const timer = await until(async () => getItem<{ at: number; gsi1sk: string }>(key, true));
    await new Promise((r) => setTimeout(r, 200));
    first.stop();
    expect(await getItem(key, true)).toEqual(expect.objectContaining({ gsi1sk: timer.gsi1sk }));
    expect(sentTo(dev.email)).toEqual([]);
    // Stopped past its time (the hour went by): the record is due now, as it would be after a long stop.
    const past = Date.now() - 1000;
    await db.send(
      new UpdateCommand({
        TableName: TABLE(),
        Key: key,
        UpdateExpression: 'SET gsi1sk = :due',
        ExpressionAttributeValues: { ':due': dueSortKey(past, key.sk) },
      }),
    );
    // The next start's loop moves it; the step is sent once.
    const second = startTimers(50);
    try {
      await until(async () => (sentTo(dev.email).length === 1 ? true : undefined));
      await until(async () => ((await getItem(key, true)) === undefined ? true : undefined));
    } finally {
      second.stop();
    }
    expect(sentTo(dev.email).map((x) => x.kind)).toEqual(['email']);
  });
});
