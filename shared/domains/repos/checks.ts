import { conflict, isDomainError, notFound } from '../../kernel/ground/errors';
import { describeError, log } from '../../kernel/ground/log';
import { db } from '../../kernel/store/client';
import { QueryCommand } from '../../kernel/store/commands';
import { decodeCursor, encodeCursor } from '../../kernel/store/cursor';
import { newId } from '../../kernel/store/ids';
import { putOnce, queryCount, queryPrefix, updateVersioned } from '../../kernel/store/ops';
import { getItem, publicFields, TABLE } from '../../kernel/store/table';
import { peopleOf, raiseEvent } from '../notifications/raise';
import { getNumbered } from './issues';
import { openPairs, type PullRecord } from './pulls';
import { repoById } from './records';
import { repoGit } from './tags';

/**
 * Check runs: one per commit and name (`build`, or any name an API key or an agent job posts), under
 * the repository's id (`CHECK#<commit>#<name>`, so they go with the repository). A push makes a new
 * head, which has none: required checks start over by themselves.
 */
export const CHECK_STATES = ['queued', 'in_progress', 'success', 'failure', 'cancelled'] as const;
export type CheckState = (typeof CHECK_STATES)[number];
export const COMPLETED_STATES: readonly CheckState[] = ['success', 'failure', 'cancelled'];
export const isCompleted = (s: CheckState) => COMPLETED_STATES.includes(s);

export interface CheckRecord {
  pk: string;
  sk: string;
  checkId: string;
  orgId: string;
  repoId: string;
  commitId: string;
  name: string;
  state: CheckState;
  summary: string | null;
  detailsUrl: string | null;
  startedAt: number | null;
  completedAt: number | null;
  createdBy: string;
  /** Who `createdBy` is: a person, an API key or an agent key. */
  createdByKind: CreatorKind;
  createdAt: number;
  updatedAt: number;
  version: number;
}

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
  notPassed: (name: string, state: CheckState) => `Required check "${name}" is ${state}; it must succeed to merge.`,
} as const;

const PREFIX = 'CHECK#';
const commitPrefix = (commitId: string) => `${PREFIX}${commitId}#`;
export const checkKey = (repoId: string, commitId: string, name: string) => ({
  pk: `REPOID#${repoId}`,
  sk: `${commitPrefix(commitId)}${name}`,
});

/** A check as the routes answer it. */
export const shownCheck = (c: CheckRecord) => publicFields(c as CheckRecord & Record<string, unknown>);

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
  queryPrefix<CheckRecord>(`REPOID#${repoId}`, commitPrefix(commitId));

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
      ExpressionAttributeValues: { ':pk': `REPOID#${repoId}`, ':prefix': commitPrefix(commitId) },
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

/** The first required check that is not `success` on the head, as the merge's 409 message; null when all pass. */
export function requiredChecksBlock(required: string[], checks: CheckRecord[]): string | null {
  for (const name of required) {
    const check = checks.find((c) => c.name === name);
    if (!check) return CHECK_MESSAGES.missing(name);
    if (check.state !== 'success') return CHECK_MESSAGES.notPassed(name, check.state);
  }
  return null;
}

export type CreatorKind = 'user' | 'api_key' | 'agent_key' | 'device' | 'system';

export interface CheckFields {
  summary?: string | null;
  detailsUrl?: string | null;
}

/**
 * Reports a check run on a commit: creates it (`created: true`) or, when the commit has one of that
 * name, runs it again with these values (same `checkId`; a restart to `queued` clears its times).
 * 404 `Commit not found` for a commit the repository lacks; 409 past 100 checks on a commit. The
 * preview build reports itself as `build` through here, as POST …/commits/:sha/checks does.
 */
export async function reportCheck(
  orgId: string,
  repoId: string,
  commitId: string,
  name: string,
  state: CheckState,
  fields: CheckFields & { createdBy: string; createdByKind: CreatorKind },
): Promise<{ check: CheckRecord; created: boolean }> {
  if (!(await (await repoGit()).commitInfo(repoId, commitId))) throw notFound(CHECK_MESSAGES.commitNotFound);
  for (let attempt = 0; ; attempt++) {
    const prev = await getItem<CheckRecord>(checkKey(repoId, commitId, name), true);
    const now = Date.now();
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
 * Updates a check by id on its commit: state forward only (409 otherwise), summary, details URL;
 * `ifVersion` when given must be the stored version. Completing it raises `check.completed`.
 */
export async function updateCheck(
  repoId: string,
  commitId: string,
  checkId: string,
  change: CheckFields & { state?: CheckState; ifVersion?: number },
): Promise<CheckRecord> {
  const prev = (await checksOf(repoId, commitId)).find((c) => c.checkId === checkId);
  if (!prev) throw notFound(CHECK_MESSAGES.notFound);
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
    ExpressionAttributeValues: { ':pk': `REPOID#${repoId}`, ':prefix': commitPrefix(commitId) },
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
