import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { type CheckMessage, recheck } from '../../shared/domains/custom-domains/checks';
import { eachMessage } from '../../shared/ports/queue/batch';

const isCheck = (x: unknown): x is CheckMessage => {
  const m = x as Partial<CheckMessage> | null;
  return typeof m?.orgId === 'string' && typeof m.hostname === 'string' && typeof m.due === 'number';
};

/**
 * The domain-checks worker: each message names a custom domain whose DNS check is due
 * (shared/domains/custom-domains/checks.ts `queueCheck`); the check writes what it found and queues the next one
 * while the domain is pending, until its 72 hours are over (`error`, domain.failed). A message
 * that names no domain is dropped; a failure of the platform's own is retried by SQS.
 */
export const handler = (event: SQSEvent): Promise<SQSBatchResponse> =>
  eachMessage(event, {
    what: 'a domain check',
    is: isCheck,
    handle: (m) => recheck({ orgId: m.orgId, hostname: m.hostname, due: m.due }),
    describe: (m) => ({ hostname: m.hostname }),
  });
