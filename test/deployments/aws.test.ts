import { CloudWatchLogsClient, FilterLogEventsCommand, GetLogEventsCommand } from '@aws-sdk/client-cloudwatch-logs';
import {
  AccountLimitExceededException,
  CodeBuildClient,
  StartBuildCommand,
  StopBuildCommand,
} from '@aws-sdk/client-codebuild';
import { LambdaClient } from '@aws-sdk/client-lambda';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import { backendError } from '../../shared/kernel/ground/backend-errors';
import { awsBuilds, envObjectKey } from '../../shared/ports/builds/aws';
import type { BuildJob } from '../../shared/ports/builds/index';
import { awsRuntime, parseLambdaLine } from '../../shared/ports/runtime/aws';

/**
 * The AWS adapters of the builds and runtime ports, against the calls they must make
 * (aws-sdk-client-mock), and the build-events worker moving real deployment records.
 */
const codebuild = mockClient(CodeBuildClient);
const s3 = mockClient(S3Client);
const cwl = mockClient(CloudWatchLogsClient);
const lambda = mockClient(LambdaClient);

const job: BuildJob = {
  deploymentId: 'dpl_01abcdefghjkmnpqrstvwxyz0',
  orgId: 'org_1',
  projectId: 'prj_1',
  target: 'preview',
  settings: { framework: 'node', rootDirectory: 'app', buildCommand: 'npm run build' },
  source: { kind: 'upload', bucket: 'artifacts', key: 'sources/prj_1/up_x.tar.gz' },
  env: { SECRET_TOKEN: 's3cr3t', GREETING: 'hi' },
};

beforeEach(() => {
  process.env.BUILD_PROJECT = 'platform-builds';
  process.env.BUILD_LOG_GROUP = '/platform/builds';
});
afterEach(() => {
  for (const m of [codebuild, s3, cwl, lambda]) m.reset();
  for (const k of ['BUILD_PROJECT', 'BUILD_LOG_GROUP']) delete process.env[k];
});

