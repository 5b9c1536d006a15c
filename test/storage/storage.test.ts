import { PutObjectCommand } from '@aws-sdk/client-s3';
import { handler as usageJob } from '../../functions/workers/storage-usage';
import { metrics } from '../../shared/ports/metrics';
import { storage } from '../../shared/ports/object-storage';
import { putLegalHold } from '../../shared/ports/object-storage/local';
import { TestPlatform } from '../helpers/platform';
import { newBucket, putFiles, s3 } from './helpers';

let p: TestPlatform;
let bucket: Awaited<ReturnType<typeof newBucket>>;
let base: string;
const q = (key: string) => `key=${encodeURIComponent(key)}`;

beforeAll(async () => {
  p = await TestPlatform.start();
  bucket = await newBucket(p.org.orgId, p.owner.userId);
  base = `/v1/orgs/${p.org.orgId}/storage/${bucket.resource.resourceId}`;
});
afterAll(() => p.close());

describe('buckets', () => {
  it('lists the organization buckets with usage, null until the daily job ran', async () => {
    const res = await p.get(`/v1/orgs/${p.org.orgId}/storage`);
    expect(res.status).toBe(200);
    const found = res.body.buckets.find((b: { resourceId: string }) => b.resourceId === bucket.resource.resourceId);
    expect(found).toMatchObject({ type: 'bucket', physicalName: bucket.ref.name, usage: null });
    expect(found.version).toBeUndefined();
  });

  it('answers a bucket with its versioning and usage', async () => {
    const res = await p.get(base);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      bucket: expect.objectContaining({ resourceId: bucket.resource.resourceId, physicalName: bucket.ref.name }),
      versioning: 'Disabled',
      usage: null,
    });
  });

  it('answers 404 Bucket not found on every route for an unknown or foreign bucket', async () => {
    const other = await p.newOrg();
    const foreign = await newBucket(other.org.orgId);
    for (const id of ['res_unknown', foreign.resource.resourceId]) {
      const b = `/v1/orgs/${p.org.orgId}/storage/${id}`;
      const calls = [
        p.get(b),
        p.get(`${b}/objects`),
        p.get(`${b}/object?key=a`),
        p.get(`${b}/download?key=a`),
        p.post(`${b}/uploads`, { files: [{ key: 'a', contentType: '', size: 1 }] }),
        p.post(`${b}/folders`, { name: 'x' }),
        p.post(`${b}/objects/delete`, { keys: ['a'] }),
        p.get(`${b}/settings`),
        p.put(`${b}/cors`, { rules: [] }),
        p.put(`${b}/versioning`, { enabled: true }),
        p.post(`${b}/lifecycle`, { days: 1 }),
        p.delete(`${b}/lifecycle/platform-x`),
        p.delete(b),
      ];
      for (const res of await Promise.all(calls)) {
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ error: 'Bucket not found' });
      }
    }
  });
});

