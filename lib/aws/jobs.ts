import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { DEAD_LETTER } from '../workers';
import { DeadLetterQueue } from './dead-letters';

/** The agent job queue, with a dead-letter queue for jobs that keep failing. */
export class AgentJobs extends Construct {
  readonly queue: sqs.Queue;
  readonly deadLetterQueue: sqs.Queue;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.deadLetterQueue = new DeadLetterQueue(this, 'DeadLetters', { of: 'the agent job queue' });
    this.queue = new sqs.Queue(this, 'Queue', {
      enforceSSL: true,
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: DEAD_LETTER.maxReceives },
    });
  }
}
