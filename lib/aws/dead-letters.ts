import { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { DEAD_LETTER } from '../workers';

export interface DeadLetterQueueProps {
  /** Whose failures it keeps, for its alarm's description: `the notify worker's queue`. */
  of: string;
  /** How long a failed message is kept; the platform's default (lib/workers.ts) otherwise. */
  retentionDays?: number;
}

/**
 * A dead-letter queue of the stack (the queue workers', the agent jobs', the notify timers'): SSL
 * only, SQS-managed encryption, kept `retentionDays`, with its alarm: a message visible in it over
 * five minutes is one that failed past its retries and waits for a person. A queue idle for hours
 * publishes no data, which is no failure. The stack has no operator topic, so the alarm notifies
 * no one yet: its state shows in CloudWatch.
 */
export class DeadLetterQueue extends sqs.Queue {
  readonly alarm: cloudwatch.Alarm;

  constructor(scope: Construct, id: string, props: DeadLetterQueueProps) {
    super(scope, id, {
      enforceSSL: true,
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      retentionPeriod: Duration.days(props.retentionDays ?? DEAD_LETTER.retentionDays),
    });
    this.alarm = new cloudwatch.Alarm(this, 'Alarm', {
      alarmDescription: `Messages in the dead-letter queue of ${props.of}: they failed past their retries.`,
      metric: this.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(5), statistic: 'Maximum' }),
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      threshold: 0,
      evaluationPeriods: 1,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
  }
}
