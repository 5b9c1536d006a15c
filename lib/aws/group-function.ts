import * as path from 'node:path';
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { bundleOptions } from '../bundle';
import { entryOf, type RouteGroup } from '../route-groups';
import { acknowledge } from './nag';

export interface PlatformFunctionProps {
  /** The handler file (`export const handler`). */
  entry: string;
  /** The repository root: entries, the lock file and the esbuild install are found from here. */
  projectRoot: string;
  description: string;
  /** What the role is for (IAM's role description). */
  roleDescription: string;
  environment: Record<string, string>;
  timeout: Duration;
}

/**
 * A platform Lambda function (a route group's or a worker's): nodejs22.x on arm64, 1024 MB,
 * bundled with the same esbuild options as `npm run build` and the bench (lib/bundle.ts), so what
 * is measured is what is deployed; its own role (which can write only to its own log group,
 * instead of AWSLambdaBasicExecutionRole's `logs:*` on every group) and its own log group with a
 * retention, created here rather than by a log-retention custom resource.
 */
export class PlatformFunction extends Construct {
  readonly fn: NodejsFunction;
  readonly role: iam.Role;
  readonly logGroup: logs.LogGroup;

  constructor(scope: Construct, id: string, props: PlatformFunctionProps) {
    super(scope, id);
    this.logGroup = new logs.LogGroup(this, 'Logs', {
      retention: logs.RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    this.role = new iam.Role(this, 'Role', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: props.roleDescription,
    });
    this.logGroup.grantWrite(this.role);

    this.fn = new NodejsFunction(this, 'Function', {
      entry: props.entry,
      handler: 'handler',
      projectRoot: props.projectRoot,
      depsLockFilePath: path.join(props.projectRoot, 'package-lock.json'),
      runtime: lambda.Runtime.NODEJS_22_X,
      architecture: lambda.Architecture.ARM_64,
      memorySize: 1024,
      timeout: props.timeout,
      role: this.role,
      logGroup: this.logGroup,
      description: props.description,
      environment: { ...props.environment, PLATFORM_TARGET: 'aws' },
      bundling: {
        format: OutputFormat.ESM,
        mainFields: [...bundleOptions.mainFields],
        minify: bundleOptions.minify,
        target: bundleOptions.target,
        sourceMap: bundleOptions.sourcemap,
        banner: bundleOptions.banner.js,
        esbuildArgs: { '--legal-comments': bundleOptions.legalComments },
        // Bundle the AWS SDK v3 clients too: their ES modules tree-shake, and the version is the
        // one we tested, not whatever the runtime ships.
        externalModules: [],
        // Synth must work offline and without Docker: use the esbuild installed in node_modules.
        forceDockerBundling: false,
      },
    });

    acknowledge(
      this.fn,
      'AwsSolutions-L1',
      'nodejs22.x is the runtime the spec requires (bundles target node22); move on deliberately, not by lint.',
    );
  }
}

export interface GroupFunctionProps {
  group: RouteGroup;
  projectRoot: string;
  environment: Record<string, string>;
}

/** One route group's function (lib/route-groups.ts): 30 s, as the spec's API functions. */
export class GroupFunction extends PlatformFunction {
  readonly group: RouteGroup;

  constructor(scope: Construct, id: string, props: GroupFunctionProps) {
    const { group, projectRoot } = props;
    super(scope, id, {
      entry: path.join(projectRoot, entryOf(group)),
      projectRoot,
      description: `Route group ${group.name}: ${group.prefixes.join(' ')}`,
      roleDescription: `Route group ${group.name}`,
      environment: props.environment,
      timeout: Duration.seconds(30),
    });
    this.group = group;
  }
}
