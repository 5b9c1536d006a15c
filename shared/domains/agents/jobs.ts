import * as z from 'zod/mini';
import { artifactsBucket } from '../../kernel/config';
import { readEnv } from '../../kernel/ground/env';
import { conflict, DomainError, invalid, notFound } from '../../kernel/ground/errors';
import { log } from '../../kernel/ground/log';
import { guardedFetch, UnsafeUrlError } from '../../kernel/net/guarded-fetch';
import { db } from '../../kernel/store/client';
import { PutCommand, QueryCommand, UpdateCommand } from '../../kernel/store/commands';
import { newId } from '../../kernel/store/ids';
import { PREFIXES } from '../../kernel/store/keys';
import { claimTry, queryAll, queryPage, queryPages, transact } from '../../kernel/store/ops';
import { fieldUpdate, getItem, orgPk, putNew, TABLE } from '../../kernel/store/table';
import { storage } from '../../ports/object-storage';
import { queue } from '../../ports/queue';
import { peopleOf, raiseEvent } from '../notifications/raise';
import { type Capability, type DeviceRecord, markSeen } from './devices';
import type { CallbackMessage } from './queue-messages';

/**
 * Agent jobs. The job record (`ORG#<orgId>`, `JOB#<jobId>`) is the truth. While a job is queued it
 * sits in a sparse index (gsi1: `JOBQ#<orgId>`, creation time): a device's poll reads it oldest
 * first, keeps what the device may run (its type's capability, hosts within the allowlist unless
 * `full`, not expired) and claims with a conditional update (`queued` → running, the job moved to
 * its device's index, where a revoke finds it); a claim lost to another device moves on to the next job. Queues could
 * neither choose by capability nor keep the order, so none is in the claiming path.
 *
 * Expiry and a stopped device are settled where jobs are read (poll, get, the list): a queued job
 * past `expiresAt` is `expired`; a running one whose device sent nothing for two minutes is
 * `failed` with `The device stopped reporting.`.
 */
export type JobType = 'http.batch' | 'exec' | 'browser.batch';
export type JobStatus = 'queued' | 'running' | 'canceling' | 'canceled' | 'done' | 'failed' | 'expired';

export interface JobRecord {
  jobId: string;
  orgId: string;
  type: JobType;
  status: JobStatus;
  createdBy: string;
  expiresAt: number;
  label?: string;
  hosts: string[];
  input: unknown;
  callbackUrl?: string;
  createdAt: number;
  updatedAt: number;
  deviceId?: string;
  claimedAt?: number;
  heartbeatAt?: number;
  completedAt?: number;
  error?: string;
  cancelRequestedAt?: number;
  canceledBy?: string;
  resultKey?: string;
  queueTtl?: number;
}

export const JOB_MESSAGES = {
  notFound: 'Job not found',
  finished: 'This job already finished.',
  onlyQueued: 'Only queued jobs wait for access.',
  ttl: 'ttlSeconds must be between 60 and 604800.',
  tooLarge: 'Job input too large (300 KB max).',
  stopped: 'The device stopped reporting.',
  revoked: 'The device was revoked.',
  resultsTooLarge: 'The results are larger than 100 MB.',
} as const;

export const MAX_INPUT_BYTES = 300 * 1024;
export const MAX_RESULT_BYTES = 100 * 1024 * 1024;
export const DEFAULT_TTL_SECONDS = 3600;
/** How long a running job may go without a heartbeat (AGENT_HEARTBEAT_LIMIT_MS shortens it for tests). */
const heartbeatLimitMs = () => Number(readEnv('AGENT_HEARTBEAT_LIMIT_MS') ?? 2 * 60_000);
export const UPLOAD_LINK_SECONDS = 15 * 60;
const FINAL: JobStatus[] = ['canceled', 'done', 'failed', 'expired'];
export const isFinal = (s: JobStatus) => FINAL.includes(s);

export const CAPABILITY_OF: Record<JobType, Capability> = {
  'http.batch': 'http',
  exec: 'exec',
  'browser.batch': 'browser',
};

