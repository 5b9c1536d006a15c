import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { PlatformStack } from '../../lib/aws/platform-stack';
import { routeGroups } from '../../lib/route-groups';
import { workers } from '../../lib/workers';
import { flags, logicalId, type Resources } from '../infra/helpers';

/**
 * The analytics worker on AWS: a logs row of lib/workers.ts becomes a CloudWatch Logs subscription
 * filter on each route group function's log group, with the row's pattern, delivering to the
 * worker, which only CloudWatch Logs may invoke.
 */
test('each route group’s log group delivers its analytics lines to the analytics worker', () => {
  const row = workers.find((w) => w.name === 'analytics');
  if (row?.trigger.kind !== 'logs') throw new Error('no logs row for analytics');
  const groups = routeGroups.filter((g) => g.name === 'core' || g.name === 'insights');
  const app = new App({ context: { ...flags, 'aws:cdk:bundling-stacks': [] }, builtinCloudFormationValidation: false });
  const stack = new PlatformStack(app, 'Analytics', {
    authUrl: 'https://auth.example.com',
    authAudience: 'platform-api',
    workers: [row],
    groups,
  });
  const template = Template.fromStack(stack);
  const worker = stack.workers[0];
  if (!worker) throw new Error('no worker function');
  const filters = Object.values(template.findResources('AWS::Logs::SubscriptionFilter') as Resources);
  expect(filters).toHaveLength(groups.length);
  for (const f of filters) {
    expect(f.Properties.FilterPattern).toBe(row.trigger.pattern);
    expect(f.Properties.DestinationArn).toEqual({ 'Fn::GetAtt': [logicalId(worker.fn), 'Arn'] });
  }
  const logGroups = filters.map((f) => f.Properties.LogGroupName.Ref).sort();
  expect(logGroups).toEqual(stack.functions.map((g) => logicalId(g.logGroup)).sort());
  const permissions = Object.values(template.findResources('AWS::Lambda::Permission') as Resources).filter((p) =>
    JSON.stringify(p.Properties.FunctionName).includes(logicalId(worker.fn)),
  );
  expect(new Set(permissions.map((p) => p.Properties.Principal))).toEqual(new Set(['logs.amazonaws.com']));
  // No rule and no queue: the subscription is its only trigger.
  expect(worker.rule).toBeUndefined();
  expect(worker.queue).toBeUndefined();
});
