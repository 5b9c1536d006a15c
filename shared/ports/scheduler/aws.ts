import {
  ActionAfterCompletion,
  CreateScheduleCommand,
  DeleteScheduleCommand,
  FlexibleTimeWindowMode,
  SchedulerClient,
  UpdateScheduleCommand,
} from '@aws-sdk/client-scheduler';
import { requireEnv } from '../../kernel/ground/env';
import { sdkSettings } from '../../kernel/ground/sdk-settings';
import { queue } from '../queue';
import type { SchedulerPort } from './port';

/** SQS delays a message up to 15 minutes; later timers are schedules. */
export const MAX_DELAY_SECONDS = 900;

let client: SchedulerClient | undefined;

/** `at(yyyy-mm-ddThh:mm:ss)` in UTC, the form of a one-time schedule. */
export const atExpression = (at: number) => `at(${new Date(at).toISOString().slice(0, 19)})`;

export const awsScheduler = (): SchedulerPort => ({
  async schedule(key, at, message) {
    const delaySeconds = Math.max(0, Math.ceil((at - Date.now()) / 1000));
    if (delaySeconds <= MAX_DELAY_SECONDS) {
      await queue().send('NOTIFY_QUEUE_URL', message, delaySeconds > 0 ? { delaySeconds } : {});
      return;
    }
    client ??= new SchedulerClient(sdkSettings('scheduler'));
    const input = {
      Name: key,
      GroupName: requireEnv('SCHEDULE_GROUP'),
      ScheduleExpression: atExpression(at),
      ScheduleExpressionTimezone: 'UTC',
      FlexibleTimeWindow: { Mode: FlexibleTimeWindowMode.OFF },
      ActionAfterCompletion: ActionAfterCompletion.DELETE,
      Target: {
        Arn: requireEnv('NOTIFY_QUEUE_ARN'),
        RoleArn: requireEnv('SCHEDULER_ROLE_ARN'),
        Input: JSON.stringify(message),
        RetryPolicy: { MaximumRetryAttempts: 10, MaximumEventAgeInSeconds: 86_400 },
        DeadLetterConfig: { Arn: requireEnv('SCHEDULE_DLQ_ARN') },
      },
    };
    try {
      await client.send(new CreateScheduleCommand(input));
    } catch (err) {
      // The key again: the timer moves.
      if ((err as Error).name !== 'ConflictException') throw err;
      await client.send(new UpdateScheduleCommand(input));
    }
  },

  async cancel(key) {
    client ??= new SchedulerClient(sdkSettings('scheduler'));
    try {
      await client.send(new DeleteScheduleCommand({ Name: key, GroupName: requireEnv('SCHEDULE_GROUP') }));
    } catch (err) {
      if ((err as Error).name !== 'ResourceNotFoundException') throw err;
    }
  },
});
