import { definePort } from '../adapter';
import type { SchedulerPort } from './port';

export { type SchedulerPort, timerKey } from './port';

// Computed: the functions' bundler leaves the local adapter out of the Lambda bundles.
const LOCAL_ADAPTER = './local';

/**
 * AWS: up to 15 minutes ahead an SQS message delay, beyond a one-time EventBridge Scheduler
 * schedule into the notify queue (deleted after it runs). One machine: due timers as records that
 * the local platform's one-second loop (lib/local/timers.ts) moves to the queue, so they survive a
 * restart and tests can run the loop with their own clock.
 */
export const scheduler = definePort<SchedulerPort>({
  aws: () => import('./aws').then((m) => m.awsScheduler()),
  local: () => (import(LOCAL_ADAPTER) as Promise<typeof import('./local')>).then((m) => m.localScheduler()),
});
