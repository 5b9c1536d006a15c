import { App } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { PlatformStack } from '../../lib/aws/platform-stack';
import { flags, noBundling, root } from './helpers';

/**
 * Mail on AWS (issue 17): the inbound bucket (private, encrypted, SSL only, logged, 7-day expiry)
 * that SES's receipt rule writes to, announced on the mail-inbound worker's queue; the worker reads
 * and deletes received objects only; the mail group sends raw from the account's identities.
 */
const app = new App({ context: { ...flags, ...noBundling }, builtinCloudFormationValidation: false });
const stack = new PlatformStack(app, 'MailStack', {
  authUrl: 'https://auth.example.com',
  authAudience: 'platform-api',
  projectRoot: root,
  mailFrom: 'alerts@mail.example.com',
});
const template = Template.fromStack(stack);

test('a receipt rule set writes received mail to the inbound bucket, scanned, TLS required, and notifies', () => {
  template.hasResourceProperties('AWS::SES::ReceiptRule', {
    Rule: Match.objectLike({
      Enabled: true,
      ScanEnabled: true,
      TlsPolicy: 'Require',
      Actions: [
        Match.objectLike({
          S3Action: Match.objectLike({
            ObjectKeyPrefix: 'inbound/',
            TopicArn: { Ref: Match.stringLikeRegexp('Received') },
          }),
        }),
      ],
    }),
  });
  template.hasResourceProperties('AWS::S3::Bucket', {
    LifecycleConfiguration: { Rules: Match.arrayWith([Match.objectLike({ ExpirationInDays: 7 })]) },
  });
});

test("the notification (envelope recipients, Bcc too) reaches the worker's queue raw, encrypted, from SES of this account only", () => {
  template.hasResourceProperties('AWS::SNS::Subscription', {
    Protocol: 'sqs',
    RawMessageDelivery: true,
    Endpoint: { 'Fn::GetAtt': [Match.stringLikeRegexp('MailInboundQueue'), 'Arn'] },
  });
  template.hasResourceProperties('AWS::SNS::Topic', { KmsMasterKeyId: Match.anyValue() });
  template.hasResourceProperties('AWS::SNS::TopicPolicy', {
    PolicyDocument: {
      Statement: Match.arrayWith([
        Match.objectLike({
          Principal: { Service: 'ses.amazonaws.com' },
          Action: 'sns:Publish',
          Condition: { StringEquals: { 'aws:SourceAccount': Match.anyValue() } },
        }),
      ]),
    },
  });
  template.hasResourceProperties('AWS::SQS::QueuePolicy', {
    PolicyDocument: {
      Statement: Match.arrayWith([
        Match.objectLike({ Principal: { Service: 'sns.amazonaws.com' }, Action: 'sqs:SendMessage' }),
      ]),
    },
  });
});

test('the mail group may send raw mail and manage identities; the worker reads and deletes inbound/ only', () => {
  const policies = JSON.stringify(template.findResources('AWS::IAM::Policy'));
  expect(policies).toContain('ses:SendRawEmail');
  expect(policies).toContain('ses:CreateEmailIdentity');
  expect(policies).toContain('ses:GetSuppressedDestination');
  expect(policies).toMatch(/MailInboundBucket[^"]*","Arn"\]\},"\/inbound\/\*"/);
});

test('mailbox sends go through a configuration set that suppresses bounces and complaints', () => {
  template.hasResourceProperties('AWS::SES::ConfigurationSet', {
    SuppressionOptions: { SuppressedReasons: ['BOUNCE', 'COMPLAINT'] },
  });
  const fns = JSON.stringify(template.findResources('AWS::Lambda::Function'));
  expect(fns).toContain('MAIL_CONFIGURATION_SET');
});

test("bounces and complaints of mailbox sends reach the mail-feedback worker's queue through an encrypted topic", () => {
  template.hasResourceProperties('AWS::SES::ConfigurationSetEventDestination', {
    EventDestination: Match.objectLike({
      Enabled: true,
      MatchingEventTypes: ['bounce', 'complaint'],
      SnsDestination: { TopicARN: { Ref: Match.stringLikeRegexp('MailFeedbackEvents') } },
    }),
  });
  template.hasResourceProperties('AWS::SNS::Subscription', {
    Protocol: 'sqs',
    RawMessageDelivery: true,
    TopicArn: { Ref: Match.stringLikeRegexp('MailFeedbackEvents') },
    Endpoint: { 'Fn::GetAtt': [Match.stringLikeRegexp('MailFeedbackQueue'), 'Arn'] },
  });
  const topics = template.findResources('AWS::SNS::Topic');
  expect(Object.values(topics).every((t) => t.Properties?.KmsMasterKeyId)).toBe(true);
  const policies = JSON.stringify(template.findResources('AWS::IAM::Policy'));
  expect(policies).toContain('ses:PutEmailIdentityFeedbackAttributes');
});
