import { conflict, isDomainError, notFound } from '../../kernel/ground/errors';
import { describeError, log } from '../../kernel/ground/log';
import { db } from '../../kernel/store/client';
import { QueryCommand } from '../../kernel/store/commands';
import { decodeCursor, encodeCursor } from '../../kernel/store/cursor';
import { newId } from '../../kernel/store/ids';
import { PREFIXES } from '../../kernel/store/keys';
import { putOnce, queryCount, queryPrefix, updateVersioned } from '../../kernel/store/ops';
import { getItem, publicFields, TABLE } from '../../kernel/store/table';
import { peopleOf, raiseEvent } from '../notifications/raise';
import { getNumbered } from './issues';
import { openPairs, type PullRecord } from './pulls';
import type {
  CheckRecord,
  CheckSource,
  RequiredCheck,
  RequiredCheckSource,
  RequiredCheckStatus,
} from './record-schemas';
import { repoById } from './records';
import { repoGit } from './tags';

/**
 * Check runs: one per commit and name (`build`, or any name an API key or an agent job posts), under
 * the repository's id (`CHECK#<commit>#<name>`, so they go with the repository). A push makes a new
 * head, which has none: required checks start over by themselves.
 *
 * A check belongs to its writer (`source`: the platform, an API key, an agent key or a person), the
 * one that first reported it on that commit: only that writer reports it again or updates it (as a
 * check run belongs to the app that made it on GitHub); another writer's write is 409, so nobody
 * overwrites a result, its details URL or its author. The names the platform writes
 * (`PLATFORM_CHECK_NAMES`) are the platform's on every commit: nobody else reports them; a name
 * branch protection binds to a writer (`{ name, source }`) is that writer's in its repository.
 */
export const CHECK_STATES = ['queued', 'in_progress', 'success', 'failure', 'cancelled'] as const;
export type CheckState = (typeof CHECK_STATES)[number];
export const COMPLETED_STATES: readonly CheckState[] = ['success', 'failure', 'cancelled'];
export const isCompleted = (s: CheckState) => COMPLETED_STATES.includes(s);

export type { CheckRecord };

/** Check runs a commit can have (names, each with its latest run). */
export const MAX_CHECKS_PER_COMMIT = 100;

export const CHECK_MESSAGES = {
  commitNotFound: 'Commit not found',
  notFound: 'Check not found',
  tooMany: `A commit can have up to ${MAX_CHECKS_PER_COMMIT} checks.`,
  changed: 'The check changed. Reload and try again.',
  transition: (name: string, from: CheckState, to: CheckState) =>
    `Check "${name}" is ${from} and can't move to ${to}. Create it again to run it again.`,
  missing: (name: string) => `Required check "${name}" has not run on the latest commit.`,
  reserved: (name: string) => `Check name "${name}" is reserved for the platform.`,
  boundTo: (name: string, source: string) =>
    `Check "${name}" is required from ${source} in this repository; only it reports that name.`,
  otherWriter: (name: string) =>
    `Check "${name}" on this commit was reported by another writer; only its writer can change it.`,
  wrongSource: (name: string, wanted: string, found: string) =>
    `Required check "${name}" has not run on the latest commit: it must come from ${wanted}, and the check of ` +
    `that name is from ${found}.`,
  notPassed: (name: string, state: CheckState) => `Required check "${name}" is ${state}; it must succeed to merge.`,
} as const;

/**
 * The check names the platform writes itself: `build`, the preview build's (shared/domains/deployments/
 * previews.ts). Only the platform reports them, compared after trimming and case folding.
 */
export const PLATFORM_CHECK_NAMES = ['build'] as const;

/** A check name as names are compared for reservation: compatibility forms, no invisible characters, trimmed, lowercase. */
const foldName = (name: string) =>
  name
    .normalize('NFKC')
    .replace(/\p{Default_Ignorable_Code_Point}/gu, '')
    .trim()
    .toLowerCase();

/** The platform's name `name` stands for (`build` for " Build "), or undefined. */
export const reservedName = (name: string): string | undefined =>
  PLATFORM_CHECK_NAMES.find((n) => n === foldName(name));

/** A check's writer as the record keeps it (`createdBy`, `createdByKind`). */
export type CheckWriter = Pick<CheckRecord, 'createdBy' | 'createdByKind'>;

/** The platform as a check's writer (its own checks: the preview build's). */
export const PLATFORM_WRITER: CheckWriter = { createdBy: 'platform', createdByKind: 'system' };

const isPlatform = (w: CheckWriter) => w.createdByKind === 'system';
const sameWriter = (a: CheckWriter, b: CheckWriter) =>
  a.createdByKind === b.createdByKind && (isPlatform(a) || a.createdBy === b.createdBy);

