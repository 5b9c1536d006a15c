import { CreateQueueCommand, GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { queueUrlVariable } from '../../shared/ports/queue/port';
import { type QueueTrigger, workers as table, type Worker } from '../workers';
import { signedProxy } from './signed-proxy';
import type { EngineCredentials } from './sigv4';

/** The platform's queues, as the CDK stack names their roles. */
export const QUEUES = {
  agentJobs: 'agent-jobs',
  agentJobsDlq: 'agent-jobs-dlq',
} as const;

/** After this many receives without a delete, a job goes to the dead-letter queue (as on AWS). */
export const AGENT_JOBS_MAX_RECEIVE = 5;

export interface LocalSqs {
  endpoint: string;
  queueUrls: { agentJobs: string; agentJobsDlq: string };
  stop: () => Promise<void>;
}

/**
 * The SQS endpoint of the local platform: fauxqs in this process (SQS JSON protocol, visibility,
 * long polling, redrive), bound to loopback. Its state lives in memory: queued jobs do not
 * survive a restart, the queues are created again on every start.
 *
 * fauxqs' own `startFauxqs` binds every interface, so its app is built and bound here instead.
 * Queue URLs take the host of the CreateQueue request, so they name this endpoint and resolve;
 * clients still set `endpoint` (AWS_ENDPOINT_URL_SQS) as fauxqs expects.
 */
export async function startSqs(options: {
  port: number;
  host?: string;
  region: string;
  credentials: EngineCredentials;
}): Promise<LocalSqs> {
  // fauxqs ships ES modules only: a dynamic import loads it from this CommonJS package.
  const { buildApp } = await import('fauxqs');
  const app = buildApp({ logger: false, defaultRegion: options.region });
  const host = options.host ?? '127.0.0.1';
  // fauxqs checks no signature and never listens: the signing proxy hands it each request it
  // passes, in this process (Fastify's inject).
  await app.ready();
  const proxy = signedProxy(
    'sqs',
    async (sent) => {
      const answer = await app.inject({
        method: sent.method as 'POST',
        url: sent.url,
        headers: sent.headers,
        payload: sent.body,
      });
      return { status: answer.statusCode, headers: answer.headers, body: answer.rawPayload };
    },
    options.credentials,
  );
  await new Promise<void>((resolve, reject) => {
    proxy.once('error', reject);
    proxy.listen(options.port, host, () => resolve());
  });
  const close = async () => {
    proxy.close();
    proxy.closeAllConnections();
    await app.close();
  };
  const endpoint = `http://${host}:${options.port}`;
  const client = new SQSClient({ endpoint, region: options.region, credentials: options.credentials });
  try {
    const dlq = await client.send(
      new CreateQueueCommand({ QueueName: QUEUES.agentJobsDlq, Attributes: { MessageRetentionPeriod: '1209600' } }),
    );
    const { Attributes } = await client.send(
      new GetQueueAttributesCommand({ QueueUrl: dlq.QueueUrl, AttributeNames: ['QueueArn'] }),
    );
    const jobs = await client.send(
      new CreateQueueCommand({
        QueueName: QUEUES.agentJobs,
        Attributes: {
          RedrivePolicy: JSON.stringify({
            deadLetterTargetArn: Attributes?.QueueArn,
            maxReceiveCount: AGENT_JOBS_MAX_RECEIVE,
          }),
        },
      }),
    );
    return {
      endpoint,
      queueUrls: { agentJobs: jobs.QueueUrl as string, agentJobsDlq: dlq.QueueUrl as string },
      stop: close,
    };
  } catch (err) {
    await close();
    throw err;
  } finally {
    client.destroy();
  }
}

/**
 * A queue row's queue and its dead-letter queue, as the CDK stack makes them (lib/aws/workers.ts);
 * one that exists is kept (same attributes). Answers the queue's URL.
 */
export async function ensureQueue(sqs: SQSClient, w: Worker, trigger: QueueTrigger): Promise<string> {
  const dlq = await sqs.send(new CreateQueueCommand({ QueueName: `${trigger.queue}-dlq` }));
  const dlqArn = (
    await sqs.send(new GetQueueAttributesCommand({ QueueUrl: dlq.QueueUrl, AttributeNames: ['QueueArn'] }))
  ).Attributes?.QueueArn;
  const { QueueUrl } = await sqs.send(
    new CreateQueueCommand({
      QueueName: trigger.queue,
      Attributes: {
        VisibilityTimeout: String(Math.min(Math.ceil(6 * w.timeoutMinutes * 60), 43_200)),
        RedrivePolicy: JSON.stringify({ deadLetterTargetArn: dlqArn, maxReceiveCount: trigger.deadLetter.maxReceives }),
      },
    }),
  );
  return QueueUrl as string;
}

/**
 * The queues of the table's queue rows, made before anything sends to them: the URLs by the
 * variable their senders read (shared/ports/queue: `repo-archives` → `REPO_ARCHIVES_QUEUE_URL`), for the
 * local platform's environment, as the CDK stack sets them on AWS.
 */
export async function createWorkerQueues(options: {
  endpoint: string;
  region: string;
  credentials: { accessKeyId: string; secretAccessKey: string };
  workers?: Worker[];
}): Promise<Record<string, string>> {
  const sqs = new SQSClient({ endpoint: options.endpoint, region: options.region, credentials: options.credentials });
  try {
    const urls: Record<string, string> = {};
    for (const w of options.workers ?? table) {
      if (w.trigger.kind !== 'queue') continue;
      urls[queueUrlVariable(w.trigger.queue)] = await ensureQueue(sqs, w, w.trigger);
    }
    return urls;
  } finally {
    sqs.destroy();
  }
}
