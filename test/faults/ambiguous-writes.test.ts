import { join } from 'node:path';
import { type FaultProxy, parseFaults, startFaultProxy } from '../../lib/local/faults';
import type { Deployments } from '../deployments/helpers';
import { tarOfDir } from '../fixtures/tar';
import type { TestPlatform } from '../helpers/platform';

/**
 * The ambiguous write: DynamoDB applies a create, the connection resets before the answer, and
 * the SDK sends the same call again. A transaction is repeated with the same client request token
 * (DynamoDB takes it as the same one); a single conditional put finds the item it wrote itself
 * and takes it as its own success. Either way the caller whose write succeeded is answered 201,
 * once, and the record exists once, never 409 `already exists` for its own write.
 */
let dynamo: FaultProxy;
let p: TestPlatform;
let env: Deployments;
const saved = process.env.AWS_ENDPOINT_URL_DYNAMODB;

beforeAll(async () => {
  dynamo = await startFaultProxy('dynamodb', saved as string);
  // Set before this file's platform code loads: its SDK clients are made with this endpoint.
  process.env.AWS_ENDPOINT_URL_DYNAMODB = dynamo.endpoint;
  const { TestPlatform } = await import('../helpers/platform');
  const { startDeployments } = await import('../deployments/helpers');
  p = await TestPlatform.start();
  env = await startDeployments({ workers: false });
});

afterAll(async () => {
  await env?.close();
  await p?.close();
  await dynamo?.stop();
  process.env.AWS_ENDPOINT_URL_DYNAMODB = saved;
});

afterEach(() => dynamo.set([]));

const name = (base: string) => `${base}-${Math.random().toString(36).slice(2, 8)}`;
const org = () => `/v1/orgs/${p.org.orgId}`;

/** Runs `create` with the first write of `rule`'s kind applied, then its answer lost. */
async function afterReset<T>(rule: string, create: () => Promise<T>): Promise<T> {
  const counted = `dynamodb:${rule.split(':')[1]}:reset-after-write`;
  const before = dynamo.injected[counted] ?? 0;
  dynamo.set(parseFaults(rule));
  const out = await create();
  expect((dynamo.injected[counted] ?? 0) - before).toBe(1);
  dynamo.set([]);
  return out;
}

describe('a create whose transaction was applied, then reset', () => {
  const rule = 'dynamodb:TransactWriteItems:reset-after-write:1:1';

  it.each(['dynamodb:TransactWriteItems:reset-after-write:1:1', 'dynamodb:PutItem:reset-after-write:1:1'])(
    'a repository: 201 once, listed once (%s)',
    async (rule) => {
      const repo = name('repo');
      const res = await afterReset(rule, () => p.post(`${org()}/repos`, { name: repo }));
      expect([res.status, res.text]).toEqual([201, expect.any(String)]);
      const list = await p.get(`${org()}/resources?type=repository`);
      expect(list.body.resources.filter((r: { name: string }) => r.name === repo)).toHaveLength(1);
    },
  );

  it.each(['database', 'bucket'])('a %s: 201 once, listed once', async (type) => {
    const resource = name(type.slice(0, 2));
    const res = await afterReset(rule, () => p.post(`${org()}/resources`, { type, name: resource }));
    expect([res.status, res.text]).toEqual([201, expect.any(String)]);
    const list = await p.get(`${org()}/resources?type=${type}`);
    expect(list.body.resources.filter((r: { name: string }) => r.name === resource)).toHaveLength(1);
  });

  it.each(['dynamodb:TransactWriteItems:reset-after-write:1:1', 'dynamodb:PutItem:reset-after-write:1:1'])(
    'a tracker issue: 201 once, one issue (%s)',
    async (rule) => {
      const key = `S${Math.random().toString(36).slice(2, 6).toUpperCase().replace(/[0-9]/g, 'Q')}`;
      expect((await p.post(`${org()}/issues/spaces`, { key, name: 'Faults', template: 'kanban' })).status).toBe(201);
      const res = await afterReset(rule, () => p.post(`${org()}/issues`, { space: key, summary: 'Once' }));
      expect([res.status, res.text]).toEqual([201, expect.any(String)]);
      const list = await p.get(`${org()}/issues?jql=${encodeURIComponent(`space = ${key}`)}`);
      expect(list.body.issues.map((i: { summary: string }) => i.summary)).toEqual(['Once']);
    },
  );

  it('a deployment: 201 once, one deployment', async () => {
    const { newProject, upload } = await import('../deployments/helpers');
    const { projectId } = await newProject(p, 'static');
    const uploadId = await upload(p, projectId, tarOfDir(join(__dirname, '..', 'fixtures', 'static-site')));
    const res = await afterReset(rule, () =>
      p.post(`${org()}/projects/${projectId}/deployments`, { source: 'upload', uploadId, target: 'preview' }),
    );
    expect([res.status, res.text]).toEqual([201, expect.any(String)]);
    const list = await p.get(`${org()}/deployments?projectId=${projectId}`);
    expect(list.body.deployments).toHaveLength(1);
  });
});

