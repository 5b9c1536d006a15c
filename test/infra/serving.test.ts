import { App } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { PlatformStack } from '../../lib/aws/platform-stack';
import { flags, logicalId, noBundling, type Resources, root, statementsOf } from './helpers';

/**
 * Serving deployed sites on AWS (issue 16): with an apps domain, the router behind a function URL
 * only CloudFront may call, a wildcard distribution for `*.<apps domain>` and a multi-tenant one
 * for custom domains (tenants made at runtime by the domains group and its checks, through the
 * cdn need); without one, nothing is routed and the stack says so.
 */
const app = new App({ context: { ...flags, ...noBundling }, builtinCloudFormationValidation: false });
const stack = new PlatformStack(app, 'Serving', {
  authUrl: 'https://auth.example.com',
  authAudience: 'platform-api',
  projectRoot: root,
  appsDomain: 'apps.example.com',
  appsHostedZoneId: 'Z0123456789ABC',
});
const t = Template.fromStack(stack);
const sites = stack.sites as NonNullable<typeof stack.sites>;
const fnEnv = (group: string) => {
  const f = stack.functions.find((g) => g.group.name === group);
  return t.toJSON().Resources[logicalId((f as NonNullable<typeof f>).fn)].Properties.Environment.Variables;
};

test('cdk-nag stays clean', () => {
  const report = new AwsSolutionsChecks().validateScope(app);
  expect(report.violations.map((v) => `${v.ruleName} ${v.violatingResources.map((r) => r.constructPath)}`)).toEqual([]);
});

test('the router streams behind a function URL that only CloudFront may call', () => {
  t.hasResourceProperties('AWS::Lambda::Url', { AuthType: 'AWS_IAM', InvokeMode: 'RESPONSE_STREAM' });
  t.hasResourceProperties('AWS::CloudFront::OriginAccessControl', {
    OriginAccessControlConfig: Match.objectLike({ OriginAccessControlOriginType: 'lambda', SigningBehavior: 'always' }),
  });
  t.hasResourceProperties('AWS::Lambda::Permission', {
    Action: 'lambda:InvokeFunctionUrl',
    Principal: 'cloudfront.amazonaws.com',
  });
  const statements = statementsOf(t, logicalId(sites.router.role));
  expect(statements.find((s) => s.actions.includes('lambda:InvokeFunction'))?.resource).toContain('plt-fn-');
  expect(statements.some((s) => s.actions.includes('dynamodb:GetItem'))).toBe(true);
  expect(statements.some((s) => s.actions.includes('cloudfront:CreateDistributionTenant'))).toBe(false);
});

test('*.<apps domain>: a wildcard certificate, an alias record, the Host forwarded to the router', () => {
  // An environment-agnostic stack makes the certificate (it must then be deployed in us-east-1).
  t.hasResourceProperties('AWS::CertificateManager::Certificate', {
    DomainName: '*.apps.example.com',
    ValidationMethod: 'DNS',
  });
  t.hasResourceProperties('AWS::CloudFront::Distribution', {
    DistributionConfig: Match.objectLike({
      Aliases: ['*.apps.example.com'],
      ViewerCertificate: Match.objectLike({ MinimumProtocolVersion: 'TLSv1.2_2021', SslSupportMethod: 'sni-only' }),
      DefaultCacheBehavior: Match.objectLike({
        ViewerProtocolPolicy: 'redirect-to-https',
        FunctionAssociations: [Match.objectLike({ EventType: 'viewer-request' })],
      }),
    }),
  });
  t.hasResourceProperties('AWS::Route53::RecordSet', { Name: '*.apps.example.com.', Type: 'A' });
  const fns = t.findResources('AWS::CloudFront::Function') as Resources;
  expect(JSON.stringify(fns)).toContain("request.headers['x-forwarded-host']");
  // The router's answers are cached per visitor host.
  t.hasResourceProperties('AWS::CloudFront::CachePolicy', {
    CachePolicyConfig: Match.objectLike({
      ParametersInCacheKeyAndForwardedToOrigin: Match.objectLike({
        HeadersConfig: { HeaderBehavior: 'whitelist', Headers: ['x-forwarded-host'] },
      }),
    }),
  });
});

