import { Duration } from 'aws-cdk-lib';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { DEAD_LETTER } from '../workers';

/**
 * A dead-letter queue of the stack (the queue workers', the agent jobs', the notify timers'): SSL
 * only, SQS-managed encryption, kept `retentionDays` (the platform's default: lib/workers.ts).
 */
export class DeadLetterQueue extends sqs.Queue {
  constructor(scope: Construct, id: string, props: { retentionDays?: number } = {}) {
    super(scope, id, {
      enforceSSL: true,
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      retentionPeriod: Duration.days(props.retentionDays ?? DEAD_LETTER.retentionDays),
    });
  }
}
