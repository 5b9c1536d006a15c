import type { SQSEvent } from 'aws-lambda';
import { handler } from '../../functions/workers/mail-inbound';
import { putObject } from '../../shared/domains/mail/objects';
import { storage } from '../../shared/ports/object-storage';
import { type MailWorld, mailboxFor, startMailWorld, unique } from './helpers';

/**
 * The mail-inbound worker as AWS runs it: SES's notification of a message its receipt rule wrote
 * to the bucket (the envelope recipients, Bcc ones too), and a repeat of the same object filing
 * nothing twice.
 */
let w: MailWorld;
beforeAll(async () => {
  w = await startMailWorld();
});
afterAll(async () => {
  await w?.close();
});

/** SES's "Received" notification (SNS, raw delivery) for its S3 action. */
const received = (bucket: string, key: string, recipients: string[]): SQSEvent =>
  ({
    Records: [
      {
        messageId: `m-${unique()}`,
        body: JSON.stringify({
          notificationType: 'Received',
          mail: { source: 'zed@outside.example', destination: recipients, messageId: unique() },
          receipt: {
            recipients,
            spamVerdict: { status: 'PASS' },
            virusVerdict: { status: 'PASS' },
            action: { type: 'S3', topicArn: 'arn:aws:sns:eu-west-1:1:received', bucketName: bucket, objectKey: key },
          },
        }),
      },
    ],
  }) as unknown as SQSEvent;

test("SES's notification delivers to the mailboxes among the envelope's recipients, once however often it comes", async () => {
  const box = await mailboxFor(w.p, [w.p.owner.userId]);
  const bucket = process.env.ARTIFACTS_BUCKET as string;
  const key = `inbound/${unique()}.eml`;
  const raw = Buffer.from(
    [
      'From: Zed <zed@outside.example>',
      // Bcc: no header names the mailbox, only the envelope does.
      'To: someone@outside.example',
      'Subject: Via S3',
      'Message-ID: <via-s3@outside.example>',
      '',
      'Hello through the receipt rule.',
      '',
    ].join('\r\n'),
  );
  await putObject(key, raw, 'message/rfc822');
  expect(await handler(received(bucket, key, [box.address]))).toEqual({ batchItemFailures: [] });
  const list = await w.p.get(`/v1/orgs/${w.p.org.orgId}/mail/mailboxes/${box.mailboxId}/threads`);
  expect(list.body.threads).toEqual([expect.objectContaining({ subject: 'Via S3', unread: true, messageCount: 1 })]);
  // Delivered objects are deleted; the same object written and announced again files nothing new.
  expect((await storage().listKeys({ name: bucket }, key, 10)).keys).toEqual([]);
  await putObject(key, raw, 'message/rfc822');
  expect(await handler(received(bucket, key, [box.address]))).toEqual({ batchItemFailures: [] });
  const again = await w.p.get(`/v1/orgs/${w.p.org.orgId}/mail/mailboxes/${box.mailboxId}/threads`);
  expect(again.body.threads[0].messageCount).toBe(1);
  // …and stores no second copy of its parts.
  const objects = await storage().listKeys({ name: bucket }, `mail/${box.mailboxId}/`, 100);
  expect(objects.keys.filter((k) => k.key.endsWith('/raw.eml'))).toHaveLength(1);
});

test("SES's setup notification is no message: dropped, not retried", async () => {
  const setup = {
    Records: [{ messageId: 'setup', body: JSON.stringify({ notificationType: 'AMAZON_SES_SETUP_NOTIFICATION' }) }],
  } as unknown as SQSEvent;
  expect(await handler(setup)).toEqual({ batchItemFailures: [] });
});

test('first messages of a conversation received at the same moment, an answer among them, end in one thread', async () => {
  const box = await mailboxFor(w.p, [w.p.owner.userId]);
  const bucket = process.env.ARTIFACTS_BUCKET as string;
  const first = `<first-${unique()}@outside.example>`;
  const message = (i: number) =>
    Buffer.from(
      [
        'From: Zed <zed@outside.example>',
        `To: ${box.address}`,
        `Subject: ${i === 0 ? '' : 'Re: '}Planning the launch`,
        `Message-ID: ${i === 0 ? first : `<m${i}-${unique()}@outside.example>`}`,
        // The answer names a message not filed yet: only the subject can join them.
        ...(i === 3 ? [`In-Reply-To: ${first}`, `References: ${first}`] : []),
        '',
        `Part ${i}.`,
        '',
      ].join('\r\n'),
    );
  const keys = [0, 1, 2, 3].map(() => `inbound/${unique()}.eml`);
  await Promise.all(keys.map((key, i) => putObject(key, message(i), 'message/rfc822')));
  const answers = await Promise.all(keys.map((key) => handler(received(bucket, key, [box.address]))));
  expect(answers).toEqual(keys.map(() => ({ batchItemFailures: [] })));
  const list = await w.p.get(`/v1/orgs/${w.p.org.orgId}/mail/mailboxes/${box.mailboxId}/threads`);
  const planning = list.body.threads.filter((t: { subject: string }) => /Planning the launch/.test(t.subject));
  expect(planning).toHaveLength(1);
  expect(planning[0].messageCount).toBe(4);
});
