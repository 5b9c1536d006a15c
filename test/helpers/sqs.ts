import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { GetQueueAttributesCommand, GetQueueUrlCommand, SQSClient } from '@aws-sdk/client-sqs';

/**
 * The local SQS endpoint for a test file, in a process of its own (test/fixtures/workers/sqs.ts:
 * fauxqs ships ES modules only, which jest's CommonJS runtime cannot load). Signed with the run's
 * engine credentials, as on `npm start`.
 */
export async function startTestSqs(): Promise<{ endpoint: string; stop: () => Promise<void> }> {
  // tsx as a loader of this one process (its CLI would start a second node to run the file).
  const child = spawn(
    process.execPath,
    ['--import', pathToFileURL(require.resolve('tsx')).href, join(__dirname, '..', 'fixtures', 'workers', 'sqs.ts')],
    { stdio: ['pipe', 'pipe', 'inherit'] },
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
 * The local SQS endpoint with every queue worker's queue made and its URL in `env` (as `npm start`
 * sets them: a worker may send to another's), `AWS_ENDPOINT_URL_SQS` too; no worker reads them.
 */
export async function startTestQueues(
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ endpoint: string; stop: () => Promise<void> }> {
  const { createWorkerQueues } = await import('../../lib/local/sqs');
  const sqs = await startTestSqs();
  env.AWS_ENDPOINT_URL_SQS = sqs.endpoint;
  Object.assign(
    env,
    await createWorkerQueues({
      endpoint: sqs.endpoint,
      region: env.AWS_REGION as string,
      credentials: {
        accessKeyId: env.AWS_ACCESS_KEY_ID as string,
        secretAccessKey: env.AWS_SECRET_ACCESS_KEY as string,
      },
    }),
  );
  return sqs;
}

/** Queue workers of lib/workers.ts running for a test file: their queues (`startTestQueues`), the named workers reading theirs. */
export async function startQueueWorker(...names: string[]): Promise<{ stop: () => Promise<void> }> {
  const [{ startWorkers }, { workers }] = await Promise.all([
    import('../../lib/local/workers'),
    import('../../lib/workers'),
  ]);
  const sqs = await startTestQueues();
  const running = await startWorkers({ workers: workers.filter((w) => names.includes(w.name)) });
  return {
    stop: async () => {
      await running.stop();
      await sqs.stop();
    },
  };
}

/** Messages in a worker's queue on the test's SQS endpoint (`AWS_ENDPOINT_URL_SQS`): waiting, in flight and delayed. */
export async function queuedIn(queue: string): Promise<number> {
  const client = new SQSClient({ endpoint: process.env.AWS_ENDPOINT_URL_SQS });
  try {
    const { QueueUrl } = await client.send(new GetQueueUrlCommand({ QueueName: queue }));
    const { Attributes: a } = await client.send(
      new GetQueueAttributesCommand({
        QueueUrl,
        AttributeNames: [
          'ApproximateNumberOfMessages',
          'ApproximateNumberOfMessagesNotVisible',
          'ApproximateNumberOfMessagesDelayed',
        ],
      }),
    );
    return (
      Number(a?.ApproximateNumberOfMessages) +
      Number(a?.ApproximateNumberOfMessagesNotVisible) +
      Number(a?.ApproximateNumberOfMessagesDelayed ?? 0)
    );
  } finally {
    client.destroy();
  }
}
