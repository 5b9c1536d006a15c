import {
  GetQueueAttributesCommand,
  GetQueueUrlCommand,
  ReceiveMessageCommand,
  SendMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import type { SQSEvent } from 'aws-lambda';
import * as z from 'zod/mini';
import { type LocalWorkers, startWorkers } from '../../lib/local/workers';
import { EVENT_DEAD_LETTERS, type QueueTrigger, type Worker, workers } from '../../lib/workers';
import { eachMessage } from '../../shared/ports/queue/batch';
import { startTestQueues } from '../helpers/sqs';
import { until } from '../helpers/until';

/**
 * What the local platform does with work that keeps failing (lib/local/workers.ts): a queue
 * worker's message received `maxReceives` times without success moves to its dead-letter queue,
 * and an event worker's event failing its last retry is given up; each with one warn line naming
 * the worker, the message or event and the error, never the message's body. Every queue row of
 * lib/workers.ts, on the local SQS endpoint, with a handler that always fails (received again at
 * once: the runner's `visibilitySeconds`).
 */
const env: NodeJS.ProcessEnv = { ...process.env, ARTIFACTS_BUCKET: 'platform-artifacts' };
const SECRET = 'sk_live_never_logged_0123456789';
const FAILURE = 'The backend request failed. Try again.';

let sqs: { endpoint: string; stop: () => Promise<void> } | undefined;
let client: SQSClient;
let running: LocalWorkers | undefined;
let lines: string[] = [];
let spy: jest.SpyInstance | undefined;
const level = process.env.LOG_LEVEL;

beforeAll(async () => {
  sqs = await startTestQueues(env);
  client = new SQSClient({ endpoint: sqs.endpoint });
});
afterAll(async () => {
  client?.destroy();
  await sqs?.stop();
});
beforeEach(() => {
  lines = [];
  process.env.LOG_LEVEL = 'info';
  spy = jest.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  });
});
afterEach(async () => {
  await running?.stop();
  running = undefined;
  spy?.mockRestore();
  process.env.LOG_LEVEL = level;
});

/** The warn lines with `message`, parsed. */
const logged = (message: string) =>
  lines
    .flatMap((l) => l.split('\n'))
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((l) => l.message === message);

const visible = async (queue: string) => {
  const { QueueUrl } = await client.send(new GetQueueUrlCommand({ QueueName: queue }));
  const { Attributes } = await client.send(
    new GetQueueAttributesCommand({
      QueueUrl,
      AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
    }),
  );
  return Number(Attributes?.ApproximateNumberOfMessages) + Number(Attributes?.ApproximateNumberOfMessagesNotVisible);
};

const queueRows = workers.filter((w): w is Worker & { trigger: QueueTrigger } => w.trigger.kind === 'queue');

test('the table has queue workers, each with its dead-letter limit', () => {
  expect(queueRows.length).toBeGreaterThan(5);
  for (const w of queueRows) expect(w.trigger.deadLetter.maxReceives).toBeGreaterThan(1);
});

describe.each(queueRows.map((w) => [w.name, w] as const))('the %s worker', (name, row) => {
  test('a message that always fails lands in its dead-letter queue after maxReceives, with one warn line', async () => {
    let tries = 0;
    // A worker's batch as every queue worker answers it (partial failures), whose work always fails.
    const failing = (event: unknown) =>
      eachMessage(event as SQSEvent, {
        what: 'a test message',
        message: z.looseObject({}),
        handle: async () => {
          tries++;
          throw new Error(FAILURE);
        },
      });
    running = await startWorkers({
      workers: [row],
      env,
      handlers: { [name]: failing },
      visibilitySeconds: 0,
      runSchedulesAtStart: false,
    });
    const { QueueUrl } = await client.send(new GetQueueUrlCommand({ QueueName: row.trigger.queue }));
    const sent = await client.send(
      new SendMessageCommand({ QueueUrl, MessageBody: JSON.stringify({ token: SECRET }) }),
    );
    await until(async () => (await visible(`${row.trigger.queue}-dlq`)) === 1);
    expect(await visible(row.trigger.queue)).toBe(0);
    expect(tries).toBe(row.trigger.deadLetter.maxReceives);
    expect(logged('a queue message was given up')).toEqual([
      expect.objectContaining({
        level: 'warn',
        worker: name,
        messageId: sent.MessageId,
        receives: row.trigger.deadLetter.maxReceives,
        goesTo: `${row.trigger.queue}-dlq`,
        error: `Error: ${FAILURE}`,
      }),
    ]);
    expect(lines.join('')).not.toContain(SECRET);
  });
});

