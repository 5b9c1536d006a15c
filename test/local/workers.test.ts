import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { GetQueueAttributesCommand, GetQueueUrlCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { App, type CfnElement } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as z from 'zod/mini';
import { PlatformStack } from '../../lib/aws/platform-stack';
import { type LocalWorkers, startWorkers } from '../../lib/local/workers';
import { routeGroups } from '../../lib/route-groups';
import { type Worker, workers } from '../../lib/workers';
import { publishEvent } from '../../shared/kernel/events/bus';
import { db } from '../../shared/kernel/store/client';
import { newId } from '../../shared/kernel/store/ids';
import { TABLE } from '../../shared/kernel/store/table';
import { putRecord } from '../helpers/records';
import { startTestQueues } from '../helpers/sqs';

/**
 * The local worker runner (lib/local/workers.ts) reads the same table as the AWS loop: every row
 * is started on both targets, a row added to the table is started with no other change, a
 * missing variable stops the start with its name, and a CodeBuild-shaped event published by a
 * local engine reaches build-events, which moves the real record.
 */
const root = path.resolve(__dirname, '..', '..');

/** Every variable the table's needs declare locally, as the local platform sets them. */
const env: NodeJS.ProcessEnv = { ...process.env, ARTIFACTS_BUCKET: 'platform-artifacts' };

/** The AWS loop over `table`, without bundling: the workers it built, by name and trigger. */
function awsWorkers(table: Worker[]) {
  const flags = (JSON.parse(readFileSync(path.join(root, 'cdk.json'), 'utf8')) as { context: object }).context;
  const app = new App({ context: { ...flags, 'aws:cdk:bundling-stacks': [] }, builtinCloudFormationValidation: false });
  const stack = new PlatformStack(app, 'Workers', {
    authUrl: 'https://auth.example.com',
    authAudience: 'platform-api',
    workers: table,
    // One route group, with no queue to send to (one sending to a worker's queue needs that worker
    // in `table`): a logs worker's subscription filters are on the groups' log groups.
    groups: routeGroups.filter((g) => g.name === 'core'),
  });
  const template = Template.fromStack(stack);
  const resources = Object.values(template.toJSON().Resources as Record<string, Resource>);
  return stack.workers.map((w) => {
    const fn = `"${stack.getLogicalId(w.fn.node.defaultChild as CfnElement)}"`;
    const on = (type: string, key: string) =>
      resources.some((r) => r.Type === type && JSON.stringify(r.Properties[key]).includes(fn));
    const rule = resources.find(
      (r) => r.Type === 'AWS::Events::Rule' && JSON.stringify(r.Properties.Targets).includes(fn),
    );
    const kind = on('AWS::Lambda::EventSourceMapping', 'FunctionName')
      ? 'queue'
      : on('AWS::Logs::SubscriptionFilter', 'DestinationArn')
        ? 'logs'
        : rule?.Properties.EventPattern
          ? 'event'
          : rule?.Properties.ScheduleExpression
            ? 'schedule'
            : 'none';
    return { name: w.worker.name, kind };
  });
}

type Resource = { Type: string; Properties: Record<string, unknown> };

let running: LocalWorkers | undefined;
let sqs: { endpoint: string; stop: () => Promise<void> } | undefined;
// The table has a queue worker: every start reads its queue on a local SQS endpoint.
beforeAll(async () => {
  sqs = await startTestQueues(env);
});
afterAll(async () => {
  await sqs?.stop();
});
afterEach(async () => {
  await running?.stop();
  running = undefined;
});

describe('one table, both targets', () => {
  test('every row of lib/workers.ts is started by the local runner and built by the AWS loop, alike', async () => {
    running = await startWorkers({ env, runSchedulesAtStart: false });
    const expected = workers.map((w) => ({ name: w.name, kind: w.trigger.kind }));
    expect(running.started).toEqual(expected);
    expect(awsWorkers(workers)).toEqual(expected);
  });

  describe('a row added to the table is all it takes', () => {
    test('a queue worker: its queue is read on the local SQS endpoint and its messages handled', async () => {
      // An existing worker's entry under a queue trigger of its own.
      const row: Worker = {
        name: 'storage-usage',
        description: 'Bucket usage on demand',
        trigger: {
          kind: 'queue',
          queue: 'usage-requests',
          batchSize: 5,
          deadLetter: { maxReceives: 3, retentionDays: 14 },
          message: z.looseObject({}),
        },
        needs: ['table', 'bucketMetrics'],
        timeoutMinutes: 1,
      };
      expect(awsWorkers([row])).toEqual([{ name: row.name, kind: 'queue' }]);
      running = await startWorkers({ workers: [row], env });
      expect(running.started).toEqual([{ name: row.name, kind: 'queue' }]);
      const client = new SQSClient({ endpoint: env.AWS_ENDPOINT_URL_SQS });
      try {
        const { QueueUrl } = await client.send(new GetQueueUrlCommand({ QueueName: 'usage-requests' }));
        const dlq = await client.send(new GetQueueUrlCommand({ QueueName: 'usage-requests-dlq' }));
        const { Attributes } = await client.send(
          new GetQueueAttributesCommand({ QueueUrl, AttributeNames: ['RedrivePolicy'] }),
        );
        expect(JSON.parse(Attributes?.RedrivePolicy ?? '{}')).toMatchObject({ maxReceiveCount: 3 });
        expect(dlq.QueueUrl).toBeDefined();
        await client.send(new SendMessageCommand({ QueueUrl, MessageBody: JSON.stringify({ buckets: [] }) }));
        // Handled and deleted: nothing waiting, nothing in flight.
        await until(async () => {
          const { Attributes: a } = await client.send(
            new GetQueueAttributesCommand({
              QueueUrl,
              AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
            }),
          );
          return a?.ApproximateNumberOfMessages === '0' && a?.ApproximateNumberOfMessagesNotVisible === '0';
        });
      } finally {
        client.destroy();
      }
    });
  });
});

describe('the environment contract', () => {
  test('a worker whose need has no variable stops the start, naming it', async () => {
    const { TABLE_NAME: _, ...withoutTable } = env;
    await expect(startWorkers({ env: withoutTable, runSchedulesAtStart: false })).rejects.toThrow(
      'The build-events worker cannot start: TABLE_NAME is not set.',
    );
    const { LOCAL_SECRETS_KEY: __, ...withoutKey } = env;
    await expect(startWorkers({ env: withoutKey, runSchedulesAtStart: false })).rejects.toThrow(/LOCAL_SECRETS_KEY/);
  });
});

describe('events', () => {
  test('a CodeBuild-shaped event published by a local engine moves the deployment through build-events', async () => {
    running = await startWorkers({ env, runSchedulesAtStart: false });
    const orgId = newId('org_');
    const deploymentId = newId('dpl_');
    const projectId = newId('prj_');
    await putRecord(orgId, `DPL#${deploymentId}`, {
      deploymentId,
      orgId,
      projectId,
      location: 'fra',
      target: 'preview',
      status: 'queued',
      createdAt: Date.now(),
      version: 1,
    });
    await publishEvent({
      source: 'aws.codebuild',
      'detail-type': 'CodeBuild Build State Change',
      detail: {
        'build-status': 'IN_PROGRESS',
        'build-id': `local:${deploymentId}`,
        'additional-information': {
          environment: {
            'environment-variables': [
              { name: 'DEPLOYMENT_ID', value: deploymentId },
              { name: 'ORG_ID', value: orgId },
              { name: 'PROJECT_ID', value: projectId },
              { name: 'DEPLOYMENT_TARGET', value: 'preview' },
            ],
          },
        },
      },
    });
    const { Item } = await db.send(
      new GetCommand({ TableName: TABLE(), Key: { pk: `ORG#${orgId}`, sk: `DPL#${deploymentId}` } }),
    );
    expect(Item?.status).toBe('building');
  });

  test('an event no row listens for reaches no worker', async () => {
    running = await startWorkers({ env, runSchedulesAtStart: false });
    await expect(
      running.deliverEvent({ source: 'aws.s3', 'detail-type': 'Object Created', detail: {} }),
    ).resolves.toBeUndefined();
  });
});

/** Waits for `condition`, checking again after each answer (bounded by the test's timeout). */
async function until(condition: () => Promise<boolean>): Promise<void> {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 100));
}
