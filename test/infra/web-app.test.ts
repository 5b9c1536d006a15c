import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { PlatformStack, type PlatformStackProps } from '../../lib/aws/platform-stack';
import { flags, logicalId, noBundling, type Resources, root } from './helpers';

/**
 * The platform's web app on AWS (lib/aws/web-app.ts): a private bucket behind CloudFront (origin
 * access control), its files and a generated config.json deployed into it, the single-page
 * fallback, security headers, the API's CORS allowing its origin, and a Cognito app client when
 * the identity provider is a Cognito user pool. Synthesis needs no built app: without web/dist a
 * placeholder page is deployed.
 */
let dist: string;
beforeAll(() => {
  dist = mkdtempSync(join(tmpdir(), 'web-dist-'));
  mkdirSync(join(dist, 'assets'));
  writeFileSync(join(dist, 'index.html'), '<!doctype html><title>app</title>');
  writeFileSync(join(dist, 'assets', 'index-Ab12Cd34.js'), 'console.log(1)');
});
afterAll(() => rmSync(dist, { recursive: true, force: true }));

function synth(id: string, props: Partial<PlatformStackProps> = {}) {
  const app = new App({ context: { ...flags, ...noBundling }, builtinCloudFormationValidation: false });
  const stack = new PlatformStack(app, id, {
    authUrl: 'https://auth.example.com',
    authAudience: 'platform-api',
    projectRoot: root,
    webDist: dist,
    ...props,
  });
  return {
    app,
    stack,
    t: Template.fromStack(stack),
    hosting: Template.fromStack(stack.web.hosting),
    files: Template.fromStack(stack.web.files as NonNullable<typeof stack.web.files>),
  };
}

const deployments = (t: Template) =>
  Object.values(t.findResources('Custom::CDKBucketDeployment') as Resources).map((r) => r.Properties);

test('cdk-nag stays clean, each finding acknowledged with its reason', () => {
  const { app } = synth('WebNag');
  const report = new AwsSolutionsChecks().validateScope(app);
  expect(report.violations.map((v) => `${v.ruleName} ${v.violatingResources.map((r) => r.constructPath)}`)).toEqual([]);
});

