import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { SQSEvent } from 'aws-lambda';
import { handler as agentCallbacks } from '../../functions/workers/agent-callbacks';
import { handler as agentChecks } from '../../functions/workers/agent-checks';
import { handler as analyticsBuilds } from '../../functions/workers/analytics-builds';
import { handler as buildEvents } from '../../functions/workers/build-events';
import { handler as notify } from '../../functions/workers/notify';
import { handler as webhooks } from '../../functions/workers/webhooks';
import type { NotifyEvent } from '../../shared/domains/notifications/kinds';
import { type NoticeRecord, noticeIdOf, noticeKey } from '../../shared/domains/notifications/notices';
import type { NotifyMessage } from '../../shared/domains/notifications/raise';
import type { DeliveryMessage } from '../../shared/domains/webhooks/deliveries';
import { db } from '../../shared/kernel/store/client';
import { newId } from '../../shared/kernel/store/ids';
import { getItem, TABLE } from '../../shared/kernel/store/table';
import { buildStateChange } from '../../shared/ports/builds/events';
import { type Person, TestPlatform } from '../helpers/platform';
import { type Receiver, startReceiver } from '../helpers/receiver';
import { putRecord } from '../helpers/records';
import { queuedIn, startTestQueues } from '../helpers/sqs';
import { addDeployment, createProject } from '../projects/fixtures';

/**
 * Redelivery (issue 33, background work): SQS delivers a message at least once and EventBridge an
 * event at least once, so each worker whose work is not naturally idempotent is handed the same
 * message or event twice, as its Lambda would be, against the embedded services (DynamoDB Local,
 * the local SQS endpoint's queues, the outbox, a real HTTPS receiver), and the work happens once:
 * one deployment move and its one event, one build counted, one notice and one email, one webhook
 * delivery and one POST, one escalation text, one job expiry and its one callback. The queues are
 * made but no worker reads them: what a handler queues is counted there. (The mail workers' repeats
 * are in test/mail/inbound-worker.test.ts and test/mail/feedback.test.ts.)
 */
let p: TestPlatform;
let receiver: Receiver;
let sqs: { endpoint: string; stop: () => Promise<void> } | undefined;
let outbox: string;
let n = 0;
const unique = (base: string) => `${base}-${Date.now().toString(36)}-${(n++).toString(36)}`;

beforeAll(async () => {
  outbox = mkdtempSync(join(process.env.TEST_DATA_DIR as string, 'outbox-'));
  process.env.OUTBOX_DIR = outbox;
  process.env.MAIL_FROM = 'notifications@localhost';
  // Webhook retries' waits scaled down: a next try is due at once.
  process.env.WEBHOOK_RETRY_SCALE = '0.0001';
  receiver = await startReceiver();
  sqs = await startTestQueues();
  p = await TestPlatform.start();
});
afterAll(async () => {
  await p?.close();
  await sqs?.stop();
  receiver?.close();
  delete process.env.WEBHOOK_RETRY_SCALE;
});

/** An SQS event of one message, as Lambda hands it over (a redelivery keeps its message id). */
const sqsEvent = (body: unknown, messageId = unique('msg')): SQSEvent =>
  ({
    Records: [
      { messageId, receiptHandle: messageId, body: JSON.stringify(body), attributes: {}, eventSource: 'aws:sqs' },
    ],
  }) as unknown as SQSEvent;

/** What the outbox holds for `to` (an email address or a phone number). */
const sentTo = (to: string) =>
  readdirSync(outbox)
    .map((f) => ({ f, text: readFileSync(join(outbox, f), 'utf8') }))
    .filter(({ text }) => text.includes(to))
    .map(({ f }) => (f.endsWith('.eml') ? 'email' : f.endsWith('.sms.json') ? 'sms' : 'voice'));

const ok = { batchItemFailures: [] };

