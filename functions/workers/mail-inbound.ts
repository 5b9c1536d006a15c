import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import PostalMime from 'postal-mime';
import { type CalendarIntake, deliverTo, mailboxesOf } from '../../shared/domains/mail/deliver';
import { deleteObjects, getObject } from '../../shared/domains/mail/objects';
import { InboundMessage } from '../../shared/domains/mail/queue-messages';
import { log } from '../../shared/kernel/ground/log';
import { eachMessage } from '../../shared/ports/queue/batch';

/** The schema its row names (lib/workers.ts); the local runner holds the two the same. */
export const message = InboundMessage;

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
    message,
    handle: async (m) => {
      if (!('notificationType' in m)) return receive(m.bucket, m.key, m.recipients);
      if (m.notificationType === 'Received') {
        return receive(m.receipt.action.bucketName, m.receipt.action.objectKey, m.receipt.recipients);
      }
      // SES's setup notification: nothing to deliver.
    },
    describe: (m) => ({
      key: !('notificationType' in m)
        ? m.key
        : m.notificationType === 'Received'
          ? m.receipt.action.objectKey
          : undefined,
    }),
  });
