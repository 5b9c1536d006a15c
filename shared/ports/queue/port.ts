import type { CallbackMessage, JobCheckMessage } from '../../domains/agents/queue-messages';
import type { CheckMessage } from '../../domains/custom-domains/queue-messages';
import type { FeedbackMessage, InboundMessage } from '../../domains/mail/queue-messages';
import type { NotifyMessage } from '../../domains/notifications/queue-messages';
import type { ArchiveJob } from '../../domains/repos/queue-messages';
import type { DeliveryMessage } from '../../domains/webhooks/queue-messages';

/**
 * What each worker queue carries, by the variable of its URL: the type of the schema its worker's
 * row names (lib/workers.ts), so a sender can only send what the worker parses.
 */
export interface QueueMessages {
  REPO_ARCHIVES_QUEUE_URL: ArchiveJob;
  AGENT_CALLBACKS_QUEUE_URL: CallbackMessage;
  AGENT_CHECKS_QUEUE_URL: JobCheckMessage;
  NOTIFY_QUEUE_URL: NotifyMessage;
  DOMAIN_CHECKS_QUEUE_URL: CheckMessage;
  WEBHOOKS_QUEUE_URL: DeliveryMessage;
  MAIL_INBOUND_QUEUE_URL: InboundMessage;
  MAIL_FEEDBACK_QUEUE_URL: FeedbackMessage;
}

/**
 * The queue port: work handed to a queue worker (lib/workers.ts, `trigger.kind: 'queue'`). A
 * message goes to the worker's own queue, whose URL its need declares (shared/kernel/needs.ts), and is
 * delivered at least once: the worker must take a repeat in its stride.
 */
export interface QueuePort {
  /**
   * Sends one message (JSON) to the queue whose URL is in the environment variable `urlVariable`,
   * delivered after `delaySeconds` (0-900) when given.
   */
  send<V extends QueueUrlVariable>(
    urlVariable: V,
    message: QueueMessages[V],
    options?: { delaySeconds?: number },
  ): Promise<void>;
}

/** The variables that hold worker queues' URLs (shared/kernel/needs.ts declares which need brings which). */
export type QueueUrlVariable = keyof QueueMessages;

/** The variable of a queue worker's queue URL: `repo-archives` → `REPO_ARCHIVES_QUEUE_URL`. */
export const queueUrlVariable = (queue: string): string => `${queue.toUpperCase().replace(/-/g, '_')}_QUEUE_URL`;
