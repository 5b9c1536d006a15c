import type { $ZodType } from 'zod/v4/core';
import { CallbackMessage, JobCheckMessage } from '../shared/domains/agents/queue-messages';
import { CheckMessage } from '../shared/domains/custom-domains/queue-messages';
import { FeedbackMessage, InboundMessage } from '../shared/domains/mail/queue-messages';
import { NotifyMessage } from '../shared/domains/notifications/queue-messages';
import { ArchiveJob } from '../shared/domains/repos/queue-messages';
import { DeliveryMessage } from '../shared/domains/webhooks/queue-messages';
import type { Need } from '../shared/kernel/needs';

/**
 * THE table of background work: each worker is one function (`functions/workers/<name>.ts`,
 * `export const handler`) started by its trigger, with the grants and environment of its `needs`
 * (the route groups' vocabulary, shared/kernel/needs.ts). Read by the CDK stack (lib/aws/workers.ts: one
 * function, trigger and grants per row) and the local platform (lib/local/workers.ts: timers,
 * delivered events, polled queues). Adding a worker is one row here plus its file.
 */
export interface Worker {
  /** Its file: `functions/workers/<name>.ts`. */
  name: string;
  /** What it does, for the function's description and its role's. */
  description: string;
  trigger: WorkerTrigger;
  needs: Need[];
  /** The longest one run may take (Lambda's timeout). */
  timeoutMinutes: number;
}

export type WorkerTrigger = ScheduleTrigger | EventTrigger | QueueTrigger | LogsTrigger;

/**
 * Log lines of the route groups' functions: on AWS a CloudWatch Logs subscription filter with
 * `pattern` on each group function's log group delivers them (gzipped batches, retried by
 * CloudWatch Logs); locally the platform keeps its analytics events in memory and hands them to the
 * worker every `localEverySeconds`, in the same shape.
 */
export interface LogsTrigger {
  kind: 'logs';
  pattern: string;
  localEverySeconds: number;
}

/** A timer: every hour, or every day at a UTC hour (EventBridge Scheduler's rate and cron). */
type ScheduleTrigger = { kind: 'schedule'; retries: number } & (
  | { every: 'hour' }
  | { every: 'day'; atHourUtc: number }
);

/**
 * Events of a platform system, by EventBridge pattern (`source`, `detail-type`). `of` names
 * whose events: `buildProject` narrows them to the platform's own build project on AWS,
 * `repositories` to the platform's CodeCommit repositories (by name prefix); locally
 * the engine that stands in for that system delivers them (lib/local/workers.ts `deliverEvent`).
 * Delivery is at least once: a handler must take a repeat or a late event in its stride.
 */
export interface EventTrigger {
  kind: 'event';
  source: string;
  detailType: string;
  of: 'buildProject' | 'repositories';
  /** EventBridge's retries of a failed delivery, within `maxAgeHours` of the event. */
  retries: number;
  maxAgeHours: number;
}

/**
 * A queue of its own, named `queue`, read `batchSize` messages at a time; a message received
 * `deadLetter.maxReceives` times without success moves to the queue's dead-letter queue, kept
 * `deadLetter.retentionDays`. The handler answers SQS's partial batch response
 * (`batchItemFailures`), so one bad message does not retry the whole batch. `message` is the
 * messages' schema, as a route names its body's: the worker's batch (shared/ports/queue/batch.ts)
 * parses each message with it before the handler runs (a malformed one is logged, never its
 * contents, and goes the way of a failed one), and the senders are typed by it. The handler's file
 * exports the same schema as `message` (the local runner refuses to start a row whose file parses
 * with another). Rows write it with `queueTrigger`.
 */
export interface QueueTrigger {
  kind: 'queue';
  queue: string;
  batchSize: number;
  deadLetter: { maxReceives: number; retentionDays: number };
  message: $ZodType;
}

/**
 * The platform's dead-letter queues: a message received five times without success moves there,
 * and is kept 14 days, the longest SQS allows: time for a person to look at what failed.
 */
export const DEAD_LETTER = { maxReceives: 5, retentionDays: 14 } as const;

/**
 * Where the work of the workers a rule or a log filter starts (events, schedules, logs) goes once
 * it failed past its retries: one dead-letter queue for them all, `Workers/EventDeadLetters` on AWS
 * (the functions' asynchronous invocations and the rules' targets), `worker-events-dlq` on the
 * local SQS endpoint.
 */
export const EVENT_DEAD_LETTERS = { constructId: 'EventDeadLetters', localQueue: 'worker-events-dlq' } as const;

