import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { App, Token } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import type { CloudAssembly } from 'aws-cdk-lib/cx-api';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { Construct } from 'constructs';
import { platformApp } from '../../lib/aws/app';
import { platformSettings } from '../../lib/aws/context';
import { PlatformStack } from '../../lib/aws/platform-stack';
import { platformTable } from '../../lib/platform-table';
import { type RouteGroup, routeGroups } from '../../lib/route-groups';
import { workers } from '../../lib/workers';
import { EXPORTS_PREFIX, IMPORTS_PREFIX } from '../../shared/domains/tracker/transfer';
import { flags, logicalId, noBundling, type Resources, statementsOf } from './helpers';

const fnOf = (stack: PlatformStack, name: string) => {
  const f = stack.functions.find((x) => x.group.name === name);
  if (!f) throw new Error(`no function for group ${name}`);
  return f;
};

/** The function of a worker of lib/workers.ts. */
const workerOf = (stack: PlatformStack, name: string) => {
  const w = stack.workers.find((x) => x.worker.name === name);
  if (!w) throw new Error(`no function for worker ${name}`);
  return w;
};

/** Each statement of each IAM policy attached to `roleId`, actions as a list. */

// Synthesized once, with the checks of bin/platform.ts: shared by the tests below. Without bundling:
// test/infra/bundles.test.ts builds every function as npm run build does, checks their shape, and
// that CDK's synchronous bundling (lib/aws/bundle-sync.ts) makes the same files.
/** The statements of a role's policies in `template` (the main stack's by default), as synthesized. */
type RawStatement = { Action: string | string[]; Resource: unknown; Condition?: unknown };
const rawStatementsOf = (roleId: string, of: () => Template = () => template): RawStatement[] =>
  Object.values(of().findResources('AWS::IAM::Policy') as Resources)
    .filter((p) => JSON.stringify(p.Properties.Roles).includes(`"${roleId}"`))
    .flatMap((p) => (p.Properties.PolicyDocument as { Statement: RawStatement[] }).Statement);

let app: App;
let stack: PlatformStack;
let template: Template;
let assembly: CloudAssembly;
let synthError: unknown;

beforeAll(() => {
  // authUrl given, so AUTH_URL of the environment (set by the global setup) does not leak in.
  ({ app, stack } = platformApp({
    context: { ...flags, ...noBundling, authUrl: 'https://auth.example.com', authAudience: 'platform-api' },
  }));
  try {
    template = Template.fromStack(stack);
    // The assembly of that synthesis (cached); Annotations.fromStack would synthesize all over again.
    assembly = app.synth();
  } catch (error) {
    synthError = error;
  }
});

describe('synthesis', () => {
  test('synthesizes offline, passing the cdk-nag plugin and CDK validation', () => {
    expect(synthError).toBeUndefined();
    expect(stack.stackName).toBe('PlatformStack');
    // Environment-agnostic: no account or region, so nothing to look up.
    expect(Token.isUnresolved(stack.account)).toBe(true);
    expect(Token.isUnresolved(stack.region)).toBe(true);
  });

  test('cdk-nag AwsSolutions: no unacknowledged errors or warnings', () => {
    // cdk-nag 3 reports through policy validation, not annotations: ask the pack directly, so a
    // failure lists each finding and where it is.
    const report = new AwsSolutionsChecks().validateScope(app);
    expect(report.violations.map((v) => `${v.ruleName} ${v.violatingResources.map((r) => r.constructPath)}`)).toEqual(
      [],
    );
  });

  test('no annotations and no validation findings (CDK built-in CloudFormation checks included)', () => {
    const messages = assembly.getStackArtifact(stack.artifactId).messages;
    expect(messages.filter((m) => m.level !== 'info').map((m) => `${m.level} ${m.id}: ${m.entry.data}`)).toEqual([]);
    const reportFile = path.join(assembly.directory, 'validation-report.json');
    const report = existsSync(reportFile)
      ? (JSON.parse(readFileSync(reportFile, 'utf8')) as { pluginReports: { violations: { ruleName: string }[] }[] })
      : { pluginReports: [] };
    expect(report.pluginReports.flatMap((r) => r.violations.map((v) => v.ruleName))).toEqual([]);
  });
});

describe('functions', () => {
  test('exactly one function per route group, and no helper functions', () => {
    // Plus one per worker of lib/workers.ts (test/infra/workers.test.ts), the git function, and the
    // DAV function when its handler is in the tree (test/infra/dav.test.ts).
    template.resourceCountIs('AWS::Lambda::Function', routeGroups.length + workers.length + 1 + (stack.dav ? 1 : 0));
    expect(stack.functions.map((f) => f.group.name)).toEqual(routeGroups.map((g) => g.name));
  });

  test.each(routeGroups.map((g) => [g.name]))('%s: nodejs22.x on arm64, 1024 MB, 30 s, its own log group', (name) => {
    const f = fnOf(stack, name);
    const fn = template.toJSON().Resources[logicalId(f.fn)];
    expect(fn.Properties).toMatchObject({
      Runtime: 'nodejs22.x',
      Architectures: ['arm64'],
      MemorySize: 1024,
      Timeout: 30,
      Handler: 'index.handler',
      LoggingConfig: { LogGroup: { Ref: logicalId(f.logGroup) } },
    });
    expect(template.toJSON().Resources[logicalId(f.logGroup)].Properties.RetentionInDays).toBe(30);
  });

  test.each(routeGroups.map((g) => [g.name]))('%s: the environment of shared/config', (name) => {
    const f = fnOf(stack, name);
    const env = template.toJSON().Resources[logicalId(f.fn)].Properties.Environment.Variables;
    expect(env).toMatchObject({
      TABLE_NAME: { Ref: logicalId(stack.data.table) },
      AUTH_URL: 'https://auth.example.com',
      PLATFORM_TARGET: 'aws',
      STAGE: 'dev',
    });
    expect('CURSOR_SECRET' in env).toBe(f.group.needs.includes('cursorSecret'));
    // Every group seals the answers it keeps for Idempotency-Key; `kms` grants more of the key.
    expect('SECRETS_KEY_ID' in env).toBe(true);
    // Source maps are off, so Node is not told to read them.
    expect(env.NODE_OPTIONS).toBeUndefined();
  });
});

