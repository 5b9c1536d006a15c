import { CloudWatchLogsClient, GetLogEventsCommand } from '@aws-sdk/client-cloudwatch-logs';
import { CodeBuildClient, StartBuildCommand, StopBuildCommand } from '@aws-sdk/client-codebuild';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { config } from '../../kernel/config';
import { requireEnv } from '../../kernel/ground/env';
import { sdkSettings } from '../../kernel/ground/sdk-settings';
import { repositoryName } from '../git/events';
import { deploymentVars } from './events';
import type { BuildJob, BuildsPort } from './port';

/**
 * Builds on AWS: one CodeBuild build per deployment, in the stack's build project
 * (`BUILD_PROJECT`, whose buildspec is shared/ports/builds/buildspec.ts). The job travels as
 * environment variables; the target's variables (secrets) do not: they are written to the
 * private artifacts bucket (`builds/<deploymentId>/env.json`, read by the build's role only) and
 * deleted by the build, so they never show in the build's details. State changes reach the
 * `build-events` worker through EventBridge; the log is read from CloudWatch Logs.
 */

let codebuild: CodeBuildClient | undefined;
let logs: CloudWatchLogsClient | undefined;
let s3: S3Client | undefined;

/** The build's CloudWatch stream: the part of the build id after the project name. */
export const logStreamOf = (buildId: string) => buildId.slice(buildId.indexOf(':') + 1);

export const envObjectKey = (deploymentId: string) => `builds/${deploymentId}/env.json`;

const partitionOf = (region: string) =>
  region.startsWith('cn-') ? 'aws-cn' : region.startsWith('us-gov-') ? 'aws-us-gov' : 'aws';

/**
 * The session policy of one build (shared/ports/builds/buildspec.ts assumes the build-data role with
 * it): what the role allows, narrowed to this project's sources and cache, this deployment's
 * variables and artifacts, and for a commit its repository's Git LFS objects. An IAM session's rights are the intersection of both.
 */
export function buildSessionPolicy(
  bucket: string,
  region: string,
  projectId: string,
  deploymentId: string,
  lfsPrefix?: string,
) {
  const arn = `arn:${partitionOf(region)}:s3:::${bucket}`;
  const objects = (...prefixes: string[]) => prefixes.map((p) => `${arn}/${p}*`);
  // A commit's build reads its repository's Git LFS objects (no other repository's).
  const lfs = lfsPrefix ? [lfsPrefix] : [];
  return {
    Version: '2012-10-17',
    Statement: [
      {
        Effect: 'Allow',
        Action: ['s3:GetObject'],
        Resource: objects(`sources/${projectId}/`, `cache/${projectId}/`, ...lfs),
      },
      { Effect: 'Allow', Action: ['s3:GetObject', 's3:DeleteObject'], Resource: objects(`builds/${deploymentId}/`) },
      {
        Effect: 'Allow',
        Action: ['s3:PutObject'],
        Resource: objects(`artifacts/${deploymentId}/`, `cache/${projectId}/`),
      },
      {
        Effect: 'Allow',
        Action: ['s3:ListBucket'],
        Resource: [arn],
        Condition: { StringLike: { 's3:prefix': [`artifacts/${deploymentId}/*`, `cache/${projectId}/*`] } },
      },
    ],
  };
}

