import * as path from 'node:path';
import { AssetHashType, DockerImage, Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { entryOf, type RouteGroup } from '../route-groups';
import { bundleFunctionSync } from './bundle-sync';
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
  /** Where an asynchronous invocation that failed its retries goes (a worker started by a rule or a log filter). */
  deadLetterQueue?: sqs.IQueue;
}

/**
 * The function's code: its entry bundled by lib/bundle.ts (what `npm run build` and the bench
 * measure), run for CDK's synchronous hook by lib/aws/bundle-sync.ts, into the asset folder:
 * `index.mjs` and its `chunks/` (code splitting, which CDK's NodejsFunction cannot do: it bundles
 * to one file). Synth needs neither Docker nor the network; the asset's hash is its output's.
 */
function bundledCode(entry: string, projectRoot: string): lambda.Code {
  return lambda.Code.fromAsset(path.dirname(entry), {
    assetHashType: AssetHashType.OUTPUT,
    bundling: {
      // Required by the type; local bundling below always succeeds or throws, so it is never pulled.
      image: DockerImage.fromRegistry('public.ecr.aws/docker/library/node:22-slim'),
      local: {
        tryBundle(outputDir: string) {
          bundleFunctionSync({ entry, outdir: outputDir, absWorkingDir: projectRoot });
          return true;
        },
      },
    },
  });
}

/**
 * A platform Lambda function (a route group's or a worker's): nodejs22.x on arm64, 1024 MB,
 * bundled with the same esbuild options as `npm run build` and the bench (lib/bundle.ts), so what
 * is measured is what is deployed; its own role (which can write only to its own log group,
 * instead of AWSLambdaBasicExecutionRole's `logs:*` on every group) and its own log group with a
 * retention, created here rather than by a log-retention custom resource.
 */
export class PlatformFunction extends Construct {
  readonly fn: lambda.Function;
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

    this.fn = new lambda.Function(this, 'Function', {
      code: bundledCode(props.entry, props.projectRoot),
      handler: 'index.handler',
      runtime: lambda.Runtime.NODEJS_22_X,
      architecture: lambda.Architecture.ARM_64,
      memorySize: 1024,
      timeout: props.timeout,
      role: this.role,
      logGroup: this.logGroup,
      description: props.description,
      environment: { ...props.environment, PLATFORM_TARGET: 'aws' },
      deadLetterQueue: props.deadLetterQueue,
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