describe('with the app built', () => {
  let stack: PlatformStack;
  let t: Template;
  let hosting: Template;
  let files: Template;
  beforeAll(() => {
    ({ stack, t, hosting, files } = synth('Web'));
  });

  test('in two nested stacks of their own, so the stack keeps its resources for the API', () => {
    t.resourceCountIs('AWS::CloudFormation::Stack', 2);
    t.resourceCountIs('AWS::CloudFront::Distribution', 0);
    t.resourceCountIs('Custom::CDKBucketDeployment', 0);
    hosting.resourceCountIs('AWS::CloudFront::Distribution', 1);
    files.resourceCountIs('Custom::CDKBucketDeployment', 2);
  });

  test('a private bucket that only the distribution reads (origin access control), SSL only, logged', () => {
    const bucket = hosting.toJSON().Resources[logicalId(stack.web.bucket)];
    expect(bucket.Properties).toMatchObject({
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
      LoggingConfiguration: { LogFilePrefix: 'web-app/' },
    });
    hosting.hasResourceProperties('AWS::CloudFront::OriginAccessControl', {
      OriginAccessControlConfig: Match.objectLike({ OriginAccessControlOriginType: 's3', SigningBehavior: 'always' }),
    });
    hosting.hasResourceProperties('AWS::S3::BucketPolicy', {
      Bucket: { Ref: logicalId(stack.web.bucket) },
      PolicyDocument: Match.objectLike({
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
          Match.objectLike({
            Action: 's3:GetObject',
            Principal: { Service: 'cloudfront.amazonaws.com' },
            Condition: { StringEquals: { 'AWS:SourceArn': Match.anyValue() } },
          }),
        ]),
      }),
    });
  });

  test('the single-page fallback: 403 and 404 of the bucket answer /app/index.html, only /app/ reaches it', () => {
    const cdn = hosting.toJSON().Resources[logicalId(stack.web.distribution)].Properties.DistributionConfig;
    expect(cdn.CustomErrorResponses).toEqual([
      { ErrorCode: 403, ResponseCode: 200, ResponsePagePath: '/app/index.html', ErrorCachingMinTTL: 0 },
      { ErrorCode: 404, ResponseCode: 200, ResponsePagePath: '/app/index.html', ErrorCachingMinTTL: 0 },
    ]);
    expect(cdn.DefaultCacheBehavior).toMatchObject({
      ViewerProtocolPolicy: 'redirect-to-https',
      AllowedMethods: ['GET', 'HEAD'],
      Compress: true,
      FunctionAssociations: [expect.objectContaining({ EventType: 'viewer-request' })],
    });
    const fns = Object.values(hosting.findResources('AWS::CloudFront::Function') as Resources).map(
      (f) => f.Properties.FunctionCode as string,
    );
    const code = fns.find((c) => c.includes("'/app/'")) as string;
    // The function, run as CloudFront runs it (its handler on an event).
    const handler = new Function(`${code}; return handler;`)() as (e: unknown) => any;
    const at = (uri: string) => handler({ request: { uri, headers: {} } });
    expect(at('/')).toMatchObject({ statusCode: 302, headers: { location: { value: '/app/' } } });
    expect(at('/app')).toMatchObject({ statusCode: 302 });
    expect(at('/app/')).toEqual({ uri: '/app/index.html', headers: {} });
    expect(at('/app/acme/projects')).toEqual({ uri: '/app/acme/projects', headers: {} });
    expect(at('/v1/orgs')).toMatchObject({ statusCode: 404 });
    expect(at('/application')).toMatchObject({ statusCode: 404 });
  });

  test('the artifacts bucket answers CORS for the app’s origin only: browsers put and read attachments with presigned links', () => {
    const buckets = Object.values(t.findResources('AWS::S3::Bucket') as Resources).filter(
      (b) => b.Properties?.CorsConfiguration,
    );
    expect(buckets).toHaveLength(1);
    const [rule] = buckets[0]?.Properties.CorsConfiguration.CorsRules ?? [];
    expect(rule.AllowedMethods.sort()).toEqual(['GET', 'HEAD', 'PUT']);
    expect(JSON.stringify(rule.AllowedOrigins)).toContain('WebApp');
    expect(JSON.stringify(rule.AllowedOrigins)).not.toContain('"*"');
  });

  test('security headers: a CSP naming the identity provider and the region’s API hosts, HSTS, nosniff, frames', () => {
    const policy = Object.values(hosting.findResources('AWS::CloudFront::ResponseHeadersPolicy') as Resources)[0];
    const security = policy?.Properties.ResponseHeadersPolicyConfig.SecurityHeadersConfig;
    const csp = JSON.stringify(security.ContentSecurityPolicy.ContentSecurityPolicy);
    expect(csp).toContain("connect-src 'self' https://*.execute-api.");
    expect(csp).toContain('https://auth.example.com');
    expect(csp).toContain('https://*.s3.');
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'self'");
    expect(security).toMatchObject({
      ContentTypeOptions: { Override: true },
      FrameOptions: { FrameOption: 'SAMEORIGIN', Override: true },
      StrictTransportSecurity: { AccessControlMaxAgeSec: 63072000, IncludeSubdomains: true, Override: true },
    });
  });

  test('deploys hashed assets for a year (kept), the rest revalidated (pruned) with a generated config.json', () => {
    const [assets, pages] = deployments(files);
    expect(assets).toMatchObject({
      DestinationBucketKeyPrefix: 'app/',
      Prune: false,
      Exclude: ['*'],
      Include: ['assets/*'],
      SystemMetadata: { 'cache-control': 'public, max-age=31536000, immutable' },
    });
    expect(pages).toMatchObject({
      DestinationBucketKeyPrefix: 'app/',
      Prune: true,
      Exclude: ['assets/*', '.vite/*'],
      SystemMetadata: { 'cache-control': 'no-cache' },
      DistributionPaths: ['/app/*'],
    });
    expect(pages?.SourceObjectKeys).toHaveLength(2);
    // config.json's content, with the API's and the distribution's addresses resolved at deploy.
    const markers = JSON.stringify(pages?.SourceMarkers);
    expect(markers).toContain('{"Ref":"ApiUrl"}');
    expect(markers).toContain('{"Ref":"DistributionDomain"}');
    expect(markers).toContain('{"Ref":"ClientId"}');
    // …given by the stack: the API's endpoint, the hosting stack's outputs.
    const nested = t.toJSON().Resources[stack.getLogicalId(stack.web.files?.nestedStackResource as never)];
    expect(JSON.stringify(nested.Properties.Parameters.ApiUrl)).toContain(`${logicalId(stack.http.api)}`);
    expect(JSON.stringify(nested.Properties.Parameters.DistributionDomain)).toContain('DomainName');
    expect(JSON.stringify(pages?.SourceMarkersConfig ?? [])).toContain('jsonEscape');
  });

  test("the API's CORS allows the app's origin beside the configured ones", () => {
    t.hasResourceProperties('AWS::ApiGatewayV2::Api', {
      CorsConfiguration: Match.objectLike({
        AllowOrigins: [
          'http://localhost:3000',
          {
            'Fn::Join': [
              '',
              [
                'https://',
                {
                  'Fn::GetAtt': [
                    stack.getLogicalId(stack.web.hosting.nestedStackResource as never),
                    Match.stringLikeRegexp('^Outputs\\..*Cdn[0-9A-F]{8}DomainName$'),
                  ],
                },
              ],
            ],
          },
        ],
        AllowHeaders: ['authorization', 'content-type', 'if-match', 'if-none-match', 'idempotency-key'],
        ExposeHeaders: Match.arrayWith(['etag', 'location', 'retry-after']),
        MaxAge: 7200,
      }),
    });
  });

  test('no Cognito client for another identity provider: the client id is platform-web, and the outputs say where', () => {
    hosting.resourceCountIs('AWS::Cognito::UserPoolClient', 0);
    expect(stack.web.clientId).toBe('platform-web');
    t.hasOutput('WebAppCallbackUrl', Match.anyValue());
    t.hasOutput('WebAppUrl', Match.anyValue());
  });
});