export function awsBuilds(): BuildsPort {
  codebuild ??= new CodeBuildClient(sdkSettings('builds'));
  logs ??= new CloudWatchLogsClient(sdkSettings('logs'));
  s3 ??= new S3Client(sdkSettings('objectStorage'));
  const cb = codebuild;
  const cw = logs;
  const bucket = () => requireEnv('ARTIFACTS_BUCKET');
  return {
    async start(job: BuildJob) {
      await (s3 as S3Client).send(
        new PutObjectCommand({
          Bucket: bucket(),
          Key: envObjectKey(job.deploymentId),
          Body: JSON.stringify(job.env),
          ContentType: 'application/json',
        }),
      );
      const lfsPrefix = job.source.kind === 'git' ? job.source.lfs?.prefix : undefined;
      const vars: Record<string, string | undefined> = {
        ...deploymentVars(job),
        FRAMEWORK: job.settings.framework ?? 'nextjs',
        ROOT_DIRECTORY: job.settings.rootDirectory ?? '.',
        INSTALL_COMMAND: job.settings.installCommand,
        BUILD_COMMAND: job.settings.buildCommand,
        OUTPUT_DIRECTORY: job.settings.outputDirectory,
        SOURCE_KEY: job.source.kind === 'upload' ? job.source.key : undefined,
        SOURCE_KIND: job.source.kind,
        LFS_PREFIX: lfsPrefix,
        ENV_KEY: envObjectKey(job.deploymentId),
        SESSION_POLICY: JSON.stringify(
          buildSessionPolicy(bucket(), config.region, job.projectId, job.deploymentId, lfsPrefix),
        ),
      };
      const out = await cb.send(
        new StartBuildCommand({
          projectName: requireEnv('BUILD_PROJECT'),
          // Retries of the same start never start two builds.
          idempotencyToken: job.deploymentId,
          // A commit: CodeBuild checks it out of the repository's CodeCommit repository itself.
          ...(job.source.kind === 'git'
            ? {
                sourceTypeOverride: 'CODECOMMIT' as const,
                sourceLocationOverride: `https://git-codecommit.${config.region}.amazonaws.com/v1/repos/${repositoryName(job.source.repoId)}`,
                sourceVersion: job.source.commitSha,
              }
            : {}),
          environmentVariablesOverride: Object.entries(vars)
            .filter(([, v]) => v !== undefined && v !== '')
            .map(([name, value]) => ({ name, value: value as string, type: 'PLAINTEXT' })),
        }),
      );
      const id = out.build?.id;
      if (!id) throw new Error('CodeBuild returned no build id');
      return { buildId: id };
    },
    async startImport(job) {
      const out = await cb.send(
        new StartBuildCommand({
          // The import project (lib/aws/imports.ts): its source is the bundled import job.
          projectName: requireEnv('IMPORT_PROJECT'),
          idempotencyToken: job.importId,
          environmentVariablesOverride: [
            { name: 'IMPORT_ID', value: job.importId, type: 'PLAINTEXT' },
            { name: 'ORG_ID', value: job.orgId, type: 'PLAINTEXT' },
          ],
        }),
      );
      const id = out.build?.id;
      if (!id) throw new Error('CodeBuild returned no build id');
      return { buildId: id };
    },
    async cancel(buildId) {
      try {
        await cb.send(new StopBuildCommand({ id: buildId }));
      } catch (err) {
        // A build that already ended can't be stopped: nothing to do.
        if (!['InvalidInputException', 'ResourceNotFoundException'].includes((err as Error).name)) throw err;
      }
    },
    async readLog(deployment, position, limit) {
      if (!deployment.buildId) return { lines: [], position: position ?? '' };
      try {
        const out = await cw.send(
          new GetLogEventsCommand({
            logGroupName: requireEnv('BUILD_LOG_GROUP'),
            logStreamName: logStreamOf(deployment.buildId),
            startFromHead: true,
            nextToken: position || undefined,
            limit,
          }),
        );
        const lines = (out.events ?? []).map((e) => ({ t: e.timestamp ?? 0, m: (e.message ?? '').replace(/\n$/, '') }));
        return { lines, position: out.nextForwardToken ?? position ?? '' };
      } catch (err) {
        // The stream appears when the build's container starts.
        if ((err as Error).name === 'ResourceNotFoundException') return { lines: [], position: position ?? '' };
        throw err;
      }
    },
    failureReason: lastErrorLine,
  };
}

/**
 * The reason a failed build gives: its last `Error: …` line (the buildspec prints one before it
 * exits), read from the end of its log.
 */
async function lastErrorLine(buildId: string): Promise<string | undefined> {
  logs ??= new CloudWatchLogsClient(sdkSettings('logs'));
  try {
    const out = await logs.send(
      new GetLogEventsCommand({
        logGroupName: requireEnv('BUILD_LOG_GROUP'),
        logStreamName: logStreamOf(buildId),
        startFromHead: false,
        limit: 100,
      }),
    );
    const lines = (out.events ?? []).map((e) => (e.message ?? '').trim());
    const last = lines.reverse().find((l) => l.startsWith('Error: '));
    return last?.slice('Error: '.length);
  } catch (err) {
    if ((err as Error).name === 'ResourceNotFoundException') return undefined;
    throw err;
  }
}