describe('build-events and analytics-builds (EventBridge)', () => {
  test('the same build event twice moves the deployment once, raises one event and counts one build', async () => {
    const { projectId } = await createProject(p);
    const { deploymentId } = await addDeployment(p.org.orgId, projectId, { status: 'queued' });
    const key = { pk: `ORG#${p.org.orgId}`, sk: `DPL#${deploymentId}` };
    const event = (status: 'IN_PROGRESS' | 'FAILED') =>
      buildStateChange(
        { deploymentId, orgId: p.org.orgId, projectId, target: 'preview' },
        `local-${deploymentId}`,
        status,
        Date.now() - 1000,
      );
    const started = event('IN_PROGRESS');
    await buildEvents(started);
    const building = await getItem<Record<string, unknown>>(key, true);
    expect(building).toMatchObject({ status: 'building' });
    await buildEvents(started);
    expect(await getItem(key, true)).toEqual(building);

    const notifyBefore = await queuedIn('notify');
    const failed = event('FAILED');
    await buildEvents(failed);
    const errored = await getItem<Record<string, unknown>>(key, true);
    expect(errored).toMatchObject({ status: 'error', version: (building?.version as number) + 1 });
    await buildEvents(failed);
    expect(await getItem(key, true)).toEqual(errored);
    // deployment.failed raised by the one move: one message to the notify worker.
    expect(await queuedIn('notify')).toBe(notifyBefore + 1);

    expect(await analyticsBuilds(failed)).toEqual({ counted: true });
    expect(await analyticsBuilds(failed)).toEqual({ counted: false });
  });
});

/** A fresh organization whose protocol pages a developer: email at once, a text 5 minutes later. */
async function pagedOrg() {
  const { org, owner } = await p.newOrg();
  const dev = await p.person('developer', org.orgId);
  const rules = [
    {
      events: ['issue.assigned', 'issue.sla_breached'],
      steps: [
        { afterMinutes: 0, channels: ['inapp', 'email'] },
        { afterMinutes: 5, channels: ['sms'] },
      ],
    },
  ];
  const made = await p.post(`/v1/orgs/${org.orgId}/notify/protocols`, { name: 'Pager', rules }, { token: owner.token });
  expect(made.status).toBe(201);
  const phone = `+4917${String(Date.now()).slice(-8)}${n++ % 10}`;
  const settings = await p.put('/v1/me/notifications/settings', { phone, quietHours: null }, { token: dev.token });
  expect(settings.status).toBe(200);
  return { org, owner, dev, phone };
}

const eventFor = (orgId: string, dev: Person, extra: Partial<NotifyEvent> = {}): NotifyEvent => ({
  eventId: newId('evt_'),
  kind: 'issue.assigned',
  orgId,
  at: Date.now(),
  resources: [],
  attributes: {},
  people: [dev.userId],
  title: `Redelivered ${unique('t')}`,
  ...extra,
});

const noticesOf = async (dev: Person, kind: string) =>
  (
    (await p.get('/v1/me/notifications', { token: dev.token })).body.notices as { event: string; noticeId: string }[]
  ).filter((x) => x.event === kind);