describe('HTTP API', () => {
  /** Route key → logical id of the function its integration calls. */
  function routeTargets(): Map<string, string> {
    const resources = template.toJSON().Resources as Resources;
    const integrationFn = new Map<string, string>();
    for (const [id, r] of Object.entries(resources)) {
      if (r.Type !== 'AWS::ApiGatewayV2::Integration') continue;
      expect(r.Properties.IntegrationType).toBe('AWS_PROXY');
      integrationFn.set(id, (r.Properties.IntegrationUri as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0]);
    }
    const routes = new Map<string, string>();
    for (const r of Object.values(resources)) {
      if (r.Type !== 'AWS::ApiGatewayV2::Route') continue;
      const target = JSON.stringify(r.Properties.Target);
      const integration = [...integrationFn.keys()].find((id) => target.includes(`"${id}"`));
      routes.set(r.Properties.RouteKey as string, integration ? (integrationFn.get(integration) ?? '') : '');
    }
    return routes;
  }

  test.each(routeGroups.map((g) => [g.name]))('%s: ANY <prefix> and ANY <prefix>/{proxy+} for every prefix', (name) => {
    const routes = routeTargets();
    const f = fnOf(stack, name);
    for (const prefix of f.group.prefixes) {
      expect(routes.get(`ANY ${prefix}`)).toBe(logicalId(f.fn));
      expect(routes.get(`ANY ${prefix}/{proxy+}`)).toBe(logicalId(f.fn));
    }
  });

  test('$default goes to the fallback group, and there are no other routes', () => {
    const routes = routeTargets();
    const fallback = routeGroups.filter((g) => g.fallback);
    expect(fallback).toHaveLength(1);
    expect(routes.get('$default')).toBe(logicalId(fnOf(stack, (fallback[0] as RouteGroup).name).fn));
    const prefixes = routeGroups.reduce((n, g) => n + g.prefixes.length, 0);
    expect(routes.size).toBe(2 * prefixes + 1);
  });

  test('git over HTTPS: one function behind a streaming function URL, CodeCommit by prefix, clone URLs from it', () => {
    const git = stack.git;
    expect(git).toBeDefined();
    const url = Object.values(template.findResources('AWS::Lambda::Url') as Resources).filter(
      (u) => !stack.dav || !JSON.stringify(u.Properties).includes(logicalId(stack.dav.fn)),
    );
    expect(url).toHaveLength(1);
    expect(url[0]?.Properties).toMatchObject({
      AuthType: 'NONE',
      InvokeMode: 'RESPONSE_STREAM',
      TargetFunctionArn: { 'Fn::GetAtt': [logicalId(git?.fn as never), 'Arn'] },
    });
    const statements = JSON.stringify(template.toJSON().Resources[logicalId(git?.role as never)]);
    const policies = Object.values(template.findResources('AWS::IAM::Policy') as Resources).filter((p) =>
      JSON.stringify(p.Properties.Roles).includes(logicalId(git?.role as never)),
    );
    const text = JSON.stringify(policies);
    expect(text).toContain('codecommit:GitPush');
    expect(text).toContain(':plt-repo-*');
    // S3 only on the LFS objects (presigned uploads and downloads), and their bucket for listing.
    const s3 = statementsOf(template, logicalId(git?.role as never)).filter((s) =>
      s.actions.some((a) => a.startsWith('s3:')),
    );
    expect(s3.length).toBeGreaterThan(0);
    for (const st of s3) expect(st.resource).toMatch(/repo-lfs\/\*/);
    expect(JSON.stringify(s3)).toContain('s3:PutObject');
    const gitEnv = template.toJSON().Resources[logicalId(git?.fn as never)].Properties.Environment.Variables;
    expect(Object.keys(gitEnv)).toEqual(expect.arrayContaining(['ARTIFACTS_BUCKET', 'CURSOR_SECRET']));
    expect(statements).toContain('lambda.amazonaws.com');
    const repos = stack.functions.find((f) => f.group.name === 'repos');
    const env = template.toJSON().Resources[logicalId(repos?.fn as never)].Properties.Environment.Variables;
    expect(env.GIT_BASE_URL).toEqual({ 'Fn::GetAtt': [expect.stringMatching(/^Git.*Url/), 'FunctionUrl'] });
  });

  test("no function of the stack gets the guarded fetch's test allowlist", () => {
    // shared/kernel/net/guarded-fetch.ts lets tests reach loopback hosts named in UNSAFE_TEST_ALLOW_HOSTS.
    for (const name of ['UNSAFE_TEST_ALLOW_HOSTS', 'UNSAFE_TEST_CA_FILE']) {
      expect(JSON.stringify(template.toJSON())).not.toContain(name);
      expect(readFileSync(path.join(__dirname, '..', '..', 'bin', 'local.ts'), 'utf8')).not.toContain(name);
    }
    // Loopback connector servers are `npm start`'s allowance alone (shared/domains/connectors).
    expect(JSON.stringify(template.toJSON())).not.toContain('LOCAL_CONNECTORS_LOOPBACK');
  });

  test('a function that needs git may make every CodeCommit call the git port makes', () => {
    // The calls of the adapter, read from its source: a call added there without its grant fails here.
    const source = readFileSync(path.join(__dirname, '..', '..', 'shared', 'ports', 'git', 'aws.ts'), 'utf8');
    const calls = [...source.matchAll(/new (\w+)Command\(/g)].map((m) => `codecommit:${m[1]}`);
    expect(calls.length).toBeGreaterThan(10);
    const repos = stack.functions.find((f) => f.group.name === 'repos');
    const actions = statementsOf(template, logicalId(repos?.role as never)).flatMap((s) => s.actions);
    expect([...new Set(calls)].filter((c) => !actions.includes(c))).toEqual([]);
  });

  test('API Gateway may invoke each function only through this API (one permission a function, for any of its routes)', () => {
    const permissions = Object.values(template.findResources('AWS::Lambda::Permission') as Resources);
    const workers = stack.workers.map((w) => logicalId(w.fn));
    for (const p of permissions) {
      // The workers are invoked by their EventBridge rules only (see 'deployments', 'storage usage').
      if (workers.some((w) => JSON.stringify(p.Properties.FunctionName).includes(w))) continue;
      // The git and DAV functions are invoked through their function URLs only (the next test).
      const byUrl = [stack.git, stack.dav].flatMap((f) => (f ? [logicalId(f.fn)] : []));
      if (byUrl.some((id) => JSON.stringify(p.Properties.FunctionName).includes(id))) {
        // (Function URLs need lambda:InvokeFunction too, held to calls through the URL.)
        expect(['lambda:InvokeFunctionUrl', 'lambda:InvokeFunction']).toContain(p.Properties.Action);
        if (p.Properties.Action === 'lambda:InvokeFunction') {
          expect(JSON.stringify(p.Properties)).toContain('InvokedViaFunctionUrl');
        }
        continue;
      }
      expect(p.Properties.Principal).toBe('apigateway.amazonaws.com');
      expect(JSON.stringify(p.Properties.SourceArn)).toContain(logicalId(stack.http.api));
    }
  });

  test('CORS preflight for the local web app', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Api', {
      ProtocolType: 'HTTP',
      // And the deployed web app's origin, with what it sends (test/infra/web-app.test.ts).
      CorsConfiguration: Match.objectLike({
        AllowOrigins: ['http://localhost:3000', Match.anyValue()],
        AllowMethods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
      }),
    });
  });

  test('the $default stage logs access as JSON and throttles', () => {
    template.resourceCountIs('AWS::ApiGatewayV2::Stage', 1);
    const [stage] = Object.values(template.findResources('AWS::ApiGatewayV2::Stage') as Resources);
    if (!stage) throw new Error('no stage');
    expect(stage.Properties).toMatchObject({
      StageName: '$default',
      AutoDeploy: true,
      DefaultRouteSettings: { ThrottlingRateLimit: 100, ThrottlingBurstLimit: 200 },
      AccessLogSettings: { DestinationArn: { 'Fn::GetAtt': [logicalId(stack.http.accessLogs), 'Arn'] } },
    });
    const format = JSON.parse((stage.Properties.AccessLogSettings as { Format: string }).Format);
    expect(format).toMatchObject({
      requestId: '$context.requestId',
      ip: '$context.identity.sourceIp',
      routeKey: '$context.routeKey',
      status: '$context.status',
      responseLength: '$context.responseLength',
      integrationError: '$context.integrationErrorMessage',
    });
  });

  test('outputs', () => {
    for (const name of ['ApiUrl', 'TableName', 'ArtifactsBucketName', 'QueueUrl']) template.hasOutput(name, {});
  });
});

