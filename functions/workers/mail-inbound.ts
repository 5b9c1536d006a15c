import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import PostalMime from 'postal-mime';
import { type CalendarIntake, deliverTo, mailboxesOf } from '../../shared/domains/mail/deliver';
import { deleteObjects, getObject } from '../../shared/domains/mail/objects';
import { log } from '../../shared/kernel/ground/log';
import { eachMessage } from '../../shared/ports/queue/batch';

/**
 * A received message waiting in a bucket, with its envelope recipients (Bcc ones included, which
 * no header names): the local SMTP server sends `{ bucket, key, recipients }`; on AWS SES's receipt
 * rule writes the object and its notification (SNS, delivered raw to this queue) says where and
 * to whom (`receipt.recipients`, `receipt.action`).
 */
type Inbound =
  | { bucket: string; key: string; recipients: string[] }
  | {
      notificationType: 'Received';
      receipt: { recipients: string[]; action: { type: 'S3'; bucketName: string; objectKey: string } };
    };

const strings = (x: unknown): x is string[] => Array.isArray(x) && x.every((v) => typeof v === 'string');
const isInbound = (m: unknown): m is Inbound => {
  const x = m as Record<string, unknown> | undefined;
  if (typeof x?.bucket === 'string' && typeof x.key === 'string') return strings(x.recipients);
  if (x?.notificationType !== 'Received') return false;
  const receipt = x.receipt as { recipients?: unknown; action?: Record<string, unknown> } | undefined;
  const action = receipt?.action;
  return (
    strings(receipt?.recipients) &&
    action?.type === 'S3' &&
    typeof action.bucketName === 'string' &&
    typeof action.objectKey === 'string'
  );
};

/** Calendar messages go to the mailbox's calendar; its module loads with the first one. */
const calendar: CalendarIntake = async (mailbox, ics, from) =>
  (await import('../../shared/domains/calendar/itip')).receiveItip(mailbox, ics, from);

async function receive(bucket: string, key: string, recipients: string[]): Promise<void> {
  const raw = await getObject(key, bucket);
  if (!raw) {
    log.warn('mail_inbound_gone', { bucket, key });
    return;
  }
  const email = await PostalMime.parse(raw);
  const mailboxes = await mailboxesOf(recipients);
  for (const mailbox of mailboxes) await deliverTo(mailbox, raw, `${bucket}/${key}`, email, calendar);
  await deleteObjects([key], bucket);
}

/**
 * The mail-inbound worker: each received message delivered to the platform's mailboxes among its
 * recipients (parsed by postal-mime, threaded, INBOX and unread, attachments as objects). A repeat
 * files nothing twice (each mailbox keeps a marker of the object it got).
 */
export const handler = (event: SQSEvent): Promise<SQSBatchResponse> =>
  eachMessage(event, {
    what: 'a received message',
    is: isInbound,
    handle: (m) =>
      'receipt' in m
        ? receive(m.receipt.action.bucketName, m.receipt.action.objectKey, m.receipt.recipients)
        : receive(m.bucket, m.key, m.recipients),
    describe: (m) => ({ key: 'receipt' in m ? m.receipt.action.objectKey : m.key }),
  });
