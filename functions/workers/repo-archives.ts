import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { buildArchive } from '../../shared/domains/repos/archives';
import { ArchiveJob } from '../../shared/domains/repos/queue-messages';
import { eachMessage } from '../../shared/ports/queue/batch';

/** The schema its row names (lib/workers.ts); the local runner holds the two the same. */
export const message = ArchiveJob;

/**
 * The repo-archives worker: makes the archives `POST …/contents/archive` queued, one message per
 * commit and format (shared/domains/repos/archives.ts). A malformed message is logged and left to the dead-letter queue; a
 * job that fails for a passing reason is reported in `batchItemFailures`, so SQS delivers it again
 * (then to the dead-letter queue).
 */
export const handler = (event: SQSEvent): Promise<SQSBatchResponse> =>
  eachMessage(event, {
    what: 'a repository archive',
    message,
    handle: buildArchive,
    describe: (job) => ({ repoId: job.repoId }),
    // One archive at a time: a big repository takes the function's disk and minutes.
    oneAtATime: true,
  });