const jobKey = (orgId: string, jobId: string) => ({ pk: orgPk(orgId), sk: `${PREFIXES.agents.job}${jobId}` });
const queuedIndex = (orgId: string, createdAt: number, jobId: string) => ({
  gsi1pk: `${PREFIXES.agents.queue}${orgId}`,
  gsi1sk: `${String(createdAt).padStart(15, '0')}#${jobId}`,
});
/** Where a running job sits (gsi1), so a revoked device's jobs are found without reading the others. */
const runningIndex = (orgId: string, deviceId: string, claimedAt: number, jobId: string) => ({
  gsi1pk: `${PREFIXES.agents.run}${orgId}#${deviceId}`,
  gsi1sk: `${String(claimedAt).padStart(15, '0')}#${jobId}`,
});
const resultKey = (orgId: string, jobId: string) => `agent-results/${orgId}/${jobId}`;

// Inputs of each type (designed; the spec leaves them open). URLs are the device's to reach: its
// allowlist, not the platform's guard, decides (self-hosted agents exist to reach private hosts).
/** What a process may be given: argv, a folder, variables (the system refuses NUL bytes in them). */
const Arg = z.string().check(z.refine((v) => !v.includes('\0'), 'NUL bytes are not allowed.'));
const HttpUrl = z.string().check(z.regex(/^https?:\/\/[^\s/]+/i, 'Use an http or https URL.'));
const INPUTS: Record<JobType, z.ZodMiniType> = {
  'http.batch': z.object({
    requests: z
      .array(
        z.object({
          method: z._default(z.enum(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']), 'GET'),
          url: HttpUrl,
          headers: z.optional(z.record(z.string(), z.string())),
          body: z.optional(z.string()),
          timeoutMs: z.optional(z.int().check(z.minimum(100), z.maximum(300_000))),
        }),
      )
      .check(z.minLength(1), z.maxLength(100)),
  }),
  exec: z.object({
    command: z.array(Arg.check(z.minLength(1))).check(z.minLength(1), z.maxLength(1000)),
    cwd: z.optional(Arg.check(z.minLength(1), z.maxLength(4096))),
    env: z.optional(
      z.record(z.string().check(z.regex(/^[A-Za-z_][A-Za-z0-9_]{0,127}$/, 'Use names of letters, digits and _.')), Arg),
    ),
    timeoutMs: z.optional(z.int().check(z.minimum(100), z.maximum(3_600_000))),
  }),
  'browser.batch': z.object({
    pages: z
      .array(
        z.object({
          url: HttpUrl,
          waitFor: z.optional(z.string().check(z.maxLength(500))),
          screenshot: z.optional(z.boolean()),
          text: z.optional(z.boolean()),
        }),
      )
      .check(z.minLength(1), z.maxLength(20)),
  }),
};

/** The input of a type as its device will read it: 400 `Invalid <type> input. <where>: <what>` otherwise. */
export function checkInput(type: JobType, input: unknown): { input: unknown; hosts: string[] } {
  const parsed = z.safeParse(INPUTS[type], input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? issue.path.join('.') : 'input';
    throw invalid(`Invalid ${type} input. ${where}: ${issue?.message ?? 'not valid'}.`);
  }
  const value = parsed.data as { requests?: { url: string }[]; pages?: { url: string }[] };
  const urls = [...(value.requests ?? []), ...(value.pages ?? [])].map((r) => r.url);
  const hosts = urls.map((u) => new URL(u).hostname.toLowerCase());
  return { input: parsed.data, hosts };
}

export async function createJob(job: Omit<JobRecord, 'jobId' | 'status' | 'updatedAt'>): Promise<JobRecord> {
  const jobId = newId('job_');
  const record: JobRecord = { ...job, jobId, status: 'queued', updatedAt: job.createdAt };
  if (Buffer.byteLength(JSON.stringify(record.input)) > MAX_INPUT_BYTES)
    throw new DomainError('tooLarge', JOB_MESSAGES.tooLarge);
  await transact([putNew({ ...jobKey(job.orgId, jobId), ...record, ...queuedIndex(job.orgId, job.createdAt, jobId) })]);
  await queueCheck(record);
  return record;
}

/**
 * Jobs nobody reads still end on time: the agent-checks worker reads a job when it could have
 * expired (queued) or its device could have stopped (running), settles it as a read would (so its
 * callback goes), and checks again later while it is not over. SQS delays at most 15 minutes, so a
 * long wait is a chain of checks.
 */
export async function queueCheck(job: Pick<JobRecord, 'orgId' | 'jobId' | 'status' | 'expiresAt'>, now = Date.now()) {
  if (isFinal(job.status)) return;
  const override = readEnv('AGENT_CHECK_DELAY_SECONDS');
  const seconds =
    override !== undefined
      ? Number(override)
      : job.status === 'queued'
        ? Math.ceil((job.expiresAt - now) / 1000) + 1
        : Math.ceil(heartbeatLimitMs() / 1000) + 10;
  await queue().send(
    'AGENT_CHECKS_QUEUE_URL',
    { orgId: job.orgId, jobId: job.jobId },
    {
      delaySeconds: Math.min(900, Math.max(1, seconds)),
    },
  );
}

/** One check (the worker): the job read and settled; another check queued while it is not over. */
export async function checkJob(message: { orgId: string; jobId: string }): Promise<JobStatus | undefined> {
  const held = await getItem<JobRecord>(jobKey(message.orgId, message.jobId), true);
  if (!held) return undefined;
  const job = await settle(held);
  await queueCheck(job);
  return job.status;
}

export async function requireJob(orgId: string, jobId: string): Promise<JobRecord> {
  const job = await getItem<JobRecord>(jobKey(orgId, jobId), true);
  if (!job) throw notFound(JOB_MESSAGES.notFound);
  return settle(job);
}

/** The newest jobs of the organization, settled. */
export async function recentJobs(orgId: string, limit: number): Promise<JobRecord[]> {
  const out = await db.send(
    new QueryCommand({
      TableName: TABLE(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :job)',
      ExpressionAttributeValues: { ':pk': orgPk(orgId), ':job': PREFIXES.agents.job },
      ScanIndexForward: false,
      Limit: limit,
    }),
  );
  return Promise.all(((out.Items ?? []) as JobRecord[]).map(settle));
}

/**
 * Moves a job from `from` (one status or several) with `set` (undefined removes), leaving the
 * queued index when it leaves `queued`. Answers the job as written, or undefined when it was no
 * longer in `from`.
 */
async function move(
  job: JobRecord,
  from: JobStatus[],
  set: Partial<JobRecord> & { gsi1pk?: string; gsi1sk?: string },
): Promise<JobRecord | undefined> {
  // A job is in one index at a time: the queued index while queued, its device's while it runs (a
  // claim sets it); a job that ends leaves either.
  const leaves =
    (set.status !== undefined && isFinal(set.status)) ||
    (from.includes('queued') && set.status !== 'queued' && set.gsi1pk === undefined);
  const update = fieldUpdate(set, {
    names: { '#status': 'status' },
    values: Object.fromEntries(from.map((status, i) => [`:from${i}`, status])),
    removes: leaves ? ['gsi1pk', 'gsi1sk'] : [],
  });
  try {
    const out = await db.send(
      new UpdateCommand({
        TableName: TABLE(),
        Key: jobKey(job.orgId, job.jobId),
        ...update,
        ConditionExpression: `#status IN (${from.map((_, i) => `:from${i}`).join(', ')})`,
        ReturnValues: 'ALL_NEW',
      }),
    );
    const moved = out.Attributes as JobRecord;
    if (isFinal(moved.status) && !isFinal(job.status)) {
      if (moved.callbackUrl) await queueCallback(moved, 0);
      if (moved.status === 'done' || moved.status === 'failed') await raiseJobEvent(moved);
    }
    return moved;
  } catch (err) {
    if ((err as Error).name === 'ConditionalCheckFailedException') return undefined;
    throw err;
  }
}

/**
 * `agent.job_done` or `agent.job_failed`, raised by the one move that ended the job: about its
 * device (protocols attached to it), matched by `type`, `deviceId`, `label`; for its creator.
 */
function raiseJobEvent(job: JobRecord): Promise<void> {
  const done = job.status === 'done';
  const name = job.label ? `"${job.label}"` : job.jobId;
  return raiseEvent({
    kind: done ? 'agent.job_done' : 'agent.job_failed',
    orgId: job.orgId,
    resources: job.deviceId ? [{ type: 'agent', id: job.deviceId }] : [],
    attributes: {
      jobId: job.jobId,
      type: job.type,
      ...(job.deviceId ? { deviceId: job.deviceId } : {}),
      ...(job.label ? { label: job.label } : {}),
    },
    people: peopleOf(job.createdBy),
    title: done ? `Agent job ${name} is done` : `Agent job ${name} failed`,
    ...(job.error ? { body: job.error } : {}),
  });
}

export type { CallbackMessage } from './queue-messages';

/** Tries of a callback, and the wait before each after the first (seconds). */
export const CALLBACK_TRIES = 5;
const callbackDelay = (attempt: number) => Number(readEnv('AGENT_CALLBACK_DELAY_SECONDS') ?? 10) * 3 ** (attempt - 1);

/**
 * Queues a job's callback: once per end (only the transition that ended the job sends it), the
 * next try after a growing delay.
 */
export async function queueCallback(job: Pick<JobRecord, 'orgId' | 'jobId'>, attempt: number): Promise<void> {
  const message: CallbackMessage = { orgId: job.orgId, jobId: job.jobId, attempt };
  await queue().send('AGENT_CALLBACKS_QUEUE_URL', message, attempt > 0 ? { delaySeconds: callbackDelay(attempt) } : {});
}

/**
 * How many tries of a job's callback were made: `JOBCALLBACK#<jobId>` beside the job, kept a week
 * (`ttl`). A message whose `attempt` is not that count is a repeat of a try already made (SQS
 * delivers at least once): it sends nothing.
 */
const callbackTriesKey = (orgId: string, jobId: string) => ({
  pk: orgPk(orgId),
  sk: `${PREFIXES.agents.callback}${jobId}`,
});

/** Counts the try of `message`; false when another delivery of it counted it first. */
async function countCallbackTry(message: CallbackMessage): Promise<boolean> {
  try {
    await db.send(
      new PutCommand({
        TableName: TABLE(),
        Item: {
          ...callbackTriesKey(message.orgId, message.jobId),
          tries: message.attempt + 1,
          ttl: Math.floor(Date.now() / 1000) + 7 * 86_400,
        },
        // The item may hold only the claim of the first try (no `tries` yet).
        ConditionExpression: 'attribute_not_exists(tries) OR tries = :a',
        ExpressionAttributeValues: { ':a': message.attempt },
      }),
    );
    return true;
  } catch (err) {
    if ((err as Error).name === 'ConditionalCheckFailedException') return false;
    throw err;
  }
}

/**
 * One try of a job's callback, once per message (a repeat sends nothing): `{ jobId, orgId, status,
 * error?, completedAt }` (no links) POSTed through the guarded fetch (10 s, no redirects, the reply
 * capped). A 2xx answer is the end; any other, or no answer, queues the next try until
 * CALLBACK_TRIES (queued before this try is counted: a failure between them brings this message
 * back, never loses the callback); a URL the guard refuses now is given up at once. Answers what
 * happened.
 */
export async function deliverCallback(message: CallbackMessage): Promise<'delivered' | 'retry' | 'given up' | 'none'> {
  const [job, tries] = await Promise.all([
    getItem<JobRecord>(jobKey(message.orgId, message.jobId), true),
    getItem<{ tries: number }>(callbackTriesKey(message.orgId, message.jobId), true),
  ]);
  if (!job?.callbackUrl || !isFinal(job.status)) return 'none';
  if ((tries?.tries ?? 0) !== message.attempt) return 'none';
  // Two messages of one try at once (two workers): the one that claims it POSTs (a worker that dies
  // holding it leaves its message to come back after the queue's visibility timeout).
  const claimed = await claimTry(callbackTriesKey(message.orgId, message.jobId), {
    tryNumber: message.attempt,
    condition: 'attribute_not_exists(tries) OR tries = :a',
    values: { ':a': message.attempt },
  });
  if (!claimed) return 'none';
  const body = JSON.stringify({
    jobId: job.jobId,
    orgId: job.orgId,
    status: job.status,
    ...(job.error ? { error: job.error } : {}),
    completedAt: job.completedAt ?? job.updatedAt,
  });
  let failure: string;
  try {
    const res = await guardedFetch(job.callbackUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'platform-callbacks' },
      body,
      maxBytes: 4096,
    });
    if (res.status >= 200 && res.status < 300) return (await countCallbackTry(message)) ? 'delivered' : 'none';
    failure = `HTTP ${res.status}`;
  } catch (err) {
    if (err instanceof UnsafeUrlError) {
      log.warn('a job callback was refused by the guard', { jobId: job.jobId, reason: err.message });
      await countCallbackTry(message);
      return 'given up';
    }
    failure = (err as Error).message;
  }
  if (message.attempt + 1 >= CALLBACK_TRIES) {
    log.warn('a job callback was given up', { jobId: job.jobId, tries: CALLBACK_TRIES, failure });
    await countCallbackTry(message);
    return 'given up';
  }
  await queueCallback(job, message.attempt + 1);
  return (await countCallbackTry(message)) ? 'retry' : 'none';
}