test('a Cognito issuer gets a public app client: code flow, callback to the distribution, revocation, rotation', () => {
  const { stack, hosting: t } = synth('WebCognito', {
    authUrl: 'https://cognito-idp.eu-central-1.amazonaws.com/eu-central-1_AbCdEf123',
  });
  t.hasResourceProperties('AWS::Cognito::UserPoolClient', {
    UserPoolId: 'eu-central-1_AbCdEf123',
    GenerateSecret: false,
    AllowedOAuthFlows: ['code'],
    AllowedOAuthFlowsUserPoolClient: true,
    AllowedOAuthScopes: Match.arrayWith(['openid']),
    CallbackURLs: [
      {
        'Fn::Join': [
          '',
          ['https://', { 'Fn::GetAtt': [logicalId(stack.web.distribution), 'DomainName'] }, '/app/callback'],
        ],
      },
    ],
    EnableTokenRevocation: true,
    RefreshTokenRotation: Match.objectLike({ Feature: 'ENABLED' }),
  });
  const csp = JSON.stringify(
    Object.values(t.findResources('AWS::CloudFront::ResponseHeadersPolicy') as Resources)[0]?.Properties,
  );
  expect(csp).toContain('https://*.auth.eu-central-1.amazoncognito.com');
});

test('synthesizes without a built app: a placeholder page and config.json, no assets deployment', () => {
  const { files, stack } = synth('WebPlaceholder', { webDist: join(dist, 'missing') });
  expect(stack.web.placeholder).toBe(true);
  const all = deployments(files);
  expect(all).toHaveLength(1);
  expect(all[0]?.SourceObjectKeys).toHaveLength(2);
});
