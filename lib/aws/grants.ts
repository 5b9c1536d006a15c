import { Stack } from 'aws-cdk-lib';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import { assertNeedsEnv, type Need } from '../../shared/kernel/needs';
import { customerGrants } from './grants/customer';
import { dataGrants } from './grants/data';
import { deploymentGrants } from './grants/deployments';
import { domainGrants } from './grants/domains';
import { type Grantable, type GrantRow, type Grants, grantTarget } from './grants/grant';
import { messageGrants } from './grants/messages';
import { queueGrants } from './grants/queues';
import { signinGrants } from './grants/signin';
import type { PlatformFunction } from './group-function';

export type { Grantable } from './grants/grant';

/**
 * THE grant table: each need of the vocabulary (shared/kernel/needs.ts), with the environment it sets and
 * what it grants on AWS, one file per family of needs under lib/aws/grants/. Typed over every
 * need, so a need added to the vocabulary does not compile until its row is here.
 */
export const GRANTS = {
  ...dataGrants,
  ...queueGrants,
  ...messageGrants,
  ...customerGrants,
  ...deploymentGrants,
  ...domainGrants,
  ...signinGrants,
} satisfies Grants<Need>;

/**
 * Gives `f` (a route group's function or a worker's) what each of its `needs` asks for, and
 * nothing else, with the environment each need declares: the synthesis stops, naming the
 * variable, if a row forgot one.
 */
export function grantNeeds(f: PlatformFunction, needs: readonly Need[], platform: Grantable): void {
  const to = grantTarget(f, Stack.of(f), platform);
  for (const need of new Set(needs)) {
    const row: GrantRow = GRANTS[need];
    for (const [name, value] of Object.entries(row.env?.(to) ?? {})) {
      if (value !== undefined) f.fn.addEnvironment(name, value);
    }
    row.grant?.(to);
  }
  assertNeedsEnv(f.node.path, needs, 'aws', environmentOf(f));
}

/** The variables set on `f`'s function (their values may be references: only their presence counts). */
function environmentOf(f: PlatformFunction): Record<string, unknown> {
  const cfn = f.fn.node.defaultChild as lambda.CfnFunction;
  const resolved = Stack.of(f).resolve(cfn.environment) as { variables?: Record<string, unknown> } | undefined;
  return resolved?.variables ?? {};
}