/** Expiry and a stopped device, settled as the job is read. */
async function settle(job: JobRecord, now = Date.now()): Promise<JobRecord> {
  if (job.status === 'queued' && job.expiresAt <= now) {
    return (await move(job, ['queued'], { status: 'expired', updatedAt: now, completedAt: now })) ?? reread(job);
  }
  if ((job.status === 'running' || job.status === 'canceling') && now - (job.heartbeatAt ?? 0) > heartbeatLimitMs()) {
    const ended =
      job.status === 'canceling'
        ? { status: 'canceled' as const }
        : { status: 'failed' as const, error: JOB_MESSAGES.stopped };
    return (await move(job, ['running', 'canceling'], { ...ended, updatedAt: now, completedAt: now })) ?? reread(job);
  }
  return job;
}
const reread = async (job: JobRecord) => (await getItem<JobRecord>(jobKey(job.orgId, job.jobId), true)) ?? job;

/** Cancel: a queued job is canceled, a running one canceling until its device stops; a finished one 409. */
export async function cancelJob(job: JobRecord, by: string): Promise<JobStatus> {
  const now = Date.now();
  if (job.status === 'queued') {
    const done = await move(job, ['queued'], {
      status: 'canceled',
      canceledBy: by,
      cancelRequestedAt: now,
      completedAt: now,
      updatedAt: now,
    });
    if (done) return done.status;
  }
  if (job.status === 'running' || job.status === 'queued') {
    const asked = await move(job, ['running'], {
      status: 'canceling',
      canceledBy: by,
      cancelRequestedAt: now,
      updatedAt: now,
    });
    if (asked) return asked.status;
  }
  if (job.status === 'canceling') return 'canceling';
  throw conflict(JOB_MESSAGES.finished);
}