describe('uploads and downloads', () => {
  it('uploads with the returned link and headers, and downloads the same bytes', async () => {
    const body = 'hello, bucket';
    const res = await p.post(`${base}/uploads`, {
      files: [
        { key: 'docs/hello.txt', contentType: 'text/plain', size: Buffer.byteLength(body) },
        { key: 'docs/raw.bin', contentType: '', size: 3 },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.expiresIn).toBe(900);
    const [link, raw] = res.body.uploads;
    expect(link).toEqual({ key: 'docs/hello.txt', url: expect.any(String), contentType: 'text/plain' });
    // No declared type: the link is bound to S3's default, and says so.
    expect(raw).toMatchObject({ key: 'docs/raw.bin', contentType: 'application/octet-stream' });
    const put = await fetch(link.url, { method: 'PUT', headers: { 'content-type': link.contentType }, body });
    expect(put.status).toBe(200);

    const info = await p.get(`${base}/object?${q('docs/hello.txt')}`);
    expect(info.status).toBe(200);
    expect(info.body.object).toMatchObject({
      key: 'docs/hello.txt',
      size: body.length,
      contentType: 'text/plain',
      storageClass: 'STANDARD',
      metadata: {},
    });

    const dl = await p.get(`${base}/download?${q('docs/hello.txt')}`);
    expect(dl.status).toBe(200);
    expect(dl.body).toEqual({ url: expect.any(String), expiresIn: 300 });
    const got = await fetch(dl.body.url);
    expect(got.status).toBe(200);
    expect(await got.text()).toBe(body);
    expect(got.headers.get('content-disposition')).toContain('attachment; filename="hello.txt"');
  });

  it('binds a link to the declared content type and size: S3 refuses other ones', async () => {
    const res = await p.post(`${base}/uploads`, {
      files: [{ key: 'docs/bound.json', contentType: 'application/json', size: 2 }],
    });
    const { url } = res.body.uploads[0];
    const params = new URL(url).searchParams;
    expect(params.get('X-Amz-SignedHeaders')?.split(';')).toEqual(['content-length', 'content-type', 'host']);
    expect(params.get('X-Amz-Expires')).toBe('900');
    // No checksum of an empty body rides along (S3 would refuse every real upload with it).
    expect([...params.keys()].some((k) => k.toLowerCase().startsWith('x-amz-checksum'))).toBe(false);
    // The local S3 server checks presigned links as S3 does (lib/local/s3-server.ts).
    const send = (contentType: string, body: string) =>
      fetch(url, { method: 'PUT', headers: { 'content-type': contentType }, body });
    const wrongType = await send('text/html', '{}');
    expect(wrongType.status).toBe(403);
    expect(await wrongType.text()).toContain('SignatureDoesNotMatch');
    const wrongSize = await send('application/json', '{ }');
    expect(wrongSize.status).toBe(403);
    const right = await send('application/json', '{}');
    expect(right.status).toBe(200);
  });

  it('refuses an expired upload or download link', async () => {
    const past = new Date(Date.now() - 16 * 60 * 1000);
    const up = await storage().presignPut(bucket.ref, 'docs/late.txt', {
      contentType: 'text/plain',
      size: 4,
      expiresIn: 900,
      signingDate: past,
    });
    const put = await fetch(up, { method: 'PUT', headers: { 'content-type': 'text/plain' }, body: 'late' });
    expect(put.status).toBe(403);
    expect(await put.text()).toContain('Request has expired');
    const head = await p.get(`${base}/object?${q('docs/late.txt')}`);
    expect(head.status).toBe(404);

    const down = await storage().presignGet(bucket.ref, 'docs/hello.txt', {
      expiresIn: 300,
      signingDate: new Date(Date.now() - 6 * 60 * 1000),
    });
    const got = await fetch(down);
    expect(got.status).toBe(403);
    expect(await got.text()).toContain('Request has expired');
  });

  it('refuses file names ending with / and files over 5 GB', async () => {
    const slash = await p.post(`${base}/uploads`, { files: [{ key: 'docs/', contentType: '', size: 0 }] });
    expect(slash.status).toBe(400);
    expect(slash.body).toEqual({ error: "File names can't end with /." });
    const big = await p.post(`${base}/uploads`, {
      files: [
        { key: 'ok.bin', contentType: 'application/octet-stream', size: 5 * 1024 ** 3 },
        { key: 'video/huge.mp4', contentType: 'video/mp4', size: 5 * 1024 ** 3 + 1 },
      ],
    });
    expect(big.status).toBe(413);
    expect(big.body).toEqual({ error: 'video/huge.mp4 is larger than 5 GB.' });
  });

  it('validates the upload body', async () => {
    for (const files of [
      [],
      [{ key: 'a.txt', contentType: 'text', size: 1 }],
      [{ key: 'a.txt', contentType: 'text/plain', size: -1 }],
      [{ key: '', contentType: 'text/plain', size: 1 }],
      [{ key: 'k'.repeat(1025), contentType: 'text/plain', size: 1 }],
    ]) {
      const res = await p.post(`${base}/uploads`, { files });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('Invalid request');
    }
    const withCharset = await p.post(`${base}/uploads`, {
      files: [{ key: 'a.txt', contentType: 'text/plain; charset=utf-8', size: 1 }],
    });
    expect(withCharset.status).toBe(200);
  });

  it('answers File not found. for a missing file, and refuses to download a folder', async () => {
    const info = await p.get(`${base}/object?${q('nope.txt')}`);
    expect(info.status).toBe(404);
    expect(info.body).toEqual({ error: 'File not found.' });
    const dl = await p.get(`${base}/download?${q('nope.txt')}`);
    expect(dl.status).toBe(404);
    expect(dl.body).toEqual({ error: 'File not found.' });
    const folder = await p.get(`${base}/download?${q('docs/')}`);
    expect(folder.status).toBe(400);
    expect(folder.body).toEqual({ error: "Folders can't be downloaded." });
    const noKey = await p.get(`${base}/download`);
    expect(noKey.status).toBe(400);
  });

  it("answers a file's metadata", async () => {
    await s3.send(
      new PutObjectCommand({
        Bucket: bucket.ref.name,
        Key: 'meta/report.csv',
        Body: 'a,b\n1,2\n',
        ContentType: 'text/csv',
        CacheControl: 'max-age=60',
        ContentDisposition: 'inline',
        ContentEncoding: 'identity',
        Metadata: { owner: 'ada' },
      }),
    );
    const res = await p.get(`${base}/object?${q('meta/report.csv')}`);
    expect(res.status).toBe(200);
    expect(res.body.object).toEqual({
      key: 'meta/report.csv',
      size: 8,
      contentType: 'text/csv',
      lastModified: expect.any(Number),
      etag: expect.stringMatching(/^[0-9a-f]{32}$/),
      storageClass: 'STANDARD',
      cacheControl: 'max-age=60',
      contentDisposition: 'inline',
      contentEncoding: 'identity',
      metadata: { owner: 'ada' },
    });
  });
});

describe('folders and listing', () => {
  beforeAll(async () => {
    await putFiles(bucket.ref.name, ['list/a.txt', 'list/b.txt', 'list/c.txt', 'list/d.txt', 'list/sub/x.txt']);
  });

  it('creates a folder', async () => {
    const res = await p.post(`${base}/folders`, { prefix: 'list/', name: 'empty' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ key: 'list/empty/' });
    const top = await p.post(`${base}/folders`, { name: 'top' });
    expect(top.status).toBe(201);
    expect(top.body).toEqual({ key: 'top/' });
    const inside = await p.get(`${base}/objects?prefix=${encodeURIComponent('top/')}`);
    expect(inside.body).toEqual({ prefix: 'top/', folders: [], files: [], cursor: null });
  });

  it('refuses a folder path without / and a folder name with /', async () => {
    const path = await p.post(`${base}/folders`, { prefix: 'list', name: 'x' });
    expect(path.status).toBe(400);
    expect(path.body).toEqual({ error: 'Folder paths end with /.' });
    const name = await p.post(`${base}/folders`, { prefix: 'list/', name: 'a/b' });
    expect(name.status).toBe(400);
    expect(name.body).toEqual({ error: "Folder names can't contain /." });
    const empty = await p.post(`${base}/folders`, { prefix: 'list/', name: '' });
    expect(empty.status).toBe(400);
  });

  it('lists a folder as folders and files', async () => {
    const res = await p.get(`${base}/objects?prefix=${encodeURIComponent('list/')}`);
    expect(res.status).toBe(200);
    expect(res.body.prefix).toBe('list/');
    expect(res.body.folders).toEqual(['list/empty/', 'list/sub/']);
    expect(res.body.files.map((f: { key: string }) => f.key)).toEqual([
      'list/a.txt',
      'list/b.txt',
      'list/c.txt',
      'list/d.txt',
    ]);
    expect(res.body.files[0]).toEqual({
      key: 'list/a.txt',
      size: 1,
      lastModified: expect.any(Number),
      etag: expect.any(String),
      storageClass: 'STANDARD',
    });
    expect(res.body.cursor).toBeNull();
    const top = await p.get(`${base}/objects`);
    expect(top.body.prefix).toBe('');
    expect(top.body.folders).toEqual(expect.arrayContaining(['docs/', 'list/', 'meta/', 'top/']));
  });

  it('pages with a signed cursor bound to the folder', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const after: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
      const url = `${base}/objects?prefix=list%2F&limit=2${after}`;
      const res = await p.get(url);
      expect(res.status).toBe(200);
      const entries = [...res.body.folders, ...res.body.files.map((f: { key: string }) => f.key)];
      expect(entries.length).toBeLessThanOrEqual(2);
      seen.push(...entries);
      cursor = res.body.cursor;
      pages++;
    } while (cursor && pages < 10);
    expect(pages).toBe(3);
    expect(seen.sort()).toEqual(['list/a.txt', 'list/b.txt', 'list/c.txt', 'list/d.txt', 'list/empty/', 'list/sub/']);

    const first = await p.get(`${base}/objects?prefix=list%2F&limit=2`);
    const other = await p.get(`${base}/objects?prefix=docs%2F&cursor=${encodeURIComponent(first.body.cursor)}`);
    expect(other.status).toBe(400);
    expect(other.body).toEqual({ error: 'Invalid page cursor. Run the request again.' });
    const forged = await p.get(`${base}/objects?prefix=list%2F&cursor=abc.def`);
    expect(forged.status).toBe(400);
  });

  it('refuses a folder path without / and a bad limit', async () => {
    const res = await p.get(`${base}/objects?prefix=list`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'Folder paths end with /.' });
    for (const limit of ['0', '1.5', 'x']) {
      expect((await p.get(`${base}/objects?limit=${limit}`)).status).toBe(400);
    }
  });
});

