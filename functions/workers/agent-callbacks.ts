import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { type CallbackMessage, deliverCallback } from '../../shared/domains/agents/jobs';
import { eachMessage } from '../../shared/ports/queue/batch';

const isMessage = (x: unknown): x is CallbackMessage => {
  const m = x as Partial<CallbackMessage> | null;
  return typeof m?.orgId === 'string' && typeof m.jobId === 'string' && Number.isInteger(m.attempt);
};

/**
 * The agent-callbacks worker: one try of each ended job's callback (shared/domains/agents/jobs.ts: the
 * next try is a new message with its delay, so a tenant's slow or failing server never holds a
 * batch). A message that is no callback is dropped, logged; a failure of the platform's own (the
 * table, the queue) is delivered again by SQS.
 */
export const handler = (event: SQSEvent): Promise<SQSBatchResponse> =>
  eachMessage(event, {
    what: 'an agent job callback',
    is: isMessage,
    handle: deliverCallback,
    describe: (m) => ({ jobId: m.jobId }),
  });
