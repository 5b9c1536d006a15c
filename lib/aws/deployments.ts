import { Arn, ArnFormat, Aws, type CfnElement, Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import * as codebuild from 'aws-cdk-lib/aws-codebuild';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { CUSTOMER_BUCKET_PREFIX, CUSTOMER_TABLE_PREFIX } from '../../shared/kernel/config';
import { BUILD_TAGS, buildspec } from '../../shared/ports/builds/buildspec';
import { BUCKET_ACTIONS, OBJECT_ACTIONS, TABLE_ACTIONS } from '../../shared/ports/runtime/function-role';
import type { PlatformData } from './data';
import type { PlatformFunction } from './group-function';
import { ack, nagArn, ref } from './nag';

/** Deployed server functions are named `<prefix><deploymentId>`: every grant on them is by this prefix. */
export const FUNCTION_PREFIX = 'plt-fn-';

/** CodeCommit repositories of the platform are named `<prefix><repoId>` (shared/ports/git/events.ts). */
export const GIT_REPO_PREFIX = 'plt-repo-';

/**
 * The public Lambda Web Adapter layer (arm64) that runs a deployment's HTTP server inside Lambda.
 * Its account and version are AWS's; `webAdapterLayerArn` overrides it.
 */
const webAdapterLayer = (region: string) => `arn:aws:lambda:${region}:753240598075:layer:LambdaAdapterLayerArm64:25`;

export interface PlatformDeploymentsProps {
  data: PlatformData;
  projectRoot: string;
  /** The environment every platform function gets (table, auth, stage …). */
  environment: Record<string, string>;
  webAdapterLayerArn?: string;
}

/**
 * What builds and serves deployments on AWS:
 * - the CodeBuild project (arm64, like the functions it builds for; 15 minutes; no source of its
 *   own: each build downloads its archive) with its log group and key; its role reaches no data
 *   but can assume the build-data role, which each build does with a session policy naming its
 *   own prefixes (read sources and cache, read and delete its variables, write its artifacts);
 * - the permissions boundary of deployed server functions' roles (one role per function, made
 *   with it at runtime: its own log group, its project's linked table and bucket);
 * - lifecycle rules: source archives kept 30 days, one-build variables 1 day.
 */
export class PlatformDeployments extends Construct {
  readonly buildKey: kms.Key;
  readonly buildLogs: logs.LogGroup;
  readonly project: codebuild.Project;
  /** What builds assume for their data, narrowed per build to its own prefixes. */
  readonly buildDataRole: iam.Role;
  /** The permissions boundary every server function's role is created under. */
  readonly functionBoundary: iam.ManagedPolicy;
  readonly webAdapterLayerArn: string;

  constructor(scope: Construct, id: string, props: PlatformDeploymentsProps) {
    super(scope, id);
    const { data } = props;
    const stack = Stack.of(this);
    const bucket = data.artifactsBucket;
    this.webAdapterLayerArn = props.webAdapterLayerArn ?? webAdapterLayer(Aws.REGION);

    bucket.addLifecycleRule({ id: 'source-archives', prefix: 'sources/', expiration: Duration.days(30) });
    bucket.addLifecycleRule({ id: 'build-variables', prefix: 'builds/', expiration: Duration.days(1) });

    this.buildKey = new kms.Key(this, 'BuildKey', {
      description: 'Build artifacts and logs of deployment builds',
      enableKeyRotation: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    this.buildLogs = new logs.LogGroup(this, 'BuildLogs', {
      retention: logs.RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.RETAIN,
    });

    // The project's role reaches no data: each build assumes the build-data role with a session
    // policy naming its own prefixes (shared/ports/builds/buildspec.ts, shared/ports/builds/aws.ts). Its
    // session is also tagged with its project and deployment, and the role's own policy names
    // only the prefixes of those tags: a session assumed without the session policy (by code that
    // got hold of the project's role) still reaches one project's and one deployment's objects,
    // which it must name, never the whole bucket.
    const buildRole = new iam.Role(this, 'BuildRole', {
      assumedBy: new iam.ServicePrincipal('codebuild.amazonaws.com'),
      description: 'Deployment builds: logs, and assuming the build-data role',
    });
    this.buildDataRole = new iam.Role(this, 'BuildDataRole', {
      assumedBy: new iam.ArnPrincipal(buildRole.roleArn).withSessionTags().withConditions({
        StringLike: {
          [`aws:RequestTag/${BUILD_TAGS.project}`]: 'prj_*',
          [`aws:RequestTag/${BUILD_TAGS.deployment}`]: 'dpl_*',
        },
        'ForAllValues:StringEquals': { 'aws:TagKeys': [BUILD_TAGS.project, BUILD_TAGS.deployment] },
      }),
      description: "Deployment builds' data: narrowed per build by a session policy to its own prefixes",
      maxSessionDuration: Duration.hours(1),
    });
    buildRole.addToPolicy(
      new iam.PolicyStatement({
        actions: ['sts:AssumeRole', 'sts:TagSession'],
        resources: [this.buildDataRole.roleArn],
      }),
    );
    // Builds of commits: CodeBuild checks the commit out of the repository before any build step.
    const repositories = stack.formatArn({ service: 'codecommit', resource: `${GIT_REPO_PREFIX}*` });
    buildRole.addToPolicy(new iam.PolicyStatement({ actions: ['codecommit:GitPull'], resources: [repositories] }));
    this.project = new codebuild.Project(this, 'Builds', {
      role: buildRole,
      description: 'Deployment builds: one build per deployment (shared/ports/builds/buildspec.ts)',
      buildSpec: codebuild.BuildSpec.fromObject(buildspec),
      environment: {
        buildImage: codebuild.LinuxArmBuildImage.AMAZON_LINUX_2023_STANDARD_3_0,
        computeType: codebuild.ComputeType.SMALL,
        environmentVariables: {
          ARTIFACTS_BUCKET: { value: bucket.bucketName },
          BUILD_DATA_ROLE_ARN: { value: this.buildDataRole.roleArn },
        },
      },
      timeout: Duration.minutes(15),
      queuedTimeout: Duration.hours(1),
      encryptionKey: this.buildKey,
      logging: { cloudWatch: { logGroup: this.buildLogs } },
    });
    // `<prefix>/<the session's project or deployment>/`: IAM fills in the session's tag.
    const project = `\${aws:PrincipalTag/${BUILD_TAGS.project}}`;
    const deployment = `\${aws:PrincipalTag/${BUILD_TAGS.deployment}}`;
    const own = {
      sources: `sources/${project}/`,
      cache: `cache/${project}/`,
      builds: `builds/${deployment}/`,
      artifacts: `artifacts/${deployment}/`,
    };
    const objects = (prefix: string) => bucket.arnForObjects(`${prefix}*`);
    this.buildDataRole.addToPolicy(
      new iam.PolicyStatement({ actions: ['s3:GetObject'], resources: [objects(own.sources), objects(own.cache)] }),
    );
    this.buildDataRole.addToPolicy(
      new iam.PolicyStatement({ actions: ['s3:GetObject', 's3:DeleteObject'], resources: [objects(own.builds)] }),
    );
    // Builds of commits read their repository's Git LFS objects (the session policy names its
    // `repo-lfs/<orgId>/<repoId>/`; shared/ports/builds/lfs.ts): reading only, never listing.
    this.buildDataRole.addToPolicy(
      new iam.PolicyStatement({ actions: ['s3:GetObject'], resources: [objects('repo-lfs/')] }),
    );
    this.buildDataRole.addToPolicy(
      new iam.PolicyStatement({ actions: ['s3:PutObject'], resources: [objects(own.artifacts), objects(own.cache)] }),
    );
    // `aws s3 sync` lists the destination prefix (its own deployment's artifacts).
    this.buildDataRole.addToPolicy(
      new iam.PolicyStatement({
        actions: ['s3:ListBucket'],
        resources: [bucket.bucketArn],
        conditions: { StringLike: { 's3:prefix': [`${own.artifacts}*`, `${own.cache}*`] } },
      }),
    );
    const bucketArn = ref(bucket, 'Arn');
    const projectRef = `<${stack.getLogicalId(this.project.node.defaultChild as CfnElement)}>`;
    const keyGrant = 'Generated by the KMS key grant, on the build key only.';
    ack(this.buildDataRole, {
      [`Resource::${bucketArn}/repo-lfs/*`]:
        "Builds of commits read Git LFS objects by key (repo-lfs/<orgId>/<repoId>/<oid>): each build's session policy narrows them to its repository's.",
      ...Object.fromEntries(
        Object.entries(own).map(([name, prefix]) => [
          // cdk-nag writes a policy variable `${…}` as `<…>`.
          `Resource::${bucketArn}/${prefix.replace(/\$\{([^}]*)\}/g, '<$1>')}*`,
          `Builds read and write objects by key prefix (${name}/) of the artifacts bucket: the keys name deployments ` +
            "and projects created at runtime; the session's tags and its session policy narrow them to its own.",
        ]),
      ),
    });
    ack(buildRole, {
      [`Resource::arn:<AWS::Partition>:logs:<AWS::Region>:<AWS::AccountId>:log-group:/aws/codebuild/${projectRef}:*`]:
        "CodeBuild's own default grant for this project's log streams.",
      [`Resource::arn:<AWS::Partition>:codebuild:<AWS::Region>:<AWS::AccountId>:report-group/${projectRef}-*`]:
        "CodeBuild's own default grant for this project's report groups.",
      'Action::kms:GenerateDataKey*': keyGrant,
      'Action::kms:ReEncrypt*': keyGrant,
      [`Resource::${nagArn(repositories)}`]: `CodeBuild checks out commits of the platform's repositories, known only by the name prefix ${GIT_REPO_PREFIX}.`,
    });

    // Each server function gets a role of its own at deploy time (shared/ports/runtime/aws.ts): its log
    // group, its project's linked table and bucket. The platform may create such roles only under
    // this boundary, so none can reach more than server-function logs and customer data.
    const functionLogs = this.functionLogsArn();
    const tables = stack.formatArn({
      service: 'dynamodb',
      region: '*',
      resource: 'table',
      resourceName: `${CUSTOMER_TABLE_PREFIX}*`,
    });
    const buckets = `arn:${Aws.PARTITION}:s3:::${CUSTOMER_BUCKET_PREFIX}*`;
    const ownBuckets = { StringEquals: { 's3:ResourceAccount': Aws.ACCOUNT_ID } };
    this.functionBoundary = new iam.ManagedPolicy(this, 'ServerFunctionBoundary', {
      description: 'The most any server function role may do (a permissions boundary, required on their creation)',
      statements: [
        new iam.PolicyStatement({ actions: ['logs:CreateLogGroup'], resources: [functionLogs] }),
        new iam.PolicyStatement({
          actions: ['logs:CreateLogStream', 'logs:PutLogEvents'],
          resources: [`${functionLogs}:*`],
        }),
        new iam.PolicyStatement({ actions: TABLE_ACTIONS, resources: [tables, `${tables}/index/*`] }),
        new iam.PolicyStatement({ actions: BUCKET_ACTIONS, resources: [buckets], conditions: ownBuckets }),
        new iam.PolicyStatement({ actions: OBJECT_ACTIONS, resources: [`${buckets}/*`], conditions: ownBuckets }),
      ],
    });
    const boundaryReason =
      'A permissions boundary: it caps the roles the platform creates at runtime, one per server function, each ' +
      'of which names its own log group and its own linked table and bucket; those are known here only by prefix.';
    ack(this.functionBoundary, {
      ...Object.fromEntries(
        [functionLogs, `${functionLogs}:*`, tables, `${tables}/index/*`, buckets, `${buckets}/*`].map((arn) => [
          `Resource::${nagArn(arn)}`,
          boundaryReason,
        ]),
      ),
    });
  }

  /** The roles of server functions, named like them (`plt-fn-<deploymentId>`). */
  functionRolesArn(): string {
    return Arn.format(
      { service: 'iam', region: '', resource: 'role', resourceName: `${FUNCTION_PREFIX}*` },
      Stack.of(this),
    );
  }

  /**
   * Creating server functions' roles: only under the boundary (IAM refuses CreateRole and
   * PutRolePolicy without it), only by the name prefix, passed to Lambda only. Never granted:
   * changing or removing a boundary, attaching managed policies.
   */
  grantFunctionRoles(f: PlatformFunction): void {
    const roles = this.functionRolesArn();
    const bounded = { StringEquals: { 'iam:PermissionsBoundary': this.functionBoundary.managedPolicyArn } };
    f.fn.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['iam:CreateRole', 'iam:PutRolePolicy'],
        resources: [roles],
        conditions: bounded,
      }),
    );
    f.fn.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['iam:PassRole'],
        resources: [roles],
        conditions: { StringEquals: { 'iam:PassedToService': 'lambda.amazonaws.com' } },
      }),
    );
    this.grantFunctionRoleRemoval(f);
  }

  /** Removing server functions' roles with their functions (by the name prefix). */
  grantFunctionRoleRemoval(f: PlatformFunction): void {
    f.fn.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['iam:DeleteRolePolicy', 'iam:DeleteRole'],
        resources: [this.functionRolesArn()],
      }),
    );
    ack(f, {
      [`Resource::${nagArn(this.functionRolesArn())}`]: `Each server function's role is created with it at runtime, so roles are known only by the name prefix ${FUNCTION_PREFIX}.`,
    });
  }

  /** Server functions by name prefix, in this account and region. */
  functionsArn(): string {
    return Arn.format(
      {
        service: 'lambda',
        resource: 'function',
        resourceName: `${FUNCTION_PREFIX}*`,
        arnFormat: ArnFormat.COLON_RESOURCE_NAME,
      },
      Stack.of(this),
    );
  }

  grantFunctions(fn: lambda.IFunction, actions: string[]): void {
    fn.addToRolePolicy(new iam.PolicyStatement({ actions, resources: [this.functionsArn()] }));
  }

  /** The log groups of deployed functions (runtime logs). */
  functionLogsArn(): string {
    return Arn.format(
      {
        service: 'logs',
        resource: 'log-group',
        resourceName: `/aws/lambda/${FUNCTION_PREFIX}*`,
        arnFormat: ArnFormat.COLON_RESOURCE_NAME,
      },
      Stack.of(this),
    );
  }
}
