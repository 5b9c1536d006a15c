import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { checkJob } from '../../shared/agents/jobs';
import { describeError, log } from '../../shared/ground/log';

/**
 * The agent-checks worker: each message names a job to read when it could have expired or its
 * device could have stopped (shared/agents/jobs.ts `queueCheck`); reading settles it as any read
 * would (its callback goes then) and queues the next check while it is not over. A message that
 * names no job is dropped; a failure of the platform's own is retried by SQS.
 */
export async function handler(event: SQSEvent): Promise<SQSBatchResponse> {
  const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
  await Promise.all(
    event.Records.map(async (record) => {
      let message: { orgId?: unknown; jobId?: unknown } | undefined;
      try {
        message = JSON.parse(record.body);
      } catch {
        message = undefined;
      }
      if (typeof message?.orgId !== 'string' || typeof message.jobId !== 'string') {
        log.error('a job check that names no job was dropped', { messageId: record.messageId });
        return;
      }
      try {
        await checkJob({ orgId: message.orgId, jobId: message.jobId });
      } catch (err) {
        log.warn('a job check failed', { jobId: message.jobId, error: describeError(err) });
        batchItemFailures.push({ itemIdentifier: record.messageId });
      }
    }),
  );
  return { batchItemFailures };
}
