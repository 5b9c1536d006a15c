import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import PostalMime from 'postal-mime';
import { log } from '../../shared/ground/log';
import { deliverTo, mailboxesOf } from '../../shared/mailboxes/deliver';
import { deleteObjects, getObject } from '../../shared/mailboxes/objects';
import { eachMessage } from '../../shared/queue/batch';

/**
 * A received message waiting in a bucket: the local SMTP server names its envelope recipients;
 * SES's receipt rule (AWS) writes the object and S3 announces it, and the recipients are read from
 * the message's own headers (To, Cc, Delivered-To).
 */
type Inbound =
  | { bucket: string; key: string; recipients: string[] }
  | { Records: { s3: { bucket: { name: string }; object: { key: string } } }[] };

const isInbound = (m: unknown): m is Inbound => {
  const x = m as Record<string, unknown> | undefined;
  if (typeof x?.bucket === 'string' && typeof x.key === 'string') return Array.isArray(x.recipients);
  return Array.isArray(x?.Records);
};

async function receive(bucket: string, key: string, recipients: string[] | undefined): Promise<void> {
  const raw = await getObject(key, bucket);
  if (!raw) {
    log.warn('mail_inbound_gone', { bucket, key });
    return;
  }
  const email = await PostalMime.parse(raw);
  const to =
    recipients ??
    [...(email.to ?? []), ...(email.cc ?? [])]
      .flatMap((a) => (a.group ? a.group : [a]))
      .map((a) => a.address ?? '')
      .concat(email.deliveredTo ? [email.deliveredTo] : [])
      .filter(Boolean);
  const mailboxes = await mailboxesOf(to);
  for (const mailbox of mailboxes) await deliverTo(mailbox, raw, `${bucket}/${key}`, email);
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
    handle: async (m) => {
      if ('Records' in m) {
        for (const r of m.Records) {
          await receive(r.s3.bucket.name, decodeURIComponent(r.s3.object.key.replace(/\+/g, ' ')), undefined);
        }
      } else await receive(m.bucket, m.key, m.recipients);
    },
    describe: (m) => ('key' in m ? { key: m.key } : {}),
  });
