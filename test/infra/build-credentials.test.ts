import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { Construct } from 'constructs';
import { PlatformStack } from '../../lib/aws/platform-stack';
import { flags, logicalId, type Resources } from './helpers';

/**
 * A build's credentials on AWS (lib/aws/deployments.ts, shared/ports/builds/buildspec.ts): the build
 * project's role can only assume the build-data role, tagging the session with its project and
 * deployment; the build-data role's own policy names only the prefixes of those tags. The
 * session policy of each build narrows the same way (test/deployments/aws.test.ts), so a session
 * assumed without it still can't reach the whole bucket.
 */

interface Statement {
  Action: string | string[];
  Resource: unknown;
  Principal?: unknown;
  Condition?: Record<string, Record<string, unknown>>;
}

let stack: PlatformStack;
let resources: Resources;
const actions = (s: Statement) => ([] as string[]).concat(s.Action);
/** IAM's policy variable of a session tag, as the policy holds it. */
const tag = (key: string) => `$${'{'}aws:PrincipalTag/${key}}`;

beforeAll(() => {
  const app = new App({ context: { ...flags, 'aws:cdk:bundling-stacks': [] }, builtinCloudFormationValidation: false });
  stack = new PlatformStack(app, 'BuildCredentials', {
    authUrl: 'https://auth.example.com',
    authAudience: 'platform-api',
  });
  resources = Template.fromStack(stack).toJSON().Resources as Resources;
});

const policyOf = (roleId: string): Statement[] =>
  Object.values(resources)
    .filter((r) => r.Type === 'AWS::IAM::Policy' && JSON.stringify(r.Properties.Roles).includes(`"${roleId}"`))
    .flatMap((r) => r.Properties.PolicyDocument.Statement as Statement[]);

test("the build-data role is assumed only by the build project's role, with the build's project and deployment tags", () => {
  const dataRole = resources[logicalId(stack.deployments.buildDataRole)];
  const trust = dataRole?.Properties.AssumeRolePolicyDocument.Statement as Statement[];
  expect(trust).toHaveLength(1);
  expect(actions(trust[0] as Statement).sort()).toEqual(['sts:AssumeRole', 'sts:TagSession']);
  expect(JSON.stringify(trust[0]?.Principal)).toContain(
    logicalId(stack.deployments.project.role as unknown as Construct),
  );
  expect(trust[0]?.Condition).toEqual({
    StringLike: { 'aws:RequestTag/projectId': 'prj_*', 'aws:RequestTag/deploymentId': 'dpl_*' },
    'ForAllValues:StringEquals': { 'aws:TagKeys': ['projectId', 'deploymentId'] },
  });
  const projectRole = policyOf(logicalId(stack.deployments.project.role as unknown as Construct));
  const sts = projectRole.filter((s) => actions(s).some((a) => a.startsWith('sts:')));
  expect(sts.flatMap(actions).sort()).toEqual(['sts:AssumeRole', 'sts:TagSession']);
});

test("the build-data role's own policy names only the prefixes of the session's project and deployment", () => {
  const s3 = policyOf(logicalId(stack.deployments.buildDataRole)).filter((s) =>
    actions(s).some((a) => a.startsWith('s3:')),
  );
  expect(s3.length).toBeGreaterThan(0);
  const named = (s: Statement) => JSON.stringify(s.Resource) + JSON.stringify(s.Condition ?? {});
  for (const s of s3) {
    const text = named(s);
    // Every object path goes through a tag: no `sources/*`, `artifacts/*` … for any project.
    for (const prefix of ['sources', 'cache']) {
      if (text.includes(`/${prefix}/`) || text.includes(`"${prefix}/`)) {
        expect(text).toContain(`${prefix}/${tag('projectId')}/`);
      }
    }
    for (const prefix of ['builds', 'artifacts']) {
      if (text.includes(`/${prefix}/`) || text.includes(`"${prefix}/`)) {
        expect(text).toContain(`${prefix}/${tag('deploymentId')}/`);
      }
    }
    expect(text).not.toMatch(/(sources|cache|builds|artifacts)\/\*/);
  }
  const list = s3.find((s) => actions(s).includes('s3:ListBucket'));
  expect(list?.Condition).toEqual({
    StringLike: {
      's3:prefix': [`artifacts/${tag('deploymentId')}/*`, `cache/${tag('projectId')}/*`],
    },
  });
});
