import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { Construct } from 'constructs';
import * as z from 'zod/mini';
import { GIT_REPO_PREFIX } from '../../lib/aws/deployments';
import { PlatformStack } from '../../lib/aws/platform-stack';
import { addWorkers } from '../../lib/aws/workers';
import { type Worker, workerEntry, workers } from '../../lib/workers';
import { envOfNeeds, NEED_ENV, type Need } from '../../shared/kernel/needs';
import { flags, logicalId, type Resources, root, statementsOf } from './helpers';

/**
 * The worker table on AWS (lib/aws/workers.ts): every row becomes one function with its trigger
 * (a schedule or event rule, or its own queue with a dead-letter queue), the grants of its needs
 * and nothing else, and the environment its needs declare (shared/kernel/needs.ts).
 */

/** A stack of `table` without bundling (the platform-stack test bundles the real one). */
function synth(table: Worker[]) {
  const app = new App({ context: { ...flags, 'aws:cdk:bundling-stacks': [] }, builtinCloudFormationValidation: false });
  const stack = new PlatformStack(app, 'Workers', {
    authUrl: 'https://auth.example.com',
    authAudience: 'platform-api',
    workers: table,
    // No route group: one sending to a worker's queue needs that worker in `table`.
    groups: [],
  });
  return { app, stack, template: Template.fromStack(stack) };
}

const workerOf = (stack: PlatformStack, name: string) => {
  const w = stack.workers.find((x) => x.worker.name === name);
  if (!w) throw new Error(`no function for worker ${name}`);
  return w;
};

/** A queue worker, on an existing worker's entry (the stack checks the file is there), alone in its table. */
const queueRow: Worker = {
  name: 'build-retention',
  description: 'A queue worker',
  trigger: {
    kind: 'queue',
    queue: 'probe-jobs',
    batchSize: 7,
    deadLetter: { maxReceives: 4, retentionDays: 14 },
    message: z.looseObject({}),
  },
  needs: ['table'],
  timeoutMinutes: 2,
};