describe('objects/delete', () => {
  it('deletes files and folders with their contents', async () => {
    await putFiles(bucket.ref.name, ['trash/1.txt', 'trash/deep/2.txt', 'trash/deep/3.txt', 'loose.txt']);
    const res = await p.post(`${base}/objects/delete`, { keys: ['loose.txt'], prefixes: ['trash/'] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ deleted: 4, done: true });
    const top = await p.get(`${base}/objects`);
    expect(top.body.folders).not.toContain('trash/');
    expect(top.body.files.map((f: { key: string }) => f.key)).not.toContain('loose.txt');
  });

  it('refuses nothing, the whole bucket and folder paths without /', async () => {
    const cases: [unknown, string][] = [
      [{}, 'Nothing to delete.'],
      [{ keys: [], prefixes: [] }, 'Nothing to delete.'],
      [{ prefixes: [''] }, 'Pick folders to delete, not the whole bucket.'],
      [{ prefixes: ['docs/', '/'] }, 'Pick folders to delete, not the whole bucket.'],
      [{ prefixes: ['docs'] }, 'Folder paths end with /.'],
    ];
    for (const [body, error] of cases) {
      const res = await p.post(`${base}/objects/delete`, body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error });
    }
    const tooMany = await p.post(`${base}/objects/delete`, {
      prefixes: Array.from({ length: 101 }, (_, i) => `f${i}/`),
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error).toBe('Invalid request');
  });

  it('answers 409 for files S3 refuses to delete, after deleting the others', async () => {
    await putFiles(bucket.ref.name, ['held/locked.txt', 'held/free.txt']);
    await putLegalHold(bucket.ref, 'held/locked.txt', true);
    const res = await p.post(`${base}/objects/delete`, { prefixes: ['held/'] });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      error: "Couldn't delete 1 file: Access Denied because object protected by object lock.",
    });
    const left = await p.get(`${base}/objects?prefix=held%2F`);
    expect(left.body.files.map((f: { key: string }) => f.key)).toEqual(['held/locked.txt']);
    await putLegalHold(bucket.ref, 'held/locked.txt', false);
    const again = await p.post(`${base}/objects/delete`, { keys: ['held/locked.txt'] });
    expect(again.body).toEqual({ deleted: 1, done: true });
  });
});

