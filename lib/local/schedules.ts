import { describeError, log } from '../../shared/ground/log';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The local platform's scheduled jobs, as EventBridge runs them on AWS (lib/aws): the daily bucket
 * usage figures, once at start and then every 24 hours while the platform runs. Returns the stop.
 */
export async function startSchedules(): Promise<() => Promise<void>> {
  const { handler: measureUsage } = await import('../../functions/workers/storage-usage');
  const usage = () =>
    void measureUsage({}).catch((err: unknown) =>
      log.warn('the bucket usage job failed', { error: describeError(err) }),
    );
  usage();
  const timer = setInterval(usage, DAY_MS);
  timer.unref();
  return async () => clearInterval(timer);
}