describe('data', () => {
  test('the platform table: keys, gsi1, on demand, PITR, deletion protection, TTL, customer key, retained', () => {
    template.resourceCountIs('AWS::DynamoDB::Table', 1);
    template.hasResource('AWS::DynamoDB::Table', {
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
      Properties: {
        KeySchema: [
          { AttributeName: platformTable.partitionKey, KeyType: 'HASH' },
          { AttributeName: platformTable.sortKey, KeyType: 'RANGE' },
        ],
        BillingMode: 'PAY_PER_REQUEST',
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
        DeletionProtectionEnabled: true,
        TimeToLiveSpecification: { AttributeName: platformTable.ttlAttribute, Enabled: true },
        SSESpecification: {
          SSEEnabled: true,
          SSEType: 'KMS',
          KMSMasterKeyId: { 'Fn::GetAtt': [logicalId(stack.data.tableKey), 'Arn'] },
        },
        GlobalSecondaryIndexes: platformTable.globalIndexes.map((index) => ({
          IndexName: index.name,
          KeySchema: [
            { AttributeName: index.partitionKey, KeyType: 'HASH' },
            { AttributeName: index.sortKey, KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'ALL' },
        })),
      },
    });
    expect(platformTable.globalIndexes.map((i) => i.name)).toContain('gsi1');
  });

  test('KMS keys rotate and are retained', () => {
    const keys = Object.values(template.findResources('AWS::KMS::Key') as Resources);
    expect(keys.length).toBeGreaterThan(0);
    for (const key of keys) {
      expect(key.Properties.EnableKeyRotation).toBe(true);
      expect(key.DeletionPolicy).toBe('Retain');
    }
  });

  test('every bucket blocks public access, is encrypted, enforces SSL and is retained', () => {
    const buckets = template.findResources('AWS::S3::Bucket') as Resources;
    // Access logs, artifacts, received mail (lib/aws/mail.ts).
    expect(Object.keys(buckets)).toHaveLength(3);
    const policies = Object.values(template.findResources('AWS::S3::BucketPolicy') as Resources);
    for (const [id, bucket] of Object.entries(buckets)) {
      expect(bucket.DeletionPolicy).toBe('Retain');
      expect(bucket.Properties).toMatchObject({
        PublicAccessBlockConfiguration: {
          BlockPublicAcls: true,
          BlockPublicPolicy: true,
          IgnorePublicAcls: true,
          RestrictPublicBuckets: true,
        },
        BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: {} }] },
      });
      expect(JSON.stringify(bucket.Properties.LifecycleConfiguration)).toContain('AbortIncompleteMultipartUpload');
      const policy = policies.find((p) => JSON.stringify(p.Properties.Bucket) === JSON.stringify({ Ref: id }));
      expect(policy?.Properties.PolicyDocument).toMatchObject({
        Statement: expect.arrayContaining([
          expect.objectContaining({
            Effect: 'Deny',
            Action: 's3:*',
            Condition: { Bool: { 'aws:SecureTransport': 'false' } },
          }),
        ]),
      });
    }
  });

  test('the artifacts bucket is versioned and logs to the access-log bucket', () => {
    const artifacts = template.toJSON().Resources[logicalId(stack.data.artifactsBucket)];
    expect(artifacts.Properties).toMatchObject({
      VersioningConfiguration: { Status: 'Enabled' },
      LoggingConfiguration: { DestinationBucketName: { Ref: logicalId(stack.data.logBucket) } },
    });
  });

  test('the agent job queue redrives to its dead-letter queue; both encrypted, SSL only', () => {
    const queue = template.toJSON().Resources[logicalId(stack.jobs.queue)];
    expect(queue.Properties).toMatchObject({
      SqsManagedSseEnabled: true,
      RedrivePolicy: {
        deadLetterTargetArn: { 'Fn::GetAtt': [logicalId(stack.jobs.deadLetterQueue), 'Arn'] },
        maxReceiveCount: 5,
      },
    });
    const dlq = template.toJSON().Resources[logicalId(stack.jobs.deadLetterQueue)];
    expect(dlq.Properties.SqsManagedSseEnabled).toBe(true);
    const policies = JSON.stringify(template.findResources('AWS::SQS::QueuePolicy'));
    for (const q of [stack.jobs.queue, stack.jobs.deadLetterQueue]) {
      expect(policies).toContain(`"Ref":"${logicalId(q)}"`);
    }
    template.allResourcesProperties('AWS::SQS::QueuePolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        ]),
      },
    });
  });
});

