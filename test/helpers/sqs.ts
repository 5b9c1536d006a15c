import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';

/**
 * The local SQS endpoint for a test file, in a process of its own (test/fixtures/workers/sqs.ts:
 * fauxqs ships ES modules only, which jest's CommonJS runtime cannot load). Signed with the run's
 * engine credentials, as on `npm start`.
 */
export async function startTestSqs(): Promise<{ endpoint: string; stop: () => Promise<void> }> {
  const child = spawn(
    process.execPath,
    [require.resolve('tsx/cli'), join(__dirname, '..', 'fixtures', 'workers', 'sqs.ts')],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  const [line] = (await once(createInterface({ input: child.stdout as Readable }), 'line')) as [string];
  return {
    endpoint: (JSON.parse(line) as { endpoint: string }).endpoint,
    stop: async () => {
      const exited = once(child, 'exit');
      child.stdin?.end();
      await exited;
    },
  };
}

/**
 * Queue workers of lib/workers.ts running for a test file: the local SQS endpoint, every queue
 * worker's queue made and its URL in the environment (as `npm start` sets them: a worker may send
 * to another's), the named workers reading theirs.
 */
export async function startQueueWorker(...names: string[]): Promise<{ stop: () => Promise<void> }> {
  const [{ createWorkerQueues }, { startWorkers }, { workers }] = await Promise.all([
    import('../../lib/local/sqs'),
    import('../../lib/local/workers'),
    import('../../lib/workers'),
  ]);
  const sqs = await startTestSqs();
  process.env.AWS_ENDPOINT_URL_SQS = sqs.endpoint;
  const rows = workers.filter((w) => names.includes(w.name));
  Object.assign(
    process.env,
    await createWorkerQueues({
      endpoint: sqs.endpoint,
      region: process.env.AWS_REGION as string,
      credentials: {
        accessKeyId: process.env.AWS_ACCESS_KEY_ID as string,
        secretAccessKey: process.env.AWS_SECRET_ACCESS_KEY as string,
      },
    }),
  );
  const running = await startWorkers({ workers: rows });
  return {
    stop: async () => {
      await running.stop();
      await sqs.stop();
    },
  };
}
