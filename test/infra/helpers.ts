import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { type CfnElement, Stack } from 'aws-cdk-lib';
import type { Template } from 'aws-cdk-lib/assertions';
import type { Construct } from 'constructs';

/** What the CDK assertion suites share: the project root, cdk.json's flags, template readers. */
export const root = path.resolve(__dirname, '..', '..');

/** The feature flags of cdk.json, so the tests see the template `cdk synth` makes. */
export const flags = (
  JSON.parse(readFileSync(path.join(root, 'cdk.json'), 'utf8')) as {
    context: Record<string, unknown>;
  }
).context;

/**
 * Skips esbuild; used, with CDK's built-in template validation off (~5 s), for the extra stacks,
 * where neither matters: the main stack gets both.
 */
export const noBundling = { 'aws:cdk:bundling-stacks': [] };

export type Resources = Record<string, { Type: string; Properties: Record<string, any>; DeletionPolicy?: string }>;

export const logicalId = (construct: Construct) =>
  Stack.of(construct).getLogicalId(construct.node.defaultChild as CfnElement);

/** The statements of every policy attached to the role, each as its actions and its resource (JSON). */
export function statementsOf(template: Template, roleId: string) {
  const policies = Object.values(template.findResources('AWS::IAM::Policy') as Resources).filter((p) =>
    JSON.stringify(p.Properties.Roles).includes(`"${roleId}"`),
  );
  return policies.flatMap((p) =>
    (p.Properties.PolicyDocument as { Statement: { Action: string | string[]; Resource: unknown }[] }).Statement.map(
      (s) => ({ actions: ([] as string[]).concat(s.Action), resource: JSON.stringify(s.Resource) }),
    ),
  );
}
