import { storage } from '../../shared/ports/object-storage';
import { putLegalHold } from '../../shared/ports/object-storage/local';
import { TestPlatform } from '../helpers/platform';
import { newBucket, putFiles } from './helpers';

/**
 * Deletions in bounded batches: folders of more files than one call removes, and buckets with
 * more old versions than one call removes (the local adapter keeps old versions of files deleted
 * while versioning is on, as S3 does).
 */
let p: TestPlatform;
beforeAll(async () => {
  p = await TestPlatform.start();
});
afterAll(() => p.close());

const STILL = { error: 'Still removing old file versions. Try again to continue.' };

it('deletes a folder of more files than one batch, then the versioned bucket in batches', async () => {
  const bucket = await newBucket(p.org.orgId);
  const base = `/v1/orgs/${p.org.orgId}/storage/${bucket.resource.resourceId}`;
  expect((await p.put(`${base}/versioning`, { enabled: true })).body).toEqual({ versioning: 'Enabled' });
  await putFiles(
    bucket.ref.name,
    Array.from({ length: 1001 }, (_, i) => `bulk/${String(i).padStart(4, '0')}.txt`),
  );

  const first = await p.post(`${base}/objects/delete`, { prefixes: ['bulk/'] });
  expect(first.status).toBe(200);
  expect(first.body).toEqual({ deleted: 1000, done: false });
  const second = await p.post(`${base}/objects/delete`, { prefixes: ['bulk/'] });
  expect(second.body).toEqual({ deleted: 1, done: true });
  const third = await p.post(`${base}/objects/delete`, { prefixes: ['bulk/'] });
  expect(third.body).toEqual({ deleted: 0, done: true });
  expect((await p.get(`${base}/objects`)).body.folders).toEqual([]);

  // 1,001 old versions and 1,001 delete markers: three calls at 1,000 a call.
  const d1 = await p.delete(base);
  expect(d1.status).toBe(409);
  expect(d1.body).toEqual(STILL);

  // Someone uploads while the deletion is under way.
  const up = await p.post(`${base}/uploads`, { files: [{ key: 'late.txt', contentType: 'text/plain', size: 4 }] });
  const put = await fetch(up.body.uploads[0].url, {
    method: 'PUT',
    headers: { 'content-type': 'text/plain' },
    body: 'late',
  });
  expect(put.status).toBe(200);

  const d2 = await p.delete(base);
  expect(d2.status).toBe(409);
  expect(d2.body).toEqual(STILL);
  const d3 = await p.delete(base);
  expect(d3.status).toBe(409);
  expect(d3.body).toEqual({ error: 'Files were added while deleting. Delete them first.' });
  // The deletion starts over: the file is seen first.
  const d4 = await p.delete(base);
  expect(d4.status).toBe(409);
  expect(d4.body).toEqual({ error: 'Delete every file in this bucket first.' });

  expect((await p.post(`${base}/objects/delete`, { keys: ['late.txt'] })).body).toEqual({ deleted: 1, done: true });
  const d5 = await p.delete(base);
  expect(d5.status).toBe(204);
  expect((await p.get(base)).status).toBe(404);
  expect(await storage().bucketExists(bucket.ref.name)).toBe(false);
  expect((await storage().listOldVersions(bucket.ref, 10)).versions).toEqual([]);
});

it('answers 409 when S3 refuses to delete an old version, and deletes once it can', async () => {
  const bucket = await newBucket(p.org.orgId);
  const base = `/v1/orgs/${p.org.orgId}/storage/${bucket.resource.resourceId}`;
  await p.put(`${base}/versioning`, { enabled: true });
  await putFiles(bucket.ref.name, ['contract.pdf', 'notes.txt']);
  expect((await p.post(`${base}/objects/delete`, { keys: ['contract.pdf', 'notes.txt'] })).body).toEqual({
    deleted: 2,
    done: true,
  });
  // An Object Lock legal hold, set outside the platform, keeps the old version of contract.pdf.
  await putLegalHold(bucket.ref, 'contract.pdf', true);
  const held = await p.delete(base);
  expect(held.status).toBe(409);
  expect(held.body).toEqual({
    error: "Couldn't delete 1 file: Access Denied because object protected by object lock.",
  });
  expect((await p.get(base)).status).toBe(200);

  await putLegalHold(bucket.ref, 'contract.pdf', false);
  expect((await p.delete(base)).status).toBe(204);
});

it('keeps only a delete marker when versioning is suspended', async () => {
  const bucket = await newBucket(p.org.orgId);
  const base = `/v1/orgs/${p.org.orgId}/storage/${bucket.resource.resourceId}`;
  await p.put(`${base}/versioning`, { enabled: false });
  await putFiles(bucket.ref.name, ['a.txt']);
  await p.post(`${base}/objects/delete`, { keys: ['a.txt'] });
  const { versions } = await storage().listOldVersions(bucket.ref, 10);
  expect(versions).toEqual([{ key: 'a.txt', versionId: expect.stringMatching(/^dm/) }]);
  expect((await p.delete(base)).status).toBe(204);
});
