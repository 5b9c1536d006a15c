import { type FaultProxy, parseFaults, startFaultProxy } from '../../lib/local/faults';
import type { TestPlatform } from '../helpers/platform';

/**
 * The platform when what it stands on misbehaves: DynamoDB and S3 answer as AWS does when they
 * throttle, fail, stall or reset a connection after applying a write, through the local
 * platform's fault injector (lib/local/faults.ts, a proxy on the wire in front of each engine).
 * The SDK's own retries run as on AWS (shared/kernel/ground/sdk-settings.ts); what outlasts them
 * reaches the caller as the spec's backend-error table says, with Retry-After, never as a 500.
 */
let dynamo: FaultProxy;
let s3: FaultProxy;
let p: TestPlatform;
const saved = { dynamodb: process.env.AWS_ENDPOINT_URL_DYNAMODB, s3: process.env.AWS_ENDPOINT_URL_S3 };

beforeAll(async () => {
  dynamo = await startFaultProxy('dynamodb', saved.dynamodb as string);
  s3 = await startFaultProxy('s3', saved.s3 as string);
  // Set before this file's platform code loads: its SDK clients are made with these endpoints.
  process.env.AWS_ENDPOINT_URL_DYNAMODB = dynamo.endpoint;
  process.env.AWS_ENDPOINT_URL_S3 = s3.endpoint;
  const { TestPlatform } = await import('../helpers/platform');
  p = await TestPlatform.start();
});

afterAll(async () => {
  await p?.close();
  await Promise.all([dynamo?.stop(), s3?.stop()]);
  process.env.AWS_ENDPOINT_URL_DYNAMODB = saved.dynamodb;
  process.env.AWS_ENDPOINT_URL_S3 = saved.s3;
});

afterEach(() => {
  dynamo.set([]);
  s3.set([]);
});

const THROTTLED = { error: 'The backend is throttling requests. Try again in a moment.' };
const FAILED = { error: 'The backend request failed. Try again.' };
const slug = () => `faults-${Math.random().toString(36).slice(2, 10)}`;
const projects = () => `/v1/orgs/${p.org.orgId}/projects`;

describe('DynamoDB', () => {
  it('throttling that outlasts the SDK retries answers 429 with Retry-After', async () => {
    dynamo.set(parseFaults('dynamodb:Query:throttle'));
    const res = await p.get(projects());
    expect([res.status, res.body, res.headers.get('retry-after')]).toEqual([429, THROTTLED, '1']);
    // The SDK tried three times before giving up.
    expect(dynamo.injected['dynamodb:Query:throttle']).toBeGreaterThanOrEqual(3);
  });

  it('a throttle the SDK retries through is invisible to the caller', async () => {
    dynamo.set(parseFaults('dynamodb:Query:throttle:1:1'));
    const res = await p.get(projects());
    expect(res.status).toBe(200);
    expect(dynamo.injected['dynamodb:Query:throttle']).toBeGreaterThanOrEqual(1);
  });

  it('ThrottlingException answers 429 too', async () => {
    dynamo.set(parseFaults('dynamodb:Query:throttling'));
    const res = await p.get(projects());
    expect([res.status, res.body]).toEqual([429, THROTTLED]);
  });

  it('a transaction cancelled for ThrottlingError answers 429, not a conflict', async () => {
    dynamo.set(parseFaults('dynamodb:TransactWriteItems:transaction-throttle'));
    const res = await p.post(projects(), { name: 'Throttled', slug: slug() });
    expect([res.status, res.body, res.headers.get('retry-after')]).toEqual([429, THROTTLED, '1']);
  });

  it('a catalog whose seeding was throttled is not taken as seeded by another (it would read as empty)', async () => {
    // A catalog read the first time seeds it in a transaction; a throttled one wrote nothing, and
    // used to be read back as an empty catalog (every create then answered `Unknown location`).
    const { readCatalog } = await import('../../shared/kernel/plans/catalog');
    const pk = `CATALOG#faults-${Math.random().toString(36).slice(2)}`;
    const seed = () => [{ sk: 'ENTRY#a', id: 'a' }];
    dynamo.set(parseFaults('dynamodb:TransactWriteItems:transaction-throttle'));
    await expect(readCatalog(pk, seed)).rejects.toMatchObject({ name: 'TransactionCanceledException' });
    dynamo.set([]);
    expect(await readCatalog<{ id: string }>(pk, seed)).toMatchObject([{ id: 'a' }]);
  });

  it('an internal error answers 502 with Retry-After, never the backend message', async () => {
    dynamo.set(parseFaults('dynamodb:Query:internal'));
    const res = await p.get(projects());
    expect([res.status, res.body, res.headers.get('retry-after')]).toEqual([502, FAILED, '2']);
  });

  it('a stalled engine answers 502 once the timeouts run out, never hangs', async () => {
    dynamo.set(parseFaults('dynamodb:Query:timeout'));
    const res = await p.get(projects());
    expect([res.status, res.body]).toEqual([502, FAILED]);
    expect(dynamo.injected['dynamodb:Query:timeout']).toBe(3);
  }, 60_000);

  it('a project created when the connection reset after the write is created once, and the caller is told so', async () => {
    // The transaction is applied, the answer lost; the SDK repeats it with the same client request
    // token, which DynamoDB takes as the same transaction, not a second one.
    dynamo.set(parseFaults('dynamodb:TransactWriteItems:reset-after-write:1:1'));
    const s = slug();
    const res = await p.post(projects(), { name: 'Reset', slug: s });
    expect(dynamo.injected['dynamodb:TransactWriteItems:reset-after-write']).toBe(1);
    expect(res.status).toBe(201);
    const list = await p.get(projects());
    expect(list.body.projects.filter((x: { slug: string }) => x.slug === s)).toHaveLength(1);
  });
});

