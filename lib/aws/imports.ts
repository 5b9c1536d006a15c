import * as path from 'node:path';
import { AssetHashType, type CfnElement, DockerImage, Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import * as codebuild from 'aws-cdk-lib/aws-codebuild';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as kms from 'aws-cdk-lib/aws-kms';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as s3assets from 'aws-cdk-lib/aws-s3-assets';
import { Construct } from 'constructs';
import {
  DEFAULT_IMPORT_GB,
  DEFAULT_LOW_SPEED_BYTES,
  DEFAULT_LOW_SPEED_SECONDS,
} from '../../shared/domains/repos/imports/limits';
import { IMPORT_QUEUE_HOURS, IMPORT_RUN_HOURS } from '../../shared/domains/repos/imports/records';
import { bundleFunctionSync } from './bundle-sync';
import type { PlatformData } from './data';
import { GIT_REPO_PREFIX } from './deployments';
import { ack, nagArn, ref } from './nag';

/** The import job's program (shared/domains/repos/imports/main.ts), bundled as functions are. */
export const IMPORT_ENTRY = path.join('shared', 'domains', 'repos', 'imports', 'main.ts');

/** The longest import (records' IMPORT_RUN_HOURS, which the sweep of crashed imports reads too). */
export const IMPORT_TIMEOUT = Duration.hours(IMPORT_RUN_HOURS);

/**
 * Imports of existing repositories on AWS: a CodeBuild project whose source is the bundled import
 * job (`node index.mjs`, with `IMPORT_ID` and `ORG_ID` set per build by shared/ports/builds/aws.ts
 * `startImport`). It runs for up to IMPORT_TIMEOUT with the build's disk, not in the API function.
 * The job meters what it reads from the source in the build as on one machine: its size cap and
 * lowest speed (shared/domains/repos/imports/limits.ts) are set here to their defaults (a plan's
 * `importGb` wins over the cap). Its role: the platform table (the import and repository records, the tags index), the secrets
 * key (the source's sealed credentials), the artifacts bucket's `repo-lfs/` prefix (LFS objects)
 * and the platform's CodeCommit repositories by name prefix (create, push, read, delete).
 */
export class RepoImports extends Construct {
  readonly project: codebuild.Project;
  readonly logs: logs.LogGroup;

  constructor(
    scope: Construct,
    id: string,
    props: { data: PlatformData; projectRoot: string; environment: Record<string, string>; encryptionKey: kms.IKey },
  ) {
    super(scope, id);
    const stack = Stack.of(this);
    const { data } = props;
    const source = new s3assets.Asset(this, 'Job', {
      path: path.join(props.projectRoot, path.dirname(IMPORT_ENTRY)),
      assetHashType: AssetHashType.OUTPUT,
      bundling: {
        image: DockerImage.fromRegistry('public.ecr.aws/docker/library/node:22-slim'),
        local: {
          tryBundle(outputDir: string) {
            bundleFunctionSync({
              entry: path.join(props.projectRoot, IMPORT_ENTRY),
              outdir: outputDir,
              absWorkingDir: props.projectRoot,
            });
            return true;
          },
        },
      },
    });
    this.logs = new logs.LogGroup(this, 'Logs', {
      retention: logs.RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    const role = new iam.Role(this, 'Role', {
      assumedBy: new iam.ServicePrincipal('codebuild.amazonaws.com'),
      description: 'Repository imports: records, sealed credentials, LFS objects, CodeCommit repositories',
    });
    data.table.grantReadWriteData(role);
    data.secretsKey.grant(role, 'kms:Decrypt');
    const lfs = data.artifactsBucket.arnForObjects('repo-lfs/*');
    role.addToPolicy(
      new iam.PolicyStatement({ actions: ['s3:GetObject', 's3:PutObject', 's3:DeleteObject'], resources: [lfs] }),
    );
    role.addToPolicy(
      new iam.PolicyStatement({
        actions: ['s3:ListBucket'],
        resources: [data.artifactsBucket.bucketArn],
        conditions: { StringLike: { 's3:prefix': ['repo-lfs/*'] } },
      }),
    );
    const repositories = stack.formatArn({ service: 'codecommit', resource: `${GIT_REPO_PREFIX}*` });
    role.addToPolicy(
      new iam.PolicyStatement({
        actions: [
          'codecommit:GitPush',
          'codecommit:GitPull',
          'codecommit:CreateRepository',
          'codecommit:DeleteRepository',
          'codecommit:GetRepository',
          'codecommit:ListBranches',
          'codecommit:GetBranch',
        ],
        resources: [repositories],
      }),
    );
    this.project = new codebuild.Project(this, 'Project', {
      role,
      description: 'Repository imports: one build per import (shared/domains/repos/imports/job.ts)',
      source: codebuild.Source.s3({ bucket: source.bucket, path: source.s3ObjectKey }),
      buildSpec: codebuild.BuildSpec.fromObject({
        version: '0.2',
        // git only: the job fetches LFS objects itself, through the guarded network path.
        phases: { build: { commands: ['node index.mjs'] } },
      }),
      environment: {
        buildImage: codebuild.LinuxArmBuildImage.AMAZON_LINUX_2023_STANDARD_3_0,
        computeType: codebuild.ComputeType.SMALL,
        environmentVariables: Object.fromEntries(
          Object.entries({
            ...props.environment,
            ARTIFACTS_BUCKET: data.artifactsBucket.bucketName,
            SECRETS_KEY_ID: data.secretsKey.keyId,
            GIT_REPO_PREFIX,
            IMPORT_WORK_DIR: '/tmp',
            IMPORT_MAX_BYTES: String(DEFAULT_IMPORT_GB * 1024 ** 3),
            IMPORT_LOW_SPEED_BYTES: String(DEFAULT_LOW_SPEED_BYTES),
            IMPORT_LOW_SPEED_SECONDS: String(DEFAULT_LOW_SPEED_SECONDS),
          }).map(([name, value]) => [name, { value }]),
        ),
      },
      timeout: IMPORT_TIMEOUT,
      queuedTimeout: Duration.hours(IMPORT_QUEUE_HOURS),
      encryptionKey: props.encryptionKey,
      logging: { cloudWatch: { logGroup: this.logs } },
    });
    const projectRef = `<${stack.getLogicalId(this.project.node.defaultChild as CfnElement)}>`;
    const keyGrant = 'Generated by the grants of the table key and the build key, on those keys only.';
    ack(role, {
      [`Resource::${ref(data.table, 'Arn')}/index/*`]: "The platform table's indexes (the records' lookups).",
      'Action::kms:GenerateDataKey*': keyGrant,
      'Action::kms:ReEncrypt*': keyGrant,
      'Action::s3:GetBucket*': "Generated by the asset bucket's read grant (the job's own bundle).",
      'Action::s3:GetObject*': "Generated by the asset bucket's read grant (the job's own bundle).",
      'Action::s3:List*': "Generated by the asset bucket's read grant (the job's own bundle).",
      [`Resource::arn:<AWS::Partition>:logs:<AWS::Region>:<AWS::AccountId>:log-group:/aws/codebuild/${projectRef}:*`]:
        "CodeBuild's own default grant for this project's log streams.",
      [`Resource::arn:<AWS::Partition>:codebuild:<AWS::Region>:<AWS::AccountId>:report-group/${projectRef}-*`]:
        "CodeBuild's own default grant for this project's report groups.",
      [`Resource::${ref(data.artifactsBucket, 'Arn')}/repo-lfs/*`]:
        'LFS objects of imported repositories, by key prefix.',
      [`Resource::${nagArn(repositories)}`]: `Imports create and push the platform's repositories, known only by the name prefix ${GIT_REPO_PREFIX}.`,
    });
  }
}