describe('notify (notices, email, webhook fan-out)', () => {
  test('the same event message twice makes one notice, one email and one webhook delivery, POSTed once', async () => {
    const { org, owner, dev, phone } = await pagedOrg();
    const path = `/${unique('fanout')}`;
    const hook = await p.post(
      `/v1/orgs/${org.orgId}/webhooks`,
      { url: `https://localhost:${receiver.port}${path}`, events: ['issue.assigned'] },
      { token: owner.token },
    );
    expect(hook.status).toBe(201);
    const hooksBefore = await queuedIn('webhooks');
    const message: NotifyMessage = { type: 'event', event: eventFor(org.orgId, dev) };
    const once = sqsEvent(message);
    expect(await notify(once)).toEqual(ok);
    expect(await notify(once)).toEqual(ok);

    expect(await noticesOf(dev, 'issue.assigned')).toHaveLength(1);
    expect(sentTo(dev.email)).toEqual(['email']);
    expect(sentTo(phone)).toEqual([]);
    const deliveries = await p.get(`/v1/orgs/${org.orgId}/webhooks/${hook.body.endpoint.endpointId}/deliveries`, {
      token: owner.token,
    });
    expect(deliveries.body.deliveries).toHaveLength(1);
    // The delivery has no try yet, so the event coming again queued its first try again (it cannot
    // tell a lost queueing from a slow one); the two messages make one POST.
    expect(await queuedIn('webhooks')).toBe(hooksBefore + 2);
    const first: DeliveryMessage = {
      orgId: org.orgId,
      endpointId: hook.body.endpoint.endpointId,
      deliveryId: deliveries.body.deliveries[0].deliveryId,
      notBefore: 0,
    };
    expect(await webhooks(sqsEvent(first))).toEqual(ok);
    expect(await webhooks(sqsEvent(first))).toEqual(ok);
    expect(receiver.callsTo(path)).toHaveLength(1);
  });

  test('an event whose delivery was written but whose first try was never queued queues it when it comes again', async () => {
    const { org, owner, dev } = await pagedOrg();
    const path = `/${unique('fanout')}`;
    const hook = await p.post(
      `/v1/orgs/${org.orgId}/webhooks`,
      { url: `https://localhost:${receiver.port}${path}`, events: ['issue.assigned'] },
      { token: owner.token },
    );
    const endpointId = hook.body.endpoint.endpointId as string;
    const message = sqsEvent({ type: 'event', event: eventFor(org.orgId, dev) } satisfies NotifyMessage);
    expect(await notify(message)).toEqual(ok);
    const list = `/v1/orgs/${org.orgId}/webhooks/${endpointId}/deliveries`;
    const [made] = (await p.get(list, { token: owner.token })).body.deliveries;
    // A lost queueing looks the same from here as a message not yet handled: the delivery, no try.
    const hooksBefore = await queuedIn('webhooks');
    expect(await notify(message)).toEqual(ok);
    expect(await queuedIn('webhooks')).toBe(hooksBefore + 1);
    const first: DeliveryMessage = { orgId: org.orgId, endpointId, deliveryId: made.deliveryId, notBefore: 0 };
    expect(await webhooks(sqsEvent(first))).toEqual(ok);
    expect(receiver.callsTo(path)).toHaveLength(1);
    // Once the delivery has had its try, the event coming again queues nothing.
    expect(await notify(message)).toEqual(ok);
    expect(await queuedIn('webhooks')).toBe(hooksBefore + 1);
    expect((await p.get(list, { token: owner.token })).body.deliveries).toHaveLength(1);
  });

  test('an event whose notice was written but whose first step never ran sends that step once, when it comes again', async () => {
    const { org, dev } = await pagedOrg();
    const event = eventFor(org.orgId, dev);
    const noticeId = noticeIdOf(event, dev.userId);
    // What the first delivery left before it failed: the notice, no step sent.
    const notice: NoticeRecord = {
      ...noticeKey(dev.userId, noticeId),
      noticeId,
      userId: dev.userId,
      orgId: org.orgId,
      eventId: event.eventId,
      event: event.kind,
      title: event.title,
      read: false,
      requireAck: true,
      createdAt: event.at,
      steps: [
        { afterMinutes: 0, channels: ['inapp', 'email'] },
        { afterMinutes: 5, channels: ['sms'] },
      ],
      escalationStep: -1,
      stepsFrom: event.at,
      beforeEvent: false,
      overrideQuietHours: false,
      sent: [],
    };
    await db.send(new PutCommand({ TableName: TABLE(), Item: notice }));
    const message = sqsEvent({ type: 'event', event } satisfies NotifyMessage);
    expect(await notify(message)).toEqual(ok);
    expect(sentTo(dev.email)).toEqual(['email']);
    expect(await getItem<NoticeRecord>(noticeKey(dev.userId, noticeId), true)).toMatchObject({ escalationStep: 0 });
    expect(await notify(message)).toEqual(ok);
    expect(sentTo(dev.email)).toEqual(['email']);
  });
});

describe('escalations (notify timers: a notice step, a tracker SLA breach)', () => {
  test('a step timer delivered twice sends its text once; an SLA breach timer fired twice makes one notice', async () => {
    const { org, dev, phone } = await pagedOrg();
    const event = eventFor(org.orgId, dev);
    expect(await notify(sqsEvent({ type: 'event', event } satisfies NotifyMessage))).toEqual(ok);
    const noticeId = noticeIdOf(event, dev.userId);
    const step: NotifyMessage = { type: 'step', userId: dev.userId, noticeId, step: 1, at: Date.now() };
    const timer = sqsEvent(step);
    expect(await notify(timer)).toEqual(ok);
    expect(await notify(timer)).toEqual(ok);
    // The same timer moved twice (two messages of one content): still once.
    expect(await notify(sqsEvent(step))).toEqual(ok);
    expect(sentTo(phone)).toEqual(['sms']);
    expect(await getItem<NoticeRecord>(noticeKey(dev.userId, noticeId), true)).toMatchObject({
      escalationStep: 1,
      sent: [expect.objectContaining({ step: 0 }), expect.objectContaining({ step: 1 })],
    });

    // The tracker's SLA timer carries a fixed event id per issue and SLA (shared/domains/tracker/sla.ts).
    const breach = eventFor(org.orgId, dev, {
      eventId: `evt_sla_${unique('iss')}_fast`,
      kind: 'issue.sla_breached',
      attributes: { space: 'DESK', key: 'DESK-1', sla: 'Fast' },
    });
    for (const _ of [1, 2])
      expect(await notify(sqsEvent({ type: 'event', event: breach } satisfies NotifyMessage))).toEqual(ok);
    expect(await noticesOf(dev, 'issue.sla_breached')).toHaveLength(1);
    expect(sentTo(dev.email)).toEqual(['email', 'email']);
  });
});

