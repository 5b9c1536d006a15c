import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RouteGroup } from '../../lib/route-groups';
import { type Bundle, bundleFile, DIST } from '../build';

/**
 * The floor a function is judged against: a bare handler that creates the same AWS SDK clients as
 * the function's `needs` call for and makes one call with each, bundled with the same options.
 * Whatever a function's bundle holds beyond this is the cost of our own stack.
 */

type Need = RouteGroup['needs'][number];
type Client =
  | 'dynamodb'
  | 's3'
  | 'sqs'
  | 'kms'
  | 'codebuild'
  | 'lambda'
  | 'logs'
  | 'codecommit'
  | 'scheduler'
  | 'sesv2'
  | 'sms'
  | 'cognito';

/**
 * The SDK clients behind each need. A `Record` over every need, so a need added to the route-group
 * type does not compile until the bench knows which clients it brings. `cursorSecret` is an
 * environment value: no client. Builds and deployed functions both read CloudWatch Logs.
 */
const CLIENT_OF: Record<Need, Client[]> = {
  table: ['dynamodb'],
  customerTables: ['dynamodb'],
  buckets: ['s3'],
  repoLfs: ['s3'],
  customerBuckets: ['s3'],
  queue: ['sqs'],
  repoArchives: ['sqs'],
  agentCallbacks: ['sqs'],
  agentChecks: ['sqs'],
  notify: ['sqs'],
  webhooks: ['sqs'],
  domainChecks: ['sqs'],
  // Lookups are UDP; a provider's client (Route 53, STS) is made on a write, not per invocation.
  dns: [],
  scheduler: ['sqs', 'scheduler'],
  mail: ['sesv2'],
  mailSend: ['sesv2'],
  mailInbound: ['s3'],
  mailFeedback: [],
  mailReply: ['sesv2'],
  mailQuota: ['sesv2'],
  phone: ['sms'],
  signin: ['cognito'],
  kms: ['kms'],
  cursorSecret: [],
  builds: ['codebuild', 'logs'],
  repoImports: ['codebuild'],
  functions: ['lambda', 'logs'],
  // Workers' needs (lib/workers.ts); bucket metrics also read CloudWatch, which no group needs.
  secretsDecrypt: ['kms'],
  idempotency: ['kms'],
  artifactsRead: ['s3'],
  artifactsExpire: ['s3'],
  bucketMetrics: ['s3'],
  buildLogs: ['logs'],
  serverFunctions: ['lambda'],
  functionsDelete: ['lambda'],
  functionsInvoke: ['lambda'],
  // CloudFront is reached on a domain's verify or delete (loaded then), never per invocation.
  cdn: [],
  git: ['codecommit'],
};