describe('least privilege', () => {
  test('functions get only what their needs list', () => {
    const on = (construct: Construct) => `"${logicalId(construct)}"`;
    for (const f of stack.functions) {
      const statements = statementsOf(template, logicalId(f.role));
      const touches = (fragment: string) => statements.some((s) => s.resource.includes(fragment));
      const needs = (need: RouteGroup['needs'][number]) => f.group.needs.includes(need);
      expect(touches(on(stack.data.table))).toBe(needs('table'));
      expect(touches(on(stack.data.artifactsBucket))).toBe(needs('buckets') || needs('repoLfs'));
      // repoLfs alone: the LFS objects of the bucket, nothing else of it.
      const bucketStatements = statements.filter((s) => s.resource.includes(on(stack.data.artifactsBucket)));
      if (!needs('buckets')) expect(bucketStatements.every((s) => s.resource.includes('repo-lfs/*'))).toBe(true);
      expect(touches(on(stack.jobs.queue))).toBe(needs('queue'));
      // The secrets key: every group for its kept idempotent answers only (their encryption context's
      // purpose); envelope encryption of anything else with `kms`.
      const keyStatements = rawStatementsOf(logicalId(f.role)).filter((s) =>
        JSON.stringify(s.Resource).includes(on(stack.data.secretsKey)),
      );
      const idempotency = { StringEquals: { 'kms:EncryptionContext:purpose': 'idempotency' } };
      expect(keyStatements.filter((s) => s.Condition === undefined).length > 0).toBe(needs('kms'));
      expect(keyStatements.filter((s) => s.Condition !== undefined)).toEqual([
        expect.objectContaining({ Action: ['kms:Decrypt', 'kms:GenerateDataKey'], Condition: idempotency }),
      ]);
      expect(touches(':table/cust-')).toBe(needs('customerTables'));
      expect(touches(':s3:::plt-')).toBe(needs('customerBuckets'));
      // Logs only to its own group: no AWSLambdaBasicExecutionRole.
      const writes = ['logs:CreateLogStream', 'logs:PutLogEvents', 'logs:CreateLogGroup'];
      const logs = statements.filter((s) => s.actions.some((a) => writes.includes(a)));
      // Reading logs: build logs with `builds`, server-function logs with `functions`.
      const reads = statements.filter((s) => s.actions.some((a) => a.startsWith('logs:') && !writes.includes(a)));
      expect(reads.some((s) => s.actions.includes('logs:GetLogEvents'))).toBe(needs('builds'));
      expect(reads.some((s) => s.actions.includes('logs:FilterLogEvents'))).toBe(needs('functions'));
      expect(touches(':function:plt-fn-*')).toBe(needs('functions'));
      expect(statements.some((s) => s.actions.includes('codebuild:StartBuild'))).toBe(
        needs('builds') || needs('repoImports'),
      );
      expect(logs).toEqual([
        {
          actions: ['logs:CreateLogStream', 'logs:PutLogEvents'],
          resource: JSON.stringify({ 'Fn::GetAtt': [logicalId(f.logGroup), 'Arn'] }),
        },
      ]);
    }
    template.allResourcesProperties('AWS::IAM::Role', { ManagedPolicyArns: Match.absent() });
  });
});