describe('webhooks (deliveries)', () => {
  async function deliveryTo(path: string) {
    const { org, owner, dev } = await pagedOrg();
    const hook = await p.post(
      `/v1/orgs/${org.orgId}/webhooks`,
      { url: `https://localhost:${receiver.port}${path}`, events: ['issue.assigned'] },
      { token: owner.token },
    );
    expect(hook.status).toBe(201);
    const endpointId = hook.body.endpoint.endpointId as string;
    expect(await notify(sqsEvent({ type: 'event', event: eventFor(org.orgId, dev) } satisfies NotifyMessage))).toEqual(
      ok,
    );
    const list = `/v1/orgs/${org.orgId}/webhooks/${endpointId}/deliveries`;
    const read = async () => (await p.get(list, { token: owner.token })).body.deliveries[0];
    const first = await read();
    const message: DeliveryMessage = { orgId: org.orgId, endpointId, deliveryId: first.deliveryId, notBefore: 0 };
    return { message, read };
  }

  test('a delivery message twice POSTs once', async () => {
    const path = `/${unique('hook')}`;
    const { message, read } = await deliveryTo(path);
    const once = sqsEvent(message);
    expect(await webhooks(once)).toEqual(ok);
    expect(await webhooks(once)).toEqual(ok);
    expect(receiver.callsTo(path)).toHaveLength(1);
    expect(await read()).toMatchObject({ status: 'succeeded', attempts: [expect.objectContaining({ status: 200 })] });
  });

  test('two copies of a delivery message handled at once (two workers) POST once', async () => {
    const path = `/${unique('hook')}`;
    const { message, read } = await deliveryTo(path);
    const results = await Promise.all([webhooks(sqsEvent(message)), webhooks(sqsEvent(message))]);
    expect(results).toEqual([ok, ok]);
    expect(receiver.callsTo(path)).toHaveLength(1);
    expect(await read()).toMatchObject({ status: 'succeeded', attempts: [expect.objectContaining({ status: 200 })] });
  });

  test('a failed try whose message comes again sends nothing more; its next try, twice, POSTs once', async () => {
    const path = `/${unique('hook')}`;
    receiver.scripted.set(path, [500]);
    const { message, read } = await deliveryTo(path);
    const hooksBefore = await queuedIn('webhooks');
    const first = sqsEvent(message);
    expect(await webhooks(first)).toEqual(ok);
    expect(await webhooks(first)).toEqual(ok);
    expect(receiver.callsTo(path)).toHaveLength(1);
    const pending = await read();
    expect(pending).toMatchObject({ status: 'pending', attempts: [expect.objectContaining({ status: 500 })] });
    // One next try queued, not one per delivery of the first message.
    expect(await queuedIn('webhooks')).toBe(hooksBefore + 1);

    const next = sqsEvent({ ...message, notBefore: pending.nextAttemptAt } satisfies DeliveryMessage);
    expect(await webhooks(next)).toEqual(ok);
    expect(await webhooks(next)).toEqual(ok);
    expect(receiver.callsTo(path)).toHaveLength(2);
    expect(await read()).toMatchObject({
      status: 'succeeded',
      attempts: [{ status: 500 }, { status: 200 }].map(expect.objectContaining),
    });
  });
});

