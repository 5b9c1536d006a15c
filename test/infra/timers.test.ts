import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { PlatformStack } from '../../lib/aws/platform-stack';
import type { NotifyTimers } from '../../lib/aws/timers';
import { flags, logicalId, noBundling, root, statementsOf } from './helpers';

/**
 * The notify worker's long timers on AWS: one schedule group, a role only EventBridge Scheduler of
 * this account assumes, allowed to send to the notify queue and the timers' dead-letter queue and
 * nothing else; the functions that set timers pass only that role, to the scheduler only.
 */
const app = new App({ context: { ...flags, ...noBundling }, builtinCloudFormationValidation: false });
const stack = new PlatformStack(app, 'TimersStack', {
  authUrl: 'https://auth.example.com',
  authAudience: 'platform-api',
  projectRoot: root,
  mailFrom: 'alerts@mail.example.com',
});
const template = Template.fromStack(stack);
const timers = stack.node.findChild('NotifyTimers') as NotifyTimers;
const notify = stack.workers.find((w) => w.worker.name === 'notify');

test('one schedule group; its role is the scheduler service of this account', () => {
  template.resourceCountIs('AWS::Scheduler::ScheduleGroup', 1);
  const role = template.toJSON().Resources[logicalId(timers.role)].Properties;
  expect(role.AssumeRolePolicyDocument.Statement).toEqual([
    {
      Action: 'sts:AssumeRole',
      Effect: 'Allow',
      Principal: { Service: 'scheduler.amazonaws.com' },
      Condition: { StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } } },
    },
  ]);
});

test('the role sends to the notify queue and the dead letters, nothing else', () => {
  const statements = statementsOf(template, logicalId(timers.role));
  const queue = notify?.queue;
  if (!queue) throw new Error('no notify queue');
  expect(statements.flatMap((s) => s.actions).every((a) => a.startsWith('sqs:'))).toBe(true);
  const targets = statements.map((s) => s.resource);
  expect(targets.some((r) => r.includes(logicalId(queue)))).toBe(true);
  expect(targets.some((r) => r.includes(logicalId(timers.deadLetters)))).toBe(true);
  // Merged into one statement: exactly those two queues.
  expect(targets.join(' ').match(/Fn::GetAtt/g)).toHaveLength(2);
});

test('who sets timers passes only the timers role, to the scheduler, and sends mail as MAIL_FROM only', () => {
  const fn = notify;
  if (!fn) throw new Error('no notify worker');
  const statements = statementsOf(template, logicalId(fn.role));
  const pass = statements.filter((s) => s.actions.includes('iam:PassRole'));
  expect(pass).toHaveLength(1);
  expect(pass[0]?.resource).toContain(logicalId(timers.role));
  const mail = statements.filter((s) => s.actions.includes('ses:SendEmail'));
  expect(mail).toHaveLength(1);
  expect(JSON.stringify(mail[0])).toContain('alerts@mail.example.com');
  const env = template.toJSON().Resources[logicalId(fn.fn)].Properties.Environment.Variables;
  expect(env.MAIL_FROM).toBe('alerts@mail.example.com');
  expect(Object.keys(env)).toEqual(
    expect.arrayContaining([
      'NOTIFY_QUEUE_URL',
      'NOTIFY_QUEUE_ARN',
      'SCHEDULE_GROUP',
      'SCHEDULER_ROLE_ARN',
      'SCHEDULE_DLQ_ARN',
    ]),
  );
});
