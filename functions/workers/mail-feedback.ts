import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { recordFeedback } from '../../shared/domains/mail/feedback';
import { FeedbackMessage } from '../../shared/domains/mail/queue-messages';
import { eachMessage } from '../../shared/ports/queue/batch';

/** The schema its row names (lib/workers.ts); the local runner holds the two the same. */
export const message = FeedbackMessage;

/**
 * The mail-feedback worker: bounces and complaints of mailboxes' sends (SES's configuration set
 * events on AWS, the local SMTP server's for SES's simulator addresses), counted once per message
 * and kind; a permanent bounce files a failure notice in the sender's thread.
 */
export const handler = (event: SQSEvent): Promise<SQSBatchResponse> =>
  eachMessage(event, {
    what: 'mail feedback',
    message,
    handle: async (m) => {
      await recordFeedback(m);
    },
    describe: (m) => ({ kind: m.eventType ?? m.notificationType }),
  });
