import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { recheck } from '../../shared/domains/custom-domains/checks';
import { CheckMessage } from '../../shared/domains/custom-domains/queue-messages';
import { eachMessage } from '../../shared/ports/queue/batch';

/** The schema its row names (lib/workers.ts); the local runner holds the two the same. */
export const message = CheckMessage;

/**
 * The domain-checks worker: each message names a custom domain whose DNS check is due
 * (shared/domains/custom-domains/checks.ts `queueCheck`); the check writes what it found and queues the next one
 * while the domain is pending, until its 72 hours are over (`error`, domain.failed). A malformed
 * message is logged and left to the dead-letter queue; a failure of the platform's own is retried by SQS.
 */
export const handler = (event: SQSEvent): Promise<SQSBatchResponse> =>
  eachMessage(event, {
    what: 'a domain check',
    message,
    handle: (m) => recheck({ orgId: m.orgId, hostname: m.hostname, due: m.due }),
    describe: (m) => ({ hostname: m.hostname }),
  });
