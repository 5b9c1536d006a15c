import { Webhook } from 'standardwebhooks';
import { type Person, TestPlatform } from '../helpers/platform';
import { type Receiver, startReceiver } from '../helpers/receiver';
import { startQueueWorker } from '../helpers/sqs';
import { until } from '../helpers/until';

/**
 * Signed webhooks: endpoints registered for event kinds get each event as a POST signed the
 * Standard Webhooks way (verified here with its reference library), through the guarded fetch, to
 * a real HTTPS receiver on loopback allowed only by the test allowlist; tries again with growing
 * waits (scaled down here), keeps every try, redelivers on request, and signs with both secrets
 * for a while after a rotation.
 */
let p: TestPlatform;
let worker: { stop: () => Promise<void> } | undefined;
let receiver: Receiver;
let port: number;
let dev: Person;
const hooks = () => `/v1/orgs/${p.org.orgId}/webhooks`;
let n = 0;

beforeAll(async () => {
  receiver = await startReceiver();
  port = receiver.port;
  process.env.WEBHOOK_RETRY_SCALE = '0.02';
  worker = await startQueueWorker('notify', 'webhooks');
  p = await TestPlatform.start();
  dev = await p.person('developer');
});
afterAll(async () => {
  await p.close();
  await worker?.stop();
  receiver.close();
  delete process.env.WEBHOOK_RETRY_SCALE;
});

const callsTo = (path: string) => receiver.callsTo(path);

/** An issue assigned to the developer: one issue.assigned event. */
async function raiseAssigned() {
  const name = `hooks-${Date.now().toString(36)}-${n++}`;
  expect((await p.post(`/v1/orgs/${p.org.orgId}/repos`, { name })).status).toBe(201);
  const issue = await p.post(`/v1/orgs/${p.org.orgId}/repos/${name}/issues`, {
    title: 'Hook me',
    assignees: [dev.userId],
  });
  expect(issue.status).toBe(201);
  return name;
}

async function endpoint(path: string, extra: Record<string, unknown> = {}) {
  const res = await p.post(hooks(), { url: `https://localhost:${port}${path}`, events: ['issue.assigned'], ...extra });
  expect(res.status).toBe(201);
  return res.body as { endpoint: { endpointId: string; version: number }; secret: string };
}

const deliveries = async (endpointId: string) => (await p.get(`${hooks()}/${endpointId}/deliveries`)).body.deliveries;