describe('settings', () => {
  it('answers the settings, the platform upload rule kept apart', async () => {
    const res = await p.get(`${base}/settings`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      versioning: 'Disabled',
      cors: [],
      cloudCors: expect.objectContaining({ ID: 'reserved-uploads', AllowedMethods: expect.arrayContaining(['PUT']) }),
      lifecycle: [],
      publicAccessBlocked: true,
    });
  });

  it('replaces the CORS rules and keeps the upload rule', async () => {
    const rules = [
      {
        ID: 'site',
        AllowedOrigins: ['https://example.com'],
        AllowedMethods: ['GET', 'HEAD'],
        AllowedHeaders: ['*'],
        ExposeHeaders: ['ETag'],
        MaxAgeSeconds: 600,
      },
      { AllowedOrigins: ['https://app.example.com'], AllowedMethods: ['PUT'] },
    ];
    const res = await p.put(`${base}/cors`, { rules });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ cors: rules });
    const settings = await p.get(`${base}/settings`);
    expect(settings.body.cors).toEqual(rules);
    expect(settings.body.cloudCors.ID).toBe('reserved-uploads');
    // The S3 server answers a browser's preflight with the customer's rule.
    const preflight = await fetch(`${process.env.AWS_ENDPOINT_URL_S3}/${bucket.ref.name}/docs/hello.txt`, {
      method: 'OPTIONS',
      headers: { origin: 'https://example.com', 'access-control-request-method': 'GET' },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBeTruthy();

    const cleared = await p.put(`${base}/cors`, { rules: [] });
    expect(cleared.body).toEqual({ cors: [] });
    expect((await p.get(`${base}/settings`)).body.cloudCors.ID).toBe('reserved-uploads');
  });

  it('refuses the reserved rule ID and invalid rules', async () => {
    const reserved = await p.put(`${base}/cors`, {
      rules: [{ ID: 'reserved-uploads', AllowedOrigins: ['*'], AllowedMethods: ['GET'] }],
    });
    expect(reserved.status).toBe(400);
    expect(reserved.body).toEqual({ error: 'reserved-uploads is reserved for the service uploads.' });
    for (const rule of [
      { AllowedOrigins: [], AllowedMethods: ['GET'] },
      { AllowedOrigins: ['*'], AllowedMethods: [] },
      { AllowedOrigins: ['*'], AllowedMethods: ['PATCH'] },
      { AllowedOrigins: ['*'], AllowedMethods: ['GET'], MaxAgeSeconds: 604801 },
      { AllowedOrigins: Array.from({ length: 51 }, (_, i) => `https://${i}.example.com`), AllowedMethods: ['GET'] },
    ]) {
      const res = await p.put(`${base}/cors`, { rules: [rule] });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('Invalid request');
    }
    expect((await p.put(`${base}/cors`, {})).status).toBe(400);
  });

  it('turns versioning on and suspends it', async () => {
    const on = await p.put(`${base}/versioning`, { enabled: true });
    expect(on.status).toBe(200);
    expect(on.body).toEqual({ versioning: 'Enabled' });
    expect((await p.get(base)).body.versioning).toBe('Enabled');
    const off = await p.put(`${base}/versioning`, { enabled: false });
    expect(off.body).toEqual({ versioning: 'Suspended' });
    expect((await p.get(`${base}/settings`)).body.versioning).toBe('Suspended');
    expect((await p.put(`${base}/versioning`, {})).status).toBe(400);
  });
});

