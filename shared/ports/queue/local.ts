import { awsQueue } from './aws';
import type { QueuePort } from './port';

/**
 * One machine: the local platform runs an SQS engine (lib/local/sqs.ts, `AWS_ENDPOINT_URL_SQS`,
 * which the SDK reads itself), so the local adapter is the SQS one, reaching it.
 */
export const localQueue = (): QueuePort => awsQueue();