/** A job of the owner's organization, as a test's fields have it, with a callback to the receiver's `path`. */
async function jobWith(fields: Record<string, unknown>, path = `/${unique('callback')}`) {
  const jobId = newId('job_');
  await putRecord(p.org.orgId, `JOB#${jobId}`, {
    jobId,
    orgId: p.org.orgId,
    type: 'http.batch',
    createdBy: p.owner.userId,
    hosts: [],
    input: {},
    callbackUrl: `https://localhost:${receiver.port}${path}`,
    createdAt: Date.now() - 7_200_000,
    updatedAt: Date.now() - 7_200_000,
    ...fields,
  });
  return { jobId, path };
}

describe("agent-callbacks (a job's callback)", () => {
  test("a callback message twice POSTs once; a failed try's message twice queues one next try, which POSTs once", async () => {
    const ended = { status: 'done', expiresAt: Date.now(), completedAt: Date.now() - 1000 };
    const first = await jobWith(ended);
    const once = sqsEvent({ orgId: p.org.orgId, jobId: first.jobId, attempt: 0 });
    expect(await agentCallbacks(once)).toEqual(ok);
    expect(await agentCallbacks(once)).toEqual(ok);
    expect(receiver.callsTo(first.path)).toHaveLength(1);

    const flaky = await jobWith(ended);
    receiver.scripted.set(flaky.path, [503]);
    const before = await queuedIn('agent-callbacks');
    const failing = sqsEvent({ orgId: p.org.orgId, jobId: flaky.jobId, attempt: 0 });
    expect(await agentCallbacks(failing)).toEqual(ok);
    expect(await agentCallbacks(failing)).toEqual(ok);
    expect(receiver.callsTo(flaky.path)).toHaveLength(1);
    expect(await queuedIn('agent-callbacks')).toBe(before + 1);
    const next = sqsEvent({ orgId: p.org.orgId, jobId: flaky.jobId, attempt: 1 });
    expect(await agentCallbacks(next)).toEqual(ok);
    expect(await agentCallbacks(next)).toEqual(ok);
    expect(receiver.callsTo(flaky.path)).toHaveLength(2);
    expect(await queuedIn('agent-callbacks')).toBe(before + 1);
  });

  test('two copies of a callback message handled at once (two workers) POST once', async () => {
    const job = await jobWith({ status: 'done', expiresAt: Date.now(), completedAt: Date.now() - 1000 });
    const message = { orgId: p.org.orgId, jobId: job.jobId, attempt: 0 };
    const results = await Promise.all([agentCallbacks(sqsEvent(message)), agentCallbacks(sqsEvent(message))]);
    expect(results).toEqual([ok, ok]);
    expect(receiver.callsTo(job.path)).toHaveLength(1);
    // The try was counted: the message coming again later sends nothing either.
    expect(await agentCallbacks(sqsEvent(message))).toEqual(ok);
    expect(receiver.callsTo(job.path)).toHaveLength(1);
  });
});

describe('agent-checks (job expiry)', () => {
  test.each([
    ['a queued job past its expiry', { status: 'queued', expiresAt: Date.now() - 1000 }, 'expired', 0],
    [
      'a running job whose device stopped',
      { status: 'running', expiresAt: Date.now() + 3_600_000, heartbeatAt: Date.now() - 3_600_000, deviceId: 'dev_x' },
      'failed',
      1,
    ],
  ] as const)('%s, checked twice, ends once: one callback and its events once', async (_, fields, status, events) => {
    const { jobId } = await jobWith(fields);
    const [callbacks, notices, checks] = await Promise.all([
      queuedIn('agent-callbacks'),
      queuedIn('notify'),
      queuedIn('agent-checks'),
    ]);
    const check = sqsEvent({ orgId: p.org.orgId, jobId });
    expect(await agentChecks(check)).toEqual(ok);
    const ended = await getItem<Record<string, unknown>>({ pk: `ORG#${p.org.orgId}`, sk: `JOB#${jobId}` }, true);
    expect(ended).toMatchObject({ status, completedAt: expect.any(Number) });
    expect(await agentChecks(check)).toEqual(ok);
    expect(await getItem({ pk: `ORG#${p.org.orgId}`, sk: `JOB#${jobId}` }, true)).toEqual(ended);
    expect(await queuedIn('agent-callbacks')).toBe(callbacks + 1);
    // agent.job_failed for the stopped device's job; none for an expired one; no further check of an ended job.
    expect(await queuedIn('notify')).toBe(notices + events);
    expect(await queuedIn('agent-checks')).toBe(checks);
  });
});
