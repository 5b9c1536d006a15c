import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { SQSEvent } from 'aws-lambda';
import { unzipSync } from 'fflate';
import { x as extract } from 'tar';
import { handler as archiveWorker } from '../../functions/workers/repo-archives';
import { ARCHIVE_TOO_LARGE, type ArchiveJob } from '../../shared/domains/repos/archives';
import { db } from '../../shared/kernel/store/client';
import { getItem, TABLE } from '../../shared/kernel/store/table';
import { localGit } from '../../shared/ports/git/local';
import { storage } from '../../shared/ports/object-storage';
import { TestPlatform } from '../helpers/platform';
import { startQueueWorker } from '../helpers/sqs';

/**
 * `POST …/contents/archive`: 202 while the repo-archives worker makes the archive (the route queues
 * it on the local SQS engine, the worker reads it there, as on AWS), then 200 with a 5-minute link
 * to a zip or tar.gz that unpacks to the commit's files; one build per commit and format; every
 * error of the route.
 */
let p: TestPlatform;
let worker: { stop: () => Promise<void> } | undefined;
let n = 0;
const unique = (base = 'arc') => `${base}-${Date.now().toString(36)}-${(n++).toString(36)}`;
const repos = () => `/v1/orgs/${p.org.orgId}/repos`;
const b64 = (s: string) => Buffer.from(s).toString('base64');

beforeAll(async () => {
  process.env.DATA_DIR = mkdtempSync(join(process.env.TEST_DATA_DIR as string, 'archive-'));
  process.env.ARTIFACTS_BUCKET = `repo-archives-${Date.now().toString(36)}`;
  await storage().createBucket(process.env.ARTIFACTS_BUCKET);
  worker = await startQueueWorker('repo-archives');
  p = await TestPlatform.start();
});
afterAll(async () => {
  await p.close();
  await worker?.stop();
});

/** A repository with a README, an executable script and a tag `v1` on its second commit. */
async function newRepo() {
  const name = unique();
  expect((await p.post(repos(), { name, readme: true })).status).toBe(201);
  const base = `${repos()}/${name}`;
  const head = (await p.get(`${base}/branches`)).body.branches[0].commit as string;
  const commit = await p.post(`${base}/contents`, {
    branch: 'main',
    parentCommitId: head,
    message: 'Add a script',
    changes: [{ action: 'put', path: 'bin/run.sh', content: b64('#!/bin/sh\necho hi\n') }],
  });
  expect(commit.status).toBe(201);
  // A lightweight tag, as a push would leave it (the API makes no tags).
  const repoId = (await p.get(base)).body.resourceId as string;
  await localGit().setRef(repoId, 'refs/tags/v1', commit.body.commitId, null);
  return { name, base, first: head, second: commit.body.commitId as string };
}