/** Whether a device's allowlist (or `full`) covers a host; `*.example.com` covers its subdomains. */
export function hostAllowed(device: Pick<DeviceRecord, 'networkMode' | 'hosts'>, host: string): boolean {
  if (device.networkMode === 'full') return true;
  return device.hosts.some((h) => h === host || (h.startsWith('*.') && host.endsWith(h.slice(1))));
}

/** What a device lacks to run a job: its capability, hosts outside its allowlist. */
export function missingFor(device: DeviceRecord, job: Pick<JobRecord, 'type' | 'hosts'>) {
  const capability = CAPABILITY_OF[job.type];
  const hosts = job.hosts.filter((h) => !hostAllowed(device, h));
  return {
    ...(device.capabilities.includes(capability) ? {} : { capability }),
    ...(hosts.length > 0 ? { hosts } : {}),
  };
}

/** Queued jobs read per query of a poll, and at most how many queries one poll makes. */
const POLL_PAGE = 50;
const POLL_PAGES = 4;
/** Where a device's last poll stopped in the queue past its oldest page (a day's `ttl`). */
const pollFromKey = (orgId: string, deviceId: string) => ({
  pk: orgPk(orgId),
  sk: `${PREFIXES.agents.pollFrom}${deviceId}`,
});

/**
 * A device's poll: the oldest queued job it may run, claimed for it (running, its device, a first
 * heartbeat); undefined when none. Expired jobs met on the way are settled. A poll reads at most
 * POLL_PAGES × POLL_PAGE queued jobs, whatever the backlog of jobs this device may not run: the
 * oldest page, then pages from where its last poll stopped (kept beside the device), so each queued
 * job is looked at within a few polls and a poll never costs the whole queue.
 */
