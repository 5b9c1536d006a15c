import type { Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import type { NEED_ENV, Need } from '../../../shared/kernel/needs';
import type { PlatformData } from '../data';
import type { PlatformDeployments } from '../deployments';
import type { PlatformFunction } from '../group-function';
import type { RepoImports } from '../imports';
import type { AgentJobs } from '../jobs';
import { ack } from '../nag';

/** What of the stack the grants reach: the platform's resources and its settings. */
export interface Grantable {
  data: PlatformData;
  jobs: AgentJobs;
  deployments: PlatformDeployments;
  imports: RepoImports;
  /** The queue of the queue worker reading `queue` (lib/workers.ts); the synthesis stops without one. */
  workerQueue(queue: string): sqs.IQueue;
  /** Made known by each queue worker as it is built, before any grant asks for it. */
  registerWorkerQueue(queue: string, q: sqs.IQueue): void;
  /** The sender of the platform's mail: a verified SES identity (the address or its domain). */
  mailFrom: string;
  /** The origination number of texts and calls, if the account has one set up. */
  phoneOrigination?: string;
  /** The Cognito user pool whose app clients are the projects' sign-in clients, if there is one. */
  cognitoUserPoolId?: string;
  /** The sites' CDN, when the stack serves an apps domain (lib/aws/serving.ts). */
  serving?: { distributionId: string; distributionArn: string; connectionGroupId: string; routingEndpoint: string };
}

/** The function being granted, with the stack and the platform around it. */
export interface GrantTarget {
  f: PlatformFunction;
  stack: Stack;
  platform: Grantable;
  /** Adds a statement to the function's role. */
  allow(statement: iam.PolicyStatementProps): void;
  /**
   * Acknowledges cdk-nag IAM5 findings (`Resource::…`, `Action::…`), on this function only, with
   * their reason: where a CDK grant or a runtime-named resource needs a wildcard.
   */
  ack(reason: string, ...findings: string[]): void;
}

export function grantTarget(f: PlatformFunction, stack: Stack, platform: Grantable): GrantTarget {
  return {
    f,
    stack,
    platform,
    allow: (statement) => f.fn.addToRolePolicy(new iam.PolicyStatement(statement)),
    ack: (reason, ...findings) => ack(f, Object.fromEntries(findings.map((finding) => [finding, reason]))),
  };
}

/**
 * The variables need `N` declares on AWS (shared/kernel/needs.ts) that its row sets: all but those every
 * platform function gets with its environment (lib/aws/platform-stack.ts), checked all the same.
 */
type Variables<N extends Need> = Exclude<(typeof NEED_ENV)[N]['aws'][number], 'TABLE_NAME'>;

/** A need's environment: each variable it declares, and optional ones (undefined: not set). */
export type NeedEnvironment<N extends Need> = { [V in Variables<N>]: string } & Record<string, string | undefined>;

/**
 * One need on AWS: the environment it sets (each variable shared/kernel/needs.ts declares for it, so a
 * row that forgets one does not compile) and what it grants (statements, CDK grants, the cdk-nag
 * findings they raise, acknowledged with their reason).
 */
export type Grant<N extends Need> = { grant?(to: GrantTarget): void } & ([Variables<N>] extends [never]
  ? { env?(to: GrantTarget): NeedEnvironment<N> }
  : { env(to: GrantTarget): NeedEnvironment<N> });

/** Rows of the grant table, one per need of `N`. */
export type Grants<N extends Need> = { [K in N]: Grant<K> };

/** Any row, as `grantNeeds` applies it. */
export interface GrantRow {
  env?(to: GrantTarget): Record<string, string | undefined>;
  grant?(to: GrantTarget): void;
}