/** A queue worker's trigger, with the platform's dead-letter queue (`maxReceives`: fewer tries). */
export const queueTrigger = (
  queue: string,
  {
    batchSize,
    maxReceives = DEAD_LETTER.maxReceives,
    message,
  }: { batchSize: number; maxReceives?: number; message: $ZodType },
): QueueTrigger => ({
  kind: 'queue',
  queue,
  batchSize,
  deadLetter: { maxReceives, retentionDays: DEAD_LETTER.retentionDays },
  message,
});

export const workers: Worker[] = [
  {
    name: 'build-events',
    description: 'Moves deployments as their builds go; creates server functions',
    trigger: {
      kind: 'event',
      source: 'aws.codebuild',
      detailType: 'CodeBuild Build State Change',
      of: 'buildProject',
      retries: 8,
      maxAgeHours: 2,
    },
    // Records; the target's variables (decrypt); the build's manifest; the server function; the
    // build's log (its last error line).
    // notify: deployment.ready and deployment.failed.
    needs: ['table', 'secretsDecrypt', 'artifactsRead', 'serverFunctions', 'buildLogs', 'notify'],
    timeoutMinutes: 3,
  },
  {
    name: 'git-pushes',
    description: 'Deploys pushed branches to the projects linked to their repository',
    trigger: {
      kind: 'event',
      source: 'aws.codecommit',
      detailType: 'CodeCommit Repository State Change',
      of: 'repositories',
      retries: 8,
      maxAgeHours: 2,
    },
    // Records; the commit (git); the target's variables (decrypt) and the build started (builds,
    // the artifacts bucket for its variables object).
    // notify: a deployment that fails to start.
    needs: ['table', 'git', 'kms', 'buckets', 'builds', 'notify'],
    timeoutMinutes: 3,
  },
  {
    name: 'repo-archives',
    description: 'Makes zip and tar.gz archives of repository commits',
    // One archive at a time (a big repository takes the function's disk and minutes); a message
    // that keeps failing (git or S3 unreachable) is kept two weeks for a person to look at.
    trigger: queueTrigger('repo-archives', { batchSize: 1, maxReceives: 3, message: ArchiveJob }),
    // Records (the archive's state); the commit's tree (git); the archive written (buckets).
    needs: ['table', 'git', 'buckets'],
    timeoutMinutes: 10,
  },
  {
    name: 'agent-callbacks',
    description: "Calls agent jobs' callback URLs when they end",
    // Tries are counted in the message (5, with growing delays, each a new message) and beside the
    // job, so a repeated message sends nothing; a message the handler throws on (an outage of the
    // platform's own) goes to the dead-letter queue.
    trigger: queueTrigger('agent-callbacks', { batchSize: 10, maxReceives: 3, message: CallbackMessage }),
    // Records (the job); the next try queued again (agentCallbacks).
    needs: ['table', 'agentCallbacks'],
    timeoutMinutes: 2,
  },
  {
    name: 'agent-checks',
    description: 'Ends agent jobs that expired or whose device stopped, read or not',
    trigger: queueTrigger('agent-checks', { batchSize: 10, message: JobCheckMessage }),
    // Records (the job); its callback (agentCallbacks) and its next check (agentChecks).
    // notify: agent.job_failed for a job whose device stopped.
    needs: ['table', 'agentCallbacks', 'agentChecks', 'notify'],
    timeoutMinutes: 1,
  },
  {
    name: 'notify',
    description: 'Delivers notification events and their escalation steps',
    // Events (raised by routes and workers) and timers of later steps (shared/ports/scheduler) in one
    // queue; every write is conditional, so a repeat sends nothing twice.
    trigger: queueTrigger('notify', { batchSize: 10, message: NotifyMessage }),
    // Records (protocols, notices, people, webhook endpoints); the next steps' timers; mail, texts
    // and calls; each event's webhook deliveries queued (webhooks).
    needs: ['table', 'scheduler', 'mail', 'phone', 'webhooks'],
    timeoutMinutes: 2,
  },
  {
    name: 'domain-checks',
    description: 'Re-checks the DNS of unverified custom domains every 5 minutes for 72 hours',
    // A delayed message per domain (SQS delays are at most 15 minutes), chained while it is pending:
    // a domain is read only when its check is due, never in a scan of every domain. The record keeps
    // the time of its next check, so a repeated message does nothing.
    trigger: queueTrigger('domain-checks', { batchSize: 10, message: CheckMessage }),
    // Records (the domain); DNS lookups; the next check; domain.verified and domain.failed; the
    // domain's CDN tenant and its certificate.
    needs: ['table', 'dns', 'domainChecks', 'notify', 'cdn'],
    timeoutMinutes: 1,
  },
  {
    name: 'webhooks',
    description: 'Delivers signed webhooks, retrying for 24 hours',
    // One try per message; the next try is a new message with its wait (chained past SQS's 15
    // minutes), so a slow receiver holds no batch; a repeated message of a try made sends nothing.
    trigger: queueTrigger('webhooks', { batchSize: 10, message: DeliveryMessage }),
    // Records (endpoints, deliveries); the endpoint's secrets (decrypt); the next try (webhooks).
    needs: ['table', 'secretsDecrypt', 'webhooks'],
    timeoutMinutes: 2,
  },
  {
    name: 'mail-inbound',
    description: "Delivers received mail to the platform's mailboxes",
    // Received messages as objects: the local SMTP server's, or SES's receipt rule's (its notification).
    trigger: queueTrigger('mail-inbound', { batchSize: 5, message: InboundMessage }),
    // Records (mailboxes, threads, messages); the mailboxes' objects (buckets); the received
    // objects (mailInbound: SES's bucket on AWS); mailReply: vacation replies; notify: mail.vip.
    needs: ['table', 'buckets', 'mailInbound', 'mailReply', 'notify'],
    timeoutMinutes: 2,
  },
  {
    name: 'mail-feedback',
    description: "Counts bounces and complaints of mailboxes' sends; files failure notices",
    // SES's configuration set events (bounce, complaint) through a topic; locally the SMTP server's.
    trigger: queueTrigger('mail-feedback', { batchSize: 10, message: FeedbackMessage }),
    // Records and counters; the notice's objects (buckets); mailFeedback: the events' topic on AWS;
    // the notice is filed as received mail is (mailReply, notify: as the inbound worker's).
    needs: ['table', 'buckets', 'mailFeedback', 'mailReply', 'notify'],
    timeoutMinutes: 2,
  },
  {
    name: 'build-retention',
    description: 'Expires deployments past their retention',
    trigger: { kind: 'schedule', every: 'hour', retries: 2 },
    // Records; the expired deployments' outputs and server functions.
    needs: ['table', 'artifactsExpire', 'functionsDelete'],
    timeoutMinutes: 5,
  },
  {
    name: 'storage-usage',
    description: 'Keeps the daily usage figures of customer buckets',
    // A few hours after S3 publishes the day's storage metrics.
    trigger: { kind: 'schedule', every: 'day', atHourUtc: 6, retries: 2 },
    needs: ['table', 'bucketMetrics'],
    timeoutMinutes: 10,
  },
  {
    name: 'pages-sweep',
    description: 'Finishes removing deleted page subtrees',
    // A delete hides its subtree at once and removes what its budget allows; this finishes the rest.
    trigger: { kind: 'schedule', every: 'hour', retries: 2 },
    // Records (pages, search postings, favorites); the pages' content in the artifacts bucket.
    needs: ['table', 'buckets'],
    timeoutMinutes: 10,
  },
  {
    name: 'repo-imports-sweep',
    description: 'Fails repository imports whose job crashed and removes what they left',
    // An import still queued or running past its job's time limit (its build or process is gone).
    trigger: { kind: 'schedule', every: 'hour', retries: 2 },
    // Records (imports, repositories); the build stopped (repoImports); the repository's storage
    // (git) and LFS objects (repoLfs) removed.
    needs: ['table', 'repoImports', 'git', 'repoLfs'],
    timeoutMinutes: 5,
  },
  {
    name: 'analytics',
    description: "Adds the API's request events to hourly analytics counters",
    // One log line per request (shared/ports/analytics/aws.ts); each batch counted once (a marker).
    trigger: { kind: 'logs', pattern: '{ $.message = "analytics_event" }', localEverySeconds: 1 },
    needs: ['table'],
    timeoutMinutes: 1,
  },
  {
    name: 'analytics-builds',
    description: 'Adds ended deployment builds to the analytics counters',
    // The build events build-events reads; each build's end counted once (a marker).
    trigger: {
      kind: 'event',
      source: 'aws.codebuild',
      detailType: 'CodeBuild Build State Change',
      of: 'buildProject',
      retries: 4,
      maxAgeHours: 2,
    },
    needs: ['table'],
    timeoutMinutes: 1,
  },
];

export const workerEntry = (worker: Pick<Worker, 'name'>) => `functions/workers/${worker.name}.ts`;

/** A schedule's period, for timers. */
export const scheduleMs = (trigger: ScheduleTrigger) => (trigger.every === 'hour' ? 3_600_000 : 86_400_000);
