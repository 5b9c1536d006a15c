/**
 * `npm start` and `npm run local`, end to end: the whole local platform in a child process with
 * its own data directory and ports (not the DynamoDB Local of the test run), used over HTTP, S3,
 * SQS and the local CLI, stopped with SIGINT, and started again on the same data.
 */
import { type ChildProcess, execFile, execFileSync, spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { GetObjectCommand, ListBucketsCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import {
  DeleteMessageCommand,
  ListQueuesCommand,
  ReceiveMessageCommand,
  SendMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import { engineCredentials, type LocalInfo } from '../../lib/local/services';

const ROOT = resolve(__dirname, '../..');
const TSX = join(ROOT, 'node_modules', '.bin', 'tsx');

/** Distinct free ports, all held open at once so none is handed out twice. */
async function freePorts(count: number): Promise<number[]> {
  const servers: Server[] = [];
  const ports: number[] = [];
  for (let i = 0; i < count; i++) {
    const srv = createServer();
    await new Promise<void>((ok, fail) => {
      srv.once('error', fail);
      srv.listen(0, '127.0.0.1', () => ok());
    });
    servers.push(srv);
    ports.push((srv.address() as { port: number }).port);
  }
  await Promise.all(servers.map((s) => new Promise((ok) => s.close(ok))));
  return ports;
}

function isFree(port: number): Promise<boolean> {
  return new Promise((ok) => {
    const srv = createServer();
    srv.once('error', () => ok(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => ok(true)));
  });
}

/** The environment of the child: this run's test settings (its DynamoDB, its table) left out. */
function childEnv(dataDir: string, ports: number[]): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  const inherited =
    /^(AWS_|TABLE_NAME$|AUTH_URL$|CURSOR_SECRET$|IDP_KEY_FILE$|TEST_DATA_DIR$|PLATFORM_TARGET$|LOG_LEVEL$|PORT$)/;
  for (const [k, v] of Object.entries(process.env)) if (!inherited.test(k)) env[k] = v;
  const [api, idp, dynamodb, s3, sqs] = ports.map(String);
  return {
    ...env,
    DATA_DIR: dataDir,
    PORT: api,
    IDP_PORT: idp,
    DYNAMODB_PORT: dynamodb,
    S3_PORT: s3,
    SQS_PORT: sqs,
    LOG_LEVEL: 'silent',
  };
}

interface Running {
  child: ChildProcess;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts `npm start`'s entry and resolves once it prints that it is ready. */
function startPlatform(env: NodeJS.ProcessEnv): Promise<Running> {
  const child = spawn(TSX, ['bin/local.ts'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => {
    out += d.toString();
  });
  child.stderr?.on('data', (d: Buffer) => {
    out += d.toString();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((ok) =>
    child.once('exit', (code, signal) => ok({ code, signal })),
  );
  const running: Running = { child, output: () => out, exited };
  return new Promise((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`not ready within 60 s:\n${out}`)), 60_000);
    const onData = () => {
      if (/Ready in [\d.]+ s/.test(out)) {
        clearTimeout(timer);
        child.stdout?.off('data', onData);
        ok(running);
      }
    };
    child.stdout?.on('data', onData);
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      fail(new Error(`exited (${signal ?? code}) before it was ready:\n${out}`));
    });
  });
}

/** Stops the platform as Ctrl-C does; SIGKILL only when it does not stop by itself. */
async function stopPlatform(running: Running | undefined) {
  if (!running || running.child.exitCode !== null || running.child.signalCode !== null) return running?.exited;
  running.child.kill('SIGINT');
  const timer = setTimeout(() => running.child.kill('SIGKILL'), 15_000);
  const result = await running.exited;
  clearTimeout(timer);
  return result;
}

function cli(env: NodeJS.ProcessEnv, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((ok) => {
    execFile(TSX, ['bin/local-cli.ts', ...args], { cwd: ROOT, env }, (err, stdout, stderr) => {
      const code = err ? ((err as { code?: number }).code ?? 1) : 0;
      ok({ code: typeof code === 'number' ? code : 1, stdout, stderr });
    });
  });
}

async function call(info: LocalInfo, path: string, token?: string) {
  const res = await fetch(`${info.baseUrl}${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { status: res.status, body: (await res.json()) as any };
}

/**
 * local.json as it is the moment `/health` first answers 200 (asked again and again while the
 * platform starts, as a script that waits for it does).
 */
async function infoWhenHealthy(baseUrl: string, dataDir: string, starting: Promise<unknown>): Promise<LocalInfo> {
  let failed: unknown;
  starting.catch((err: unknown) => {
    failed = err;
  });
  for (;;) {
    if (failed) throw failed;
    const status = await fetch(`${baseUrl}/health`).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) return readInfo(dataDir);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const readInfo = (dataDir: string) => JSON.parse(readFileSync(join(dataDir, 'local.json'), 'utf8')) as LocalInfo;

describe('the local platform (npm start, npm run local)', () => {
  let dataDir: string;
  let env: NodeJS.ProcessEnv;
  let ports: number[];
  let running: Running | undefined;
  let info: LocalInfo;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'platform-local-'));
    // A DATA_DIR left open by an earlier start or by hand (as `mkdir .data` makes it).
    chmodSync(dataDir, 0o755);
    ports = await freePorts(5);
    env = childEnv(dataDir, ports);
    running = await startPlatform(env);
    info = readInfo(dataDir);
  }, 90_000);

  afterAll(async () => {
    await stopPlatform(running);
    rmSync(dataDir, { recursive: true, force: true });
  }, 30_000);

  it('prints one line per service and writes local.json (mode 600)', () => {
    const out = running?.output() ?? '';
    for (const name of ['api', 'identity', 'dynamodb', 's3', 'sqs'])
      expect(out).toMatch(new RegExp(`^  ${name} +http://`, 'm'));
    // npm start alone lets connectors reach MCP servers on this machine, and says so.
    expect(out).toMatch(/^ {2}connectors MCP servers on this machine allowed too .*; elsewhere public https only$/m);
    expect(info).toMatchObject({
      baseUrl: `http://localhost:${ports[0]}`,
      authUrl: `http://localhost:${ports[1]}`,
      endpoints: {
        dynamodb: `http://127.0.0.1:${ports[2]}`,
        s3: `http://127.0.0.1:${ports[3]}`,
        sqs: `http://127.0.0.1:${ports[4]}`,
      },
      dataDir,
      orgs: { platform: { slug: 'platform' }, customer: { slug: 'acme' } },
      owner: { email: 'owner@localhost.test', userId: expect.stringMatching(/^usr_/), token: expect.any(String) },
      apiKey: expect.stringMatching(/^app_api_/),
    });
    expect(statSync(join(dataDir, 'local.json')).mode & 0o777).toBe(0o600);
    expect(statSync(join(dataDir, 'keys', 'cursor-secret')).mode & 0o777).toBe(0o600);
    // DATA_DIR and its keys are this user's alone from the start, whatever mode they had.
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    expect(statSync(join(dataDir, 'keys')).mode & 0o777).toBe(0o700);
  });

  it('serves the API: /health, /v1/me with the owner token, members with the API key', async () => {
    expect((await call(info, '/health')).status).toBe(200);
    // The device login's verification URI, on this PORT: the page sends a person to sign in.
    const start = await fetch(`${info.baseUrl}/v1/agent/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    const { verificationUriComplete } = (await start.json()) as { verificationUriComplete: string };
    expect(verificationUriComplete).toMatch(new RegExp(`^${info.baseUrl}/device\\?code=`));
    const page = await fetch(verificationUriComplete, { redirect: 'manual' });
    expect(page.status).toBe(302);
    expect(page.headers.get('location')).toMatch(new RegExp(`^${info.authUrl}/authorize\\?client_id=platform&`));

    const me = await call(info, '/v1/me', info.owner.token);
    expect(me.status).toBe(200);
    const orgs = (me.body.me.orgs as { orgId: string; role: string; kind: string }[]).map((o) => [
      o.orgId,
      o.kind,
      o.role,
    ]);
    expect(orgs).toEqual(
      expect.arrayContaining([
        [info.orgs.platform.orgId, 'platform', 'owner'],
        [info.orgs.customer.orgId, 'customer', 'owner'],
      ]),
    );

    const members = await call(info, `/v1/orgs/${info.orgs.customer.orgId}/members`, info.apiKey);
    expect(members.status).toBe(200);
    expect(members.body.members).toEqual([expect.objectContaining({ userId: info.owner.userId, role: 'owner' })]);
  });

  it('local CLI: org create, member add, token, key create', async () => {
    const created = await cli(env, ['org', 'create', '--slug', 'beta-co', '--name', 'Beta Co']);
    expect(created).toMatchObject({ code: 0, stderr: '' });
    const { org } = JSON.parse(created.stdout);
    expect(org).toMatchObject({
      orgId: expect.stringMatching(/^org_/),
      slug: 'beta-co',
      name: 'Beta Co',
      kind: 'customer',
    });

    const again = await cli(env, ['org', 'create', '--slug', 'beta-co', '--name', 'Beta Co']);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('An organization with this slug exists.');

    const added = await cli(env, [
      'member',
      'add',
      '--org',
      'beta-co',
      '--email',
      'dev@example.com',
      '--role',
      'developer',
    ]);
    expect(added.code).toBe(0);
    const { member, orgId } = JSON.parse(added.stdout);
    expect(orgId).toBe(org.orgId);
    expect(member).toMatchObject({
      userId: expect.stringMatching(/^usr_/),
      role: 'developer',
      email: 'dev@example.com',
    });

    const tokenRun = await cli(env, ['token', '--email', 'dev@example.com']);
    expect(tokenRun.code).toBe(0);
    const token = JSON.parse(tokenRun.stdout);
    expect(token).toMatchObject({ userId: member.userId, email: 'dev@example.com', expiresAt: expect.any(Number) });
    const me = await call(info, '/v1/me', token.token);
    expect(me.status).toBe(200);
    expect(me.body.me.orgs).toEqual([expect.objectContaining({ orgId: org.orgId, role: 'developer' })]);

    const unknown = await cli(env, ['token', '--email', 'nobody@example.com']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('not found');

    const keyRun = await cli(env, ['key', 'create', '--org', org.orgId, '--scopes', 'members:read,org:read']);
    expect(keyRun.code).toBe(0);
    const key = JSON.parse(keyRun.stdout);
    expect(key).toEqual({
      key: {
        keyId: expect.stringMatching(/^key_/),
        kind: 'api',
        orgId: org.orgId,
        scopes: ['members:read', 'org:read'],
      },
      secret: expect.stringMatching(/^app_api_/),
    });
    expect((await call(info, `/v1/orgs/${org.orgId}/members`, key.secret)).status).toBe(200);

    const agent = await cli(env, ['key', 'create', '--org', 'acme', '--scopes', 'agents:run', '--agent']);
    expect(agent.code).not.toBe(0);
    expect(agent.stdout).toBe('');
    expect(agent.stderr).toContain('platform organization only');

    const badScope = await cli(env, ['key', 'create', '--org', 'acme', '--scopes', 'nope:read']);
    expect(badScope.code).toBe(2);
    expect(badScope.stderr).toContain('Unknown scope: nope:read');
  }, 60_000);

  it('local CLI: agent approve answers the device login of the agent program, as the local owner', async () => {
    const info = readInfo(dataDir);
    const post = async (path: string, body: unknown) => {
      const res = await fetch(`${info.baseUrl}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as any };
    };
    const start = await post('/v1/agent/login', { name: 'laptop' });
    const approved = await cli(env, ['agent', 'approve', start.body.userCode.toLowerCase()]);
    expect(approved.code).toBe(0);
    expect(JSON.parse(approved.stdout)).toEqual({
      approved: true,
      orgId: info.orgs.customer.orgId,
      userId: info.owner.userId,
    });
    const token = await post('/v1/agent/login/token', { deviceCode: start.body.deviceCode });
    expect(token.body).toMatchObject({ token: expect.stringMatching(/^app_dev_/), orgId: info.orgs.customer.orgId });
    expect((await cli(env, ['agent', 'approve', 'BBBB-BBBB'])).code).toBe(1);
  });

  it("answers only requests signed with this DATA_DIR's key pair, never the engines' published defaults", async () => {
    const mine = engineCredentials(dataDir);
    expect(mine.accessKeyId).toMatch(/^LOCAL[0-9A-F]{15}$/);
    expect(statSync(join(dataDir, 'keys', 'engines-secret')).mode & 0o777).toBe(0o600);
    const defaults = [
      { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
      { accessKeyId: 'local', secretAccessKey: 'local' },
      { accessKeyId: mine.accessKeyId, secretAccessKey: 'not-the-secret' },
    ];
    const calls = (credentials: { accessKeyId: string; secretAccessKey: string }) => {
      const common = { region: info.region, credentials, maxAttempts: 1 };
      const dynamo = new DynamoDBClient({ ...common, endpoint: info.endpoints.dynamodb });
      const s3 = new S3Client({ ...common, endpoint: info.endpoints.s3, forcePathStyle: true });
      const sqs = new SQSClient({ ...common, endpoint: info.endpoints.sqs });
      const outcome = (p: Promise<unknown>) =>
        p.then(
          () => 'answered',
          (err: Error) => err.name,
        );
      return Promise.all([
        outcome(dynamo.send(new ListTablesCommand({}))),
        outcome(s3.send(new ListBucketsCommand({}))),
        outcome(sqs.send(new ListQueuesCommand({}))),
      ]).finally(() => {
        for (const c of [dynamo, s3, sqs]) c.destroy();
      });
    };
    expect(await calls(mine)).toEqual(['answered', 'answered', 'answered']);
    expect(await calls(defaults[0] as (typeof defaults)[0])).toEqual([
      'UnrecognizedClientException',
      'InvalidAccessKeyId',
      'InvalidClientTokenId',
    ]);
    expect(await calls(defaults[1] as (typeof defaults)[0])).toEqual([
      'UnrecognizedClientException',
      'InvalidAccessKeyId',
      'InvalidClientTokenId',
    ]);
    expect(await calls(defaults[2] as (typeof defaults)[0])).toEqual([
      'InvalidSignatureException',
      'SignatureDoesNotMatch',
      'SignatureDoesNotMatch',
    ]);
    // No signature at all: each engine's refusal, never its data.
    const unsigned = await Promise.all(
      [info.endpoints.dynamodb, info.endpoints.s3, info.endpoints.sqs].map(async (endpoint, i) => {
        const res = await fetch(endpoint, {
          method: i === 1 ? 'GET' : 'POST',
          headers:
            i === 1
              ? {}
              : {
                  'x-amz-target': i === 0 ? 'DynamoDB_20120810.ListTables' : 'AmazonSQS.ListQueues',
                  'content-type': 'application/x-amz-json-1.0',
                },
          body: i === 1 ? undefined : '{}',
        });
        return [res.status, (await res.text()).match(/MissingAuthentication\w*|AccessDenied/)?.[0]];
      }),
    );
    // As root, DynamoDB Local has no port on this machine's network at all (its own namespace,
    // reached through a Unix socket only the platform opens): nothing can skip the proxy. The only
    // java listening is this test run's own engine, which its workers reach directly.
    if (process.getuid?.() === 0) {
      const runEngine = `:${new URL(process.env.AWS_ENDPOINT_URL_DYNAMODB as string).port} `;
      const java = execFileSync('ss', ['-ltnp'], { encoding: 'utf8' })
        .split('\n')
        .filter((line) => line.includes('"java"') && !line.includes(runEngine));
      expect(java).toEqual([]);
    }
    expect(unsigned).toEqual([
      [400, 'MissingAuthenticationTokenException'],
      [403, 'AccessDenied'],
      [403, 'MissingAuthenticationToken'],
    ]);
  });

  it('S3: a PutObject/GetObject round trip on the artifacts bucket', async () => {
    const s3 = new S3Client({
      endpoint: info.endpoints.s3,
      region: info.region,
      forcePathStyle: true,
      credentials: engineCredentials(dataDir),
    });
    await s3.send(new PutObjectCommand({ Bucket: info.buckets.artifacts, Key: 'test/hello.txt', Body: 'hello' }));
    const got = await s3.send(new GetObjectCommand({ Bucket: info.buckets.artifacts, Key: 'test/hello.txt' }));
    expect(await got.Body?.transformToString()).toBe('hello');
    s3.destroy();
  });

  it('SQS: send and receive on the agent queue', async () => {
    const sqs = new SQSClient({
      endpoint: info.endpoints.sqs,
      region: info.region,
      credentials: engineCredentials(dataDir),
    });
    const QueueUrl = info.queues.agentJobs;
    await sqs.send(new SendMessageCommand({ QueueUrl, MessageBody: JSON.stringify({ job: 1 }) }));
    const got = await sqs.send(new ReceiveMessageCommand({ QueueUrl, WaitTimeSeconds: 2, MaxNumberOfMessages: 1 }));
    expect(got.Messages?.map((m) => m.Body)).toEqual([JSON.stringify({ job: 1 })]);
    await sqs.send(new DeleteMessageCommand({ QueueUrl, ReceiptHandle: got.Messages?.[0]?.ReceiptHandle }));
    sqs.destroy();
  });

  it('SMTP: a message from an outside client to a mailbox is filed in its inbox', async () => {
    const org = info.orgs.customer.orgId;
    const send = (path: string, body: unknown) =>
      fetch(`${info.baseUrl}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${info.owner.token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));
    const domain = `e2e-${Date.now().toString(36)}.test`;
    expect((await send(`/v1/orgs/${org}/mail/domains`, { domain })).status).toBe(201);
    const box = await send(`/v1/orgs/${org}/mail/admin/mailboxes`, {
      address: `inbox@${domain}`,
      name: 'Inbox',
      members: [info.owner.email],
    });
    expect(box.status).toBe(201);
    const { createTransport } = await import('nodemailer');
    const smtp = createTransport({ host: '127.0.0.1', port: Number(new URL(info.baseUrl).port) + 6, secure: false });
    await smtp.sendMail({
      from: 'ada@outside.example',
      to: `inbox@${domain}`,
      subject: 'Hello over SMTP',
      text: 'Hi.',
    });
    smtp.close();
    const mailboxId = box.body.mailbox.mailboxId as string;
    let subject: string | undefined;
    for (let i = 0; i < 100 && !subject; i++) {
      const threads = await call(info, `/v1/orgs/${org}/mail/mailboxes/${mailboxId}/threads`, info.owner.token);
      subject = threads.body.threads?.[0]?.subject;
      if (!subject) await new Promise((r) => setTimeout(r, 100));
    }
    expect(subject).toBe('Hello over SMTP');
  });

  it('stops on SIGINT (exit 0, DynamoDB port free) and keeps its data for the next start', async () => {
    const before = info;
    // A bucket with one file, for the usage job that runs at the next start.
    const created = await fetch(`${info.baseUrl}/v1/orgs/${info.orgs.customer.orgId}/resources`, {
      method: 'POST',
      headers: { authorization: `Bearer ${info.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'bucket', name: 'usage-check' }),
    });
    expect(created.status).toBe(201);
    const bucket = ((await created.json()) as { resource: { resourceId: string; physicalName: string } }).resource;
    const s3 = new S3Client({
      endpoint: info.endpoints.s3,
      region: info.region,
      forcePathStyle: true,
      credentials: engineCredentials(dataDir),
    });
    await s3.send(new PutObjectCommand({ Bucket: bucket.physicalName, Key: 'a.txt', Body: 'hello' }));
    s3.destroy();
    const bucketPath = `/v1/orgs/${info.orgs.customer.orgId}/storage/${bucket.resourceId}`;
    expect((await call(info, bucketPath, info.apiKey)).body.usage).toBeNull();
    const stopped = await stopPlatform(running);
    expect(stopped).toEqual({ code: 0, signal: null });
    expect(await isFree(ports[2] as number)).toBe(true);
    expect(await isFree(ports[0] as number)).toBe(true);

    const notRunning = await cli(env, ['token', '--email', 'owner@localhost.test']);
    expect(notRunning.code).toBe(1);
    expect(notRunning.stderr).toContain('The local platform is not running. Start it with npm start.');

    // A script that waits for /health reads this start's local.json, never the last one's.
    const startingAt = Date.now();
    const starting = startPlatform(env);
    const atHealth = await infoWhenHealthy(before.baseUrl, dataDir, starting);
    running = await starting;
    expect(atHealth.startedAt).toBeGreaterThanOrEqual(startingAt);
    info = readInfo(dataDir);
    expect(atHealth).toEqual(info);
    expect(info.orgs).toEqual(before.orgs);
    expect(info.owner.userId).toBe(before.owner.userId);
    expect(info.apiKey).toBe(before.apiKey);
    expect((await call(info, `/v1/orgs/${info.orgs.customer.orgId}/members`, before.apiKey)).status).toBe(200);
    // The token of the first start still verifies: the identity provider kept its key.
    expect((await call(info, '/v1/me', before.owner.token)).status).toBe(200);
    // The daily bucket usage job ran at start (bounded wait: it runs beside the gateway).
    let usage: { objects?: number; sizeBytes?: number } | null = null;
    for (let i = 0; i < 100 && !usage; i++) {
      usage = (await call(info, bucketPath, info.apiKey)).body.usage;
      if (!usage) await new Promise((r) => setTimeout(r, 100));
    }
    expect(usage).toMatchObject({ objects: 1, sizeBytes: 5 });
    const beta = await cli(env, [
      'member',
      'add',
      '--org',
      'beta-co',
      '--email',
      'dev2@example.com',
      '--role',
      'viewer',
    ]);
    expect(beta.code).toBe(0);
  }, 90_000);
});
