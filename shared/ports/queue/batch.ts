import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import type { $ZodIssue, $ZodType, output } from 'zod/v4/core';
import { safeParse } from 'zod/v4/core';
import { describeError, errorLine, log } from '../../kernel/ground/log';

export interface BatchOptions<S extends $ZodType> {
  /** What a message is, for log lines: `an agent job check`. */
  what: string;
  /**
   * The message's schema, the one its worker's row names (lib/workers.ts `queueTrigger`): every
   * message is parsed with it before `handle` runs.
   */
  message: S;
  handle: (message: output<S>) => Promise<unknown>;
  /** Fields of a message worth a log line when it fails (ids, never secrets). */
  describe?: (message: output<S>) => Record<string, unknown>;
  /** One message after another (work that takes the function's disk or minutes); default all at once. */
  oneAtATime?: boolean;
}

/**
 * Why each message of a batch failed, by message id, kept beside the answer (never in it: SQS
 * reads only `batchItemFailures`): the local worker runner names the error when it gives a
 * message up (lib/local/workers.ts).
 */
export const failureReasons = new WeakMap<SQSBatchResponse, Map<string, string>>();

/** Where and how a message is malformed, never what it holds (a message may carry secrets). */
const shapeOf = (issues: readonly $ZodIssue[]) =>
  issues.slice(0, 5).map((i) => `${i.path.map(String).join('.') || '(message)'}: ${i.code}`);

/**
 * A queue worker's batch (lib/workers.ts, `trigger.kind: 'queue'`): each message read as JSON and
 * parsed with its row's schema, then handled. A message that is not JSON or not of its schema is
 * logged (where it is malformed, never its contents) and reported in SQS's partial batch
 * response, as is a message whose handling throws (a failure of the platform's own): only those
 * are delivered again, then moved to the queue's dead-letter queue, and the rest of the batch goes on.
 */
export async function eachMessage<S extends $ZodType>(
  event: SQSEvent,
  options: BatchOptions<S>,
): Promise<SQSBatchResponse> {
  const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
  const reasons = new Map<string, string>();
  const fail = (messageId: string, reason: string) => {
    batchItemFailures.push({ itemIdentifier: messageId });
    reasons.set(messageId, reason);
  };
  const one = async (record: SQSEvent['Records'][number]) => {
    let body: unknown;
    try {
      body = JSON.parse(record.body);
    } catch {
      log.error(`${options.what} is no JSON`, { messageId: record.messageId });
      return fail(record.messageId, 'malformed message: no JSON');
    }
    const parsed = safeParse(options.message, body);
    if (!parsed.success) {
      const shape = shapeOf(parsed.error.issues);
      log.error(`${options.what} is malformed`, { messageId: record.messageId, issues: shape });
      return fail(record.messageId, `malformed message: ${shape.join('; ')}`);
    }
    const message = parsed.data;
    try {
      await options.handle(message);
    } catch (err) {
      log.warn(`${options.what} failed; SQS will deliver it again`, {
        messageId: record.messageId,
        ...options.describe?.(message),
        error: describeError(err),
      });
      fail(record.messageId, errorLine(err));
    }
  };
  if (options.oneAtATime) for (const record of event.Records) await one(record);
  else await Promise.all(event.Records.map(one));
  const answer = { batchItemFailures };
  failureReasons.set(answer, reasons);
  return answer;
}
