import { definePort } from '../adapter';
import type { QueuePort } from './port';

export { type QueuePort, type QueueUrlVariable, queueUrlVariable } from './port';

// Computed: the functions' bundler leaves the local adapter out of the Lambda bundles.
const LOCAL_ADAPTER = './local';

/**
 * Work for queue workers: SQS. The local platform runs an SQS engine (lib/local/sqs.ts), so the
 * local adapter is the SQS one, pointed at it by the environment.
 */
export const queue = definePort<QueuePort>({
  aws: () => import('./aws').then((m) => m.awsQueue()),
  local: () => (import(LOCAL_ADAPTER) as Promise<typeof import('./local')>).then((m) => m.localQueue()),
});
