import * as path from 'node:path';
import { Duration } from 'aws-cdk-lib';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import type { Need } from '../../shared/kernel/needs';
import { type Grantable, grantNeeds } from './grants';
import { PlatformFunction } from './group-function';

/**
 * What the git function reaches: the platform table (credentials, repositories, LFS locks),
 * CodeCommit, the LFS objects it presigns links to, and the key that signs lock pages and LFS
 * verify tokens.
 */
export const GIT_FUNCTION_NEEDS: Need[] = ['table', 'git', 'repoLfs', 'cursorSecret'];

/**
 * Git over HTTPS on AWS: one function (functions/git/handler.ts) behind a function URL with
 * response streaming, proxying each authenticated exchange to CodeCommit's smart-HTTP endpoint.
 * Its URL is the base of every clone URL (`GIT_BASE_URL` of the functions that answer them).
 */
export class GitFunction extends PlatformFunction {
  readonly url: lambda.FunctionUrl;

  constructor(
    scope: Construct,
    id: string,
    props: { projectRoot: string; environment: Record<string, string>; platform: Grantable },
  ) {
    super(scope, id, {
      entry: path.join(props.projectRoot, 'functions', 'git', 'handler.ts'),
      projectRoot: props.projectRoot,
      description: 'Git over HTTPS: clone, fetch and push, proxied to CodeCommit',
      roleDescription: 'Git over HTTPS',
      environment: props.environment,
      // A clone of a large repository streams for a while.
      timeout: Duration.minutes(5),
    });
    this.url = this.fn.addFunctionUrl({
      authType: lambda.FunctionUrlAuthType.NONE,
      invokeMode: lambda.InvokeMode.RESPONSE_STREAM,
    });
    grantNeeds(this, GIT_FUNCTION_NEEDS, props.platform);
  }
}