describe('builds port, AWS adapter (CodeBuild)', () => {
  it('start: variables go to a private object, never into the build; the job as environment', async () => {
    s3.on(PutObjectCommand).resolves({});
    codebuild.on(StartBuildCommand).resolves({ build: { id: 'platform-builds:1234-uuid' } });
    process.env.ARTIFACTS_BUCKET = 'artifacts';
    const { buildId } = await awsBuilds().start(job);
    expect(buildId).toBe('platform-builds:1234-uuid');
    const put = s3.commandCalls(PutObjectCommand)[0]?.args[0].input;
    expect(put).toMatchObject({ Bucket: 'artifacts', Key: envObjectKey(job.deploymentId) });
    expect(JSON.parse(put?.Body as string)).toEqual(job.env);
    const start = codebuild.commandCalls(StartBuildCommand)[0]?.args[0].input;
    expect(start).toMatchObject({ projectName: 'platform-builds', idempotencyToken: job.deploymentId });
    const { SESSION_POLICY, ...vars } = Object.fromEntries(
      (start?.environmentVariablesOverride ?? []).map((v) => [v.name, v.value]),
    );
    // The build's credentials are narrowed to this project's sources and cache and this deployment's
    // variables and artifacts: nothing of another project or deployment.
    const policy = JSON.parse(SESSION_POLICY as string) as {
      Statement: { Action: string[]; Resource: string[]; Condition?: unknown }[];
    };
    const arn = 'arn:aws:s3:::artifacts';
    expect(policy.Statement).toEqual([
      { Effect: 'Allow', Action: ['s3:GetObject'], Resource: [`${arn}/sources/prj_1/*`, `${arn}/cache/prj_1/*`] },
      {
        Effect: 'Allow',
        Action: ['s3:GetObject', 's3:DeleteObject'],
        Resource: [`${arn}/builds/${job.deploymentId}/*`],
      },
      {
        Effect: 'Allow',
        Action: ['s3:PutObject'],
        Resource: [`${arn}/artifacts/${job.deploymentId}/*`, `${arn}/cache/prj_1/*`],
      },
      {
        Effect: 'Allow',
        Action: ['s3:ListBucket'],
        Resource: [arn],
        Condition: { StringLike: { 's3:prefix': [`artifacts/${job.deploymentId}/*`, 'cache/prj_1/*'] } },
      },
    ]);
    expect((SESSION_POLICY as string).length).toBeLessThan(2048);
    expect(vars).toEqual({
      DEPLOYMENT_ID: job.deploymentId,
      ORG_ID: 'org_1',
      PROJECT_ID: 'prj_1',
      DEPLOYMENT_TARGET: 'preview',
      FRAMEWORK: 'node',
      ROOT_DIRECTORY: 'app',
      BUILD_COMMAND: 'npm run build',
      SOURCE_KEY: 'sources/prj_1/up_x.tar.gz',
      SOURCE_KIND: 'upload',
      ENV_KEY: envObjectKey(job.deploymentId),
    });
    expect(JSON.stringify(start)).not.toContain('s3cr3t');
  });

  it('start of a commit: CodeBuild checks it out of its CodeCommit repository', async () => {
    s3.on(PutObjectCommand).resolves({});
    codebuild.on(StartBuildCommand).resolves({ build: { id: 'platform-builds:git-1' } });
    process.env.ARTIFACTS_BUCKET = 'artifacts';
    const sha = 'a'.repeat(40);
    await awsBuilds().start({ ...job, source: { kind: 'git', repoId: 'res_1', commitSha: sha, branch: 'main' } });
    const start = codebuild.commandCalls(StartBuildCommand)[0]?.args[0].input;
    expect(start).toMatchObject({
      sourceTypeOverride: 'CODECOMMIT',
      sourceLocationOverride: expect.stringMatching(
        /^https:\/\/git-codecommit\.[a-z0-9-]+\.amazonaws\.com\/v1\/repos\/plt-repo-res_1$/,
      ),
      sourceVersion: sha,
    });
    const vars = Object.fromEntries((start?.environmentVariablesOverride ?? []).map((v) => [v.name, v.value]));
    expect(vars.SOURCE_KIND).toBe('git');
    expect(vars.SOURCE_KEY).toBeUndefined();
  });

  it('cancel stops the build; a build that already ended is fine', async () => {
    codebuild
      .on(StopBuildCommand)
      .resolvesOnce({})
      .rejectsOnce(Object.assign(new Error('ended'), { name: 'InvalidInputException' }));
    await awsBuilds().cancel('platform-builds:1');
    await awsBuilds().cancel('platform-builds:1');
    expect(codebuild.commandCalls(StopBuildCommand)[0]?.args[0].input).toEqual({ id: 'platform-builds:1' });
  });

  it('readLog pages the CloudWatch stream from its head; a stream not there yet is empty', async () => {
    cwl
      .on(GetLogEventsCommand)
      .resolvesOnce({ events: [{ timestamp: 5, message: 'Running "npm ci"\n' }], nextForwardToken: 'f/2' })
      .rejectsOnce(Object.assign(new Error('no stream'), { name: 'ResourceNotFoundException' }));
    const page = await awsBuilds().readLog(
      { deploymentId: job.deploymentId, buildId: 'platform-builds:uuid-1' },
      undefined,
      50,
    );
    expect(page).toEqual({ lines: [{ t: 5, m: 'Running "npm ci"' }], position: 'f/2' });
    expect(cwl.commandCalls(GetLogEventsCommand)[0]?.args[0].input).toEqual({
      logGroupName: '/platform/builds',
      logStreamName: 'uuid-1',
      startFromHead: true,
      nextToken: undefined,
      limit: 50,
    });
    expect(await awsBuilds().readLog({ deploymentId: 'd', buildId: 'p:uuid' }, 'f/2', 50)).toEqual({
      lines: [],
      position: 'f/2',
    });
    expect(await awsBuilds().readLog({ deploymentId: 'd' }, undefined, 50)).toEqual({ lines: [], position: '' });
  });

  it("a failed build's reason is its last Error: line", async () => {
    cwl.on(GetLogEventsCommand).resolves({
      events: [
        { message: 'npm ERR! something\n' },
        { message: 'Error: The build step "npm run build" failed with exit code 1.\n' },
      ],
    });
    expect(await awsBuilds().failureReason('p:uuid')).toBe('The build step "npm run build" failed with exit code 1.');
  });

  it('a start CodeBuild refuses (account limit, throttling, unavailable) throws what the backend-error table reads', async () => {
    // The deployment's launch turns any of these into `error` and 502 `Couldn't start the build. Try again.`.
    process.env.ARTIFACTS_BUCKET = 'artifacts';
    s3.on(PutObjectCommand).resolves({});
    const refusals: [Error, string][] = [
      [
        new AccountLimitExceededException({ message: 'Cannot have more than 60 active builds', $metadata: {} }),
        'throttled',
      ],
      [Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException', $metadata: {} }), 'throttled'],
      [Object.assign(new Error('unavailable'), { name: 'ServiceUnavailableException', $metadata: {} }), 'backend'],
    ];
    for (const [refusal, kind] of refusals) {
      codebuild.on(StartBuildCommand).rejects(refusal);
      const thrown = await awsBuilds()
        .start(job)
        .catch((e: Error) => e);
      expect([(thrown as Error).name, backendError(thrown as never).kind]).toEqual([refusal.name, kind]);
    }
  });
});

describe('runtime port, AWS adapter (Lambda)', () => {
  // deploy, exists and remove (a role per function): aws-function-roles.test.ts.
  it('logs: levels and request ids from the runtime format, filtered, newest first', async () => {
    const id = '8f5f1b9e-1111-4a4a-9b9b-123456789abc';
    cwl.on(FilterLogEventsCommand).resolves({
      events: [
        { timestamp: 1, eventId: 'a', message: `START RequestId: ${id} Version: $LATEST\n` },
        { timestamp: 2, eventId: 'b', message: `2026-01-01T00:00:00.000Z\t${id}\tINFO\thandling GET /\n` },
        { timestamp: 3, eventId: 'c', message: `2026-01-01T00:00:00.000Z\t${id}\tERROR\tboom\n` },
        { timestamp: 4, eventId: 'd', message: 'plain line\n' },
      ],
    });
    const { lines, more } = await awsRuntime().logs('dpl_1', { from: 0, to: 10, limit: 10, order: 'desc' });
    expect(more).toBe(false);
    expect(lines).toEqual([
      { t: 4, id: 'd', level: 'info', message: 'plain line' },
      { t: 3, id: 'c', level: 'error', requestId: id, message: 'boom' },
      { t: 2, id: 'b', level: 'info', requestId: id, message: 'handling GET /' },
      { t: 1, id: 'a', level: 'platform', requestId: id, message: `START RequestId: ${id} Version: $LATEST` },
    ]);
    expect(cwl.commandCalls(FilterLogEventsCommand)[0]?.args[0].input).toMatchObject({
      logGroupName: '/aws/lambda/plt-fn-dpl_1',
      startTime: 0,
      endTime: 10,
    });
    const filtered = await awsRuntime().logs('dpl_1', { from: 0, to: 10, q: 'BOOM', limit: 10, order: 'asc' });
    expect(filtered.lines.map((l) => l.message)).toEqual(['boom']);
    expect(parseLambdaLine(1, 'REPORT RequestId: x Duration: 2 ms', 'e').level).toBe('platform');
  });
});
