import * as path from 'node:path';
import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { bundleOptions } from '../bundle';
import { entryOf, type RouteGroup } from '../route-groups';

export interface GroupFunctionProps {
  group: RouteGroup;
  /** The repository root: entries, the lock file and the esbuild install are found from here. */
  projectRoot: string;
  environment: Record<string, string>;
}

/**
 * One route group's Lambda function: its own role (which can write only to its own log group,
 * instead of AWSLambdaBasicExecutionRole's `logs:*` on every group) and its own log group with a
 * retention, created here rather than by a log-retention custom resource.
 */
export class GroupFunction extends Construct {
  readonly group: RouteGroup;
  readonly fn: NodejsFunction;
  readonly role: iam.Role;
  readonly logGroup: logs.LogGroup;

  constructor(scope: Construct, id: string, props: GroupFunctionProps) {
    super(scope, id);
    const { group, projectRoot } = props;
    this.group = group;

    this.logGroup = new logs.LogGroup(this, 'Logs', {
      retention: logs.RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    this.role = new iam.Role(this, 'Role', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: `Route group ${group.name}`,
    });
    this.logGroup.grantWrite(this.role);

    this.fn = new NodejsFunction(this, 'Function', {
      entry: path.join(projectRoot, entryOf(group)),
      handler: 'handler',
      projectRoot,
      depsLockFilePath: path.join(projectRoot, 'package-lock.json'),
      runtime: lambda.Runtime.NODEJS_22_X,
      architecture: lambda.Architecture.ARM_64,
      memorySize: 1024,
      timeout: Duration.seconds(30),
      role: this.role,
      logGroup: this.logGroup,
      description: `Route group ${group.name}: ${group.prefixes.join(' ')}`,
      environment: props.environment,
      // The same esbuild options as `npm run build` and the bench (lib/bundle.ts), so what is
      // measured is what is deployed.
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

    Validations.of(this.fn).acknowledge({
      id: 'AwsSolutions-L1',
      reason: 'nodejs22.x is the runtime the spec requires (bundles target node22); move on deliberately, not by lint.',
    });
  }
}
