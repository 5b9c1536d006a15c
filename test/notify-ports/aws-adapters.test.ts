import {
  PinpointSMSVoiceV2Client,
  SendTextMessageCommand,
  SendVoiceMessageCommand,
} from '@aws-sdk/client-pinpoint-sms-voice-v2';
import {
  ConflictException,
  CreateScheduleCommand,
  DeleteScheduleCommand,
  InternalServerException,
  ResourceNotFoundException,
  SchedulerClient,
  ThrottlingException,
  UpdateScheduleCommand,
} from '@aws-sdk/client-scheduler';
import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { backendError } from '../../shared/kernel/ground/backend-errors';
import { awsMail } from '../../shared/ports/mail-transport/aws';
import { awsPhone } from '../../shared/ports/phone/aws';
import { atExpression, awsScheduler } from '../../shared/ports/scheduler/aws';

/** A notify worker's step message, as the scheduler carries it. */
const STEP = { type: 'step' as const, userId: 'usr_1', noticeId: 'ntc_1', step: 4 };

/**
 * The AWS adapters of the scheduler, mail and phone ports, against the calls they must make:
 * EventBridge Scheduler (beyond SQS's 15-minute delay), SES v2, End User Messaging.
 */
const schedulerMock = mockClient(SchedulerClient);
const sqsMock = mockClient(SQSClient);
const sesMock = mockClient(SESv2Client);
const smsMock = mockClient(PinpointSMSVoiceV2Client);
const saved = { ...process.env };

beforeAll(() => {
  Object.assign(process.env, {
    NOTIFY_QUEUE_URL: 'https://sqs.eu-central-1.amazonaws.com/111122223333/notify',
    NOTIFY_QUEUE_ARN: 'arn:aws:sqs:eu-central-1:111122223333:notify',
    SCHEDULE_GROUP: 'platform-notify',
    SCHEDULER_ROLE_ARN: 'arn:aws:iam::111122223333:role/timers',
    SCHEDULE_DLQ_ARN: 'arn:aws:sqs:eu-central-1:111122223333:timers-dlq',
    MAIL_FROM: 'notifications@platform.example',
  });
});
afterAll(() => {
  process.env = saved;
  for (const m of [schedulerMock, sqsMock, sesMock, smsMock]) m.restore();
});
beforeEach(() => {
  for (const m of [schedulerMock, sqsMock, sesMock, smsMock]) m.reset();
});

