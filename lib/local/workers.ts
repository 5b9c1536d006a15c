import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import {
  CreateQueueCommand,
  DeleteMessageBatchCommand,
  type Message,
  ReceiveMessageCommand,
  SendMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import type { SQSBatchResponse } from 'aws-lambda';
import { onPlatformEvents, type PlatformEvent } from '../../shared/kernel/events/bus';
import { describeError, errorLine, log } from '../../shared/kernel/ground/log';
import { assertNeedsEnv } from '../../shared/kernel/needs';
import { keepAnalytics, takeAnalytics } from '../../shared/ports/analytics/local';
import { eventLine, logsEvent } from '../../shared/ports/analytics/logs';
import { failureReasons } from '../../shared/ports/queue/batch';
import {
  EVENT_DEAD_LETTERS,
  type EventTrigger,
  type QueueTrigger,
  scheduleMs,
  workers as table,
  type Worker,
  workerEntry,
} from '../workers';
import { ensureQueue } from './sqs';

/**
 * The local worker runner: the same table as on AWS (lib/workers.ts), each row started the local
 * way. A schedule runs at start and then on a timer; an event row gets the platform events a local
 * engine publishes (shared/kernel/events/bus.ts, or `deliverEvent`) that match its source and detail type,
 * as its EventBridge rule would; a queue row reads its own queue on the local SQS endpoint
 * (`AWS_ENDPOINT_URL_SQS`), with its dead-letter queue and redrive. A worker whose needs' variables
 * are missing stops the start, naming them.
 */
export interface LocalWorkers {
  /** Each row and how it is started here: what the table-driven test holds against the table. */
  started: { name: string; kind: Worker['trigger']['kind'] }[];
  /** Delivers an event to the matching event workers; resolves when they are done. */
  deliverEvent(event: PlatformEvent): Promise<void>;
  stop(): Promise<void>;
}

type Handler = (event: unknown) => Promise<unknown>;

/** Lambda's words for a run past its function's timeout. */
export class WorkerTimeout extends Error {
  override name = 'WorkerTimeout';
}

/**
 * One call of a worker's handler, bounded by its row's timeout (`timeoutMinutes`, Lambda's): a
 * promise that never settles fails the call (its work is tried again by its trigger's rules) and
 * frees the worker for the next message, as Lambda ends a run at its timeout. What the stray call
 * does later changes nothing here.
 */
function bounded(w: Worker, handler: Handler): Handler {
  const ms = Math.round(w.timeoutMinutes * 60_000);
  return (event) => {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        log.warn('a worker timed out', { worker: w.name, timeoutSeconds: ms / 1000 });
        reject(new WorkerTimeout(`Task timed out after ${(ms / 1000).toFixed(2)} seconds`));
      }, ms);
    });
    return Promise.race([handler(event), late]).finally(() => clearTimeout(timer));
  };
}

const ROOT = join(__dirname, '..', '..');

export interface StartOptions {
  workers?: Worker[];
  env?: NodeJS.ProcessEnv;
  runSchedulesAtStart?: boolean;
  /** Handlers by worker name in place of their files' (a test's handler that always fails). */
  handlers?: Record<string, Handler>;
  /**
   * How long a received message stays invisible, in place of its queue's (six times the worker's
   * timeout, as on AWS): a test's failed message comes back at once.
   */
  visibilitySeconds?: number;
}

