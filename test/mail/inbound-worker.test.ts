import type { SQSEvent } from 'aws-lambda';
import { handler } from '../../functions/workers/mail-inbound';
import { putObject } from '../../shared/mailboxes/objects';
import { storage } from '../../shared/storage';
import { type MailWorld, mailboxFor, startMailWorld, unique } from './helpers';

/**
 * The mail-inbound worker as AWS runs it: S3's event for an object SES's receipt rule wrote
 * (recipients from the message's To, Cc and Delivered-To), and a repeat of the same object filing
 * nothing twice.
 */
let w: MailWorld;
beforeAll(async () => {
  w = await startMailWorld();
});
afterAll(async () => {
  await w?.close();
});

const s3Event = (bucket: string, key: string): SQSEvent =>
  ({
    Records: [
      {
        messageId: `m-${unique()}`,
        body: JSON.stringify({
          Records: [{ s3: { bucket: { name: bucket }, object: { key: encodeURIComponent(key) } } }],
        }),
      },
    ],
  }) as unknown as SQSEvent;

test('an S3 event delivers to the mailboxes among To and Cc, once however often it comes', async () => {
  const box = await mailboxFor(w.p, [w.p.owner.userId]);
  const bucket = process.env.ARTIFACTS_BUCKET as string;
  const key = `inbound/${unique()}.eml`;
  const raw = Buffer.from(
    [
      'From: Zed <zed@outside.example>',
      'To: someone@outside.example',
      `Cc: ${box.address}`,
      'Subject: Via S3',
      'Message-ID: <via-s3@outside.example>',
      '',
      'Hello through the receipt rule.',
      '',
    ].join('\r\n'),
  );
  await putObject(key, raw, 'message/rfc822');
  expect(await handler(s3Event(bucket, key))).toEqual({ batchItemFailures: [] });
  const list = await w.p.get(`/v1/orgs/${w.p.org.orgId}/mail/mailboxes/${box.mailboxId}/threads`);
  expect(list.body.threads).toEqual([expect.objectContaining({ subject: 'Via S3', unread: true, messageCount: 1 })]);
  // Delivered objects are deleted; the same object written and announced again files nothing new.
  expect((await storage.listKeys({ name: bucket }, key, 10)).keys).toEqual([]);
  await putObject(key, raw, 'message/rfc822');
  expect(await handler(s3Event(bucket, key))).toEqual({ batchItemFailures: [] });
  const again = await w.p.get(`/v1/orgs/${w.p.org.orgId}/mail/mailboxes/${box.mailboxId}/threads`);
  expect(again.body.threads[0].messageCount).toBe(1);
  // …and stores no second copy of its parts.
  const objects = await storage.listKeys({ name: bucket }, `mail/${box.mailboxId}/`, 100);
  expect(objects.keys.filter((k) => k.key.endsWith('/raw.eml'))).toHaveLength(1);
});