test('a handler that throws (no partial answer) is given up alike, the error named', async () => {
  const row = queueRows.find((w) => w.name === 'notify') as Worker & { trigger: QueueTrigger };
  running = await startWorkers({
    workers: [row],
    env,
    handlers: {
      notify: async () => {
        throw new Error('The table is unreachable.');
      },
    },
    visibilitySeconds: 0,
    runSchedulesAtStart: false,
  });
  const before = await visible('notify-dlq');
  const { QueueUrl } = await client.send(new GetQueueUrlCommand({ QueueName: 'notify' }));
  const sent = await client.send(new SendMessageCommand({ QueueUrl, MessageBody: JSON.stringify({ token: SECRET }) }));
  await until(async () => (await visible('notify-dlq')) === before + 1);
  expect(logged('a queue message was given up')).toEqual([
    expect.objectContaining({ worker: 'notify', messageId: sent.MessageId, error: 'Error: The table is unreachable.' }),
  ]);
  expect(lines.join('')).not.toContain(SECRET);
});

test('an event worker that fails its last retry gives the event up to the workers’ dead-letter queue, with one warn line saying so', async () => {
  const row = workers.find((w) => w.name === 'build-events') as Worker;
  const retries = row.trigger.kind === 'event' ? row.trigger.retries : -1;
  let tries = 0;
  running = await startWorkers({
    workers: [row],
    env,
    handlers: {
      'build-events': async () => {
        tries++;
        throw new Error(FAILURE);
      },
    },
    runSchedulesAtStart: false,
  });
  await expect(
    running.deliverEvent({
      id: 'evt-given-up',
      source: 'aws.codebuild',
      'detail-type': 'CodeBuild Build State Change',
      detail: { 'build-status': 'FAILED', 'build-id': 'local:dpl_x', token: SECRET },
    }),
  ).rejects.toThrow(FAILURE);
  expect(tries).toBe(retries + 1);
  expect(logged('an event was given up')).toEqual([
    expect.objectContaining({
      level: 'warn',
      worker: 'build-events',
      eventId: 'evt-given-up',
      tries: retries + 1,
      goesTo: EVENT_DEAD_LETTERS.localQueue,
      error: `Error: ${FAILURE}`,
    }),
  ]);
  // The event itself waits there, as Lambda's dead-letter queue keeps the invocation's event.
  const { QueueUrl } = await client.send(new GetQueueUrlCommand({ QueueName: EVENT_DEAD_LETTERS.localQueue }));
  const { Messages = [] } = await client.send(
    new ReceiveMessageCommand({ QueueUrl, MaxNumberOfMessages: 10, MessageAttributeNames: ['All'] }),
  );
  const kept = Messages.map((m) => ({
    worker: m.MessageAttributes?.worker?.StringValue,
    event: JSON.parse(m.Body ?? '{}'),
  }));
  expect(kept).toContainEqual({ worker: 'build-events', event: expect.objectContaining({ id: 'evt-given-up' }) });
  expect(lines.join('')).not.toContain(SECRET);
});

test('a queue message that succeeds on a later receive is not given up', async () => {
  const row = queueRows.find((w) => w.name === 'webhooks') as Worker & { trigger: QueueTrigger };
  let tries = 0;
  const flaky = (event: unknown) =>
    eachMessage(event as SQSEvent, {
      what: 'a test message',
      message: z.looseObject({}),
      handle: async () => {
        tries++;
        if (tries < row.trigger.deadLetter.maxReceives) throw new Error(FAILURE);
      },
    });
  running = await startWorkers({
    workers: [row],
    env,
    handlers: { webhooks: flaky },
    visibilitySeconds: 0,
    runSchedulesAtStart: false,
  });
  const before = await visible('webhooks-dlq');
  const { QueueUrl } = await client.send(new GetQueueUrlCommand({ QueueName: 'webhooks' }));
  await client.send(new SendMessageCommand({ QueueUrl, MessageBody: '{}' }));
  await until(async () => tries === row.trigger.deadLetter.maxReceives && (await visible('webhooks')) === 0);
  expect(await visible('webhooks-dlq')).toBe(before);
  expect(logged('a queue message was given up')).toEqual([]);
});