/** The writer of a check as answers show it. */
export function sourceOf(w: CheckWriter): CheckSource {
  switch (w.createdByKind) {
    case 'system':
      return 'platform';
    case 'api_key':
      return { apiKey: w.createdBy };
    case 'agent_key':
      return { agentKey: w.createdBy };
    default:
      return { user: w.createdBy };
  }
}

/** A writer in words, for messages: "the platform", "API key key_…". */
export function describeSource(s: CheckSource): string {
  if (s === 'platform') return 'the platform';
  if ('apiKey' in s) return `API key ${s.apiKey}`;
  if ('agentKey' in s) return `agent key ${s.agentKey}`;
  return `user ${s.user}`;
}

const PREFIX = PREFIXES.repos.check;
const commitPrefix = (commitId: string) => `${PREFIX}${commitId}#`;
export const checkKey = (repoId: string, commitId: string, name: string) => ({
  pk: `${PREFIXES.repos.repo}${repoId}`,
  sk: `${commitPrefix(commitId)}${name}`,
});

/** A check as the routes answer it, with its writer (`source`). */
export const shownCheck = (c: CheckRecord) => ({
  ...publicFields(c as CheckRecord & Record<string, unknown>),
  source: sourceOf(c),
});

/** Moves PATCH allows: forward only (queued → in_progress → a completed state); a state to itself. */
export function canMove(from: CheckState, to: CheckState): boolean {
  if (from === to) return true;
  if (isCompleted(from)) return false;
  return !(from === 'in_progress' && to === 'queued');
}

/** The timestamps after a move to `state` (now when it starts or completes; a restart clears them). */
function timesFor(state: CheckState, prev: Pick<CheckRecord, 'startedAt' | 'completedAt'> | null, now: number) {
  const startedAt = state === 'queued' ? null : (prev?.startedAt ?? now);
  const completedAt = isCompleted(state) ? (prev?.completedAt ?? now) : null;
  return { startedAt, completedAt };
}

/** A commit's checks by name: the whole list (at most 100), for merges and summaries. */
export const checksOf = (repoId: string, commitId: string) =>
  queryPrefix<CheckRecord>(`${PREFIXES.repos.repo}${repoId}`, commitPrefix(commitId));