describe('every need, wired', () => {
  // Groups that list every need, to prove the grants work before a real group asks for them.
  const groups: RouteGroup[] = [
    {
      name: 'core',
      prefixes: ['/health'],
      needs: [
        'table',
        'cursorSecret',
        'kms',
        'buckets',
        'queue',
        'customerTables',
        'customerBuckets',
        'builds',
        'functions',
        'repoArchives',
      ],
      fallback: true,
    },
    { name: 'orgs', prefixes: ['/v1/orgs/{orgId}'], needs: [] },
  ];
  let all: PlatformStack;
  let t: Template;
  let allApp: App;

  beforeAll(() => {
    allApp = new App({ context: { ...flags, ...noBundling }, builtinCloudFormationValidation: false });
    all = new PlatformStack(allApp, 'AllNeeds', {
      authUrl: 'https://auth.example.com',
      authAudience: 'platform-api',
      groups,
    });
    t = Template.fromStack(all);
  });

  test('cdk-nag stays clean when a group needs everything', () => {
    const report = new AwsSolutionsChecks().validateScope(allApp);
    expect(report.violations.map((v) => `${v.ruleName} ${v.violatingResources.map((r) => r.constructPath)}`)).toEqual(
      [],
    );
  });

  test('the group that needs everything gets each grant and its environment', () => {
    const core = fnOf(all, 'core');
    const statements = statementsOf(t, logicalId(core.role));
    const secretsKey = logicalId(all.data.secretsKey);
    expect(statements.find((s) => s.resource.includes(secretsKey))?.actions.sort()).toEqual([
      'kms:Decrypt',
      'kms:Encrypt',
      'kms:GenerateDataKey',
    ]);
    const actions = statements.flatMap((s) => s.actions);
    expect(actions).toEqual(expect.arrayContaining(['s3:PutObject', 'sqs:SendMessage', 'sqs:ReceiveMessage']));
    const env = t.toJSON().Resources[logicalId(core.fn)].Properties.Environment.Variables;
    expect(JSON.stringify(env.CURSOR_SECRET)).toContain('{{resolve:secretsmanager:');
    expect(env).toMatchObject({
      SECRETS_KEY_ID: { 'Fn::GetAtt': [secretsKey, 'Arn'] },
      ARTIFACTS_BUCKET: { Ref: logicalId(all.data.artifactsBucket) },
      AGENT_JOBS_QUEUE_URL: { Ref: logicalId(all.jobs.queue) },
    });
  });

  test("a group that hands work to a queue worker may send to that worker's queue, and only send", () => {
    const core = fnOf(all, 'core');
    const archives = all.workerQueue('repo-archives');
    const onQueue = statementsOf(t, logicalId(core.role)).filter((s) =>
      s.resource.includes(logicalId(archives as sqs.Queue)),
    );
    expect(onQueue.flatMap((s) => s.actions).sort()).toEqual([
      'sqs:GetQueueAttributes',
      'sqs:GetQueueUrl',
      'sqs:SendMessage',
    ]);
    const env = t.toJSON().Resources[logicalId(core.fn)].Properties.Environment.Variables;
    expect(env.REPO_ARCHIVES_QUEUE_URL).toEqual({ Ref: logicalId(archives as sqs.Queue) });
  });

  test('a group sending to a queue no worker reads stops the synthesis, naming the queue', () => {
    const app = new App({ context: { ...flags, ...noBundling }, builtinCloudFormationValidation: false });
    expect(
      () =>
        new PlatformStack(app, 'NoArchiveWorker', {
          authUrl: 'https://auth.example.com',
          authAudience: 'platform-api',
          groups,
          workers: [],
        }),
    ).toThrow('No worker of the table reads the queue repo-archives: add its row to lib/workers.ts.');
  });

  test('customer tables and buckets: by name prefix, buckets of this account only, no ACLs', () => {
    const policies = Object.values(t.findResources('AWS::IAM::Policy') as Resources).filter((p) =>
      JSON.stringify(p.Properties.Roles).includes(logicalId(fnOf(all, 'core').role)),
    );
    type Statement = { Action: string | string[]; Resource: unknown; Condition?: unknown };
    const statements = policies.flatMap((p) => (p.Properties.PolicyDocument as { Statement: Statement[] }).Statement);
    const on = (fragment: string) => statements.filter((s) => JSON.stringify(s.Resource).includes(fragment));

    const tables = on(':table/cust-*');
    expect(tables.length).toBeGreaterThan(0);
    const onIndexes = on(':table/cust-*/index/*');
    expect(onIndexes.flatMap((s) => s.Action).sort()).toEqual(['dynamodb:Query', 'dynamodb:Scan']);

    const buckets = on(':s3:::plt-*');
    const actions = buckets.flatMap((s) => ([] as string[]).concat(s.Action));
    expect(actions).toEqual(expect.arrayContaining(['s3:CreateBucket', 's3:PutObject', 's3:PutBucketCORS']));
    for (const forbidden of ['s3:PutBucketAcl', 's3:PutObjectAcl', 's3:PutBucketOwnershipControls']) {
      expect(actions).not.toContain(forbidden);
    }
    const listAll = statements.filter((s) => s.Resource === '*');
    expect(listAll.map((s) => s.Action)).toEqual(['s3:ListAllMyBuckets']);
    for (const s of buckets) {
      if (s.Action === 's3:CreateBucket') continue;
      expect(s.Condition).toEqual({ StringEquals: { 's3:ResourceAccount': { Ref: 'AWS::AccountId' } } });
    }
  });

  test('the group that needs nothing can only write its logs and seal its kept idempotent answers', () => {
    const orgs = fnOf(all, 'orgs');
    expect(
      statementsOf(t, logicalId(orgs.role))
        .flatMap((s) => s.actions)
        .sort(),
    ).toEqual(['kms:Decrypt', 'kms:GenerateDataKey', 'logs:CreateLogStream', 'logs:PutLogEvents']);
    const onKey = rawStatementsOf(logicalId(orgs.role), () => t).filter((s) =>
      JSON.stringify(s.Resource).includes(logicalId(all.data.secretsKey)),
    );
    expect(onKey.map((s) => s.Condition)).toEqual([
      { StringEquals: { 'kms:EncryptionContext:purpose': 'idempotency' } },
    ]);
    const env = t.toJSON().Resources[logicalId(orgs.fn)].Properties.Environment.Variables;
    expect(Object.keys(env).sort()).toEqual([
      'AUTH_AUDIENCE',
      'AUTH_URL',
      'PLATFORM_TARGET',
      'SECRETS_KEY_ID',
      'STAGE',
      'TABLE_NAME',
    ]);
  });

  test('no statement has a wildcard action on a whole service', () => {
    for (const each of [t, template]) {
      const actions = Object.values(each.findResources('AWS::IAM::Policy') as Resources).flatMap((p) =>
        (p.Properties.PolicyDocument as { Statement: { Action: string | string[] }[] }).Statement.flatMap((s) =>
          ([] as string[]).concat(s.Action),
        ),
      );
      expect(actions.filter((a) => a === '*' || a.endsWith(':*'))).toEqual([]);
    }
  });
});