/** Each client as a bare handler uses it: created once, one call per invocation. */
const CLIENTS: Record<Client, { imports: string[]; init: string[]; call: string }> = {
  dynamodb: {
    imports: [
      "import { DynamoDBClient } from '@aws-sdk/client-dynamodb';",
      "import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';",
    ],
    init: ['const db = DynamoDBDocumentClient.from(new DynamoDBClient({}));'],
    call: "const out = await db.send(new GetCommand({ TableName: process.env.TABLE_NAME, Key: { pk: event.rawPath, sk: 'ORG' } }));",
  },
  s3: {
    imports: ["import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';"],
    init: ['const s3 = new S3Client({});'],
    call: "if (event.rawQueryString === 's3') await s3.send(new GetObjectCommand({ Bucket: 'b', Key: event.rawPath }));",
  },
  sqs: {
    imports: ["import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';"],
    init: ['const sqs = new SQSClient({});'],
    call: "if (event.rawQueryString === 'sqs') await sqs.send(new SendMessageCommand({ QueueUrl: 'q', MessageBody: event.rawPath }));",
  },
  kms: {
    imports: ["import { GenerateDataKeyCommand, KMSClient } from '@aws-sdk/client-kms';"],
    init: ['const kms = new KMSClient({});'],
    call: "if (event.rawQueryString === 'kms') await kms.send(new GenerateDataKeyCommand({ KeyId: 'k', KeySpec: 'AES_256' }));",
  },
  codebuild: {
    imports: ["import { CodeBuildClient, StartBuildCommand } from '@aws-sdk/client-codebuild';"],
    init: ['const codebuild = new CodeBuildClient({});'],
    call: "if (event.rawQueryString === 'build') await codebuild.send(new StartBuildCommand({ projectName: event.rawPath }));",
  },
  lambda: {
    imports: ["import { GetFunctionCommand, LambdaClient } from '@aws-sdk/client-lambda';"],
    init: ['const lambda = new LambdaClient({});'],
    call: "if (event.rawQueryString === 'fn') await lambda.send(new GetFunctionCommand({ FunctionName: event.rawPath }));",
  },
  codecommit: {
    imports: ["import { CodeCommitClient, GetBranchCommand } from '@aws-sdk/client-codecommit';"],
    init: ['const codecommit = new CodeCommitClient({});'],
    call: "if (event.rawQueryString === 'git') await codecommit.send(new GetBranchCommand({ repositoryName: 'r', branchName: event.rawPath }));",
  },
  scheduler: {
    imports: ["import { DeleteScheduleCommand, SchedulerClient } from '@aws-sdk/client-scheduler';"],
    init: ['const scheduler = new SchedulerClient({});'],
    call: "if (event.rawQueryString === 'timer') await scheduler.send(new DeleteScheduleCommand({ Name: event.rawPath }));",
  },
  sesv2: {
    imports: ["import { SendEmailCommand, SESv2Client } from '@aws-sdk/client-sesv2';"],
    init: ['const ses = new SESv2Client({});'],
    call: "if (event.rawQueryString === 'mail') await ses.send(new SendEmailCommand({ FromEmailAddress: event.rawPath }));",
  },
  sms: {
    imports: [
      "import { PinpointSMSVoiceV2Client, SendTextMessageCommand } from '@aws-sdk/client-pinpoint-sms-voice-v2';",
    ],
    init: ['const sms = new PinpointSMSVoiceV2Client({});'],
    call: "if (event.rawQueryString === 'sms') await sms.send(new SendTextMessageCommand({ DestinationPhoneNumber: event.rawPath }));",
  },
  cognito: {
    imports: [
      "import { CognitoIdentityProviderClient, DescribeUserPoolClientCommand } from '@aws-sdk/client-cognito-identity-provider';",
    ],
    init: ['const cognito = new CognitoIdentityProviderClient({});'],
    call: "if (event.rawQueryString === 'client') await cognito.send(new DescribeUserPoolClientCommand({ UserPoolId: 'p', ClientId: event.rawPath }));",
  },
  logs: {
    imports: ["import { CloudWatchLogsClient, GetLogEventsCommand } from '@aws-sdk/client-cloudwatch-logs';"],
    init: ['const logs = new CloudWatchLogsClient({});'],
    call: "if (event.rawQueryString === 'logs') await logs.send(new GetLogEventsCommand({ logGroupName: 'g', logStreamName: event.rawPath }));",
  },
};

/** The clients a function's needs bring, in a fixed order: the bare handler's identity. */
export function clientsOf(needs: readonly Need[]): Client[] {
  // tsx does not type-check: a need this file does not know yet must not silently shrink the floor.
  const unknown = needs.filter((n) => !(n in CLIENT_OF));
  if (unknown.length > 0)
    throw new Error(`scripts/bench/bare.ts: which SDK client does "${unknown.join('", "')}" bring?`);
  return (Object.keys(CLIENTS) as Client[]).filter((c) => needs.some((n) => CLIENT_OF[n].includes(c)));
}

export const bareName = (needs: readonly Need[]) => `bare-${clientsOf(needs).join('-') || 'none'}`;

/** What the bare handler is made of, for the report (e.g. `client-dynamodb + lib-dynamodb`). */
export function bareLabel(needs: readonly Need[]): string {
  const names = clientsOf(needs).flatMap((c) =>
    CLIENTS[c].imports.map((i) => /'@aws-sdk\/([^']+)'/.exec(i)?.[1] ?? '?'),
  );
  return names.join(' + ') || 'no SDK client';
}

export function bareSource(needs: readonly Need[]): string {
  const clients = clientsOf(needs);
  const parts = clients.map((c) => CLIENTS[c]);
  const table = clients.includes('dynamodb');
  return [
    '// Generated by scripts/bench/bare.ts: the bare floor a function is compared with.',
    ...parts.flatMap((p) => p.imports),
    '',
    ...parts.flatMap((p) => p.init),
    '',
    'export const handler = async (event: { rawPath: string; rawQueryString: string }) => {',
    ...(table ? [] : ['  const out = { Item: null };']),
    ...parts.map((p) => `  ${p.call}`),
    "  return { statusCode: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(out.Item ?? null) };",
    '};',
    '',
  ].join('\n');
}

/** Writes the bare handler under dist/bench/<name>/ and bundles it like a function. */
export function buildBare(needs: readonly Need[]): Promise<Bundle> {
  const name = bareName(needs);
  const dir = join(DIST, 'bench', name);
  mkdirSync(dir, { recursive: true });
  const entry = join(dir, 'handler.ts');
  writeFileSync(entry, bareSource(needs));
  // The bundle's folder is emptied before each build: not the one holding its source.
  return bundleFile(name, entry, join(dir, 'out', 'index.mjs'));
}
