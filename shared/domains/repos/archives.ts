import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { artifactsBucket } from '../../kernel/config';
import { log } from '../../kernel/ground/log';
import { db } from '../../kernel/store/client';
import { DeleteCommand, PutCommand } from '../../kernel/store/commands';
import { PREFIXES } from '../../kernel/store/keys';
import { getItem, TABLE } from '../../kernel/store/table';
import { git } from '../../ports/git';
import { GitArchiveError } from '../../ports/git/port';
import { storage } from '../../ports/object-storage';
import { putFileAt } from '../../ports/object-storage/put-file';
import { queue } from '../../ports/queue';
import type { ArchiveJob } from './queue-messages';

/**
 * Archives of a commit (`POST …/contents/archive`): made once per commit and format by the
 * repo-archives worker (lib/workers.ts), kept in the artifacts bucket under
 * `repo-archives/<repoId>/<commit>.<format>` (its lifecycle removes them after a day) and handed
 * out by 5-minute links. Its state is a record beside the repository's id: `building` from the
 * request that queued it, then `ready` or `failed` (a reason the person can act on). A commit
 * never changes, so a ready archive is the archive of that commit for as long as it is kept.
 */
export type ArchiveFormat = 'zip' | 'tar.gz';

export const ARCHIVE_LINK_SECONDS = 300;
/** The largest archive made (a Lambda function's default 512 MB of /tmp holds it while it is written). */
export const MAX_ARCHIVE_BYTES = 400 * 1024 * 1024;
/** How long a ready or failed record answers: well inside the object's one day in the bucket. */
const KEPT_MS = 12 * 3_600_000;
/** A `building` record older than this was lost (its message dead-lettered): the next request queues it again. */
const LOST_AFTER_MS = 15 * 60_000;

export const ARCHIVE_TOO_LARGE = `The archive would be larger than ${MAX_ARCHIVE_BYTES / 1024 / 1024} MB. Clone the repository instead.`;

interface ArchiveRecord {
  status: 'building' | 'ready' | 'failed';
  requestedAt: number;
  builtAt?: number;
  size?: number;
  error?: string;
}

export type { ArchiveJob } from './queue-messages';

export type ArchiveState =
  | { status: 'ready'; size: number; url: string; expiresIn: number }
  | { status: 'building' }
  | { status: 'failed'; error: string };

const recordKey = (repoId: string, commit: string, format: ArchiveFormat) => ({
  pk: `${PREFIXES.repos.repo}${repoId}`,
  sk: `${PREFIXES.repos.archive}${commit}#${format}`,
});
const objectKey = (repoId: string, commit: string, format: ArchiveFormat) =>
  `repo-archives/${repoId}/${commit}.${format}`;
const contentType = (format: ArchiveFormat) => (format === 'zip' ? 'application/zip' : 'application/gzip');
const ttl = (from: number) => Math.ceil((from + KEPT_MS) / 1000) + 3600;

/**
 * The archive of `commit`: its link when it is ready, its reason when it can't be made, else
 * `building` (queued now unless a request already did: one build per commit and format).
 */
export async function requestArchive(
  repo: { resourceId: string; name: string },
  commit: string,
  format: ArchiveFormat,
): Promise<ArchiveState> {
  const key = recordKey(repo.resourceId, commit, format);
  const held = await getItem<ArchiveRecord>(key, true);
  const now = Date.now();
  if (held?.status === 'ready' && now - (held.builtAt ?? 0) < KEPT_MS) {
    const url = await storage().presignGet({ name: artifactsBucket() }, objectKey(repo.resourceId, commit, format), {
      expiresIn: ARCHIVE_LINK_SECONDS,
      filename: `${repo.name}-${commit.slice(0, 7)}.${format}`,
    });
    return { status: 'ready', size: held.size ?? 0, url, expiresIn: ARCHIVE_LINK_SECONDS };
  }
  if (held?.status === 'failed' && now - held.requestedAt < KEPT_MS) {
    return { status: 'failed', error: held.error ?? 'The archive could not be made.' };
  }
  if (held?.status === 'building' && now - held.requestedAt < LOST_AFTER_MS) return { status: 'building' };

  // Claimed by one request: the one that finds the record as it read it (absent, lost or expired).
  try {
    await db.send(
      new PutCommand({
        TableName: TABLE(),
        Item: { ...key, status: 'building', requestedAt: now, ttl: ttl(now) },
        ConditionExpression: held ? 'requestedAt = :seen' : 'attribute_not_exists(pk)',
        ...(held ? { ExpressionAttributeValues: { ':seen': held.requestedAt } } : {}),
      }),
    );
  } catch (err) {
    if ((err as Error).name === 'ConditionalCheckFailedException') return { status: 'building' };
    throw err;
  }
  const job: ArchiveJob = { repoId: repo.resourceId, commit, format, requestedAt: now };
  try {
    await queue().send('REPO_ARCHIVES_QUEUE_URL', job);
  } catch (err) {
    // Not queued: the claim goes, so the next request tries again rather than waiting for nothing.
    await db.send(
      new DeleteCommand({
        TableName: TABLE(),
        Key: key,
        ConditionExpression: 'requestedAt = :mine',
        ExpressionAttributeValues: { ':mine': now },
      }),
    );
    throw err;
  }
  return { status: 'building' };
}

/**
 * Makes the archive of a job (the worker): written to a temporary file as git produces it (over
 * MAX_ARCHIVE_BYTES it stops), put in the bucket, then the record says `ready`. A reason the
 * person can act on (GitArchiveError, too large) is kept as `failed`; anything else is thrown,
 * for the queue to deliver the job again. A job whose archive is ready already is done.
 */
export async function buildArchive(job: ArchiveJob): Promise<void> {
  const key = recordKey(job.repoId, job.commit, job.format);
  const held = await getItem<ArchiveRecord>(key, true);
  if (held?.status === 'ready') return;
  const dir = await mkdtemp(join(tmpdir(), 'archive-'));
  const file = join(dir, `archive.${job.format}`);
  try {
    let size = 0;
    const limit = new Transform({
      transform(chunk: Buffer, _enc, done) {
        size += chunk.length;
        if (size > MAX_ARCHIVE_BYTES) done(new GitArchiveError(ARCHIVE_TOO_LARGE));
        else done(null, chunk);
      },
    });
    await pipeline(await git().archive(job.repoId, job.commit, job.format), limit, createWriteStream(file));
    size = (await stat(file)).size;
    await upload(file, size, objectKey(job.repoId, job.commit, job.format), contentType(job.format));
    const now = Date.now();
    await putRecord(key, { status: 'ready', requestedAt: job.requestedAt, builtAt: now, size });
  } catch (err) {
    if (!(err instanceof GitArchiveError)) throw err;
    log.info('an archive could not be made', { repoId: job.repoId, commit: job.commit, reason: err.message });
    await putRecord(key, { status: 'failed', requestedAt: Date.now(), error: err.message });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const putRecord = (key: { pk: string; sk: string }, record: ArchiveRecord) =>
  db.send(new PutCommand({ TableName: TABLE(), Item: { ...key, ...record, ttl: ttl(Date.now()) } }));

/** The file into the artifacts bucket, through a short presigned PUT (as uploads are read). */
async function upload(file: string, size: number, key: string, type: string): Promise<void> {
  const url = await storage().presignPut({ name: artifactsBucket() }, key, { contentType: type, size, expiresIn: 300 });
  await putFileAt(url, file, size, type, 'Writing the archive');
}
