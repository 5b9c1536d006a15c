import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { PlatformStack } from '../../lib/aws/platform-stack';
import { functionPolicy } from '../../shared/ports/runtime/function-role';
import { flags, logicalId, type Resources } from './helpers';

/**
 * Server functions on AWS run with a role of their own, made with them at deploy time
 * (shared/ports/runtime/aws.ts): the stack holds the permissions boundary every such role must be
 * created under, and the grants that let the platform create, pass and delete those roles, by
 * their name prefix and only under that boundary. No role is shared between server functions.
 */

interface Statement {
  Effect: string;
  Action: string | string[];
  Resource: unknown;
  Condition?: Record<string, Record<string, unknown>>;
}

let stack: PlatformStack;
let resources: Resources;
const actions = (s: Statement) => ([] as string[]).concat(s.Action);

beforeAll(() => {
  const app = new App({ context: { ...flags, 'aws:cdk:bundling-stacks': [] }, builtinCloudFormationValidation: false });
  stack = new PlatformStack(app, 'FunctionRoles', {
    authUrl: 'https://auth.example.com',
    authAudience: 'platform-api',
  });
  resources = Template.fromStack(stack).toJSON().Resources as Resources;
});

/** The statements of the policies attached to the role of `fn` (a platform function). */
function statementsOfRole(roleId: string): Statement[] {
  return Object.values(resources)
    .filter((r) => r.Type === 'AWS::IAM::Policy' && JSON.stringify(r.Properties.Roles).includes(`"${roleId}"`))
    .flatMap((r) => r.Properties.PolicyDocument.Statement as Statement[]);
}
const workerRole = (name: string) => {
  const w = stack.workers.find((x) => x.worker.name === name);
  if (!w) throw new Error(`no worker ${name}`);
  return logicalId(w.role);
};
const groupRole = (name: string) => {
  const f = stack.functions.find((x) => x.group.name === name);
  if (!f) throw new Error(`no group ${name}`);
  return logicalId(f.role);
};
const allStatements = () =>
  Object.values(resources)
    .filter((r) => r.Type === 'AWS::IAM::Policy' || r.Type === 'AWS::IAM::ManagedPolicy')
    .flatMap((r) => r.Properties.PolicyDocument.Statement as Statement[]);

test('no role is shared by server functions: none is in the stack, each is made with its function', () => {
  const lambdaRoles = Object.entries(resources).filter(
    ([, r]) => r.Type === 'AWS::IAM::Role' && JSON.stringify(r.Properties.AssumeRolePolicyDocument).includes('lambda'),
  );
  const platformRoles = new Set(
    [...stack.functions, ...stack.workers, ...(stack.git ? [stack.git] : []), ...(stack.dav ? [stack.dav] : [])].map(
      (f) => logicalId(f.role),
    ),
  );
  // Every Lambda role of the stack belongs to a platform function (or CDK's own custom resources).
  for (const [id] of lambdaRoles)
    expect(platformRoles.has(id) || /CustomResource|LogRetention|AWS679/.test(id)).toBe(true);
});

test('the boundary caps every server-function role: own-prefix logs, customer tables and buckets, nothing else', () => {
  const boundary = resources[logicalId(stack.deployments.functionBoundary)];
  expect(boundary?.Type).toBe('AWS::IAM::ManagedPolicy');
  const statements = boundary?.Properties.PolicyDocument.Statement as Statement[];
  const services = new Set(statements.flatMap((s) => actions(s).map((a) => a.split(':')[0])));
  expect([...services].sort()).toEqual(['dynamodb', 's3', 'logs'].sort());
  for (const s of statements) {
    expect(s.Effect).toBe('Allow');
    expect(actions(s).some((a) => a.includes('*'))).toBe(false);
    const on = JSON.stringify(s.Resource);
    if (actions(s)[0]?.startsWith('logs:')) expect(on).toContain('/aws/lambda/plt-fn-*');
    if (actions(s)[0]?.startsWith('dynamodb:')) expect(on).toContain(':table/cust-*');
    if (actions(s)[0]?.startsWith('s3:')) {
      expect(on).toContain(':s3:::plt-*');
      expect(s.Condition).toEqual({ StringEquals: { 's3:ResourceAccount': { Ref: 'AWS::AccountId' } } });
    }
  }
  expect(actions({ Action: statements.flatMap(actions) } as Statement)).not.toContain('dynamodb:DeleteTable');
});