describe('storage usage', () => {
  test('a daily rule runs the bucket usage worker, which may list buckets, read metrics and write the table', () => {
    const worker = logicalId(workerOf(stack, 'storage-usage').fn);
    const rules = Object.values(template.findResources('AWS::Events::Rule') as Resources).filter((r) =>
      JSON.stringify(r.Properties.Targets).includes(worker),
    );
    expect(rules).toHaveLength(1);
    expect(rules[0]?.Properties.ScheduleExpression).toBe('cron(0 6 * * ? *)');
    const permission = Object.values(template.findResources('AWS::Lambda::Permission') as Resources).find((p) =>
      JSON.stringify(p.Properties.FunctionName).includes(worker),
    );
    expect(permission?.Properties.Principal).toBe('events.amazonaws.com');
    const policies = JSON.stringify(
      Object.values(template.findResources('AWS::IAM::Policy') as Resources).filter((p) =>
        JSON.stringify(p.Properties.Roles).includes(logicalId(workerOf(stack, 'storage-usage').role)),
      ),
    );
    expect(policies).toContain('cloudwatch:GetMetricData');
    expect(policies).toContain('s3:ListAllMyBuckets');
    expect(policies).toContain('dynamodb:PutItem');
  });
});

describe('deployments', () => {
  const fnResource = (fn: Construct) => template.toJSON().Resources[logicalId(fn)];

  test('one CodeBuild project: arm64, 15 minutes, no source of its own, encrypted, logs to its group', () => {
    // Two projects: deployment builds, and repository imports (lib/aws/imports.ts).
    template.resourceCountIs('AWS::CodeBuild::Project', 2);
    const project = template.toJSON().Resources[logicalId(stack.deployments.project)];
    expect(project.Properties).toMatchObject({
      Environment: { Type: 'ARM_CONTAINER', ComputeType: 'BUILD_GENERAL1_SMALL', PrivilegedMode: false },
      Source: { Type: 'NO_SOURCE' },
      TimeoutInMinutes: 15,
      EncryptionKey: { 'Fn::GetAtt': [logicalId(stack.deployments.buildKey), 'Arn'] },
      LogsConfig: { CloudWatchLogs: { Status: 'ENABLED', GroupName: { Ref: logicalId(stack.deployments.buildLogs) } } },
    });
    const spec = JSON.stringify(project.Properties.Source);
    expect(spec).toContain('platform-build.js');
    expect(spec).toContain('runuser');
  });

  test('repository imports: a project of their own running the bundled job for hours, not minutes; its role pushes to the platform repositories and reaches repo-lfs/ only', () => {
    const project = template.toJSON().Resources[logicalId(stack.imports.project)];
    expect(project.Properties).toMatchObject({
      Environment: { Type: 'ARM_CONTAINER', ComputeType: 'BUILD_GENERAL1_SMALL', PrivilegedMode: false },
      Source: { Type: 'S3' },
      TimeoutInMinutes: 8 * 60,
      EncryptionKey: { 'Fn::GetAtt': [logicalId(stack.deployments.buildKey), 'Arn'] },
    });
    expect(JSON.stringify(project.Properties.Source)).toContain('node index.mjs');
    // The import's size cap and lowest speed hold in the build (the job reads them from its environment).
    expect(project.Properties.Environment.EnvironmentVariables).toEqual(
      expect.arrayContaining([
        { Name: 'IMPORT_MAX_BYTES', Type: 'PLAINTEXT', Value: String(5 * 1024 ** 3) },
        { Name: 'IMPORT_LOW_SPEED_BYTES', Type: 'PLAINTEXT', Value: '1024' },
        { Name: 'IMPORT_LOW_SPEED_SECONDS', Type: 'PLAINTEXT', Value: '600' },
      ]),
    );
    const own = statementsOf(template, logicalId(stack.imports.project.role as unknown as Construct));
    const push = own.find((s) => s.actions.includes('codecommit:GitPush'));
    expect(JSON.stringify(push?.resource)).toContain(':plt-repo-*');
    const objects = own.filter((s) => s.actions.includes('s3:PutObject'));
    expect(objects).toHaveLength(1);
    expect(JSON.stringify(objects[0]?.resource)).toContain('/repo-lfs/*');
    // The repos group starts and stops its builds, and knows the project by IMPORT_PROJECT.
    const repos = stack.functions.find((f) => f.group.name === 'repos')!;
    const starts = statementsOf(template, logicalId(repos.role)).find((s) =>
      s.actions.includes('codebuild:StartBuild'),
    );
    expect(JSON.stringify(starts?.resource)).toContain(logicalId(stack.imports.project));
    expect(fnResource(repos.fn).Properties.Environment.Variables.IMPORT_PROJECT).toEqual({
      Ref: logicalId(stack.imports.project),
    });
  });

  test("the build project's role reaches no data: it can only assume the build-data role, which each build narrows", () => {
    const projectRole = logicalId(stack.deployments.project.role as unknown as Construct);
    const dataRole = logicalId(stack.deployments.buildDataRole);
    const own = statementsOf(template, projectRole);
    expect(own.flatMap((s) => s.actions).filter((a) => a.startsWith('s3:'))).toEqual([]);
    expect(own.filter((s) => s.actions.includes('sts:AssumeRole'))).toEqual([
      // Tagging the session with its project and deployment (test/infra/build-credentials.test.ts).
      expect.objectContaining({
        actions: ['sts:AssumeRole', 'sts:TagSession'],
        resource: expect.stringContaining(dataRole),
      }),
    ]);
    // Only the project's role may assume it, for an hour at most (a build is 15 minutes).
    const trust = template.toJSON().Resources[dataRole].Properties;
    expect(JSON.stringify(trust.AssumeRolePolicyDocument)).toContain(projectRole);
    expect(trust.MaxSessionDuration).toBe(3600);
    const vars = template.toJSON().Resources[logicalId(stack.deployments.project)].Properties.Environment
      .EnvironmentVariables as { Name: string }[];
    expect(vars.map((v) => v.Name)).toContain('BUILD_DATA_ROLE_ARN');
  });

  test('the build-data role reads sources and writes artifacts and caches, by prefix, nothing else', () => {
    const role = logicalId(stack.deployments.buildDataRole);
    const s3 = statementsOf(template, role).filter((s) => s.actions.some((a) => a.startsWith('s3:')));
    const bucket = logicalId(stack.data.artifactsBucket);
    const on = (prefix: string) => s3.filter((s) => s.resource.includes(bucket) && s.resource.includes(`/${prefix}/`));
    expect(on('sources').flatMap((s) => s.actions)).toEqual(['s3:GetObject']);
    expect(on('artifacts').flatMap((s) => s.actions)).toEqual(['s3:PutObject']);
    expect(
      on('builds')
        .flatMap((s) => s.actions)
        .sort(),
    ).toEqual(['s3:DeleteObject', 's3:GetObject']);
    expect(s3.flatMap((s) => s.actions)).not.toContain('s3:DeleteObject*');
  });

  test('build state changes of that project reach the build-events worker; the sweep runs hourly', () => {
    template.hasResourceProperties('AWS::Events::Rule', {
      EventPattern: {
        source: ['aws.codebuild'],
        'detail-type': ['CodeBuild Build State Change'],
        detail: { 'project-name': [{ Ref: logicalId(stack.deployments.project) }] },
      },
      Targets: [
        Match.objectLike({
          Arn: { 'Fn::GetAtt': [logicalId(workerOf(stack, 'build-events').fn), 'Arn'] },
          RetryPolicy: Match.objectLike({ MaximumRetryAttempts: 8 }),
        }),
      ],
    });
    template.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'rate(1 hour)',
      Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [logicalId(workerOf(stack, 'build-retention').fn), 'Arn'] } })],
    });
    for (const worker of [workerOf(stack, 'build-events'), workerOf(stack, 'build-retention')]) {
      expect(fnResource(worker.fn).Properties).toMatchObject({ Runtime: 'nodejs22.x', Architectures: ['arm64'] });
    }
  });

  test('the worker creates server functions by name prefix and passes only their role', () => {
    const statements = statementsOf(template, logicalId(workerOf(stack, 'build-events').role));
    const lambda = statements.filter((s) =>
      s.actions.some((a) => a.startsWith('lambda:') && a !== 'lambda:GetLayerVersion'),
    );
    expect(lambda.flatMap((s) => s.actions)).toEqual(
      expect.arrayContaining(['lambda:CreateFunction', 'lambda:DeleteFunction', 'lambda:GetFunction']),
    );
    for (const s of lambda) expect(s.resource).toContain(':function:plt-fn-*');
    // Each function's own role (test/infra/function-roles.test.ts), passed by the name prefix.
    const pass = statements.filter((s) => s.actions.includes('iam:PassRole'));
    expect(pass).toHaveLength(1);
    expect(pass[0]?.resource).toContain(':role/plt-fn-*');
    const env = fnResource(workerOf(stack, 'build-events').fn).Properties.Environment.Variables;
    expect(env).toMatchObject({
      FUNCTION_PREFIX: 'plt-fn-',
      FUNCTION_BOUNDARY_ARN: { Ref: logicalId(stack.deployments.functionBoundary) },
      PLATFORM_TARGET: 'aws',
    });
    expect(JSON.stringify(env.WEB_ADAPTER_LAYER_ARN)).toContain('LambdaAdapterLayerArm64');
  });

  test('the deployments group starts builds of the project and reads its log; env names them', () => {
    const f = fnOf(stack, 'deployments');
    const statements = statementsOf(template, logicalId(f.role));
    const codebuild = statements.filter((s) => s.actions.some((a) => a.startsWith('codebuild:')));
    expect(codebuild).toEqual([
      {
        actions: ['codebuild:StartBuild', 'codebuild:StopBuild'],
        resource: JSON.stringify({ 'Fn::GetAtt': [logicalId(stack.deployments.project), 'Arn'] }),
      },
    ]);
    const env = fnResource(f.fn).Properties.Environment.Variables;
    expect(env).toMatchObject({
      BUILD_PROJECT: { Ref: logicalId(stack.deployments.project) },
      BUILD_LOG_GROUP: { Ref: logicalId(stack.deployments.buildLogs) },
      FUNCTION_PREFIX: 'plt-fn-',
    });
    // It never creates functions: the worker does.
    expect(statements.flatMap((s) => s.actions)).not.toContain('lambda:CreateFunction');
  });

  test('source archives are kept 30 days, one-build variables 1 day', () => {
    const bucket = template.toJSON().Resources[logicalId(stack.data.artifactsBucket)];
    expect(bucket.Properties.LifecycleConfiguration.Rules).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ Id: 'source-archives', Prefix: 'sources/', ExpirationInDays: 30 }),
        expect.objectContaining({ Id: 'build-variables', Prefix: 'builds/', ExpirationInDays: 1 }),
      ]),
    );
  });

  test("the tracker's import files are kept 2 days, its large exports 1 day", () => {
    const bucket = template.toJSON().Resources[logicalId(stack.data.artifactsBucket)];
    expect(bucket.Properties.LifecycleConfiguration.Rules).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ Prefix: IMPORTS_PREFIX, ExpirationInDays: 2 }),
        expect.objectContaining({ Prefix: EXPORTS_PREFIX, ExpirationInDays: 1 }),
      ]),
    );
  });
});

