import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { deliverCallback } from '../../shared/domains/agents/jobs';
import { CallbackMessage } from '../../shared/domains/agents/queue-messages';
import { eachMessage } from '../../shared/ports/queue/batch';

/** The schema its row names (lib/workers.ts); the local runner holds the two the same. */
export const message = CallbackMessage;

/**
 * The agent-callbacks worker: one try of each ended job's callback (shared/domains/agents/jobs.ts: the
 * next try is a new message with its delay, so a tenant's slow or failing server never holds a
 * batch). A malformed message is logged and left to the dead-letter queue; a failure of the
 * platform's own (the table, the queue) is delivered again by SQS.
 */
export const handler = (event: SQSEvent): Promise<SQSBatchResponse> =>
  eachMessage(event, {
    what: 'an agent job callback',
    message,
    handle: deliverCallback,
    describe: (m) => ({ jobId: m.jobId }),
  });
