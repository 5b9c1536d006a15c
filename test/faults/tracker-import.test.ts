import { type FaultProxy, parseFaults, startFaultProxy } from '../../lib/local/faults';
import type { TestPlatform } from '../helpers/platform';

/**
 * The tracker's import by upload reads its file through a presigned link (plain HTTP, not the SDK,
 * so no SDK retries). Under load, with S3 answering 5xx now and then, an import answered 500
 * `Internal error`: the link's failed read was a plain Error. Now a 5xx or a failed connection is
 * tried again, and what outlasts the tries is the backend-error table's 429 or 502 with
 * Retry-After; a failed HEAD is no longer taken for a file not uploaded (400).
 */
let s3: FaultProxy;
let p: TestPlatform;
const saved = process.env.AWS_ENDPOINT_URL_S3;
let base: string;

beforeAll(async () => {
  s3 = await startFaultProxy('s3', saved as string);
  // Set before this file's platform code loads: its S3 client is made with this endpoint.
  process.env.AWS_ENDPOINT_URL_S3 = s3.endpoint;
  const { trackerPlatform } = await import('../tracker/platform');
  p = await trackerPlatform('faults-import');
  base = `/v1/orgs/${p.org.orgId}/issues`;
  expect((await p.post(`${base}/spaces`, { key: 'IMP', name: 'Import', template: 'kanban' })).status).toBe(201);
});

afterAll(async () => {
  await p?.close();
  await s3?.stop();
  process.env.AWS_ENDPOINT_URL_S3 = saved;
});

afterEach(() => s3.set([]));

const csvOf = (tag: string, rows = 3) =>
  Buffer.from(
    `Summary,Issue key\r\n${Array.from({ length: rows }, (_, i) => `${tag} ${i},SRC-${i}`).join('\r\n')}\r\n`,
  );

/** An uploaded file's token (the upload itself goes through while no fault is set). */
async function uploaded(tag: string): Promise<string> {
  const bytes = csvOf(tag);
  const start = await p.post(`${base}/import/upload`, { space: 'IMP', format: 'csv', size: bytes.length });
  expect(start.status).toBe(200);
  const put = await fetch(start.body.upload.url, { method: 'PUT', headers: start.body.upload.headers, body: bytes });
  expect(put.status).toBe(200);
  return start.body.file as string;
}
const importFile = (file: string) => p.post(`${base}/import`, { space: 'IMP', format: 'csv', file });

it.each([
  ['internal', 's3:GET:internal:1:1'],
  ['reset-after-write', 's3:GET:reset-after-write:1:1'],
])('a read of the file that fails once (%s) is tried again: the import succeeds', async (fault, rule) => {
  const file = await uploaded(`once-${fault}`);
  const before = s3.injected[`s3:GET:${fault}`] ?? 0;
  s3.set(parseFaults(rule));
  const res = await importFile(file);
  expect([res.status, res.body.processed]).toEqual([200, 3]);
  expect((s3.injected[`s3:GET:${fault}`] ?? 0) - before).toBe(1);
});

it('S3 failing every read answers 502 with Retry-After; throttling, 429; never 500', async () => {
  const file = await uploaded('down');
  s3.set(parseFaults('s3:GET:unavailable'));
  const down = await importFile(file);
  expect([down.status, down.body, down.headers.get('retry-after')]).toEqual([
    502,
    { error: 'The backend request failed. Try again.' },
    '2',
  ]);
  s3.set(parseFaults('s3:GET:throttle'));
  const slow = await importFile(file);
  expect([slow.status, slow.body, slow.headers.get('retry-after')]).toEqual([
    429,
    { error: 'The backend is throttling requests. Try again in a moment.' },
    '1',
  ]);
  // A failed HEAD is the backend's failure, not a file that was never uploaded (400).
  s3.set(parseFaults('s3:HEAD:internal'));
  expect((await importFile(file)).status).toBe(502);
  s3.set([]);
  expect((await importFile(file)).status).toBe(200);
});

it('many imports at once, with S3 failing a third of the calls: 200, 429 or 502, never a 500', async () => {
  const files = await Promise.all(Array.from({ length: 12 }, (_, i) => uploaded(`load${i}`)));
  s3.set(parseFaults('s3:*:internal:0.3'));
  const answers = await Promise.all(files.map(importFile));
  const statuses = answers.map((r) => r.status);
  expect(statuses.filter((s) => ![200, 429, 502].includes(s))).toEqual([]);
  for (const r of answers.filter((a) => a.status !== 200)) expect(r.headers.get('retry-after')).not.toBeNull();
});