describe('a create that is one conditional put', () => {
  it('a contact: 201 once, one contact (its own put, repeated, is not taken for another)', async () => {
    const { mailboxFor } = await import('../mail/helpers');
    const { mailboxId } = await mailboxFor(p, [p.owner.userId]);
    const base = `${org()}/mail/mailboxes/${mailboxId}`;
    const book = (await p.get(`${base}/address-books`)).body.addressBooks[0].addressBookId as string;
    const res = await afterReset('dynamodb:PutItem:reset-after-write:1:1', () =>
      p.post(`${base}/address-books/${book}/contacts`, { fullName: 'Ada Once' }),
    );
    expect([res.status, res.text]).toEqual([201, expect.any(String)]);
    const list = await p.get(`${base}/contacts`);
    expect(list.body.contacts.map((c: { fullName: string }) => c.fullName)).toEqual(['Ada Once']);
  });
});

describe('an Idempotency-Key across the SDK retry of its own claim', () => {
  it('the request runs once (201), and a repeat replays it', async () => {
    const slug = name('idem');
    const send = () =>
      p.post(`${org()}/projects`, { name: 'Idem', slug }, { headers: { 'idempotency-key': `key-${slug}` } });
    // The claim is the request's first single put.
    const first = await afterReset('dynamodb:PutItem:reset-after-write:1:1', send);
    expect([first.status, first.text]).toEqual([201, expect.any(String)]);
    const again = await send();
    expect([again.status, again.headers.get('idempotent-replayed')]).toEqual([201, 'true']);
    expect(again.body).toEqual(first.body);
    const list = await p.get(`${org()}/projects`);
    expect(list.body.projects.filter((x: { slug: string }) => x.slug === slug)).toHaveLength(1);
  });

  it('a throttled answer (429) is not kept: the repeat runs the request', async () => {
    const slug = name('idem');
    const send = () =>
      p.post(`${org()}/projects`, { name: 'Idem', slug }, { headers: { 'idempotency-key': `key-${slug}` } });
    dynamo.set(parseFaults('dynamodb:TransactWriteItems:transaction-throttle'));
    expect((await send()).status).toBe(429);
    dynamo.set([]);
    const again = await send();
    expect([again.status, again.headers.get('idempotent-replayed')]).toEqual([201, null]);
  });
});

describe("a worker's claim of a try (a webhook's or a callback's POST), applied, then reset", () => {
  it('is taken as its own (true) across the SDK repeat; a second claim of the same try is refused', async () => {
    const { claimTry } = await import('../../shared/kernel/store/ops');
    const key = { pk: `TEST#${name('claim')}`, sk: 'claim' };
    const claim = { tryNumber: 0, condition: 'attribute_not_exists(done)', values: {} };
    expect(await afterReset('dynamodb:UpdateItem:reset-after-write:1:1', () => claimTry(key, claim))).toBe(true);
    expect(await claimTry(key, claim)).toBe(false);
    // The next try is another claim.
    expect(await claimTry(key, { ...claim, tryNumber: 1 })).toBe(true);
  });
});