describe('settings', () => {
  const settingsOf = (context: Record<string, unknown>, env: NodeJS.ProcessEnv = {}) =>
    platformSettings(new App({ context }).node, env);

  test('defaults', () => {
    expect(settingsOf({})).toEqual({
      authUrl: 'https://auth.example.com',
      stage: undefined,
      authAudience: undefined,
      corsOrigins: undefined,
      locations: undefined,
      defaultLocation: undefined,
    });
  });

  test('the stack refuses to synthesize without the audience of its tokens', () => {
    expect(() => platformApp({ context: { ...flags, ...noBundling } })).toThrow(
      'The stack needs the audience of its access tokens: cdk synth -c authAudience=<aud> (or AUTH_AUDIENCE).',
    );
    expect(settingsOf({}, { AUTH_AUDIENCE: 'from-env' }).authAudience).toBe('from-env');
    expect(settingsOf({ authAudience: 'ctx' }, { AUTH_AUDIENCE: 'from-env' }).authAudience).toBe('ctx');
  });

  test('authUrl from context, else AUTH_URL', () => {
    expect(settingsOf({}, { AUTH_URL: 'https://id.example.org' }).authUrl).toBe('https://id.example.org');
    expect(settingsOf({ authUrl: 'https://ctx.example.org' }, { AUTH_URL: 'https://id.example.org' }).authUrl).toBe(
      'https://ctx.example.org',
    );
  });

  test('corsOrigins as an array, JSON or a comma-separated list', () => {
    const origins = ['https://app.example.com', 'http://localhost:3000'];
    expect(settingsOf({ corsOrigins: origins }).corsOrigins).toEqual(origins);
    expect(settingsOf({ corsOrigins: JSON.stringify(origins) }).corsOrigins).toEqual(origins);
    expect(settingsOf({ corsOrigins: origins.join(', ') }).corsOrigins).toEqual(origins);
  });

  test('locations must be a JSON array', () => {
    const locations = [{ id: 'fra', name: 'Frankfurt', region: 'eu-central-1' }];
    expect(settingsOf({ locations }).locations).toBe(JSON.stringify(locations));
    expect(settingsOf({ locations: JSON.stringify(locations) }).locations).toBe(JSON.stringify(locations));
    expect(() => settingsOf({ locations: '{"id":"fra"}' })).toThrow(/JSON array/);
  });

  test('a stage names the stack and reaches the functions', () => {
    const { stack: staged } = platformApp({
      context: {
        ...flags,
        ...noBundling,
        stage: 'prod',
        authAudience: 'platform-prod',
        corsOrigins: 'https://app.example.com',
        defaultLocation: 'dub',
      },
      builtinCloudFormationValidation: false,
    });
    expect(staged.stackName).toBe('PlatformStack-prod');
    const t = Template.fromStack(staged);
    t.allResourcesProperties('AWS::Lambda::Function', {
      Environment: {
        Variables: Match.objectLike({ STAGE: 'prod', DEFAULT_LOCATION: 'dub', AUTH_AUDIENCE: 'platform-prod' }),
      },
    });
    t.hasResourceProperties('AWS::ApiGatewayV2::Api', {
      CorsConfiguration: Match.objectLike({ AllowOrigins: ['https://app.example.com', Match.anyValue()] }),
    });
  });
});