describe('S3', () => {
  it('SlowDown that outlasts the SDK retries answers 429; a 500 answers 502', async () => {
    const { newBucket } = await import('../storage/helpers');
    const bucket = await newBucket(p.org.orgId);
    const base = `/v1/orgs/${p.org.orgId}/storage/${bucket.resource.resourceId}`;
    s3.set(parseFaults('s3:GET:throttle'));
    const slow = await p.get(`${base}/objects`);
    expect([slow.status, slow.body, slow.headers.get('retry-after')]).toEqual([429, THROTTLED, '1']);
    s3.set(parseFaults('s3:GET:internal'));
    const failed = await p.get(`${base}/objects`);
    expect([failed.status, failed.body, failed.headers.get('retry-after')]).toEqual([502, FAILED, '2']);
    s3.set([]);
    expect((await p.get(`${base}/objects`)).status).toBe(200);
  });
});

describe('S3 through presigned links', () => {
  // Page content travels by presigned links (no SDK): a refusal or a failed connection is tried
  // again, and what outlasts the tries is the table's answer. Before, a page save met by SlowDown
  // answered 500 (a tracker export past 4 MB, a commit's upload, a mail object: the same path).
  it('SlowDown on a page save answers 429; a 500 answers 502; a read refused past its tries, 502; nothing half-made', async () => {
    process.env.ARTIFACTS_BUCKET = `faults-${Date.now().toString(36)}`;
    const { storage } = await import('../../shared/ports/object-storage');
    await storage().createBucket(process.env.ARTIFACTS_BUCKET);
    const pages = `/v1/orgs/${p.org.orgId}/pages`;
    s3.set(parseFaults('s3:PUT:throttle'));
    const slow = await p.post(pages, { title: 'Slow', content: '# Slow' });
    expect([slow.status, slow.body, slow.headers.get('retry-after')]).toEqual([429, THROTTLED, '1']);
    expect(s3.injected['s3:PUT:throttle']).toBeGreaterThanOrEqual(3);
    s3.set(parseFaults('s3:PUT:internal'));
    const failed = await p.post(pages, { title: 'Failed', content: '# Failed' });
    expect([failed.status, failed.body, failed.headers.get('retry-after')]).toEqual([502, FAILED, '2']);
    s3.set([]);
    const titles = (await p.get(pages)).body.pages.map((x: { title: string }) => x.title);
    expect(titles).not.toContain('Slow');
    expect(titles).not.toContain('Failed');
    // One refusal is tried through: the caller sees the page.
    s3.set(parseFaults('s3:PUT:unavailable:1:1'));
    const made = await p.post(pages, { title: 'Made', content: '# Made' });
    expect(made.status).toBe(201);
    s3.set(parseFaults('s3:GET:unavailable'));
    const read = await p.get(`${pages}/${made.body.page.pageId}`);
    expect([read.status, read.body, read.headers.get('retry-after')]).toEqual([502, FAILED, '2']);
    s3.set([]);
    expect((await p.get(`${pages}/${made.body.page.pageId}`)).body.content).toBe('# Made');
  });
});

describe('the fault rules', () => {
  it('parse from PLATFORM_FAULTS, and a wrong one is refused with the form', () => {
    expect(parseFaults('dynamodb:Query:throttle:0.5:10, s3:*:unavailable')).toEqual([
      { service: 'dynamodb', operation: 'Query', fault: 'throttle', rate: 0.5, times: 10 },
      { service: 's3', operation: '*', fault: 'unavailable' },
    ]);
    expect(() => parseFaults('dynamo:Query:throttle')).toThrow(/service:operation:fault/);
    expect(() => parseFaults('dynamodb:Query:explode')).toThrow(/service:operation:fault/);
  });
});
