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
  send(urlVariable: QueueUrlVariable, message: object, options?: { delaySeconds?: number }): Promise<void>;
}

/** The variables that hold worker queues' URLs (shared/kernel/needs.ts declares which need brings which). */
export type QueueUrlVariable =
  | 'REPO_ARCHIVES_QUEUE_URL'
  | 'AGENT_CALLBACKS_QUEUE_URL'
  | 'AGENT_CHECKS_QUEUE_URL'
  | 'NOTIFY_QUEUE_URL'
  | 'DOMAIN_CHECKS_QUEUE_URL'
  | 'WEBHOOKS_QUEUE_URL'
  | 'MAIL_FEEDBACK_QUEUE_URL';

/** The variable of a queue worker's queue URL: `repo-archives` → `REPO_ARCHIVES_QUEUE_URL`. */
export const queueUrlVariable = (queue: string): string => `${queue.toUpperCase().replace(/-/g, '_')}_QUEUE_URL`;