describe('lifecycle', () => {
  let lc: Awaited<ReturnType<typeof newBucket>>;
  let lcBase: string;
  beforeAll(async () => {
    lc = await newBucket(p.org.orgId);
    lcBase = `/v1/orgs/${p.org.orgId}/storage/${lc.resource.resourceId}`;
  });

  it('adds rules, marks rules the platform did not write, and deletes them', async () => {
    // A rule written outside the platform (by an operator, say).
    await storage().putLifecycle(lc.ref, [
      { ID: 'ops-archive', Filter: { Prefix: 'archive/' }, Status: 'Disabled', Expiration: { Days: 400 } },
    ]);
    const res = await p.post(`${lcBase}/lifecycle`, { prefix: 'logs/', days: 30, noncurrentDays: 7 });
    expect(res.status).toBe(201);
    expect(res.body.rule).toEqual({
      id: expect.stringMatching(/^platform-/),
      prefix: 'logs/',
      enabled: true,
      expirationDays: 30,
      noncurrentDays: 7,
      other: false,
    });
    expect(res.body.lifecycle).toEqual([
      { id: 'ops-archive', prefix: 'archive/', enabled: false, expirationDays: 400, other: true },
      res.body.rule,
    ]);
    const whole = await p.post(`${lcBase}/lifecycle`, { days: 3650 });
    expect(whole.status).toBe(201);
    expect(whole.body.rule).toMatchObject({ prefix: '', expirationDays: 3650, other: false });
    expect(whole.body.rule.noncurrentDays).toBeUndefined();

    const settings = await p.get(`${lcBase}/settings`);
    expect(settings.body.lifecycle).toHaveLength(3);

    const del = await p.delete(`${lcBase}/lifecycle/${res.body.rule.id}`);
    expect(del.status).toBe(200);
    expect(del.body.lifecycle.map((r: { id: string }) => r.id)).toEqual(['ops-archive', whole.body.rule.id]);
    const again = await p.delete(`${lcBase}/lifecycle/${res.body.rule.id}`);
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ error: 'Rule not found' });
  });

  it('validates days', async () => {
    for (const body of [{}, { days: 0 }, { days: 3651 }, { days: 1.5 }, { days: 5, noncurrentDays: 0 }]) {
      const res = await p.post(`${lcBase}/lifecycle`, body);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('Invalid request');
    }
  });

  it('loses no rule to concurrent adds and deletes: every 201 is a stored rule', async () => {
    const own = await newBucket(p.org.orgId);
    const base = `/v1/orgs/${p.org.orgId}/storage/${own.resource.resourceId}`;
    const adds = await Promise.all(
      Array.from({ length: 10 }, (_, i) => p.post(`${base}/lifecycle`, { prefix: `race-${i}/`, days: 1 + i })),
    );
    expect(adds.map((r) => r.status)).toEqual(Array(10).fill(201));
    const stored = (await p.get(`${base}/settings`)).body.lifecycle.map((r: { id: string }) => r.id).sort();
    expect(stored).toEqual(adds.map((r) => r.body.rule.id).sort());
    const deletes = await Promise.all(adds.slice(0, 5).map((r) => p.delete(`${base}/lifecycle/${r.body.rule.id}`)));
    expect(deletes.map((r) => r.status)).toEqual(Array(5).fill(200));
    const left = (await p.get(`${base}/settings`)).body.lifecycle.map((r: { id: string }) => r.id).sort();
    expect(left).toEqual(
      adds
        .slice(5)
        .map((r) => r.body.rule.id)
        .sort(),
    );
  });

  it('allows 50 rules per bucket', async () => {
    const have = (await p.get(`${lcBase}/settings`)).body.lifecycle.length;
    for (let i = have; i < 50; i++) {
      expect((await p.post(`${lcBase}/lifecycle`, { prefix: `p${i}/`, days: 1 })).status).toBe(201);
    }
    const res = await p.post(`${lcBase}/lifecycle`, { prefix: 'one-more/', days: 1 });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: 'A bucket can have 50 rules here.' });
  });
});

