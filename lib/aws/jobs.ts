import { Duration } from 'aws-cdk-lib';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';

/** The agent job queue, with a dead-letter queue for jobs that keep failing. */
export class AgentJobs extends Construct {
  readonly queue: sqs.Queue;
  readonly deadLetterQueue: sqs.Queue;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.deadLetterQueue = new sqs.Queue(this, 'DeadLetters', {
      enforceSSL: true,
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      // The longest SQS allows: time for a person to look at what failed.
      retentionPeriod: Duration.days(14),
    });
    this.queue = new sqs.Queue(this, 'Queue', {
      enforceSSL: true,
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: 5 },
    });
  }
}
