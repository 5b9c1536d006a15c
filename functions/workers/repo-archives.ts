import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { type ArchiveJob, buildArchive } from '../../shared/domains/repos/archives';
import { eachMessage } from '../../shared/ports/queue/batch';

const isJob = (x: unknown): x is ArchiveJob => {
  const j = x as Partial<ArchiveJob> | null;
  return (
    typeof j?.repoId === 'string' &&
    typeof j.commit === 'string' &&
    /^[0-9a-f]{40}$/.test(j.commit) &&
    (j.format === 'zip' || j.format === 'tar.gz') &&
    typeof j.requestedAt === 'number'
  );
};

/**
 * The repo-archives worker: makes the archives `POST …/contents/archive` queued, one message per
 * commit and format (shared/domains/repos/archives.ts). A message that is not a job is dropped, logged; a
 * job that fails for a passing reason is reported in `batchItemFailures`, so SQS delivers it again
 * (then to the dead-letter queue).
 */
export const handler = (event: SQSEvent): Promise<SQSBatchResponse> =>
  eachMessage(event, {
    what: 'a repository archive',
    is: isJob,
    handle: buildArchive,
    describe: (job) => ({ repoId: job.repoId }),
    // One archive at a time: a big repository takes the function's disk and minutes.
    oneAtATime: true,
  });