describe('endpoints', () => {
  it('registers, lists, reads, patches and removes; the secret is answered once', async () => {
    const made = await endpoint('/crud', { description: 'CI' });
    expect(made.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(made.endpoint).toMatchObject({
      endpointId: expect.stringMatching(/^whe_/),
      url: `https://localhost:${port}/crud`,
      events: ['issue.assigned'],
      description: 'CI',
      enabled: true,
      version: 1,
    });
    const id = made.endpoint.endpointId;
    const list = await p.get(hooks());
    expect(list.body.endpoints.map((e: { endpointId: string }) => e.endpointId)).toContain(id);
    expect(list.text).not.toContain('whsec_');
    expect((await p.get(`${hooks()}/${id}`)).body.endpoint).toEqual(made.endpoint);
    const patched = await p.patch(`${hooks()}/${id}`, { enabled: false, events: ['deployment.failed'], ifVersion: 1 });
    expect(patched.body.endpoint).toMatchObject({ enabled: false, events: ['deployment.failed'], version: 2 });
    const stale = await p.patch(`${hooks()}/${id}`, { enabled: true, ifVersion: 1 });
    expect(stale.status).toBe(409);
    expect(stale.body).toEqual({ error: 'The endpoint changed. Reload and try again.' });
    expect((await p.patch(`${hooks()}/${id}`, {})).body).toEqual({ error: 'Nothing to update.' });
    expect((await p.delete(`${hooks()}/${id}`)).status).toBe(204);
    const gone = await p.get(`${hooks()}/${id}`);
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ error: 'Webhook endpoint not found' });
    expect((await p.delete(`${hooks()}/${id}`)).status).toBe(404);
    expect((await p.get(`${hooks()}/${id}/deliveries`)).status).toBe(404);
  });

  it('refuses a URL whose name does not resolve with its own message', async () => {
    const res = await p.post(hooks(), { url: 'https://nowhere.invalid/hook', events: ['issue.assigned'] });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: "The URL's host nowhere.invalid does not resolve." });
    const made = await endpoint('/patch-unresolved');
    const patched = await p.patch(`${hooks()}/${made.endpoint.endpointId}`, { url: 'https://nowhere.invalid/hook' });
    expect(patched.body).toEqual({ error: "The URL's host nowhere.invalid does not resolve." });
    await p.delete(`${hooks()}/${made.endpoint.endpointId}`);
  });

  it.each([
    'http://localhost/hook',
    'https://10.0.0.1/hook',
    'https://169.254.169.254/latest/meta-data',
    'https://[::1]/hook',
    'https://127.0.0.1/hook',
    'https://[::127.0.0.1]/hook',
    'https://[::a9fe:a9fe]/latest/meta-data',
    'not a url',
  ])('refuses %s: 400 The URL must be a public https URL.', async (url) => {
    const res = await p.post(hooks(), { url, events: ['issue.assigned'] });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'The URL must be a public https URL.' });
    const made = await endpoint('/patch-url');
    const patched = await p.patch(`${hooks()}/${made.endpoint.endpointId}`, { url });
    expect(patched.status).toBe(400);
    await p.delete(`${hooks()}/${made.endpoint.endpointId}`);
  });

  it('holds 20 endpoints per organization', async () => {
    const { org, owner } = await p.newOrg();
    const at = `/v1/orgs/${org.orgId}/webhooks`;
    for (let i = 0; i < 20; i++) {
      const res = await p.post(
        at,
        { url: `https://localhost:${port}/n${i}`, events: ['ops.alarm'] },
        { token: owner.token },
      );
      expect(res.status).toBe(201);
    }
    const over = await p.post(
      at,
      { url: `https://localhost:${port}/n20`, events: ['ops.alarm'] },
      { token: owner.token },
    );
    expect(over.status).toBe(400);
    expect(over.body).toEqual({ error: 'An organization can have up to 20 webhook endpoints.' });
  });
});

