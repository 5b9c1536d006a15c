import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { type CallbackMessage, deliverCallback } from '../../shared/agents/jobs';
import { describeError, log } from '../../shared/ground/log';

const isMessage = (x: unknown): x is CallbackMessage => {
  const m = x as Partial<CallbackMessage> | null;
  return typeof m?.orgId === 'string' && typeof m.jobId === 'string' && Number.isInteger(m.attempt);
};

/**
 * The agent-callbacks worker: one try of each ended job's callback (shared/agents/jobs.ts: the
 * next try is a new message with its delay, so a tenant's slow or failing server never holds a
 * batch). A message that is no callback is dropped, logged; a failure of the platform's own (the
 * table, the queue) is reported in `batchItemFailures`, for SQS to deliver it again.
 */
export async function handler(event: SQSEvent): Promise<SQSBatchResponse> {
  const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
  await Promise.all(
    event.Records.map(async (record) => {
      let message: unknown;
      try {
        message = JSON.parse(record.body);
      } catch {
        message = undefined;
      }
      if (!isMessage(message)) {
        log.error('a callback message that is no callback was dropped', { messageId: record.messageId });
        return;
      }
      try {
        await deliverCallback(message);
      } catch (err) {
        log.warn('a callback try failed on the platform side', { jobId: message.jobId, error: describeError(err) });
        batchItemFailures.push({ itemIdentifier: record.messageId });
      }
    }),
  );
  return { batchItemFailures };
}