describe('scheduler', () => {
  it('sends a timer within 15 minutes as a delayed SQS message', async () => {
    sqsMock.on(SendMessageCommand).resolves({});
    await awsScheduler().schedule('ntc_1.1', Date.now() + 5 * 60_000, {
      type: 'step',
      userId: 'usr_1',
      noticeId: 'ntc_1',
      step: 1,
    });
    const [call] = sqsMock.commandCalls(SendMessageCommand);
    expect(call?.args[0].input).toMatchObject({
      QueueUrl: process.env.NOTIFY_QUEUE_URL,
      MessageBody: JSON.stringify({ type: 'step', userId: 'usr_1', noticeId: 'ntc_1', step: 1 }),
    });
    expect(call?.args[0].input.DelaySeconds).toBeGreaterThanOrEqual(299);
    expect(call?.args[0].input.DelaySeconds).toBeLessThanOrEqual(300);
    expect(schedulerMock.commandCalls(CreateScheduleCommand)).toHaveLength(0);
  });

  it('makes a later one a one-time schedule into the notify queue, deleted after it runs', async () => {
    schedulerMock.on(CreateScheduleCommand).resolves({});
    const at = Date.UTC(2030, 0, 2, 3, 4, 5);
    await awsScheduler().schedule('ntc_1.2', at, { type: 'step', userId: 'usr_1', noticeId: 'ntc_1', step: 2 });
    expect(schedulerMock.commandCalls(CreateScheduleCommand)[0]?.args[0].input).toEqual({
      Name: 'ntc_1.2',
      GroupName: 'platform-notify',
      ScheduleExpression: 'at(2030-01-02T03:04:05)',
      ScheduleExpressionTimezone: 'UTC',
      FlexibleTimeWindow: { Mode: 'OFF' },
      ActionAfterCompletion: 'DELETE',
      Target: {
        Arn: process.env.NOTIFY_QUEUE_ARN,
        RoleArn: process.env.SCHEDULER_ROLE_ARN,
        Input: JSON.stringify({ type: 'step', userId: 'usr_1', noticeId: 'ntc_1', step: 2 }),
        RetryPolicy: { MaximumRetryAttempts: 10, MaximumEventAgeInSeconds: 86_400 },
        DeadLetterConfig: { Arn: process.env.SCHEDULE_DLQ_ARN },
      },
    });
    expect(atExpression(at)).toBe('at(2030-01-02T03:04:05)');
  });

  it('moves a timer scheduled again (the schedule exists) and cancels quietly', async () => {
    schedulerMock
      .on(CreateScheduleCommand)
      .rejects(new ConflictException({ Message: 'exists', message: 'exists', $metadata: {} }))
      .on(UpdateScheduleCommand)
      .resolves({})
      .on(DeleteScheduleCommand)
      .rejects(new ResourceNotFoundException({ Message: 'gone', message: 'gone', $metadata: {} }));
    await awsScheduler().schedule('ntc_1.3', Date.now() + 3_600_000, {
      type: 'step',
      userId: 'usr_1',
      noticeId: 'ntc_1',
      step: 3,
    });
    expect(schedulerMock.commandCalls(UpdateScheduleCommand)[0]?.args[0].input.Name).toBe('ntc_1.3');
    await expect(awsScheduler().cancel('ntc_1.3')).resolves.toBeUndefined();
    expect(schedulerMock.commandCalls(DeleteScheduleCommand)[0]?.args[0].input).toEqual({
      Name: 'ntc_1.3',
      GroupName: 'platform-notify',
    });
  });

  it('lets a throttled or failed call reach the backend-error table: 429 throttling, else 502', async () => {
    // What the SDK throws once its own retries are spent; the route's middy stack maps it by name.
    const fields = (m: string) => ({ Message: m, message: m, $metadata: {} });
    const refusals: [Error, string][] = [
      [new ThrottlingException(fields('Rate exceeded')), 'throttled'],
      [new InternalServerException(fields('internal')), 'backend'],
    ];
    for (const [refusal, kind] of refusals) {
      schedulerMock.on(CreateScheduleCommand).rejects(refusal);
      const thrown = await awsScheduler()
        .schedule('ntc_1.4', Date.now() + 3_600_000, STEP)
        .catch((e: Error) => e);
      expect([(thrown as Error).name, backendError(thrown as never).kind]).toEqual([refusal.name, kind]);
    }
    // Within 15 minutes the timer is an SQS message: SQS's throttling is 429 too.
    sqsMock
      .on(SendMessageCommand)
      .rejects(Object.assign(new Error('Rate exceeded'), { name: 'RequestThrottled', $metadata: {} }));
    const soon = await awsScheduler()
      .schedule('ntc_1.5', Date.now() + 60_000, STEP)
      .catch((e: Error) => e);
    expect(backendError(soon as never)).toMatchObject({
      kind: 'throttled',
      message: 'The backend is throttling requests. Try again in a moment.',
    });
  });
});

describe('mail', () => {
  it('sends through SES v2 from MAIL_FROM', async () => {
    sesMock.on(SendEmailCommand).resolves({ MessageId: 'ses-1' });
    const out = await awsMail().send({ to: ['ana@example.com'], subject: 'Deploy failed', text: 'Exit 1' });
    expect(out).toEqual({ messageId: 'ses-1' });
    expect(sesMock.commandCalls(SendEmailCommand)[0]?.args[0].input).toEqual({
      FromEmailAddress: 'notifications@platform.example',
      Destination: { ToAddresses: ['ana@example.com'] },
      Content: {
        Simple: {
          Subject: { Data: 'Deploy failed', Charset: 'UTF-8' },
          Body: { Text: { Data: 'Exit 1', Charset: 'UTF-8' } },
        },
      },
    });
  });
});

describe('phone', () => {
  it('texts from the origination number when set, and calls only with one', async () => {
    smsMock.on(SendTextMessageCommand).resolves({}).on(SendVoiceMessageCommand).resolves({});
    delete process.env.PHONE_ORIGINATION;
    await awsPhone().text('+4915112345678', 'Deploy failed');
    expect(smsMock.commandCalls(SendTextMessageCommand)[0]?.args[0].input).toEqual({
      DestinationPhoneNumber: '+4915112345678',
      MessageBody: 'Deploy failed',
      MessageType: 'TRANSACTIONAL',
    });
    await expect(awsPhone().call('+4915112345678', 'Deploy failed')).rejects.toThrow('PHONE_ORIGINATION');
    process.env.PHONE_ORIGINATION = '+4930123456';
    await awsPhone().call('+4915112345678', 'Deploy failed');
    expect(smsMock.commandCalls(SendVoiceMessageCommand)[0]?.args[0].input).toEqual({
      DestinationPhoneNumber: '+4915112345678',
      OriginationIdentity: '+4930123456',
      MessageBody: 'Deploy failed',
      MessageBodyTextType: 'TEXT',
    });
  });
});