export async function startWorkers(options: StartOptions = {}): Promise<LocalWorkers> {
  const rows = options.workers ?? table;
  const env = options.env ?? process.env;
  for (const w of rows) assertNeedsEnv(`The ${w.name} worker`, w.needs, 'local', env);
  const handlers = new Map<string, Handler>();
  for (const w of rows) {
    const given = options.handlers?.[w.name];
    if (given) {
      handlers.set(w.name, given);
      continue;
    }
    const mod = (await import(join(ROOT, workerEntry(w)))) as { handler?: Handler; message?: unknown };
    if (typeof mod.handler !== 'function') throw new Error(`${workerEntry(w)} exports no handler.`);
    // A queue worker's file that names its schema (`message`) names its row's, no other.
    if (w.trigger.kind === 'queue' && mod.message !== undefined && mod.message !== w.trigger.message) {
      throw new Error(`${workerEntry(w)} does not parse its messages with its row's schema (lib/workers.ts).`);
    }
    handlers.set(w.name, mod.handler);
  }
  const handlerOf = (w: Worker) => bounded(w, handlers.get(w.name) as Handler);
  const stops: (() => void | Promise<void>)[] = [];

  for (const w of rows) {
    const trigger = w.trigger;
    if (trigger.kind !== 'schedule') continue;
    // As on AWS, a failed run is not retried here (the next one comes with the schedule) and goes
    // to the workers' dead-letter queue, the run's event in it.
    const run = () =>
      void handlerOf(w)({}).catch(async (err: unknown) => {
        log.warn('a scheduled worker failed', {
          worker: w.name,
          goesTo: await deadLetter(env.AWS_ENDPOINT_URL_SQS, w, { source: 'schedule', worker: w.name }),
          error: errorLine(err),
        });
      });
    if (options.runSchedulesAtStart ?? true) run();
    const timer = setInterval(run, scheduleMs(trigger));
    timer.unref();
    stops.push(() => clearInterval(timer));
  }

  for (const w of rows) {
    if (w.trigger.kind === 'logs') stops.push(drainLogs(w, w.trigger.localEverySeconds, handlerOf(w)));
  }

  const eventRows = rows.filter((w): w is Worker & { trigger: EventTrigger } => w.trigger.kind === 'event');
  const deliverEvent = async (published: PlatformEvent) => {
    // EventBridge gives each event its id.
    const event = { ...published, id: published.id ?? randomUUID() };
    const matching = eventRows.filter(
      (w) => w.trigger.source === event.source && w.trigger.detailType === event['detail-type'],
    );
    await Promise.all(
      matching.map((w) =>
        deliverWithRetries(w, handlerOf(w), event, () => deadLetter(env.AWS_ENDPOINT_URL_SQS, w, event)),
      ),
    );
  };
  stops.push(onPlatformEvents(deliverEvent));

  for (const w of rows) {
    if (w.trigger.kind === 'queue') {
      stops.push(await pollQueue(w, w.trigger, handlerOf(w), env.AWS_ENDPOINT_URL_SQS, options.visibilitySeconds));
    }
  }

  return {
    started: rows.map((w) => ({ name: w.name, kind: w.trigger.kind })),
    deliverEvent,
    stop: async () => {
      for (const stop of stops) await stop();
    },
  };
}

/**
 * A logs row: what a subscription filter delivers on AWS, here the analytics events the route
 * groups kept in memory, handed over every `everySeconds` as CloudWatch Logs' payload. A failed
 * batch is handed over again, the same (its batch id unchanged), on the next tick. Returns the stop.
 */
function drainLogs(w: Worker, everySeconds: number, handler: Handler): () => Promise<void> {
  const stopKeeping = keepAnalytics();
  let pending: unknown[] = [];
  let running: Promise<void> = Promise.resolve();
  let seq = 0;
  const tick = () => {
    const taken = takeAnalytics();
    if (taken.length > 0) {
      const stream = `local-${process.pid}-${Date.now()}-${seq++}`;
      pending.push(
        logsEvent(
          '/local/route-groups',
          stream,
          taken.map((e, i) => ({ id: String(i), at: e.at, message: eventLine(e) })),
        ),
      );
    }
    running = running.then(async () => {
      while (pending.length > 0) {
        try {
          await handler(pending[0]);
          pending = pending.slice(1);
        } catch (err) {
          log.warn('a logs worker failed', { worker: w.name, error: describeError(err) });
          return;
        }
      }
    });
  };
  const timer = setInterval(tick, everySeconds * 1000);
  timer.unref();
  return async () => {
    clearInterval(timer);
    tick();
    await running;
    stopKeeping();
  };
}

/**
 * The workers' shared dead-letter queue on the local SQS endpoint (`worker-events-dlq`, as
 * `Workers/EventDeadLetters` on AWS) takes the event of work given up; returns where it went.
 */
async function deadLetter(endpoint: string | undefined, w: Worker, event: unknown): Promise<string> {
  if (!endpoint) return 'nowhere: no SQS endpoint';
  const sqs = new SQSClient({ endpoint });
  try {
    const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: EVENT_DEAD_LETTERS.localQueue }));
    await sqs.send(
      new SendMessageCommand({
        QueueUrl,
        MessageBody: JSON.stringify(event),
        MessageAttributes: { worker: { DataType: 'String', StringValue: w.name } },
      }),
    );
    return EVENT_DEAD_LETTERS.localQueue;
  } catch (err) {
    log.warn('a dead-letter queue refused work given up', { worker: w.name, error: describeError(err) });
    return 'nowhere: the dead-letter queue refused it';
  } finally {
    sqs.destroy();
  }
}

/**
 * As EventBridge and Lambda: a failed delivery is tried again, `retries` times, then given up to
 * the workers' dead-letter queue (`giveUp`), with a warn line (`an event was given up`) naming it.
 */