test("what the runtime writes into a function's role stays inside the boundary", () => {
  const boundary = resources[logicalId(stack.deployments.functionBoundary)]?.Properties.PolicyDocument
    .Statement as Statement[];
  const allowed = new Set(boundary.flatMap(actions));
  const own = functionPolicy({
    partition: 'aws',
    account: '123456789012',
    region: 'eu-central-1',
    functionName: 'plt-fn-dpl_1',
    table: { name: 'cust-x', region: 'eu-west-1' },
    bucket: 'plt-x',
  });
  for (const s of own.Statement as Statement[]) for (const a of actions(s)) expect(allowed.has(a)).toBe(true);
});

test('the build-events worker creates roles only under the boundary, by the name prefix, and passes them to Lambda only', () => {
  const statements = statementsOfRole(workerRole('build-events'));
  const boundaryRef = { Ref: logicalId(stack.deployments.functionBoundary) };
  const create = statements.filter((s) => actions(s).some((a) => a === 'iam:CreateRole' || a === 'iam:PutRolePolicy'));
  expect(create).toHaveLength(1);
  expect(actions(create[0] as Statement).sort()).toEqual(['iam:CreateRole', 'iam:PutRolePolicy']);
  expect(create[0]?.Condition).toEqual({ StringEquals: { 'iam:PermissionsBoundary': boundaryRef } });
  expect(JSON.stringify(create[0]?.Resource)).toContain(':role/plt-fn-*');
  const pass = statements.filter((s) => actions(s).includes('iam:PassRole'));
  expect(pass).toHaveLength(1);
  expect(pass[0]?.Condition).toEqual({ StringEquals: { 'iam:PassedToService': 'lambda.amazonaws.com' } });
  expect(JSON.stringify(pass[0]?.Resource)).toContain(':role/plt-fn-*');
  const env =
    resources[logicalId(stack.workers.find((w) => w.worker.name === 'build-events')!.fn)]?.Properties.Environment
      .Variables;
  expect(env.FUNCTION_BOUNDARY_ARN).toEqual(boundaryRef);
});

test('whatever removes server functions removes their roles, by the name prefix; nothing else creates one', () => {
  for (const roleId of [workerRole('build-retention'), groupRole('deployments')]) {
    const statements = statementsOfRole(roleId);
    const del = statements.filter((s) => actions(s).includes('iam:DeleteRole'));
    expect(del).toHaveLength(1);
    expect(actions(del[0] as Statement).sort()).toEqual(['iam:DeleteRole', 'iam:DeleteRolePolicy']);
    expect(JSON.stringify(del[0]?.Resource)).toContain(':role/plt-fn-*');
    expect(statements.flatMap(actions)).not.toContain('iam:CreateRole');
  }
});

test('no platform role may create a role without the boundary, or change, remove or go around one', () => {
  for (const s of allStatements()) {
    const a = actions(s);
    if (a.includes('iam:CreateRole') || a.includes('iam:PutRolePolicy')) {
      expect(s.Condition?.StringEquals?.['iam:PermissionsBoundary']).toBeDefined();
    }
    for (const forbidden of [
      'iam:PutRolePermissionsBoundary',
      'iam:DeleteRolePermissionsBoundary',
      'iam:AttachRolePolicy',
      'iam:UpdateAssumeRolePolicy',
      'iam:CreatePolicyVersion',
      'iam:*',
    ]) {
      expect(a).not.toContain(forbidden);
    }
    if (a.includes('iam:PassRole')) expect(JSON.stringify(s.Resource)).not.toBe('"*"');
  }
});
