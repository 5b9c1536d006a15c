import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { CreateBucketCommand, ListBucketsCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { type LocalS3, newEngineCredentials, startS3 } from '../../lib/local/services';
import { freePort } from '../../shared/kernel/net/free-port';

/**
 * The local S3 engine outlives a failed write: a bucket's folder removed while uploads into it are
 * in flight (as a test's cleanup did) made s3rver throw in its process, and every later request
 * of every bucket was refused.
 */
let s3: LocalS3;
let client: S3Client;
let dir: string;

beforeAll(async () => {
  const credentials = newEngineCredentials();
  dir = mkdtempSync(join(process.env.TEST_DATA_DIR as string, 's3-engine-'));
  s3 = await startS3({ port: await freePort(), directory: dir, buckets: [], credentials });
  client = new S3Client({ endpoint: s3.endpoint, region: 'eu-central-1', forcePathStyle: true, credentials });
});
afterAll(async () => {
  client.destroy();
  await s3.stop();
});

it('a bucket folder removed under uploads in flight fails those uploads, not the engine', async () => {
  for (let round = 0; round < 20; round++) {
    const bucket = `vanishing-${round}`;
    await client.send(new CreateBucketCommand({ Bucket: bucket }));
    const puts = [0, 1, 2, 3].map((i) =>
      client.send(new PutObjectCommand({ Bucket: bucket, Key: `in/k${i}.eml`, Body: Buffer.alloc(300_000) }), {
        abortSignal: AbortSignal.timeout(3000),
      }),
    );
    // Settled is awaited whatever happens: an upload left unawaited when this test failed kept
    // retrying after its engine stopped, and its rejection failed the next suites of the worker.
    const settled = Promise.allSettled(puts);
    try {
      await new Promise((r) => setTimeout(r, round % 5));
      // The engine can write into the folder while it is removed (ENOTEMPTY): removed again until
      // it is gone (rmSync's own retries ran out on a busy machine).
      for (let tries = 0; ; tries++) {
        try {
          rmSync(join(dir, bucket), { recursive: true, force: true, maxRetries: 20, retryDelay: 5 });
          break;
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'ENOTEMPTY' || tries >= 50) throw err;
        }
      }
    } finally {
      await settled;
    }
  }
  const listed = await client.send(new ListBucketsCommand({}));
  expect(listed.$metadata.httpStatusCode).toBe(200);
});
