import { Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as scheduler from 'aws-cdk-lib/aws-scheduler';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { DeadLetterQueue } from './dead-letters';
import { acknowledge } from './nag';

/**
 * The notify worker's long timers (shared/ports/scheduler/aws.ts): one-time EventBridge Scheduler
 * schedules in a group of their own, delivered into the notify queue by a role that may only send
 * there, deleted after they run; deliveries that fail past their retries go to a dead-letter queue.
 * One per stack, made by the first grant that asks for it.
 */
export class NotifyTimers extends Construct {
  readonly group: scheduler.CfnScheduleGroup;
  readonly role: iam.Role;
  readonly deadLetters: sqs.Queue;

  static of(stack: Stack, notifyQueue: sqs.IQueue): NotifyTimers {
    const found = stack.node.tryFindChild('NotifyTimers') as NotifyTimers | undefined;
    return found ?? new NotifyTimers(stack, 'NotifyTimers', notifyQueue);
  }

  private constructor(scope: Construct, id: string, notifyQueue: sqs.IQueue) {
    super(scope, id);
    this.group = new scheduler.CfnScheduleGroup(this, 'Group', { name: `${Stack.of(this).stackName}-notify` });
    this.deadLetters = new DeadLetterQueue(this, 'DeadLetters', { of: "the notify timers' schedules" });
    acknowledge(
      this.deadLetters,
      'AwsSolutions-SQS3',
      "It is the dead-letter queue of the schedules' deliveries (EventBridge Scheduler's DeadLetterConfig).",
    );
    this.role = new iam.Role(this, 'Role', {
      assumedBy: new iam.ServicePrincipal('scheduler.amazonaws.com', {
        conditions: { StringEquals: { 'aws:SourceAccount': Stack.of(this).account } },
      }),
      description: 'Delivers the notify worker timers into its queue',
    });
    notifyQueue.grantSendMessages(this.role);
    this.deadLetters.grantSendMessages(this.role);
  }

  /** The schedules of the group, for the functions that make and delete them. */
  schedulesArn(): string {
    return Stack.of(this).formatArn({
      service: 'scheduler',
      resource: 'schedule',
      resourceName: `${this.group.name}/*`,
    });
  }
}
