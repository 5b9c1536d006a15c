import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { checkJob } from '../../shared/domains/agents/jobs';
import { eachMessage } from '../../shared/ports/queue/batch';

const isCheck = (x: unknown): x is { orgId: string; jobId: string } => {
  const m = x as { orgId?: unknown; jobId?: unknown } | null;
  return typeof m?.orgId === 'string' && typeof m.jobId === 'string';
};

/**
 * The agent-checks worker: each message names a job to read when it could have expired or its
 * device could have stopped (shared/domains/agents/jobs.ts `queueCheck`); reading settles it as any read
 * would (its callback goes then) and queues the next check while it is not over. A message that
 * names no job is dropped; a failure of the platform's own is retried by SQS.
 */
export const handler = (event: SQSEvent): Promise<SQSBatchResponse> =>
  eachMessage(event, {
    what: 'an agent job check',
    is: isCheck,
    handle: (m) => checkJob({ orgId: m.orgId, jobId: m.jobId }),
    describe: (m) => ({ jobId: m.jobId }),
  });