describe('the worker table', () => {
  const { stack, template } = synth(workers);

  test.each(workers.map((w) => [w.name, w]))('%s: its entry exists and exports a handler', (_, w) => {
    const file = path.join(root, workerEntry(w as Worker));
    expect(existsSync(file)).toBe(true);
    expect(readFileSync(file, 'utf8')).toMatch(/export (async )?(function|const) handler\b/);
  });

  test('one function per row, in the order of the table, and no other worker', () => {
    expect(stack.workers.map((w) => w.worker.name)).toEqual(workers.map((w) => w.name));
    const groups = stack.functions.length;
    // And the git function (test/infra/platform-stack.test.ts).
    template.resourceCountIs(
      'AWS::Lambda::Function',
      groups + workers.length + (stack.git ? 1 : 0) + (stack.dav ? 1 : 0),
    );
  });

  test.each(workers.map((w) => [w.name, w]))('%s: its trigger, and only it, may invoke it', (_, row) => {
    const w = workerOf(stack, (row as Worker).name);
    const trigger = w.worker.trigger;
    const fn = template.toJSON().Resources[logicalId(w.fn)];
    expect(fn.Properties).toMatchObject({
      Runtime: 'nodejs22.x',
      Architectures: ['arm64'],
      Timeout: w.worker.timeoutMinutes * 60,
      Description: w.worker.description,
    });
    // See 'a queue row'; a logs row: test/insights/infra.test.ts.
    if (trigger.kind === 'queue' || trigger.kind === 'logs') return;
    const rules = Object.values(template.findResources('AWS::Events::Rule') as Resources).filter((r) =>
      JSON.stringify(r.Properties.Targets).includes(`"${logicalId(w.fn)}"`),
    );
    expect(rules).toHaveLength(1);
    const rule = rules[0]?.Properties as Record<string, unknown>;
    if (trigger.kind === 'schedule') {
      expect(rule.ScheduleExpression).toBe(
        trigger.every === 'hour' ? 'rate(1 hour)' : `cron(0 ${trigger.atHourUtc} * * ? *)`,
      );
    } else {
      expect(rule.EventPattern).toEqual({
        source: [trigger.source],
        'detail-type': [trigger.detailType],
        detail:
          trigger.of === 'buildProject'
            ? { 'project-name': [{ Ref: logicalId(stack.deployments.project) }] }
            : { repositoryName: [{ prefix: GIT_REPO_PREFIX }] },
      });
    }
    const targets = rule.Targets as { Arn: unknown; RetryPolicy: { MaximumRetryAttempts: number } }[];
    expect(targets.map((t) => [t.Arn, t.RetryPolicy.MaximumRetryAttempts])).toEqual([
      [{ 'Fn::GetAtt': [logicalId(w.fn), 'Arn'] }, trigger.retries],
    ]);
    const permissions = Object.values(template.findResources('AWS::Lambda::Permission') as Resources).filter((p) =>
      JSON.stringify(p.Properties.FunctionName).includes(logicalId(w.fn)),
    );
    expect(permissions.map((p) => p.Properties.Principal)).toEqual(['events.amazonaws.com']);
  });

  test.each(workers.map((w) => [w.name, w]))('%s: the grants of its needs, nothing else', (_, row) => {
    const w = workerOf(stack, (row as Worker).name);
    const needs = (need: Need) => w.worker.needs.includes(need);
    const statements = statementsOf(template, logicalId(w.role));
    const actions = statements.flatMap((s) => s.actions);
    const touches = (construct: Construct) => statements.some((s) => s.resource.includes(`"${logicalId(construct)}"`));
    expect(touches(stack.data.table)).toBe(needs('table'));
    expect(touches(stack.data.artifactsBucket)).toBe(
      needs('artifactsRead') || needs('artifactsExpire') || needs('buckets') || needs('repoLfs'),
    );
    expect(actions.includes('s3:DeleteObject*')).toBe(needs('artifactsExpire') || needs('buckets') || needs('repoLfs'));
    expect(actions.some((a) => a.startsWith('s3:PutObject'))).toBe(needs('buckets') || needs('repoLfs'));
    // LFS objects alone (repoLfs): the bucket's repo-lfs/ prefix, nothing else of it.
    if (needs('repoLfs') && !needs('buckets') && !needs('artifactsRead') && !needs('artifactsExpire')) {
      const onBucket = statements.filter((s) => s.resource.includes(`"${logicalId(stack.data.artifactsBucket)}"`));
      for (const st of onBucket) expect(st.resource).toMatch(/repo-lfs\/\*/);
    }
    // On the secrets key (the table's grant has its own key): decrypt only, unless the worker seals too.
    const onSecretsKey = statements.filter((s) => s.resource.includes(`"${logicalId(stack.data.secretsKey)}"`));
    const keyActions = onSecretsKey.flatMap((s) => s.actions);
    if (needs('kms')) expect(keyActions).toContain('kms:Decrypt');
    else expect(keyActions).toEqual(needs('secretsDecrypt') ? ['kms:Decrypt'] : []);
    expect(actions.some((a) => a.startsWith('codecommit:'))).toBe(needs('git'));
    expect(actions.includes('lambda:CreateFunction')).toBe(needs('serverFunctions'));
    // Passing a role: server functions' roles to Lambda, or the timers' role to the scheduler.
    expect(actions.includes('iam:PassRole')).toBe(needs('serverFunctions') || needs('scheduler'));
    expect(actions.includes('lambda:DeleteFunction')).toBe(needs('serverFunctions') || needs('functionsDelete'));
    expect(actions.includes('logs:GetLogEvents')).toBe(needs('buildLogs') || needs('builds'));
    expect(actions.includes('cloudwatch:GetMetricData')).toBe(needs('bucketMetrics'));
    expect(actions.some((a) => a.startsWith('codebuild:'))).toBe(needs('builds') || needs('repoImports'));
    // SQS: a queue worker consumes its own queue (its event source's grant); sends only where a need says.
    // A worker a rule or a log filter starts sends what failed past its retries to the workers'
    // dead-letter queue (Lambda sends it with the function's role): that statement alone.
    const eventDeadLetters = stack.node
      .findAll()
      .find((c) => c.node.path.endsWith('/Workers/EventDeadLetters')) as Construct;
    const toDeadLetters = statements.filter((s) => s.resource.includes(`"${logicalId(eventDeadLetters)}"`));
    expect(toDeadLetters.map((s) => s.actions)).toEqual(w.worker.trigger.kind === 'queue' ? [] : [['sqs:SendMessage']]);
    const onOtherQueues = statements.filter(
      (s) =>
        s.actions.some((a) => a.startsWith('sqs:')) &&
        !(w.queue && s.resource.includes(logicalId(w.queue))) &&
        !toDeadLetters.includes(s),
    );
    // Other queues: sending only, and only where a need names a queue worker's queue.
    // A need that brings a queue's URL (shared/kernel/needs.ts) sends to that queue.
    const sends = w.worker.needs.some((n) => NEED_ENV[n].aws.some((v) => v.endsWith('_QUEUE_URL')));
    for (const st of onOtherQueues) {
      expect(
        st.actions.filter((a) => !['sqs:SendMessage', 'sqs:GetQueueAttributes', 'sqs:GetQueueUrl'].includes(a)),
      ).toEqual([]);
    }
    if (!sends) expect(onOtherQueues).toEqual([]);
    expect(actions.includes('sqs:ReceiveMessage')).toBe(w.worker.trigger.kind === 'queue');
    // Sending: only to a queue worker's queue its needs name (the agent-callbacks worker's next try).
    expect(
      statements.filter((s) => !toDeadLetters.includes(s)).some((s) => s.actions.includes('sqs:SendMessage')),
    ).toBe(sends);
  });

  test.each(workers.map((w) => [w.name, w]))('%s: exactly the environment its needs declare', (_, row) => {
    const w = workerOf(stack, (row as Worker).name);
    const env = template.toJSON().Resources[logicalId(w.fn)].Properties.Environment.Variables;
    const base = ['AUTH_AUDIENCE', 'AUTH_URL', 'PLATFORM_TARGET', 'STAGE', 'TABLE_NAME'];
    expect(Object.keys(env).sort()).toEqual([...new Set([...base, ...envOfNeeds(w.worker.needs, 'aws')])].sort());
  });
});

