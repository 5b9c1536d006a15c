import { type CfnElement, Stack, Validations } from 'aws-cdk-lib';
import type { Construct } from 'constructs';

/**
 * cdk-nag acknowledgements, in one place: how a finding is named (cdk-nag writes references and
 * pseudo parameters its own way) and how it is acknowledged, on one construct and what it holds,
 * never stack-wide, each with its reason.
 */

/** Acknowledges the cdk-nag rule `rule` (`AwsSolutions-S1` …) on `scope` and what it holds, with its reason. */
export function acknowledge(scope: Construct, rule: string, reason: string): void {
  Validations.of(scope).acknowledge({ id: rule, reason });
}

/** Acknowledges cdk-nag IAM5 (wildcard) findings, `finding` → reason, on `scope` and what it holds. */
export function ack(scope: Construct, findings: Record<string, string>): void {
  for (const [finding, reason] of Object.entries(findings)) acknowledge(scope, `AwsSolutions-IAM5[${finding}]`, reason);
}

/** How cdk-nag writes a reference to `construct`'s attribute in a finding: `<LogicalId.Arn>`. */
export function ref(construct: Construct, attribute: string): string {
  return `<${Stack.of(construct).getLogicalId(construct.node.defaultChild as CfnElement)}.${attribute}>`;
}

/** How cdk-nag writes an ARN built from pseudo parameters: `<AWS::Partition>` and the like. */
export function nagArn(arn: string): string {
  return arn.replace(/\$\{Token\[AWS\.(\w+)\.\d+\]\}/g, (_, name: string) => `<AWS::${name}>`);
}
