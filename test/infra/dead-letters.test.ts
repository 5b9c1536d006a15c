import { App, type CfnElement, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { PlatformStack } from '../../lib/aws/platform-stack';
import { flags, type Resources } from './helpers';

/**
 * Every dead-letter queue of the stack has one alarm (lib/aws/dead-letters.ts): a message visible
 * in it over five minutes is one that failed past its retries. The dead-letter queues are found in
 * the template: the targets of the queues' redrive policies, and the notify timers' (the target of
 * the schedules' DeadLetterConfig, which are made at runtime: SCHEDULE_DLQ_ARN).
 */

let stack: PlatformStack;
let resources: Resources;

beforeAll(() => {
  const app = new App({ context: { ...flags, 'aws:cdk:bundling-stacks': [] }, builtinCloudFormationValidation: false });
  stack = new PlatformStack(app, 'DeadLetters', { authUrl: 'https://auth.example.com', authAudience: 'platform-api' });
  resources = Template.fromStack(stack).toJSON().Resources as Resources;
});

/** The construct path of each queue of the stack, by its logical id. */
const queuePaths = () =>
  new Map(
    stack.node
      .findAll()
      .filter((c): c is sqs.Queue => c instanceof sqs.Queue)
      .map((q) => [
        Stack.of(q).getLogicalId(q.node.defaultChild as CfnElement),
        q.node.path.replace(/^DeadLetters\//, ''),
      ]),
  );

/** The logical id a `{ "Fn::GetAtt": [id, "Arn"] }` names. */
const arnOf = (value: unknown) => (value as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];

function deadLetterIds(): string[] {
  const redriven = Object.values(resources)
    .filter((r) => r.Type === 'AWS::SQS::Queue' && r.Properties.RedrivePolicy)
    .map((r) => arnOf(r.Properties.RedrivePolicy.deadLetterTargetArn));
  const scheduled = Object.values(resources)
    .filter((r) => r.Type === 'AWS::Lambda::Function' && r.Properties.Environment?.Variables?.SCHEDULE_DLQ_ARN)
    .map((r) => arnOf(r.Properties.Environment.Variables.SCHEDULE_DLQ_ARN));
  // Functions' asynchronous invocations and rules' targets (the workers started by events,
  // schedules and log filters).
  const invoked = Object.values(resources)
    .filter((r) => r.Type === 'AWS::Lambda::Function' && r.Properties.DeadLetterConfig)
    .map((r) => arnOf(r.Properties.DeadLetterConfig.TargetArn));
  const targeted = Object.values(resources)
    .filter((r) => r.Type === 'AWS::Events::Rule')
    .flatMap((r) => (r.Properties.Targets ?? []) as { DeadLetterConfig?: { Arn: unknown } }[])
    .flatMap((t) => (t.DeadLetterConfig ? [arnOf(t.DeadLetterConfig.Arn)] : []));
  return [...new Set([...redriven, ...scheduled, ...invoked, ...targeted])];
}

const deadLetterQueues = [
  'AgentJobs/DeadLetters',
  'NotifyTimers/DeadLetters',
  'Workers/AgentCallbacks/DeadLetters',
  'Workers/AgentChecks/DeadLetters',
  'Workers/DomainChecks/DeadLetters',
  'Workers/EventDeadLetters',
  'Workers/MailFeedback/DeadLetters',
  'Workers/MailInbound/DeadLetters',
  'Workers/Notify/DeadLetters',
  'Workers/RepoArchives/DeadLetters',
  'Workers/Webhooks/DeadLetters',
];

/** The alarms on an SQS metric of the queue `id`. */
const alarmsOf = (id: string) =>
  Object.values(resources).filter(
    (r) =>
      r.Type === 'AWS::CloudWatch::Alarm' &&
      r.Properties.Namespace === 'AWS/SQS' &&
      JSON.stringify(r.Properties.Dimensions) ===
        JSON.stringify([{ Name: 'QueueName', Value: { 'Fn::GetAtt': [id, 'QueueName'] } }]),
  );

test('the dead-letter queues of the stack: the queue workers’, the agent jobs’, the notify timers’', () => {
  const paths = queuePaths();
  expect(
    deadLetterIds()
      .map((id) => paths.get(id))
      .sort(),
  ).toEqual(deadLetterQueues);
});

test.each(deadLetterQueues)('%s: one alarm, on any message visible over five minutes', (path) => {
  const id = [...queuePaths()].find(([, p]) => p === path)?.[0] as string;
  const alarms = alarmsOf(id);
  expect(alarms).toHaveLength(1);
  expect(alarms[0]?.Properties).toMatchObject({
    MetricName: 'ApproximateNumberOfMessagesVisible',
    Statistic: 'Maximum',
    Period: 300,
    EvaluationPeriods: 1,
    ComparisonOperator: 'GreaterThanThreshold',
    Threshold: 0,
    TreatMissingData: 'notBreaching',
  });
});

test('no alarm on a queue that is not a dead-letter queue', () => {
  const sqsAlarms = Object.values(resources).filter(
    (r) => r.Type === 'AWS::CloudWatch::Alarm' && r.Properties.Namespace === 'AWS/SQS',
  );
  expect(sqsAlarms).toHaveLength(deadLetterIds().length);
});

test('every worker a rule or a log filter starts sends what failed past its retries to the workers’ dead-letter queue, and so does each rule’s target', () => {
  const paths = queuePaths();
  const functions = Object.entries(resources).filter(
    ([, r]) => r.Type === 'AWS::Lambda::Function' && (r.Properties.Description ?? '') !== '',
  );
  const workerFns = stack.workers.filter((w) => w.worker.trigger.kind !== 'queue');
  expect(workerFns.length).toBeGreaterThan(3);
  for (const w of workerFns) {
    const id = Stack.of(w).getLogicalId(w.fn.node.defaultChild as CfnElement);
    const fn = functions.find(([logical]) => logical === id)?.[1];
    expect({ [w.worker.name]: paths.get(arnOf(fn?.Properties.DeadLetterConfig?.TargetArn)) }).toEqual({
      [w.worker.name]: 'Workers/EventDeadLetters',
    });
    if (!w.rule) continue;
    const rule = resources[Stack.of(w).getLogicalId(w.rule.node.defaultChild as CfnElement)];
    expect({ [w.worker.name]: paths.get(arnOf(rule?.Properties.Targets[0].DeadLetterConfig.Arn)) }).toEqual({
      [w.worker.name]: 'Workers/EventDeadLetters',
    });
  }
  // Queue workers keep their own queue's redrive, no function-level dead-letter queue.
  for (const w of stack.workers.filter((x) => x.worker.trigger.kind === 'queue')) {
    const id = Stack.of(w).getLogicalId(w.fn.node.defaultChild as CfnElement);
    expect({ [w.worker.name]: resources[id]?.Properties.DeadLetterConfig }).toEqual({ [w.worker.name]: undefined });
  }
});