describe('deliveries', () => {
  it('signs each event as Standard Webhooks do; only subscribed, enabled endpoints get it', async () => {
    const made = await endpoint('/signed');
    const other = await endpoint('/other-kind', { events: ['deployment.ready'] });
    const off = await endpoint('/disabled', { enabled: false });
    const repo = await raiseAssigned();
    const [call] = await until(() => (callsTo('/signed').length >= 1 ? callsTo('/signed') : undefined));
    const payload = new Webhook(made.secret).verify(call?.body as string, call?.headers as Record<string, string>) as {
      type: string;
      data: { orgId: string; attributes: Record<string, string> };
    };
    expect(payload).toMatchObject({
      type: 'issue.assigned',
      data: { orgId: p.org.orgId, attributes: { repo, number: '1' } },
    });
    expect(() =>
      new Webhook(`whsec_${Buffer.alloc(32, 7).toString('base64')}`).verify(
        call?.body as string,
        call?.headers as Record<string, string>,
      ),
    ).toThrow();
    const [d] = await until(async () => {
      const list = await deliveries(made.endpoint.endpointId);
      return list[0]?.status === 'succeeded' ? list : undefined;
    });
    expect(d).toMatchObject({
      deliveryId: call?.headers['webhook-id'],
      kind: 'issue.assigned',
      status: 'succeeded',
      attempts: [{ status: 200, at: expect.any(Number), durationMs: expect.any(Number) }],
    });
    const one = await p.get(`${hooks()}/${made.endpoint.endpointId}/deliveries/${d.deliveryId}`);
    expect(one.body.delivery.payload).toEqual(JSON.parse(call?.body as string));
    await new Promise((r) => setTimeout(r, 300));
    expect(callsTo('/other-kind')).toEqual([]);
    expect(callsTo('/disabled')).toEqual([]);
    expect(await deliveries(other.endpoint.endpointId)).toEqual([]);
    expect(await deliveries(off.endpoint.endpointId)).toEqual([]);
    expect((await p.get(`${hooks()}/${made.endpoint.endpointId}/deliveries/msg_nothing`)).status).toBe(404);
  });

  it('a receiver that fails twice gets the third try; every try is kept', async () => {
    const made = await endpoint('/flaky');
    receiver.scripted.set('/flaky', [500, 503]);
    await raiseAssigned();
    const [d] = await until(async () => {
      const list = await deliveries(made.endpoint.endpointId);
      return list[0]?.status === 'succeeded' ? list : undefined;
    }, 30_000);
    expect(d.attempts.map((a: { status: number }) => a.status)).toEqual([500, 503, 200]);
    expect(new Set(callsTo('/flaky').map((c) => c.headers['webhook-id'])).size).toBe(1);
  });

  it('a rotation signs with both secrets for a while; a redelivery is a new delivery of the same payload', async () => {
    const made = await endpoint('/rotated');
    const rotated = await p.post(`${hooks()}/${made.endpoint.endpointId}/secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).not.toBe(made.secret);
    await raiseAssigned();
    const [call] = await until(() => (callsTo('/rotated').length >= 1 ? callsTo('/rotated') : undefined));
    expect(String(call?.headers['webhook-signature']).split(' ')).toHaveLength(2);
    for (const secret of [made.secret, rotated.body.secret as string]) {
      expect(new Webhook(secret).verify(call?.body as string, call?.headers as Record<string, string>)).toBeTruthy();
    }
    const [d] = await until(async () => {
      const list = await deliveries(made.endpoint.endpointId);
      return list[0]?.status === 'succeeded' ? list : undefined;
    });
    const again = await p.post(`${hooks()}/${made.endpoint.endpointId}/deliveries/${d.deliveryId}/redeliver`);
    expect(again.status).toBe(202);
    expect(again.body.delivery).toMatchObject({ status: 'pending', eventId: d.eventId });
    const calls = await until(() => (callsTo('/rotated').length >= 2 ? callsTo('/rotated') : undefined));
    expect(calls[1]?.body).toBe(calls[0]?.body);
    expect(calls[1]?.headers['webhook-id']).toBe(again.body.delivery.deliveryId);
    expect(calls[1]?.headers['webhook-id']).not.toBe(calls[0]?.headers['webhook-id']);
    // The original stays as it was, beside its copy.
    const both = await until(async () => {
      const list = await deliveries(made.endpoint.endpointId);
      return list.length === 2 && list.every((x: { status: string }) => x.status === 'succeeded') ? list : undefined;
    });
    expect(both.map((x: { deliveryId: string }) => x.deliveryId).sort()).toEqual(
      [d.deliveryId, again.body.delivery.deliveryId].sort(),
    );
  });

  it('an address the guard refuses at delivery time fails the delivery at once, never reached', async () => {
    const made = await endpoint('/rebound');
    // As if the name now resolved to a private address: the test allowance is gone.
    process.env.UNSAFE_TEST_ALLOW_HOSTS = '';
    try {
      await raiseAssigned();
      const [d] = await until(async () => {
        const list = await deliveries(made.endpoint.endpointId);
        return list[0]?.status === 'failed' ? list : undefined;
      });
      expect(d.attempts).toHaveLength(1);
      expect(d.attempts[0].error).toBeTruthy();
      expect(callsTo('/rebound')).toEqual([]);
    } finally {
      process.env.UNSAFE_TEST_ALLOW_HOSTS = 'localhost';
    }
  });
});
