import { lazyPort } from '../../kernel/ground/lazy';
import type { QueuePort } from './port';

export { type QueuePort, type QueueUrlVariable, queueUrlVariable } from './port';

/**
 * The adapter, loaded on first send. One for both targets: the local platform runs an SQS engine
 * (lib/local/sqs.ts), so there is no local adapter to pick and no target switch here.
 */
export const queue: QueuePort = lazyPort(() => import('./aws').then((m) => m.sqsQueue));
