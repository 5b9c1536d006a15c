import * as path from 'node:path';
import { ArnFormat, Duration, Stack } from 'aws-cdk-lib';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import * as logs from 'aws-cdk-lib/aws-logs';
import { LambdaDestination } from 'aws-cdk-lib/aws-logs-destinations';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { EVENT_DEAD_LETTERS, type EventTrigger, type Worker, type WorkerTrigger, workerEntry } from '../workers';
import { DeadLetterQueue } from './dead-letters';
import { GIT_REPO_PREFIX } from './deployments';
import { type Grantable, grantNeeds } from './grants';
import { type GroupFunction, PlatformFunction } from './group-function';
import type { PlatformServing } from './serving';

/**
 * Where the workers wired by hand before the table lived in the construct tree. They keep their
 * place, so their logical ids (and their retained log groups) stay what they were; every other
 * worker lives at `Workers/<Name>`.
 */
const formerPlaces: Record<string, [scope: string, id: string]> = {
  'build-events': ['DeploymentBuilds', 'BuildEvents'],
  'build-retention': ['DeploymentBuilds', 'Retention'],
  'storage-usage': ['StorageUsage', 'Worker'],
};

/** One worker's function (lib/workers.ts), with what starts it. */
export class WorkerFunction extends PlatformFunction {
  readonly worker: Worker;
  /** The EventBridge rule of a schedule or event worker. */
  readonly rule?: events.Rule;
  /** The queue of a queue worker, and where its failures end up. */
  readonly queue?: sqs.Queue;
  readonly deadLetterQueue?: sqs.Queue;

  constructor(scope: Construct, id: string, props: WorkerFunctionProps) {
    const { worker } = props;
    super(scope, id, {
      entry: path.join(props.projectRoot, workerEntry(worker)),
      projectRoot: props.projectRoot,
      description: worker.description,
      roleDescription: worker.description,
      environment: props.environment,
      timeout: Duration.minutes(worker.timeoutMinutes),
      // Lambda's two retries of an asynchronous invocation (a rule's event or schedule, a log
      // filter's batch), then the workers' shared dead-letter queue; a queue worker's own queue redrives instead.
      deadLetterQueue: worker.trigger.kind === 'queue' ? undefined : props.eventDeadLetters,
    });
    this.worker = worker;
    const trigger = worker.trigger;
    // Every queue worker's queue exists before any grant (addWorkers grants once all are built): a
    // worker may send to its own queue (the next try) or to one of a later row.
    if (trigger.kind === 'queue') {
      [this.queue, this.deadLetterQueue] = queueOf(this, trigger);
      props.platform.registerWorkerQueue(trigger.queue, this.queue);
    }
    if (trigger.kind === 'queue') {
      this.fn.addEventSource(
        new SqsEventSource(this.queue as sqs.Queue, { batchSize: trigger.batchSize, reportBatchItemFailures: true }),
      );
    } else if (trigger.kind === 'logs') {
      // A subscription filter on each route group function's log group (built before the workers),
      // and on the router's when the stack serves sites (its visitors' requests).
      const platform = props.platform as Partial<{ functions: GroupFunction[]; sites: PlatformServing }>;
      const sources = (platform.functions ?? []).map((g) => ({ name: pascal(g.group.name), logGroup: g.logGroup }));
      if (platform.sites) sources.push({ name: 'Router', logGroup: platform.sites.router.logGroup });
      // CloudWatch Logs may invoke the worker for this account's log groups: one permission for all
      // the filters (one each would cost a resource per group, against the stack's 500).
      const permission = new lambda.CfnPermission(this, 'FromLogs', {
        action: 'lambda:InvokeFunction',
        functionName: this.fn.functionArn,
        principal: 'logs.amazonaws.com',
        sourceAccount: Stack.of(this).account,
        sourceArn: Stack.of(this).formatArn({
          service: 'logs',
          resource: 'log-group',
          resourceName: '*',
          arnFormat: ArnFormat.COLON_RESOURCE_NAME,
        }),
      });
      for (const g of sources) {
        const filter = new logs.SubscriptionFilter(this, `Logs${g.name}`, {
          logGroup: g.logGroup,
          destination: new LambdaDestination(this.fn, { addPermissions: false }),
          filterPattern: logs.FilterPattern.literal(trigger.pattern),
        });
        filter.node.addDependency(permission);
      }
    } else {
      this.rule = new events.Rule(this, 'Trigger', {
        description: `${trigger.kind === 'event' ? 'Events' : 'Schedule'} of the ${worker.name} worker`,
        ...ruleOf(trigger, props.platform),
        targets: [
          new targets.LambdaFunction(this.fn, {
            retryAttempts: trigger.retries,
            // An event EventBridge could not hand to the function within its retries and age.
            deadLetterQueue: props.eventDeadLetters,
            ...(trigger.kind === 'event' ? { maxEventAge: Duration.hours(trigger.maxAgeHours) } : {}),
          }),
        ],
      });
    }
  }
}

