import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { checkJob } from '../../shared/domains/agents/jobs';
import { JobCheckMessage } from '../../shared/domains/agents/queue-messages';
import { eachMessage } from '../../shared/ports/queue/batch';

/** The schema its row names (lib/workers.ts); the local runner holds the two the same. */
export const message = JobCheckMessage;

/**
 * The agent-checks worker: each message names a job to read when it could have expired or its
 * device could have stopped (shared/domains/agents/jobs.ts `queueCheck`); reading settles it as any read
 * would (its callback goes then) and queues the next check while it is not over. A malformed
 * message is logged and left to the dead-letter queue; a failure of the platform's own is retried by SQS.
 */
export const handler = (event: SQSEvent): Promise<SQSBatchResponse> =>
  eachMessage(event, {
    what: 'an agent job check',
    message,
    handle: (m) => checkJob({ orgId: m.orgId, jobId: m.jobId }),
    describe: (m) => ({ jobId: m.jobId }),
  });
