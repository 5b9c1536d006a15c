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