/** A page of a commit's checks by name (signed cursor scoped to the repository and commit). */
export async function listChecks(
  orgId: string,
  repoId: string,
  commitId: string,
  query: { cursor?: string; limit: number; state?: CheckState },
) {
  const scope = `${orgId}:checks:${repoId}:${commitId}`;
  const out = await db.send(
    new QueryCommand({
      TableName: TABLE(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': `${PREFIXES.repos.repo}${repoId}`, ':prefix': commitPrefix(commitId) },
      Limit: query.limit,
      ExclusiveStartKey: decodeCursor(scope, query.cursor),
    }),
  );
  const last = out.LastEvaluatedKey as { pk: string; sk: string } | undefined;
  return {
    checks: ((out.Items ?? []) as CheckRecord[]).map(shownCheck),
    cursor: encodeCursor(scope, last && { pk: last.pk, sk: last.sk }),
  };
}

/** Counts per state and the overall state: failure (any failed or cancelled), pending, success, or none. */
export function checkSummary(checks: Pick<CheckRecord, 'state'>[]) {
  const counts = Object.fromEntries(CHECK_STATES.map((s) => [s, 0])) as Record<CheckState, number>;
  for (const c of checks) counts[c.state] += 1;
  const state =
    checks.length === 0
      ? 'none'
      : counts.failure + counts.cancelled > 0
        ? 'failure'
        : counts.queued + counts.in_progress > 0
          ? 'pending'
          : 'success';
  return { state, total: checks.length, counts };
}

/** A required check's name and the writer it is bound to (null: any writer). */
export const requiredName = (r: RequiredCheck) => (typeof r === 'string' ? r : r.name);
export const requiredSource = (r: RequiredCheck): RequiredCheckSource | null =>
  typeof r === 'string' ? null : r.source;

/** Whether a check's writer is the one a required check is bound to. */
function fromSource(check: CheckWriter, source: RequiredCheckSource | null): boolean {
  if (source === null) return true;
  if (source === 'platform') return isPlatform(check);
  if ('apiKey' in source) return check.createdByKind === 'api_key' && check.createdBy === source.apiKey;
  return check.createdByKind === 'agent_key' && check.createdBy === source.agentKey;
}

/**
 * Each required check on a head: the check that counts (its name, from the writer it is bound to),
 * its state, and why it holds the merge. A check of that name from another writer does not count.
 */
export function requiredStatus(required: RequiredCheck[], checks: CheckRecord[]): RequiredCheckStatus[] {
  return required.map((entry) => {
    const name = requiredName(entry);
    const source = requiredSource(entry);
    const named = checks.find((c) => c.name === name);
    const check = named && fromSource(named, source) ? named : undefined;
    const reportedBy = named && !check ? sourceOf(named) : null;
    const satisfied = check?.state === 'success';
    const message = satisfied
      ? null
      : check
        ? CHECK_MESSAGES.notPassed(name, check.state)
        : reportedBy && source
          ? CHECK_MESSAGES.wrongSource(name, describeSource(source), describeSource(reportedBy))
          : CHECK_MESSAGES.missing(name);
    return {
      name,
      source,
      state: check?.state ?? 'missing',
      satisfied,
      checkId: check?.checkId ?? null,
      reportedBy,
      message,
    };
  });
}

/** What the pull request views show of branch protection's checks: the rule and each one's status on the head. */
export const requiredView = (required: RequiredCheck[], checks: CheckRecord[]) => ({
  required,
  requiredStatus: requiredStatus(required, checks),
});

/**
 * The first required check not satisfied on the head, as the merge's 409 message (a check from a
 * writer other than the one it is bound to has not run, as far as the rule goes); null when all pass.
 */
export function requiredChecksBlock(required: RequiredCheck[], checks: CheckRecord[]): string | null {
  const unmet = requiredStatus(required, checks).find((s) => !s.satisfied);
  if (!unmet) return null;
  return unmet.checkId
    ? CHECK_MESSAGES.notPassed(unmet.name, unmet.state as CheckState)
    : CHECK_MESSAGES.missing(unmet.name);
}

export type CreatorKind = CheckRecord['createdByKind'];

export interface CheckFields {
  summary?: string | null;
  detailsUrl?: string | null;
}

/**
 * Reports a check run on a commit: creates it (`created: true`) or, when the commit has one of that
 * name, runs it again with these values (same `checkId`; a restart to `queued` clears its times).
 * 404 `Commit not found` for a commit the repository lacks; 409 past 100 checks on a commit, for a
 * platform name (`PLATFORM_CHECK_NAMES`) from any writer but the platform, for a name `required`
 * (the repository's required checks) binds to another writer, and for a name another writer
 * reported on this commit. The preview build reports itself as `build` through here
 * (writer `PLATFORM_WRITER`), as POST …/commits/:sha/checks does for its caller.
 */
export async function reportCheck(
  orgId: string,
  repoId: string,
  commitId: string,
  name: string,
  state: CheckState,
  fields: CheckFields & CheckWriter,
  required: RequiredCheck[] = [],
): Promise<{ check: CheckRecord; created: boolean }> {
  refuseReserved(name, fields, required);
  if (!(await (await repoGit()).commitInfo(repoId, commitId))) throw notFound(CHECK_MESSAGES.commitNotFound);
  for (let attempt = 0; ; attempt++) {
    const prev = await getItem<CheckRecord>(checkKey(repoId, commitId, name), true);
    const now = Date.now();
    if (prev && !sameWriter(prev, fields)) throw conflict(CHECK_MESSAGES.otherWriter(name));
    if (!prev) {
      if ((await checkCount(repoId, commitId)) >= MAX_CHECKS_PER_COMMIT) throw conflict(CHECK_MESSAGES.tooMany);
      const check: CheckRecord = {
        ...checkKey(repoId, commitId, name),
        checkId: newId('chk_', now),
        orgId,
        repoId,
        commitId,
        name,
        state,
        summary: fields.summary ?? null,
        detailsUrl: fields.detailsUrl ?? null,
        ...timesFor(state, null, now),
        createdBy: fields.createdBy,
        createdByKind: fields.createdByKind,
        createdAt: now,
        updatedAt: now,
        version: 1,
      };
      try {
        await putOnce({ Item: check, ConditionExpression: 'attribute_not_exists(pk)' });
      } catch (err) {
        if ((err as Error).name === 'ConditionalCheckFailedException' && attempt < 3) continue;
        throw err;
      }
      if (isCompleted(state)) await raiseCompleted(check);
      return { check, created: true };
    }
    const rerun = {
      state,
      summary: fields.summary === undefined ? prev.summary : fields.summary,
      detailsUrl: fields.detailsUrl === undefined ? prev.detailsUrl : fields.detailsUrl,
      ...timesFor(state, null, now),
      updatedAt: now,
    };
    try {
      const check = await writeCheck(prev, rerun);
      if (isCompleted(state)) await raiseCompleted(check);
      return { check, created: false };
    } catch (err) {
      if (attempt < 3 && isDomainError(err, 'conflict')) continue;
      throw err;
    }
  }
}

/**
 * 409 for a platform name written by anyone but the platform, and for a name the repository's branch
 * protection binds to another writer (names compared as reserved ones are).
 */
function refuseReserved(name: string, writer: CheckWriter, required: RequiredCheck[]): void {
  const reserved = reservedName(name);
  if (reserved && !isPlatform(writer)) throw conflict(CHECK_MESSAGES.reserved(reserved));
  for (const entry of required) {
    const source = requiredSource(entry);
    if (source === null || foldName(requiredName(entry)) !== foldName(name)) continue;
    if (!fromSource(writer, source))
      throw conflict(CHECK_MESSAGES.boundTo(requiredName(entry), describeSource(source)));
  }
}

/**
 * Updates a check by id on its commit, by its writer only (409 for another, for a platform name by
 * anyone but the platform, and for a name `required` binds to another writer): state forward only (409 otherwise), summary, details URL;
 * `ifVersion` when given must be the stored version. Completing it raises `check.completed`.
 */
export async function updateCheck(
  repoId: string,
  commitId: string,
  checkId: string,
  change: CheckFields & { state?: CheckState; ifVersion?: number },
  writer: CheckWriter,
  required: RequiredCheck[] = [],
): Promise<CheckRecord> {
  const prev = (await checksOf(repoId, commitId)).find((c) => c.checkId === checkId);
  if (!prev) throw notFound(CHECK_MESSAGES.notFound);
  refuseReserved(prev.name, writer, required);
  if (!sameWriter(prev, writer)) throw conflict(CHECK_MESSAGES.otherWriter(prev.name));
  const state = change.state ?? prev.state;
  if (!canMove(prev.state, state)) throw conflict(CHECK_MESSAGES.transition(prev.name, prev.state, state));
  if (change.ifVersion !== undefined && change.ifVersion !== prev.version) throw conflict(CHECK_MESSAGES.changed);
  const now = Date.now();
  const check = await writeCheck(prev, {
    state,
    ...(change.summary !== undefined ? { summary: change.summary } : {}),
    ...(change.detailsUrl !== undefined ? { detailsUrl: change.detailsUrl } : {}),
    ...timesFor(state, prev, now),
    updatedAt: now,
  });
  if (isCompleted(state) && !isCompleted(prev.state)) await raiseCompleted(check);
  return check;
}

const checkCount = (repoId: string, commitId: string) =>
  queryCount({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': `${PREFIXES.repos.repo}${repoId}`, ':prefix': commitPrefix(commitId) },
  });

/** Writes on the version read: a check changed meanwhile is 409 `The check changed.`. */
const writeCheck = (prev: CheckRecord, fields: Partial<CheckRecord>) =>
  updateVersioned<CheckRecord>(
    checkKey(prev.repoId, prev.commitId, prev.name),
    prev.version,
    fields,
    CHECK_MESSAGES.changed,
  );

/** The open pull requests whose source head is `commitId`. */
export async function pullsAtHead(repoId: string, commitId: string): Promise<PullRecord[]> {
  const port = await repoGit();
  const pairs = await openPairs(repoId);
  const found = await Promise.all(
    pairs.map(async (pair) => {
      const head = await port.resolve(repoId, pair.source);
      if (head?.kind !== 'branch' || head.commit !== commitId) return undefined;
      const pull = await getNumbered<PullRecord>(repoId, pair.number);
      return pull?.kind === 'pull' && pull.state === 'open' ? pull : undefined;
    }),
  );
  return found.filter((p): p is PullRecord => p !== undefined);
}

/**
 * `check.completed`, raised by the write that completed a check: for webhooks (every outcome) and,
 * when it failed, for the authors of the open pull requests whose head it is (in-app, or as the
 * organization's protocols say; rules can match `state`, `name`, `repo`). Never the caller's error.
 */
async function raiseCompleted(check: CheckRecord): Promise<void> {
  try {
    const [repo, pulls] = await Promise.all([repoById(check.repoId), pullsAtHead(check.repoId, check.commitId)]);
    const where = repo ? ` in ${repo.name}` : '';
    const failed = check.state === 'failure';
    const pullText = pulls.length > 0 ? ` (${pulls.map((p) => `#${p.number}`).join(', ')})` : '';
    await raiseEvent({
      kind: 'check.completed',
      orgId: check.orgId,
      resources: [],
      attributes: {
        checkId: check.checkId,
        name: check.name,
        state: check.state,
        repoId: check.repoId,
        ...(repo ? { repo: repo.name } : {}),
        commitId: check.commitId,
        pulls: pulls.map((p) => String(p.number)).join(','),
      },
      people: failed ? peopleOf(...pulls.map((p) => p.authorId)) : [],
      title: `Check "${check.name}" ${failed ? 'failed' : `is ${check.state}`}${where}${pullText}`,
      ...(check.summary ? { body: check.summary } : {}),
      ...(check.detailsUrl ? { url: check.detailsUrl } : {}),
    });
  } catch (err) {
    log.warn('check_event_unsent', { checkId: check.checkId, error: describeError(err) });
  }
}
