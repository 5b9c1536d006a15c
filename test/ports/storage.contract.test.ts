import { randomBytes } from 'node:crypto';
import { CUSTOMER_BUCKET_PREFIX } from '../../shared/kernel/config';
import { type BucketRef, type CorsRule, storage } from '../../shared/ports/object-storage';
import { RESERVED_CORS_ID } from '../../shared/ports/object-storage/cors';

/**
 * The storage port's contract, on the local adapter and its real engine (the local S3 server):
 * what every route of the storage group relies on, answered as S3 answers it. The AWS adapter's
 * calls are held against S3's API in test/storage/aws-adapter.test.ts.
 */

const bucket: BucketRef = { name: `${CUSTOMER_BUCKET_PREFIX}contract-${randomBytes(5).toString('hex')}` };

async function upload(key: string, body: string, contentType = 'text/plain'): Promise<Response> {
  const size = Buffer.byteLength(body);
  const url = await storage().presignPut(bucket, key, { contentType, size, expiresIn: 60 });
  return fetch(url, { method: 'PUT', body, headers: { 'content-type': contentType } });
}

const errorName = (p: Promise<unknown>) =>
  p.then(
    () => 'no error',
    (err: Error) => err.name,
  );

beforeAll(async () => {
  await storage().createBucket(bucket.name);
});

describe('buckets', () => {
  it('makes a private bucket that exists and is listed under its prefix', async () => {
    expect(await storage().bucketExists(bucket.name)).toBe(true);
    expect((await storage().listBuckets(CUSTOMER_BUCKET_PREFIX)).map((b) => b.name)).toContain(bucket.name);
    expect(await storage().getPublicAccessBlocked(bucket)).toBe(true);
    expect(await storage().bucketExists(`${bucket.name}-none`)).toBe(false);
  });

  it('deletes only an empty bucket', async () => {
    const other = `${bucket.name}-del`;
    await storage().createBucket(other);
    await storage().putFolder({ name: other }, 'kept/');
    expect(await errorName(storage().deleteBucket(other))).toBe('BucketNotEmpty');
    await storage().deleteKeys({ name: other }, ['kept/']);
    await storage().deleteBucket(other);
    expect(await storage().bucketExists(other)).toBe(false);
  });
});

describe('files', () => {
  it('takes an upload through a presigned PUT and serves it through a presigned GET', async () => {
    expect((await upload('docs/a.txt', 'hello')).status).toBe(200);
    const info = await storage().headObject(bucket, 'docs/a.txt');
    expect(info).toMatchObject({ key: 'docs/a.txt', size: 5, contentType: 'text/plain' });
    const res = await fetch(await storage().presignGet(bucket, 'docs/a.txt', { expiresIn: 60, filename: 'a.txt' }));
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('hello');
    expect(res.headers.get('content-disposition')).toContain('a.txt');
  });

  it('refuses an expired link', async () => {
    const url = await storage().presignGet(bucket, 'docs/a.txt', {
      expiresIn: 60,
      signingDate: new Date(Date.now() - 3_600_000),
    });
    expect((await fetch(url)).status).toBe(403);
  });

  it('answers NotFound for a file that is not there', async () => {
    expect(await errorName(storage().headObject(bucket, 'docs/none.txt'))).toBe('NotFound');
  });

  it('lists a folder (sub-folders and files directly under it) a page at a time', async () => {
    await storage().putFolder(bucket, 'docs/empty/');
    for (const key of ['docs/b.txt', 'docs/c.txt', 'docs/deep/d.txt']) await upload(key, 'x');
    const seen: string[] = [];
    const folders = new Set<string>();
    let token: string | undefined;
    let pages = 0;
    do {
      const page = await storage().listFolder(bucket, { prefix: 'docs/', limit: 2, token });
      for (const f of page.folders) folders.add(f);
      seen.push(...page.files.map((f) => f.key));
      token = page.nextToken;
      pages++;
    } while (token && pages < 10);
    expect(pages).toBeGreaterThan(1);
    expect(seen.sort()).toEqual(['docs/a.txt', 'docs/b.txt', 'docs/c.txt']);
    expect([...folders].sort()).toEqual(['docs/deep/', 'docs/empty/']);
  });

  it('lists keys at any depth in key order, continued by token', async () => {
    const first = await storage().listKeys(bucket, 'docs/', 2);
    expect(first.truncated).toBe(true);
    const rest = await storage().listKeys(bucket, 'docs/', 1000, first.nextToken);
    const keys = [...first.keys, ...rest.keys].map((k) => k.key);
    expect(keys).toEqual(['docs/a.txt', 'docs/b.txt', 'docs/c.txt', 'docs/deep/d.txt', 'docs/empty/']);
    expect(rest.truncated).toBe(false);
  });

  it('deletes keys and counts them', async () => {
    const out = await storage().deleteKeys(bucket, ['docs/b.txt', 'docs/c.txt']);
    expect(out).toEqual({ deleted: 2, errors: [] });
    expect(await errorName(storage().headObject(bucket, 'docs/b.txt'))).toBe('NotFound');
  });
});

describe('versioning', () => {
  it('goes Disabled → Enabled → Suspended', async () => {
    expect(await storage().getVersioning(bucket)).toBe('Disabled');
    expect(await storage().setVersioning(bucket, true)).toBe('Enabled');
    expect(await storage().getVersioning(bucket)).toBe('Enabled');
    expect(await storage().setVersioning(bucket, false)).toBe('Suspended');
  });

  it('keeps an old version and a delete marker of a file deleted while on, until they are deleted', async () => {
    await storage().setVersioning(bucket, true);
    await upload('v/kept.txt', 'one');
    await storage().deleteKeys(bucket, ['v/kept.txt']);
    const { versions } = await storage().listOldVersions(bucket, 1000);
    const mine = versions.filter((v) => v.key === 'v/kept.txt');
    expect(mine.length).toBeGreaterThanOrEqual(2);
    expect((await storage().deleteVersions(bucket, mine)).deleted).toBe(mine.length);
    expect((await storage().listOldVersions(bucket, 1000)).versions.filter((v) => v.key === 'v/kept.txt')).toEqual([]);
    await storage().setVersioning(bucket, false);
  });
});

describe('settings', () => {
  it('replaces and reads back CORS rules', async () => {
    const rules: CorsRule[] = [
      { ID: 'web', AllowedMethods: ['GET'], AllowedOrigins: ['https://example.com'], MaxAgeSeconds: 60 },
      ...(await storage().getCors(bucket)).filter((r) => r.ID === RESERVED_CORS_ID),
    ];
    await storage().putCors(bucket, rules);
    expect(await storage().getCors(bucket)).toEqual(
      expect.arrayContaining(rules.map((r) => expect.objectContaining(r))),
    );
  });

  it('replaces, reads back and removes lifecycle rules', async () => {
    const rule = { ID: 'tmp', Status: 'Enabled' as const, Filter: { Prefix: 'tmp/' }, Expiration: { Days: 1 } };
    await storage().putLifecycle(bucket, [rule]);
    expect(await storage().getLifecycle(bucket)).toEqual([expect.objectContaining(rule)]);
    await storage().putLifecycle(bucket, []);
    expect(await storage().getLifecycle(bucket)).toEqual([]);
  });
});