test('a scheduled run that fails puts its event in the workers’ dead-letter queue (the next run comes with the schedule)', async () => {
  const row = workers.find((w) => w.trigger.kind === 'schedule') as Worker;
  running = await startWorkers({
    workers: [row],
    env,
    handlers: {
      [row.name]: async () => {
        throw new Error(FAILURE);
      },
    },
    runSchedulesAtStart: true,
  });
  const { QueueUrl } = await until(async () =>
    client.send(new GetQueueUrlCommand({ QueueName: EVENT_DEAD_LETTERS.localQueue })).catch(() => undefined),
  );
  const kept: unknown[] = [];
  await until(async () => {
    const { Messages = [] } = await client.send(
      new ReceiveMessageCommand({ QueueUrl, MaxNumberOfMessages: 10, MessageAttributeNames: ['All'] }),
    );
    kept.push(...Messages.map((m) => m.MessageAttributes?.worker?.StringValue));
    return kept.includes(row.name);
  });
  expect(logged('a scheduled worker failed')).toEqual([
    expect.objectContaining({ worker: row.name, goesTo: EVENT_DEAD_LETTERS.localQueue, error: `Error: ${FAILURE}` }),
  ]);
});

test('a handler that never settles times out at its worker’s timeout, and the next message is handled', async () => {
  // The notify worker with a short timeout (its row's is minutes), on a queue of its own: its
  // first call never settles.
  const notify = queueRows.find((w) => w.name === 'notify') as Worker & { trigger: QueueTrigger };
  const row = { ...notify, timeoutMinutes: 0.02, trigger: { ...notify.trigger, queue: 'notify-stuck' } };
  const handled: string[] = [];
  let calls = 0;
  running = await startWorkers({
    workers: [row],
    env,
    handlers: {
      notify: (event: unknown) => {
        calls++;
        if (calls === 1) return new Promise(() => undefined);
        handled.push(...(event as SQSEvent).Records.map((r) => JSON.parse(r.body).n as string));
        return Promise.resolve({ batchItemFailures: [] });
      },
    },
    visibilitySeconds: 0,
    runSchedulesAtStart: false,
  });
  const { QueueUrl } = await client.send(new GetQueueUrlCommand({ QueueName: 'notify-stuck' }));
  await client.send(new SendMessageCommand({ QueueUrl, MessageBody: JSON.stringify({ n: 'stuck', token: SECRET }) }));
  await until(() => calls === 1);
  await client.send(new SendMessageCommand({ QueueUrl, MessageBody: JSON.stringify({ n: 'next' }) }));
  // The stuck message was not deleted: it comes again, beside the next one.
  await until(() => handled.includes('next') && handled.includes('stuck'));
  expect(logged('a worker timed out')).toEqual([
    expect.objectContaining({ level: 'warn', worker: 'notify', timeoutSeconds: 1.2 }),
  ]);
  expect(lines.join('')).not.toContain(SECRET);
});

test('a malformed message reaches its worker’s file, is parsed by its row’s schema, and is given up without its contents', async () => {
  const row = queueRows.find((w) => w.name === 'agent-checks') as Worker & { trigger: QueueTrigger };
  // The worker's own file (no handler given): its batch parses with the row's schema.
  running = await startWorkers({ workers: [row], env, visibilitySeconds: 0, runSchedulesAtStart: false });
  const before = await visible('agent-checks-dlq');
  const { QueueUrl } = await client.send(new GetQueueUrlCommand({ QueueName: 'agent-checks' }));
  const sent = await client.send(
    new SendMessageCommand({ QueueUrl, MessageBody: JSON.stringify({ orgId: 7, token: SECRET }) }),
  );
  await until(async () => (await visible('agent-checks-dlq')) === before + 1);
  expect(logged('an agent job check is malformed')).toContainEqual(
    expect.objectContaining({
      level: 'error',
      messageId: sent.MessageId,
      issues: ['orgId: invalid_type', 'jobId: invalid_type'],
    }),
  );
  expect(logged('a queue message was given up')).toEqual([
    expect.objectContaining({
      worker: 'agent-checks',
      messageId: sent.MessageId,
      error: 'malformed message: orgId: invalid_type; jobId: invalid_type',
    }),
  ]);
  expect(lines.join('')).not.toContain(SECRET);
});