export async function claimNext(device: DeviceRecord, now = Date.now()): Promise<JobRecord | undefined> {
  const queue = {
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :q',
    ExpressionAttributeValues: { ':q': `${PREFIXES.agents.queue}${device.orgId}` },
    Limit: POLL_PAGE,
  };
  const claimFrom = async (jobs: JobRecord[]) => {
    for (const job of jobs) {
      if (job.expiresAt <= now) {
        await settle(job, now);
        continue;
      }
      if (Object.keys(missingFor(device, job)).length > 0) continue;
      const claimed = await move(job, ['queued'], {
        status: 'running',
        deviceId: device.deviceId,
        claimedAt: now,
        heartbeatAt: now,
        updatedAt: now,
        ...runningIndex(device.orgId, device.deviceId, now, job.jobId),
      });
      if (claimed) {
        await queueCheck(claimed, now);
        return claimed;
      }
    }
    return undefined;
  };
  const oldest = await queryPage<JobRecord>(queue);
  const found = await claimFrom(oldest.items);
  if (found || !oldest.next) return found;
  const key = pollFromKey(device.orgId, device.deviceId);
  const saved = await getItem<{ from?: Record<string, unknown> }>(key, true);
  let start: Record<string, unknown> | undefined = saved?.from ?? oldest.next;
  let n = 1;
  for await (const page of queryPages<JobRecord>(queue, start)) {
    const claimed = await claimFrom(page.items);
    // A claim leaves the place as it was: the rest of that page is read again next time.
    if (claimed) return claimed;
    start = page.next;
    if (++n >= POLL_PAGES) break;
  }
  // The end of the queue: the next poll starts again after the oldest page.
  await db.send(
    new PutCommand({
      TableName: TABLE(),
      Item: { ...key, ...(start ? { from: start } : {}), ttl: Math.floor(now / 1000) + 86_400 },
    }),
  );
  return undefined;
}

