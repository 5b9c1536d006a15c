import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as ses from 'aws-cdk-lib/aws-ses';
import * as sesActions from 'aws-cdk-lib/aws-ses-actions';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';

/** Where SES's receipt rule writes received messages, as the mail-inbound worker reads them. */
export const INBOUND_PREFIX = 'inbound/';

/**
 * A topic SES publishes to: its messages name people's addresses, so they are encrypted with a key
 * of their own, which SES (of this account only) may use, as it may publish.
 */
function sesTopic(scope: Construct, id: string, what: string): sns.Topic {
  const fromSes = { StringEquals: { 'aws:SourceAccount': Stack.of(scope).account } };
  const key = new kms.Key(scope, `${id}Key`, { description: `Encrypts ${what}`, enableKeyRotation: true });
  key.addToResourcePolicy(
    new iam.PolicyStatement({
      principals: [new iam.ServicePrincipal('ses.amazonaws.com')],
      actions: ['kms:GenerateDataKey*', 'kms:Decrypt'],
      resources: ['*'],
      conditions: fromSes,
    }),
  );
  const topic = new sns.Topic(scope, id, { masterKey: key, enforceSSL: true });
  topic.addToResourcePolicy(
    new iam.PolicyStatement({
      principals: [new iam.ServicePrincipal('ses.amazonaws.com')],
      actions: ['sns:Publish'],
      resources: [topic.topicArn],
      conditions: fromSes,
    }),
  );
  return topic;
}

/**
 * Receiving mail on AWS: a receipt rule set whose one rule (every recipient of the account's
 * verified domains, spam and virus scanning on) writes each message to a bucket of its own and
 * notifies a topic that delivers to the mail-inbound worker's queue. The notification, not the
 * message, names the envelope's recipients: a Bcc recipient appears in no header. Objects expire
 * after 7 days (delivered ones are deleted by the worker). SES receives in a few regions only,
 * and a rule set works once it is the account's active one (`aws ses set-active-receipt-rule-set`):
 * see docs/routes/mail.md. One per stack, made by the first grant that asks for it.
 */
export class MailInbound extends Construct {
  readonly bucket: s3.Bucket;
  readonly ruleSet: ses.ReceiptRuleSet;

  static of(stack: Stack, queue: sqs.IQueue, logBucket: s3.IBucket): MailInbound {
    const found = stack.node.tryFindChild('MailInbound') as MailInbound | undefined;
    return found ?? new MailInbound(stack, 'MailInbound', queue, logBucket);
  }

  private constructor(scope: Construct, id: string, queue: sqs.IQueue, logBucket: s3.IBucket) {
    super(scope, id);
    this.bucket = new s3.Bucket(this, 'Bucket', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      encryption: s3.BucketEncryption.S3_MANAGED,
      serverAccessLogsBucket: logBucket,
      serverAccessLogsPrefix: 'mail-inbound/',
      lifecycleRules: [{ expiration: Duration.days(7), abortIncompleteMultipartUploadAfter: Duration.days(1) }],
      removalPolicy: RemovalPolicy.RETAIN,
    });
    const topic = sesTopic(this, 'Received', "SES's notifications of received mail");
    // Raw delivery: the queue's message is SES's notification itself, as the worker reads it.
    topic.addSubscription(new subscriptions.SqsSubscription(queue, { rawMessageDelivery: true }));
    this.ruleSet = new ses.ReceiptRuleSet(this, 'Rules', {
      rules: [
        {
          scanEnabled: true,
          tlsPolicy: ses.TlsPolicy.REQUIRE,
          actions: [new sesActions.S3({ bucket: this.bucket, objectKeyPrefix: INBOUND_PREFIX, topic })],
        },
      ],
    });
  }
}

/**
 * Sending: the configuration set every mailbox send names (`MAIL_CONFIGURATION_SET`), which puts
 * addresses that bounce or complain on the account's suppression list (`recipients/check` reads
 * it) and keeps reputation metrics. One per stack, made by the first grant that asks for it.
 */
export class MailSending extends Construct {
  readonly configurationSet: ses.ConfigurationSet;

  static of(stack: Stack): MailSending {
    const found = stack.node.tryFindChild('MailSending') as MailSending | undefined;
    return found ?? new MailSending(stack, 'MailSending');
  }

  private constructor(scope: Construct, id: string) {
    super(scope, id);
    this.configurationSet = new ses.ConfigurationSet(this, 'Set', {
      suppressionReasons: ses.SuppressionReasons.BOUNCES_AND_COMPLAINTS,
      reputationMetrics: true,
      sendingEnabled: true,
    });
  }

  /** The configuration set's ARN, for the send grants. */
  arn(): string {
    return Stack.of(this).formatArn({
      service: 'ses',
      resource: 'configuration-set',
      resourceName: this.configurationSet.configurationSetName,
    });
  }
}

/**
 * Bounces and complaints of mailboxes' sends: the configuration set publishes them to a topic
 * that delivers them raw to the mail-feedback worker's queue (counts, failure notices). One per
 * stack, made by the first grant that asks for it.
 */
export class MailFeedback extends Construct {
  static of(stack: Stack, sending: MailSending, queue: sqs.IQueue): MailFeedback {
    const found = stack.node.tryFindChild('MailFeedback') as MailFeedback | undefined;
    return found ?? new MailFeedback(stack, 'MailFeedback', sending, queue);
  }

  private constructor(scope: Construct, id: string, sending: MailSending, queue: sqs.IQueue) {
    super(scope, id);
    const topic = sesTopic(this, 'Events', "SES's bounce and complaint events");
    topic.addSubscription(new subscriptions.SqsSubscription(queue, { rawMessageDelivery: true }));
    sending.configurationSet.addEventDestination('Feedback', {
      destination: ses.EventDestination.snsTopic(topic),
      events: [ses.EmailSendingEvent.BOUNCE, ses.EmailSendingEvent.COMPLAINT],
    });
  }
}