/** Asks until the archive is ready; every answer before is 202 `building` with Retry-After. */
async function archiveOf(base: string, body: Record<string, unknown>) {
  for (let i = 0; i < 200; i++) {
    const res = await p.post(`${base}/contents/archive`, body);
    if (res.status !== 202) return res;
    expect(res.headers.get('retry-after')).toBe('2');
    expect(res.body.archive.status).toBe('building');
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the archive was never ready');
}

const download = async (url: string) => {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  return { bytes: Buffer.from(await res.arrayBuffer()), disposition: res.headers.get('content-disposition') };
};

it('a zip of the default branch: 202 while it is made, then a link to the files of its head', async () => {
  const { name, base, second } = await newRepo();
  const first = await p.post(`${base}/contents/archive`, {});
  expect(first.status).toBe(202);
  expect(first.body).toEqual({ archive: { status: 'building', commitId: second, format: 'zip' } });
  const ready = await archiveOf(base, {});
  expect(ready.status).toBe(200);
  expect(ready.body.archive).toEqual({
    status: 'ready',
    commitId: second,
    format: 'zip',
    size: expect.any(Number),
    url: expect.any(String),
    expiresIn: 300,
  });
  const { bytes, disposition } = await download(ready.body.archive.url);
  expect(bytes.length).toBe(ready.body.archive.size);
  expect(disposition).toContain(`${name}-${second.slice(0, 7)}.zip`);
  const files = unzipSync(new Uint8Array(bytes));
  expect(
    Object.keys(files)
      .filter((f) => !f.endsWith('/'))
      .sort(),
  ).toEqual(['README.md', 'bin/run.sh']);
  expect(Buffer.from(files['bin/run.sh'] as Uint8Array).toString()).toBe('#!/bin/sh\necho hi\n');

  // Made once: asked again, the same archive at once, through a new link.
  const again = await p.post(`${base}/contents/archive`, { format: 'zip' });
  expect(again.status).toBe(200);
  expect(again.body.archive.size).toBe(ready.body.archive.size);

  // The worker's message again (SQS delivers at least once): the archive is not made twice.
  const repoId = (await p.get(base)).body.resourceId as string;
  const key = { pk: `REPOID#${repoId}`, sk: `ARCHIVE#${second}#zip` };
  const made = await getItem<{ builtAt: number }>(key, true);
  expect(made?.builtAt).toEqual(expect.any(Number));
  const job: ArchiveJob = { repoId, commit: second, format: 'zip', requestedAt: Date.now() };
  const message = { Records: [{ messageId: `archive-${repoId}`, body: JSON.stringify(job) }] } as unknown as SQSEvent;
  expect(await archiveWorker(message)).toEqual({ batchItemFailures: [] });
  expect(await getItem(key, true)).toEqual(made);
});

it('a tar.gz of a tag or of a commit: the files of that commit', async () => {
  const { base, first, second } = await newRepo();
  const byTag = await archiveOf(base, { ref: 'v1', format: 'tar.gz' });
  expect(byTag.status).toBe(200);
  expect(byTag.body.archive.commitId).toBe(second);
  const dir = mkdtempSync(join(process.env.TEST_DATA_DIR as string, 'unpacked-'));
  writeFileSync(join(dir, 'a.tar.gz'), (await download(byTag.body.archive.url)).bytes);
  mkdirSync(join(dir, 'out'));
  await extract({ file: join(dir, 'a.tar.gz'), cwd: join(dir, 'out') });
  expect(readFileSync(join(dir, 'out', 'bin', 'run.sh'), 'utf8')).toBe('#!/bin/sh\necho hi\n');

  const byCommit = await archiveOf(base, { ref: first.slice(0, 12), format: 'tar.gz' });
  expect(byCommit.body.archive.commitId).toBe(first);
  const dir2 = mkdtempSync(join(process.env.TEST_DATA_DIR as string, 'unpacked-'));
  writeFileSync(join(dir2, 'a.tar.gz'), (await download(byCommit.body.archive.url)).bytes);
  await extract({ file: join(dir2, 'a.tar.gz'), cwd: dir2 });
  expect(() => readFileSync(join(dir2, 'bin', 'run.sh'))).toThrow();
  expect(readFileSync(join(dir2, 'README.md'), 'utf8')).toContain('#');
});

it('20 requests at once for a new commit: each is 202 or 200 for that commit, then the archive is ready', async () => {
  const { base, second } = await newRepo();
  const answers = await Promise.all(
    Array.from({ length: 20 }, () => p.post(`${base}/contents/archive`, { format: 'tar.gz' })),
  );
  for (const a of answers) {
    expect([200, 202]).toContain(a.status);
    expect(a.body.archive.commitId).toBe(second);
  }
  const ready = await archiveOf(base, { format: 'tar.gz' });
  expect(ready.status).toBe(200);
});

it('a reason the archive could not be made is answered 422 until the record goes', async () => {
  const { base, second, name } = await newRepo();
  const repo = (await p.get(`${repos()}/${name}`)).body;
  await db.send(
    new PutCommand({
      TableName: TABLE(),
      Item: {
        pk: `REPOID#${repo.resourceId}`,
        sk: `ARCHIVE#${second}#zip`,
        status: 'failed',
        requestedAt: Date.now(),
        error: ARCHIVE_TOO_LARGE,
      },
    }),
  );
  const res = await p.post(`${base}/contents/archive`, {});
  expect(res.status).toBe(422);
  expect(res.body).toEqual({ error: ARCHIVE_TOO_LARGE });
});

it('errors: no repository, no such ref, an empty repository, a format it does not make', async () => {
  const none = await p.post(`${repos()}/nope-${unique()}/contents/archive`, {});
  expect(none.status).toBe(404);
  expect(none.body).toEqual({ error: 'Repository not found' });
  const { base } = await newRepo();
  const noRef = await p.post(`${base}/contents/archive`, { ref: 'no-such-branch' });
  expect(noRef.status).toBe(404);
  expect(noRef.body).toEqual({ error: 'Branch or tag not found' });
  const empty = unique();
  expect((await p.post(repos(), { name: empty })).status).toBe(201);
  const emptyAnswer = await p.post(`${repos()}/${empty}/contents/archive`, {});
  expect(emptyAnswer.status).toBe(404);
  expect(emptyAnswer.body).toEqual({ error: 'Branch or tag not found' });
  const badFormat = await p.post(`${base}/contents/archive`, { format: 'rar' });
  expect(badFormat.status).toBe(400);
});