/**
 * A revoked device's jobs end with it: running ones `failed` (`The device was revoked.`), canceling
 * ones `canceled`, each by the move that sends its callback and event. A claim the index does not
 * show yet (it is read eventually consistent) ends as any silent device's does, after the
 * heartbeat limit.
 */
export async function endDeviceJobs(device: Pick<DeviceRecord, 'orgId' | 'deviceId'>, now = Date.now()) {
  const running = await queryAll<JobRecord>({
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :run',
    ExpressionAttributeValues: { ':run': `${PREFIXES.agents.run}${device.orgId}#${device.deviceId}` },
  });
  for (const job of running) {
    const ended =
      job.status === 'canceling'
        ? { status: 'canceled' as const }
        : { status: 'failed' as const, error: JOB_MESSAGES.revoked };
    await move(job, ['running', 'canceling'], { ...ended, updatedAt: now, completedAt: now });
  }
}

/** The device's own job, running or canceling (another device's, or a finished one, is 404). */
async function deviceJob(device: DeviceRecord, jobId: string): Promise<JobRecord> {
  const job = await getItem<JobRecord>(jobKey(device.orgId, jobId), true);
  if (!job || job.deviceId !== device.deviceId) throw notFound(JOB_MESSAGES.notFound);
  return job;
}

/**
 * A heartbeat: the job stays alive, and its device is seen (a device running a job does not poll:
 * it is busy, not offline); `cancel` tells the device to stop.
 */
export async function heartbeat(device: DeviceRecord, jobId: string): Promise<{ ok: true; cancel: boolean }> {
  const job = await deviceJob(device, jobId);
  if (isFinal(job.status)) return { ok: true, cancel: true };
  const now = Date.now();
  const [alive] = await Promise.all([
    move(job, ['running', 'canceling'], { heartbeatAt: now, updatedAt: now }),
    markSeen(device, {}),
  ]);
  return { ok: true, cancel: (alive ?? job).status !== 'running' };
}

