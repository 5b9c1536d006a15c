import * as path from 'node:path';
import { App } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { DAV_ADDRESS_GROUPS, DAV_FUNCTION_NEEDS } from '../../lib/aws/dav';
import { PlatformStack } from '../../lib/aws/platform-stack';
import { envOfNeeds } from '../../shared/kernel/needs';
import { flags, logicalId, noBundling, type Resources, root, statementsOf } from './helpers';

/**
 * CalDAV and CardDAV on AWS (lib/aws/dav.ts): a function behind a function URL (WebDAV's methods
 * pass no HTTP API and no CloudFront), auth NONE (the handler checks Basic credentials), its URL a
 * stack output and DAV_BASE_URL of the groups that tell people the address. Synthesized from a
 * stand-in entry; with no entry in the tree, no function, and the stack says so.
 */
const stackWith = (davEntry: string) => {
  const app = new App({ context: { ...flags, ...noBundling }, builtinCloudFormationValidation: false });
  const stack = new PlatformStack(app, 'Dav', {
    authUrl: 'https://auth.example.com',
    authAudience: 'platform-api',
    projectRoot: root,
    davEntry,
  });
  return { app, stack, t: Template.fromStack(stack) };
};

const { app, stack, t } = stackWith(path.join(root, 'test', 'fixtures', 'dav', 'handler.ts'));
const dav = stack.dav as NonNullable<typeof stack.dav>;
const envOf = (fnId: string) => t.toJSON().Resources[fnId].Properties.Environment.Variables as Record<string, unknown>;
const groupEnv = (name: string) => {
  const f = stack.functions.find((g) => g.group.name === name);
  return envOf(logicalId((f as NonNullable<typeof f>).fn));
};

test('one function behind a function URL with auth NONE, buffered (6 MB each way), its URL an output', () => {
  expect(dav).toBeDefined();
  const urls = Object.values(t.findResources('AWS::Lambda::Url') as Resources).filter((u) =>
    JSON.stringify(u.Properties.TargetFunctionArn).includes(logicalId(dav.fn)),
  );
  expect(urls).toHaveLength(1);
  expect(urls[0]?.Properties).toEqual({
    AuthType: 'NONE',
    InvokeMode: 'BUFFERED',
    TargetFunctionArn: { 'Fn::GetAtt': [logicalId(dav.fn), 'Arn'] },
  });
  t.hasOutput('DavUrl', { Value: { 'Fn::GetAtt': [Match.stringLikeRegexp('^Dav.*FunctionUrl'), 'FunctionUrl'] } });
  // Invoked through its URL only: no API Gateway permission.
  const permissions = Object.values(t.findResources('AWS::Lambda::Permission') as Resources).filter((p) =>
    JSON.stringify(p.Properties.FunctionName).includes(logicalId(dav.fn)),
  );
  expect(permissions.length).toBeGreaterThan(0);
  for (const p of permissions) {
    expect(['lambda:InvokeFunctionUrl', 'lambda:InvokeFunction']).toContain(p.Properties.Action);
    expect(p.Properties.Principal).toBe('*');
  }
});

test('nodejs22.x on arm64, 1 minute, its own log group, the environment of its needs', () => {
  const fn = t.toJSON().Resources[logicalId(dav.fn)].Properties;
  expect(fn).toMatchObject({
    Runtime: 'nodejs22.x',
    Architectures: ['arm64'],
    MemorySize: 1024,
    Timeout: 60,
    Handler: 'index.handler',
    LoggingConfig: { LogGroup: { Ref: logicalId(dav.logGroup) } },
  });
  const env = envOf(logicalId(dav.fn));
  expect(env).toMatchObject({ TABLE_NAME: { Ref: logicalId(stack.data.table) }, PLATFORM_TARGET: 'aws' });
  expect(Object.keys(env)).toEqual(expect.arrayContaining(envOfNeeds(DAV_FUNCTION_NEEDS, 'aws')));
  expect(Object.keys(env)).toEqual(expect.arrayContaining(['CURSOR_SECRET', 'ARTIFACTS_BUCKET', 'MAIL_FROM']));
  expect(env.SECRETS_KEY_ID).toBeUndefined();
});

test("granted what the calendar group is (a client's write is the API's): the table, the bucket, mail", () => {
  const actionsOf = (roleId: string) => [...new Set(statementsOf(t, roleId).flatMap((s) => s.actions))].sort();
  const calendar = stack.functions.find((f) => f.group.name === 'calendar');
  const actions = actionsOf(logicalId(dav.role));
  // Less the idempotency grant every route group has (GenerateDataKey on the secrets key, for the
  // sealed answers of Idempotency-Key writes): DAV writes are conditional by ETag and keep no answers.
  const calendarActions = actionsOf(logicalId((calendar as NonNullable<typeof calendar>).role));
  expect(actions).toEqual(calendarActions.filter((a) => a !== 'kms:GenerateDataKey'));
  expect(actions).toEqual(expect.arrayContaining(['dynamodb:PutItem', 's3:GetObject*', 'ses:SendRawEmail']));
  expect(actions.filter((a) => /^(codecommit|lambda|sqs|codebuild):/.test(a))).toEqual([]);
});

test('the groups that tell people the address get DAV_BASE_URL; the others do not', () => {
  const url = { 'Fn::GetAtt': [expect.stringMatching(/^Dav.*FunctionUrl/), 'FunctionUrl'] };
  for (const f of stack.functions) {
    const env = groupEnv(f.group.name);
    if (DAV_ADDRESS_GROUPS.includes(f.group.name)) expect(env.DAV_BASE_URL).toEqual(url);
    else expect(env.DAV_BASE_URL).toBeUndefined();
  }
  expect(stack.functions.map((f) => f.group.name)).toEqual(expect.arrayContaining(['calendar', 'contacts']));
});

test('cdk-nag stays clean', () => {
  const report = new AwsSolutionsChecks().validateScope(app);
  expect(report.violations.map((v) => `${v.ruleName} ${v.violatingResources.map((r) => r.constructPath)}`)).toEqual([]);
});

test('no handler in the tree: no DAV function, no URL, no DAV_BASE_URL, and the stack says so', () => {
  const none = stackWith(path.join(root, 'test', 'fixtures', 'dav', 'absent.ts'));
  expect(none.stack.dav).toBeUndefined();
  expect(JSON.stringify(none.t.toJSON())).not.toContain('DAV_BASE_URL');
  expect(Object.keys(none.t.findOutputs('DavUrl'))).toEqual([]);
  const info = Annotations.fromStack(none.stack).findInfo(
    '*',
    Match.stringLikeRegexp('CalDAV and CardDAV are not served'),
  );
  expect(info).toHaveLength(1);
});