interface WorkerFunctionProps {
  worker: Worker;
  projectRoot: string;
  /** The environment every platform function gets (table, auth, stage …); needs add theirs. */
  environment: Record<string, string>;
  platform: Grantable;
  /** The dead-letter queue of the workers a rule or a log filter starts (addWorkers makes it). */
  eventDeadLetters?: sqs.IQueue;
}

/** The schedule or event pattern of a rule. */
function ruleOf(
  trigger: Exclude<WorkerTrigger, { kind: 'queue' | 'logs' }>,
  platform: Grantable,
): Pick<events.RuleProps, 'schedule' | 'eventPattern'> {
  if (trigger.kind === 'event') {
    // Whose events: the detail that names the platform's own resource.
    const of: Record<EventTrigger['of'], Record<string, unknown[]>> = {
      buildProject: { 'project-name': [platform.deployments.project.projectName] },
      repositories: { repositoryName: [{ prefix: GIT_REPO_PREFIX }] },
    };
    return { eventPattern: { source: [trigger.source], detailType: [trigger.detailType], detail: of[trigger.of] } };
  }
  return {
    schedule:
      trigger.every === 'hour'
        ? events.Schedule.rate(Duration.hours(1))
        : events.Schedule.cron({ minute: '0', hour: String(trigger.atHourUtc) }),
  };
}

/**
 * A queue worker's own queue and dead-letter queue. A message stays invisible for six times the
 * function's timeout while a batch runs (Lambda's advice, so a slow run is not delivered twice).
 */
function queueOf(f: WorkerFunction, trigger: Extract<WorkerTrigger, { kind: 'queue' }>): [sqs.Queue, sqs.Queue] {
  const deadLetterQueue = new DeadLetterQueue(f, 'DeadLetters', {
    of: `the ${f.worker.name} worker's queue`,
    retentionDays: trigger.deadLetter.retentionDays,
  });
  const queue = new sqs.Queue(f, 'Queue', {
    enforceSSL: true,
    encryption: sqs.QueueEncryption.SQS_MANAGED,
    visibilityTimeout: Duration.minutes(Math.min(6 * f.worker.timeoutMinutes, 12 * 60)),
    deadLetterQueue: { queue: deadLetterQueue, maxReceiveCount: trigger.deadLetter.maxReceives },
  });
  return [queue, deadLetterQueue];
}

/** Every worker of `workers`, each with its trigger and the grants of its needs: one loop. */
export function addWorkers(stack: Stack, workers: Worker[], props: Omit<WorkerFunctionProps, 'worker'>) {
  const names = workers.map((w) => w.name);
  const twice = names.find((name, i) => names.indexOf(name) !== i);
  if (twice) throw new Error(`The worker table lists ${twice} twice.`);
  const scopeOf = (scopeId: string) => stack.node.tryFindChild(scopeId) ?? new Construct(stack, scopeId);
  // One dead-letter queue (with its alarm) for every worker a rule or a log filter starts: what
  // failed past its retries waits there for a person, whichever worker it was for (the message
  // names its function). One each would cost three resources a worker, against the stack's 500.
  const eventDeadLetters = workers.some((w) => w.trigger.kind !== 'queue')
    ? new DeadLetterQueue(scopeOf('Workers'), EVENT_DEAD_LETTERS.constructId, {
        of: 'the workers started by events, schedules and log filters',
      })
    : undefined;
  const made = workers.map((worker) => {
    const [scopeId, id] = formerPlaces[worker.name] ?? ['Workers', pascal(worker.name)];
    return new WorkerFunction(scopeOf(scopeId), id, { ...props, worker, eventDeadLetters });
  });
  for (const w of made) grantNeeds(w, w.worker.needs, props.platform);
  return made;
}

/** `build-events` → `BuildEvents`: construct ids from table names. */
export const pascal = (name: string) =>
  name
    .split(/[^a-zA-Z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0]?.toUpperCase() + w.slice(1))
    .join('');