describe('usage', () => {
  it('is measured by the daily job', async () => {
    const ub = await newBucket(p.org.orgId);
    await putFiles(ub.ref.name, ['a.txt', 'b/c.txt', 'b/d.txt'], 'four');
    const before = await p.get(`/v1/orgs/${p.org.orgId}/storage/${ub.resource.resourceId}`);
    expect(before.body.usage).toBeNull();
    expect(await usageJob({ buckets: [ub.ref.name] })).toEqual({ measured: 1, failed: 0 });
    const after = await p.get(`/v1/orgs/${p.org.orgId}/storage/${ub.resource.resourceId}`);
    expect(after.body.usage).toEqual({ sizeBytes: 12, objects: 3, at: expect.any(Number) });
    const list = await p.get(`/v1/orgs/${p.org.orgId}/storage`);
    const listed = list.body.buckets.find((b: { resourceId: string }) => b.resourceId === ub.resource.resourceId);
    expect(listed.usage).toEqual(after.body.usage);
    expect(await metrics().bucketUsage(ub.ref, 42)).toEqual({ sizeBytes: 12, objects: 3, at: 42 });
  });
});

describe('bucket delete', () => {
  it('refuses a bucket with files, then deletes it empty with its record', async () => {
    const del = await newBucket(p.org.orgId);
    const path = `/v1/orgs/${p.org.orgId}/storage/${del.resource.resourceId}`;
    await p.post(`${path}/folders`, { name: 'only-a-folder' });
    const full = await p.delete(path);
    expect(full.status).toBe(409);
    expect(full.body).toEqual({ error: 'Delete every file in this bucket first.' });
    expect((await p.post(`${path}/objects/delete`, { prefixes: ['only-a-folder/'] })).body).toEqual({
      deleted: 1,
      done: true,
    });
    const res = await p.delete(path);
    expect(res.status).toBe(204);
    expect((await p.get(path)).status).toBe(404);
    expect(await storage().bucketExists(del.ref.name)).toBe(false);
  });
});

