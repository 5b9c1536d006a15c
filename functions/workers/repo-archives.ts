import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { describeError, log } from '../../shared/ground/log';
import { type ArchiveJob, buildArchive } from '../../shared/repos/archives';

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
 * commit and format (shared/repos/archives.ts). A message that is not a job is dropped, logged; a
 * job that fails for a passing reason is reported in `batchItemFailures`, so SQS delivers it again
 * (then to the dead-letter queue).
 */
export async function handler(event: SQSEvent): Promise<SQSBatchResponse> {
  const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
  for (const record of event.Records) {
    let job: unknown;
    try {
      job = JSON.parse(record.body);
    } catch {
      job = undefined;
    }
    if (!isJob(job)) {
      log.error('an archive message that is no job was dropped', { messageId: record.messageId });
      continue;
    }
    try {
      await buildArchive(job);
    } catch (err) {
      log.warn('an archive failed; it will be tried again', { repoId: job.repoId, error: describeError(err) });
      batchItemFailures.push({ itemIdentifier: record.messageId });
    }
  }
  return { batchItemFailures };
}
