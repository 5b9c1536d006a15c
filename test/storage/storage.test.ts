import { PutObjectCommand } from '@aws-sdk/client-s3';
import { storage } from '../../shared/storage';
import { computeUsage } from '../../shared/storage';
import { TestPlatform } from '../helpers/platform';
import { newBucket, putFiles, s3, signatureFor } from './helpers';

let p: TestPlatform;
let bucket: Awaited<ReturnType<typeof newBucket>>;
let base: string;

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
});

describe('uploads and downloads', () => {
  it('uploads with the returned link and headers, and downloads the same bytes', async () => {
    const body = 'hello, bucket';
    const res = await p.post(`${base}/uploads`, {
      files: [{ key: 'docs/hello.txt', contentType: 'text/plain', size: Buffer.byteLength(body) }],
    });
    expect(res.status).toBe(200);
    expect(res.body.expiresIn).toBe(900);
    const [link] = res.body.uploads;
    expect(link).toEqual({ key: 'docs/hello.txt', url: expect.any(String), contentType: 'text/plain' });
    const put = await fetch(link.url, { method: 'PUT', headers: { 'content-type': link.contentType }, body });
    expect(put.status).toBe(200);

    const info = await p.get(`${base}/object?key=${encodeURIComponent('docs/hello.txt')}`);
    expect(info.status).toBe(200);
    expect(info.body.object).toMatchObject({ key: 'docs/hello.txt', size: body.length, contentType: 'text/plain' });

    const dl = await p.get(`${base}/download?key=${encodeURIComponent('docs/hello.txt')}`);
    expect(dl.status).toBe(200);
    expect(dl.body.expiresIn).toBe(300);
    const got = await fetch(dl.body.url);
    expect(got.status).toBe(200);
    expect(await got.text()).toBe(body);
    expect(got.headers.get('content-disposition')).toContain('hello.txt');
  });
});