describe('keys stay inside their bucket', () => {
  const unsafe = ['../x', 'a/../b', './a', 'a/./b', '/a', 'a\u0000b', 'a\nb'];

  it('refuses . and .. segments, a leading / and control characters on every route taking a key or path', async () => {
    for (const key of unsafe) {
      const folder = `${key}/`;
      const calls = [
        p.get(`${base}/objects?prefix=${encodeURIComponent(folder)}`),
        p.get(`${base}/object?${q(key)}`),
        p.get(`${base}/download?${q(key)}`),
        p.post(`${base}/uploads`, { files: [{ key, contentType: '', size: 1 }] }),
        p.post(`${base}/folders`, { prefix: folder, name: 'x' }),
        p.post(`${base}/folders`, { name: key }),
        p.post(`${base}/objects/delete`, { keys: [key] }),
        p.post(`${base}/objects/delete`, { prefixes: [folder] }),
        p.post(`${base}/lifecycle`, { prefix: folder, days: 1 }),
      ];
      for (const res of await Promise.all(calls)) {
        expect([key, res.status, res.body.error]).toEqual([key, 400, 'Invalid request']);
        expect(res.body.issues[0].message).toBe(
          "Keys and folder paths can't start with /, contain . or .. segments, or control characters.",
        );
      }
    }
  });

  it('never reaches another bucket through a relative key', async () => {
    const other = await newBucket(p.org.orgId, p.owner.userId);
    await putFiles(other.ref.name, ['keep.txt']);
    const outside = `../${other.ref.name}/keep.txt`;
    expect((await p.post(`${base}/objects/delete`, { keys: [outside] })).status).toBe(400);
    expect(
      (await p.post(`${base}/uploads`, { files: [{ key: `../${other.ref.name}/new.txt`, contentType: '', size: 1 }] }))
        .status,
    ).toBe(400);
    expect((await p.post(`${base}/folders`, { prefix: `../${other.ref.name}/`, name: 'made' })).status).toBe(400);
    const keys = (await storage().listKeys(other.ref, '', 100)).keys.map((k) => k.key);
    expect(keys).toEqual(['keep.txt']);
  });

  it('keeps keys that look like numbers or booleans as text: a delete removes exactly those files', async () => {
    const keys = ['9', '0x10', 'true', '16', '1e2'];
    const fresh = await newBucket(p.org.orgId, p.owner.userId);
    await putFiles(fresh.ref.name, keys);
    const b = `/v1/orgs/${p.org.orgId}/storage/${fresh.resource.resourceId}`;
    const res = await p.post(`${b}/objects/delete`, { keys: ['9', '0x10', 'true'] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ deleted: 3, done: true });
    expect((await storage().listKeys(fresh.ref, '', 100)).keys.map((k) => k.key).sort()).toEqual(['16', '1e2']);
  });

  it('keeps a CORS origin that looks like a boolean as text', async () => {
    const rule = { AllowedOrigins: ['true'], AllowedMethods: ['GET'] };
    expect((await p.put(`${base}/cors`, { rules: [rule] })).status).toBe(200);
    const settings = await p.get(`${base}/settings`);
    expect(JSON.stringify(settings.body)).toContain('"AllowedOrigins":["true"]');
    expect((await p.put(`${base}/cors`, { rules: [] })).status).toBe(200);
  });

  it('takes decimal digits only for limit', async () => {
    for (const limit of ['0x10', '1e2', '%20', '1.5']) {
      expect((await p.get(`${base}/objects?limit=${limit}`)).status).toBe(400);
    }
    expect((await p.get(`${base}/objects?limit=5`)).status).toBe(200);
  });
});