async function deliverWithRetries(
  w: Worker & { trigger: EventTrigger },
  handler: Handler,
  event: PlatformEvent & { id: string },
  giveUp: () => Promise<string>,
) {
  for (let attempt = 0; ; attempt++) {
    try {
      await handler(event);
      return;
    } catch (err) {
      log.warn('an event worker failed', { worker: w.name, attempt, error: describeError(err) });
      if (attempt >= w.trigger.retries) {
        log.warn('an event was given up', {
          worker: w.name,
          eventId: event.id,
          tries: attempt + 1,
          goesTo: await giveUp(),
          error: errorLine(err),
        });
        throw err;
      }
    }
  }
}

/**
 * Reads a queue row's own queue (created with its dead-letter queue, as on AWS) `batchSize`
 * messages at a time and hands them over as SQS's Lambda event; what the handler does not list in
 * `batchItemFailures` is deleted, the rest comes back after its visibility timeout until the
 * redrive moves it. Returns the stop.
 */
async function pollQueue(
  w: Worker,
  trigger: QueueTrigger,
  handler: Handler,
  endpoint: string | undefined,
  visibilitySeconds: number | undefined,
): Promise<() => Promise<void>> {
  if (!endpoint) throw new Error(`The ${w.name} worker cannot start: AWS_ENDPOINT_URL_SQS is not set.`);
  const sqs = new SQSClient({ endpoint });
  const queueUrl = await ensureQueue(sqs, w, trigger);
  let running = true;
  const loop = (async () => {
    while (running) {
      try {
        const { Messages = [] } = await sqs.send(
          new ReceiveMessageCommand({
            QueueUrl: queueUrl,
            MaxNumberOfMessages: Math.min(trigger.batchSize, 10),
            WaitTimeSeconds: 1,
            ...(visibilitySeconds !== undefined ? { VisibilityTimeout: visibilitySeconds } : {}),
            MessageSystemAttributeNames: ['ApproximateReceiveCount'],
          }),
        );
        if (Messages.length > 0) await runBatch(w, trigger, handler, queueUrl, Messages, sqs);
      } catch (err) {
        if (running) log.warn('reading a worker queue failed', { worker: w.name, error: describeError(err) });
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    }
  })();
  return async () => {
    running = false;
    await loop;
    sqs.destroy();
  };
}

async function runBatch(
  w: Worker,
  trigger: QueueTrigger,
  handler: Handler,
  queueUrl: string,
  messages: Message[],
  sqs: SQSClient,
) {
  const records = messages.map((m) => ({
    messageId: m.MessageId,
    receiptHandle: m.ReceiptHandle,
    body: m.Body,
    attributes: m.Attributes ?? {},
    messageAttributes: m.MessageAttributes ?? {},
    eventSource: 'aws:sqs',
  }));
  let failed: Set<string>;
  let reasons: Map<string, string> | undefined;
  try {
    const answer = (await handler({ Records: records })) as SQSBatchResponse | undefined;
    failed = new Set((answer?.batchItemFailures ?? []).map((f) => f.itemIdentifier));
    reasons = answer ? failureReasons.get(answer) : undefined;
  } catch (err) {
    log.warn('a queue worker failed', { worker: w.name, error: describeError(err) });
    failed = new Set(messages.map((m) => m.MessageId as string));
    reasons = new Map(messages.map((m) => [m.MessageId as string, errorLine(err)]));
  }
  givenUp(w, trigger, messages, failed, reasons);
  const done = messages.filter((m) => !failed.has(m.MessageId as string));
  if (done.length === 0) return;
  await sqs.send(
    new DeleteMessageBatchCommand({
      QueueUrl: queueUrl,
      Entries: done.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle })),
    }),
  );
}

/**
 * The failed messages of a batch that were received `maxReceives` times: the queue's redrive moves
 * them to its dead-letter queue (as on AWS, where its alarm goes off), each with a warn line naming
 * the worker, the message and why (never its body).
 */
function givenUp(
  w: Worker,
  trigger: QueueTrigger,
  messages: Message[],
  failed: Set<string>,
  reasons: Map<string, string> | undefined,
) {
  for (const m of messages) {
    const id = m.MessageId as string;
    const receives = Number(m.Attributes?.ApproximateReceiveCount ?? 0);
    if (!failed.has(id) || receives < trigger.deadLetter.maxReceives) continue;
    log.warn('a queue message was given up', {
      worker: w.name,
      messageId: id,
      receives,
      goesTo: `${trigger.queue}-dlq`,
      error: reasons?.get(id) ?? 'listed in batchItemFailures',
    });
  }
}
