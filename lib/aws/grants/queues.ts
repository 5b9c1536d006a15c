import type * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Need } from '../../../shared/kernel/needs';
import { queueUrlVariable } from '../../../shared/ports/queue/port';
import { nagArn } from '../nag';
import { NotifyTimers } from '../timers';
import type { Grant, Grants, NeedEnvironment } from './grant';

/** Queues: the agent job queue, the queue workers' queues (lib/workers.ts), the notify timers. */

/**
 * Sending to a queue worker's queue, named by its URL variable (shared/ports/queue/port.ts); its worker
 * consumes it. The variable's name is made from the queue's, so the row's type cannot check it:
 * the synthesis does (`assertNeedsEnv`).
 */
const sendTo = <N extends Need>(queue: string): Grant<N> =>
  ({
    env: ({ platform }) => ({ [queueUrlVariable(queue)]: platform.workerQueue(queue).queueUrl }) as NeedEnvironment<N>,
    grant: ({ f, platform }) => platform.workerQueue(queue).grantSendMessages(f.fn),
  }) as Grant<N>;

export const queueGrants: Grants<
  'queue' | 'repoArchives' | 'agentCallbacks' | 'agentChecks' | 'notify' | 'webhooks' | 'domainChecks' | 'scheduler'
> = {
  queue: {
    env: ({ platform }) => ({ AGENT_JOBS_QUEUE_URL: platform.jobs.queue.queueUrl }),
    grant: ({ f, platform }) => {
      platform.jobs.queue.grantSendMessages(f.fn);
      platform.jobs.queue.grantConsumeMessages(f.fn);
    },
  },

  repoArchives: sendTo('repo-archives'),
  agentCallbacks: sendTo('agent-callbacks'),
  agentChecks: sendTo('agent-checks'),
  notify: sendTo('notify'),
  webhooks: sendTo('webhooks'),
  domainChecks: sendTo('domain-checks'),

  // Short timers are delayed messages to the notify queue; longer ones schedules in the group
  // of NotifyTimers, passed its role (to the scheduler service only).
  scheduler: {
    env: ({ stack, platform }) => {
      const queue = platform.workerQueue('notify');
      const timers = NotifyTimers.of(stack, queue as sqs.Queue);
      return {
        NOTIFY_QUEUE_URL: queue.queueUrl,
        NOTIFY_QUEUE_ARN: queue.queueArn,
        SCHEDULE_GROUP: timers.group.name as string,
        SCHEDULER_ROLE_ARN: timers.role.roleArn,
        SCHEDULE_DLQ_ARN: timers.deadLetters.queueArn,
      };
    },
    grant: ({ f, stack, platform, allow, ack }) => {
      const queue = platform.workerQueue('notify');
      queue.grantSendMessages(f.fn);
      const timers = NotifyTimers.of(stack, queue as sqs.Queue);
      allow({
        actions: ['scheduler:CreateSchedule', 'scheduler:UpdateSchedule', 'scheduler:DeleteSchedule'],
        resources: [timers.schedulesArn()],
      });
      allow({
        actions: ['iam:PassRole'],
        resources: [timers.role.roleArn],
        conditions: { StringEquals: { 'iam:PassedToService': 'scheduler.amazonaws.com' } },
      });
      ack(
        'One-time schedules are named per notice at runtime, within the notify timers group only.',
        `Resource::${nagArn(timers.schedulesArn())}`,
      );
    },
  },
};