/** A fresh results link for a job still running. */
export async function uploadUrl(device: DeviceRecord, jobId: string): Promise<string> {
  const job = await deviceJob(device, jobId);
  if (job.status !== 'running' && job.status !== 'canceling') throw notFound(JOB_MESSAGES.notFound);
  return resultsLink(job);
}

/** A presigned PUT for a job's results (JSON; their size is checked when the job completes). */
export const resultsLink = (job: Pick<JobRecord, 'orgId' | 'jobId'>) =>
  storage().presignPut({ name: artifactsBucket() }, resultKey(job.orgId, job.jobId), {
    contentType: 'application/json',
    expiresIn: UPLOAD_LINK_SECONDS,
  });

/**
 * The device's end of a job: `done` or `failed` (while canceling: `canceled`). Results over 100 MB
 * fail it. A repeat, or an end after the job was settled otherwise, changes nothing.
 */
export async function completeJob(
  device: DeviceRecord,
  jobId: string,
  outcome: { status: 'done' | 'failed'; error?: string },
): Promise<void> {
  const job = await deviceJob(device, jobId);
  if (isFinal(job.status)) return;
  const now = Date.now();
  let result: Pick<JobRecord, 'resultKey'> = {};
  let status: JobStatus = job.status === 'canceling' ? 'canceled' : outcome.status;
  let error = outcome.error;
  const key = resultKey(job.orgId, job.jobId);
  const stored = await storage()
    .headObject({ name: artifactsBucket() }, key)
    .catch(() => undefined);
  if (stored && stored.size > MAX_RESULT_BYTES) {
    await storage().deleteKeys({ name: artifactsBucket() }, [key]);
    status = 'failed';
    error = JOB_MESSAGES.resultsTooLarge;
  } else if (stored) result = { resultKey: key };
  await move(job, ['running', 'canceling'], {
    status,
    ...(error ? { error } : {}),
    ...result,
    completedAt: now,
    updatedAt: now,
  });
}

/** A 5-minute link to a done job's results; null before, or when it left none. */
export async function resultsUrl(job: JobRecord): Promise<string | null> {
  if (job.status !== 'done' || !job.resultKey) return null;
  return storage().presignGet({ name: artifactsBucket() }, job.resultKey, { expiresIn: 300 });
}

/** A device counts as online when it polled, or sent a job's heartbeat, within this. */
export const ONLINE_MS = 60_000;

export type Waiting =
  | null
  | { reason: 'no_devices' }
  | { reason: 'offline'; devices: { deviceId: string; name: string }[] }
  | {
      reason: 'blocked';
      devices: {
        deviceId: string;
        name: string;
        online: boolean;
        capability?: Capability;
        hosts?: string[];
        network?: 'allowlist';
      }[];
    };

/**
 * Why a queued job is still waiting, as lists show it: no device at all; devices that could run it
 * but are offline (unseen for a minute: a device busy with another job sends heartbeats, so it is
 * online and will poll when that job ends); or none could, each with what it lacks. Null when an
 * online device may run it (its next poll will), or when the job is not queued.
 */
export function waitingOf(job: JobRecord, devices: DeviceRecord[], now = Date.now()): Waiting {
  if (job.status !== 'queued') return null;
  const active = devices.filter((d) => d.status === 'active');
  if (active.length === 0) return { reason: 'no_devices' };
  const online = (d: DeviceRecord) => now - (d.lastSeenAt ?? 0) <= ONLINE_MS;
  const capable = active.filter((d) => Object.keys(missingFor(d, job)).length === 0);
  if (capable.some(online)) return null;
  if (capable.length > 0)
    return { reason: 'offline', devices: capable.map((d) => ({ deviceId: d.deviceId, name: d.name })) };
  return {
    reason: 'blocked',
    devices: active.map((d) => {
      const missing = missingFor(d, job);
      return {
        deviceId: d.deviceId,
        name: d.name,
        online: online(d),
        ...missing,
        ...(missing.hosts ? { network: 'allowlist' as const } : {}),
      };
    }),
  };
}