test('custom domains: a tenant-only distribution in a connection group, named to the domains group', () => {
  const distributions = Object.values(t.findResources('AWS::CloudFront::Distribution') as Resources);
  const tenants = distributions.find((d) => d.Properties.DistributionConfig.ConnectionMode === 'tenant-only');
  expect(tenants?.Properties.DistributionConfig.Aliases).toBeUndefined();
  expect(tenants?.Properties.DistributionConfig.PriceClass).toBeUndefined();
  t.hasResourceProperties('AWS::CloudFront::ConnectionGroup', { Enabled: true });
  const env = fnEnv('domains');
  expect(env).toMatchObject({
    CDN_DISTRIBUTION_ID: { Ref: logicalId(sites.tenants) },
    CDN_CONNECTION_GROUP_ID: { 'Fn::GetAtt': [expect.any(String), 'Id'] },
    ROUTING_TARGET: { 'Fn::GetAtt': [expect.any(String), 'RoutingEndpoint'] },
    APPS_DOMAIN: 'apps.example.com',
  });
  const domains = stack.functions.find((g) => g.group.name === 'domains') as NonNullable<
    ReturnType<typeof stack.functions.find>
  >;
  const actions = statementsOf(t, logicalId(domains.role)).flatMap((s) => s.actions);
  expect(actions).toEqual(
    expect.arrayContaining([
      'cloudfront:CreateDistributionTenant',
      'cloudfront:GetManagedCertificateDetails',
      'cloudfront:DeleteDistributionTenant',
    ]),
  );
});

test('a stack outside us-east-1 is told to bring a us-east-1 certificate, and can', () => {
  const eu = new App({ context: { ...flags, ...noBundling }, builtinCloudFormationValidation: false });
  const props = {
    env: { account: '111111111111', region: 'eu-west-1' },
    authUrl: 'https://auth.example.com',
    authAudience: 'platform-api',
    projectRoot: root,
    appsDomain: 'apps.example.com',
    appsHostedZoneId: 'Z0123456789ABC',
  };
  const without = new PlatformStack(eu, 'Eu', props);
  const errors = Annotations.fromStack(without).findError('*', Match.stringLikeRegexp('must be in us-east-1'));
  expect(errors).toHaveLength(1);
  const given = new PlatformStack(eu, 'EuCert', {
    ...props,
    appsCertificateArn: 'arn:aws:acm:us-east-1:111111111111:certificate/abc',
  });
  expect(Annotations.fromStack(given).findError('*', Match.anyValue())).toHaveLength(0);
  Template.fromStack(given).resourceCountIs('AWS::CertificateManager::Certificate', 0);
});

test('without an apps domain nothing is routed, and the stack says so', () => {
  const bare = new App({ context: { ...flags, ...noBundling }, builtinCloudFormationValidation: false });
  const plain = new PlatformStack(bare, 'Plain', {
    authUrl: 'https://auth.example.com',
    authAudience: 'platform-api',
    projectRoot: root,
  });
  const p = Template.fromStack(plain);
  expect(plain.sites).toBeUndefined();
  p.resourceCountIs('AWS::CloudFront::Distribution', 0);
  p.hasOutput('Sites', { Value: Match.stringLikeRegexp('not served') });
  const domains = plain.functions.find((g) => g.group.name === 'domains') as NonNullable<
    ReturnType<typeof plain.functions.find>
  >;
  expect(p.toJSON().Resources[logicalId(domains.fn)].Properties.Environment.Variables.CDN_DISTRIBUTION_ID).toBe('-');
});

test("the whole stack, sites included, keeps room under CloudFormation's 500 resources", () => {
  // Every route group and worker adds a function, a role, a policy, a log group and its analytics
  // subscription (about 9 resources): 452 with the imports' sweep, 466 with the DAV function and
  // the web app's two nested stacks (its resources are in them). No margin is left for another function here: the
  // next group or worker comes with the split into nested stacks (the API's routes, or the
  // workers, in one of their own).
  expect(Object.keys(t.toJSON().Resources).length).toBeLessThan(470);
});
