import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { describeError, errorLine, log } from '../../kernel/ground/log';

export interface BatchOptions<T> {
  /** What a message is, for log lines: `an agent job check`. */
  what: string;
  /** The shape a message must have; one of no known shape is dropped (logged): SQS would only bring it back. */
  is: (message: unknown) => message is T;
  handle: (message: T) => Promise<unknown>;
  /** Fields of a message worth a log line when it fails (ids, never secrets). */
  describe?: (message: T) => Record<string, unknown>;
  /** One message after another (work that takes the function's disk or minutes); default all at once. */
  oneAtATime?: boolean;
}

/**
 * Why each message of a batch failed, by message id, kept beside the answer (never in it: SQS
 * reads only `batchItemFailures`): the local worker runner names the error when it gives a
 * message up (lib/local/workers.ts).
 */
export const failureReasons = new WeakMap<SQSBatchResponse, Map<string, string>>();

/**
 * A queue worker's batch (lib/workers.ts, `trigger.kind: 'queue'`): each message read as JSON and
 * checked; `handle` runs for each, and a message whose handling throws (a failure of the
 * platform's own) is reported in SQS's partial batch response, so only it is delivered again (then
 * to the dead-letter queue).
 */
export async function eachMessage<T>(event: SQSEvent, options: BatchOptions<T>): Promise<SQSBatchResponse> {
  const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
  const reasons = new Map<string, string>();
  const one = async (record: SQSEvent['Records'][number]) => {
    let message: unknown;
    try {
      message = JSON.parse(record.body);
    } catch {
      message = undefined;
    }
    if (!options.is(message)) {
      log.error(`${options.what} of no known shape was dropped`, { messageId: record.messageId });
      return;
    }
    try {
      await options.handle(message);
    } catch (err) {
      log.warn(`${options.what} failed; SQS will deliver it again`, {
        messageId: record.messageId,
        ...options.describe?.(message),
        error: describeError(err),
      });
      batchItemFailures.push({ itemIdentifier: record.messageId });
      reasons.set(record.messageId, errorLine(err));
    }
  };
  if (options.oneAtATime) for (const record of event.Records) await one(record);
  else await Promise.all(event.Records.map(one));
  const answer = { batchItemFailures };
  failureReasons.set(answer, reasons);
  return answer;
}
