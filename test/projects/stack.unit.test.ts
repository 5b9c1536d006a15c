import { App, type CfnElement, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { Construct } from 'constructs';
import { PlatformStack } from '../../lib/aws/platform-stack';
import { groupFor, routeGroups } from '../../lib/route-groups';

/**
 * The projects and env groups in the route table and the synthesized stack: their paths reach
 * them, and the secrets key (KMS) is granted to them — exactly the envelope calls — and not to a
 * group that does not list `kms` (orgs). Synthesized without bundling: the grants are the point.
 */
const names = ['core', 'orgs', 'projects', 'env'];
const logicalId = (c: Construct) => Stack.of(c).getLogicalId(c.node.defaultChild as CfnElement);

describe('projects and env in the route table', () => {
  it.each([
    ['/v1/orgs/org_1/projects', 'projects'],
    ['/v1/orgs/org_1/projects/prj_1', 'projects'],
    ['/v1/orgs/org_1/projects/prj_1/transfer', 'projects'],
    ['/v1/orgs/org_1/projects/prj_1/env', 'env'],
    ['/v1/orgs/org_1/projects/prj_1/env/API_KEY', 'env'],
  ])('%s goes to %s', (path, group) => {
    expect(groupFor(path)?.name).toBe(group);
  });

  it('both need the table and the secrets key (a transfer re-encrypts variables)', () => {
    expect(routeGroups.find((g) => g.name === 'env')?.needs).toEqual(['table', 'kms']);
    // And a project delete removes build outputs from the artifacts bucket; delete and transfer stop
    // and remove the project's server functions, its sign-in clients and its domains' CDN tenants.
    expect(routeGroups.find((g) => g.name === 'projects')?.needs).toEqual([
      'table',
      'kms',
      'buckets',
      'functions',
      'signin',
      'cdn',
    ]);
  });
});

describe('the synthesized stack', () => {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] }, builtinCloudFormationValidation: false });
  const stack = new PlatformStack(app, 'ProjectsEnv', {
    authUrl: 'https://auth.example.com',
    authAudience: 'platform-api',
    groups: routeGroups.filter((g) => names.includes(g.name)),
  });
  const template = Template.fromStack(stack);
  const resources = template.toJSON().Resources as Record<string, { Type: string; Properties: any }>;
  const key = logicalId(stack.data.secretsKey);

  const kmsActions = (group: string) => {
    const f = stack.functions.find((x) => x.group.name === group);
    if (!f) throw new Error(group);
    const role = logicalId(f.role);
    return Object.values(resources)
      .filter((r) => r.Type === 'AWS::IAM::Policy' && JSON.stringify(r.Properties.Roles).includes(`"${role}"`))
      .flatMap((r) => r.Properties.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown }[])
      .filter((s) => JSON.stringify(s.Resource).includes(`"${key}"`))
      .flatMap((s) => ([] as string[]).concat(s.Action))
      .filter((a, i, all) => all.indexOf(a) === i) // the idempotency grant repeats two, for its purpose only
      .sort();
  };
  const environment = (group: string) => {
    const f = stack.functions.find((x) => x.group.name === group);
    return resources[logicalId(f?.fn as Construct)]?.Properties.Environment.Variables;
  };

  it.each(['projects', 'env'])('grants %s the envelope calls on the secrets key, and its id', (group) => {
    expect(kmsActions(group)).toEqual(['kms:Decrypt', 'kms:Encrypt', 'kms:GenerateDataKey']);
    expect(environment(group)).toMatchObject({
      SECRETS_KEY_ID: { 'Fn::GetAtt': [key, 'Arn'] },
      PLATFORM_TARGET: 'aws',
    });
  });

  it.each(['core', 'orgs'])('gives %s nothing on the secrets key but the sealing of kept answers', (group) => {
    // Every group seals the answers it keeps for Idempotency-Key (shared/kernel/http/idempotency.ts),
    // under a grant that holds only for that purpose: no environment value opens with it.
    expect(kmsActions(group)).toEqual(['kms:Decrypt', 'kms:GenerateDataKey']);
    const f = stack.functions.find((x) => x.group.name === group);
    const role = logicalId(f?.role as Construct);
    const onKey = Object.values(resources)
      .filter((r) => r.Type === 'AWS::IAM::Policy' && JSON.stringify(r.Properties.Roles).includes(`"${role}"`))
      .flatMap((r) => r.Properties.PolicyDocument.Statement as { Resource: unknown; Condition?: unknown }[])
      .filter((st) => JSON.stringify(st.Resource).includes(`"${key}"`));
    expect(onKey.length).toBeGreaterThan(0);
    for (const st of onKey) expect(JSON.stringify(st.Condition)).toContain('idempotency');
  });

  it('routes the projects and env prefixes to their functions in API Gateway', () => {
    const routes = Object.values(resources)
      .filter((r) => r.Type === 'AWS::ApiGatewayV2::Route')
      .map((r) => r.Properties.RouteKey);
    expect(routes).toEqual(
      expect.arrayContaining([
        'ANY /v1/orgs/{orgId}/projects',
        'ANY /v1/orgs/{orgId}/projects/{proxy+}',
        'ANY /v1/orgs/{orgId}/projects/{projectId}/env',
        'ANY /v1/orgs/{orgId}/projects/{projectId}/env/{proxy+}',
      ]),
    );
  });
});