describe('a queue row', () => {
  const { app, stack, template } = synth([queueRow]);
  const w = stack.workers[0];

  test('its own queue, redriving to its dead-letter queue; read in batches with partial failures', () => {
    if (!w?.queue || !w.deadLetterQueue) throw new Error('no queue');
    const resources = template.toJSON().Resources;
    expect(resources[logicalId(w.queue)].Properties).toMatchObject({
      SqsManagedSseEnabled: true,
      // Six times the function's timeout.
      VisibilityTimeout: 6 * queueRow.timeoutMinutes * 60,
      RedrivePolicy: {
        deadLetterTargetArn: { 'Fn::GetAtt': [logicalId(w.deadLetterQueue), 'Arn'] },
        maxReceiveCount: 4,
      },
    });
    expect(resources[logicalId(w.deadLetterQueue)].Properties).toMatchObject({
      SqsManagedSseEnabled: true,
      MessageRetentionPeriod: 14 * 86_400,
    });
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: logicalId(w.fn) },
      EventSourceArn: { 'Fn::GetAtt': [logicalId(w.queue), 'Arn'] },
      BatchSize: 7,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
    const rules = JSON.stringify(template.findResources('AWS::Events::Rule'));
    expect(rules).not.toContain(`"${logicalId(w.fn)}"`);
  });

  test('it consumes its own queue only', () => {
    if (!w?.queue) throw new Error('no queue');
    const sqs = statementsOf(template, logicalId(w.role)).filter((s) => s.actions.some((a) => a.startsWith('sqs:')));
    expect(sqs.length).toBeGreaterThan(0);
    for (const s of sqs) {
      expect(s.resource).toContain(logicalId(w.queue));
      expect(s.actions).not.toContain('sqs:SendMessage');
    }
  });

  test('cdk-nag stays clean', () => {
    const report = new AwsSolutionsChecks().validateScope(app);
    expect(report.violations.map((v) => `${v.ruleName} ${v.violatingResources.map((r) => r.constructPath)}`)).toEqual(
      [],
    );
  });
});

describe('the environment contract on AWS', () => {
  test('a function without a variable its needs declare stops the synthesis, naming it', () => {
    const { stack } = synth([]);
    const worker: Worker = { ...queueRow, name: 'storage-usage', needs: ['table', 'bucketMetrics'] };
    // TABLE_NAME comes with the environment every function gets: here there is none.
    expect(() => addWorkers(stack, [worker], { projectRoot: root, environment: {}, platform: stack })).toThrow(
      /Workers\/StorageUsage\/Worker cannot start: TABLE_NAME is not set\./,
    );
  });
});
