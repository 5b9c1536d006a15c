import { createHash } from 'node:crypto';
import { conflict } from '../../kernel/ground/errors';
import { newId } from '../../kernel/store/ids';
import { PREFIXES } from '../../kernel/store/keys';
import { queryPrefix, transact } from '../../kernel/store/ops';
import { getItem, TABLE, versionedUpdate } from '../../kernel/store/table';
import type { GitPerson } from '../../ports/git';
import { resourceKey } from '../resources/records';
import { type Author, createNumbered, numberKey } from './issues';
import type { ThreadRecord } from './record-schemas';

/**
 * Pull requests (the pulls group): items of the repository's number sequence (shared/domains/repos/issues.ts)
 * with `kind: 'pull'`, and beside them, under the repository's id:
 * - one lock item per open pair of branches (`OPENPR#<source> <target>`), written and removed in
 *   the transactions that open and finish pull requests, so two are never open for one pair;
 * - approvals (`APPROVAL#<number>#<who>`), each of one revision: a push to the source makes a new
 *   revision, and approvals of older ones stop counting;
 * - review threads (`THREAD#<number>#<threadId>`) on a line of the diff, with their comments.
 * Approvals, threads and comments are platform records on both targets: one function role is one
 * CodeCommit identity, so CodeCommit's approval rules could not tell people apart.
 * This is the pull requests' record and store module; the use cases (open, read, edit, review,
 * merge, settle) are in ./pulls/, one file each.
 */
export interface PullRecord extends Author {
  kind: 'pull';
  number: number;
  pullRequestId: string;
  orgId: string;
  repoId: string;
  title: string;
  description: string;
  state: 'open' | 'closed' | 'merged';
  sourceBranch: string;
  targetBranch: string;
  labels: string[];
  assignees: string[];
  comments: number;
  createdAt: number;
  updatedAt: number;
  closedAt?: number;
  closedBy?: string;
  mergeCommitId?: string;
  /** The source head it was merged at: its revision is the one its review keeps. */
  mergedHead?: string;
  previousPullRequestIds?: string[];
  version: number;
}

export interface Approval {
  userId: string;
  name: string;
  email: string | null;
  revisionId: string;
  at: number;
}

export type { ThreadRecord };
export type ThreadComment = ThreadRecord['comments'][number];

export const PULL_MESSAGES = {
  notFound: 'Pull request not found',
  branchesSame: 'Choose two different branches.',
  notMember: 'Assignees must be members of this organization.',
  branchNotFound: 'Branch not found.',
  divergedCreate: 'The branches have diverged too far to compare.',
  tooFar: 'These branches are too far apart to compare.',
  tooMany: 'Too many open pull requests in this repository.',
  createFailed: 'Could not create the pull request. Try again.',
  refNotFound: 'Branch or commit not found.',
  onlyAuthorEdit: 'Only the author or members with git:write can edit this pull request.',
  onlyAuthorClose: 'Only the author or members with git:write can close this pull request.',
  onlyAuthorReopen: 'Only the author or members with git:write can reopen this pull request.',
  ownApproval: "You can't approve your own pull request.",
  closed: 'This pull request is closed.',
  staleRevision: 'New commits were pushed. Review the latest changes, then approve.',
  maxApprovals: 'This pull request has the maximum number of approvals.',
  alreadyClosed: 'This pull request is already closed.',
  strategy: "This pull request can't be merged automatically with that strategy.",
  sourceChanged: 'The source branch changed. Reload and try again.',
  targetChanged: 'The target branch changed. Try again.',
  divergedMerge: 'The branches have diverged too far to merge.',
  needsApprovals: 'This pull request needs more approvals before it can be merged.',
  mergedReopen: "Merged pull requests can't be reopened.",
  sameCommit: 'The branches point at the same commit; there is nothing to merge.',
  changed: 'The pull request changed. Reload and try again.',
  chooseLine: 'Choose a line to comment on.',
  noChanges: 'This pull request has no changes to comment on.',
  commentFailed: 'Could not add the comment. Try again.',
  alreadyOpen: (n: number) => `Pull request #${n} is already open for these branches.`,
  branchGone: (source: string, target: string) =>
    `The branch ${source} or ${target} no longer exists. Push it again to reopen.`,
} as const;

/** CodeCommit's quota of open pull requests per repository, held on both targets. */
export const MAX_OPEN_PULLS = 1000;
export const MAX_APPROVALS = 200;

const pad = (n: number) => String(n).padStart(10, '0');
const partition = (repoId: string) => `${PREFIXES.repos.repo}${repoId}`;
const LOCK_PREFIX = PREFIXES.repos.openPull;
const lockKey = (repoId: string, source: string, target: string) => ({
  pk: partition(repoId),
  sk: `${LOCK_PREFIX}${source} ${target}`,
});
const approvalKey = (repoId: string, number: number, who: string) => ({
  pk: partition(repoId),
  sk: `${PREFIXES.repos.approval}${pad(number)}#${who}`,
});
const threadKey = (repoId: string, number: number, id: string) => ({
  pk: partition(repoId),
  sk: `${PREFIXES.repos.thread}${pad(number)}#${id}`,
});

/** The revision of a pull request at a source head: new with each push, and with each reopen. */
export const revisionOf = (pull: Pick<PullRecord, 'pullRequestId'>, head: string) =>
  createHash('sha256').update(`${pull.pullRequestId}:${head}`).digest('hex').slice(0, 40);

/**
 * The source head whose revision a pull request's review is of: the source head now while open,
 * the head it was merged at once merged, none once closed.
 */
export const reviewedHead = (pull: PullRecord, source: string | null): string | null =>
  pull.state === 'open' ? source : pull.state === 'merged' ? (pull.mergedHead ?? null) : null;

/** A person as a commit names them: an author record's name and email (keys get a no-reply address). */
export const gitPerson = (a: Author): GitPerson => ({
  name: a.authorName ?? a.authorEmail ?? a.authorId,
  email: a.authorEmail ?? `${a.authorId}@users.noreply.platform.local`,
});

/** Opens a pull request under the next number, with its branch pair's lock and within the cap. */
export async function createPull(
  repo: { orgId: string; resourceId: string },
  item: (number: number) => PullRecord,
): Promise<PullRecord> {
  const sample = item(0);
  const lock = lockKey(repo.resourceId, sample.sourceBranch, sample.targetBranch);
  return createNumbered<PullRecord>(repo, item, PULL_MESSAGES.createFailed, {
    items: (number) => [
      { Put: { TableName: TABLE(), Item: { ...lock, number }, ConditionExpression: 'attribute_not_exists(pk)' } },
    ],
    explain: async () => alreadyOpen(lock),
    openCap: { max: MAX_OPEN_PULLS, message: PULL_MESSAGES.tooMany },
  });
}

/** The open pull requests' pairs of branches (from their locks; branch names hold no space). */
export async function openPairs(repoId: string): Promise<{ source: string; target: string; number: number }[]> {
  const locks = await queryPrefix<{ sk: string; number: number }>(partition(repoId), LOCK_PREFIX);
  return locks.map((lock) => {
    const pair = lock.sk.slice(LOCK_PREFIX.length);
    const space = pair.indexOf(' ');
    return { source: pair.slice(0, space), target: pair.slice(space + 1), number: lock.number };
  });
}

/** The number of the pull request open from the branch `source` into `target`; null when none. */
export async function openPullFor(repoId: string, source: string, target: string): Promise<number | null> {
  return (await getItem<{ number: number }>(lockKey(repoId, source, target)))?.number ?? null;
}

async function alreadyOpen(lock: { pk: string; sk: string }): Promise<Error> {
  const held = await getItem<{ number: number }>(lock, true);
  return held ? conflict(PULL_MESSAGES.alreadyOpen(held.number)) : conflict(PULL_MESSAGES.createFailed);
}

/**
 * Ends an open pull request (`closed` or `merged`) on the version read (409 `stale` otherwise):
 * its lock goes and the repository's open count goes down, in one transaction.
 */
export async function finishPull(
  pull: PullRecord,
  state: 'closed' | 'merged',
  fields: Record<string, unknown>,
  stale: string = PULL_MESSAGES.changed,
): Promise<PullRecord> {
  const now = Date.now();
  const all = { ...fields, state, updatedAt: now };
  await transact(
    [
      { Update: versionedUpdate(numberKey(pull.repoId, pull.number), pull.version, all) },
      { Delete: { TableName: TABLE(), Key: lockKey(pull.repoId, pull.sourceBranch, pull.targetBranch) } },
      {
        Update: {
          TableName: TABLE(),
          Key: resourceKey(pull.orgId, 'repository', pull.repoId),
          UpdateExpression: 'ADD openPulls :minus',
          ExpressionAttributeValues: { ':minus': -1 },
        },
      },
    ],
    [stale],
  );
  return applied(pull, all);
}

/**
 * Reopens a closed pull request as a new one under the same number (the old id kept in
 * `previousPullRequestIds`, so approvals start over): its lock back (409 naming the open one),
 * within the cap, on the version read.
 */
export async function reopenPull(pull: PullRecord): Promise<PullRecord> {
  const lock = lockKey(pull.repoId, pull.sourceBranch, pull.targetBranch);
  const fields = {
    state: 'open',
    pullRequestId: newId('pr_'),
    previousPullRequestIds: [...(pull.previousPullRequestIds ?? []), pull.pullRequestId],
    closedAt: undefined,
    closedBy: undefined,
    updatedAt: Date.now(),
  };
  await transact(
    [
      { Update: versionedUpdate(numberKey(pull.repoId, pull.number), pull.version, fields) },
      {
        Put: {
          TableName: TABLE(),
          Item: { ...lock, number: pull.number },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      {
        Update: {
          TableName: TABLE(),
          Key: resourceKey(pull.orgId, 'repository', pull.repoId),
          UpdateExpression: 'ADD openPulls :one',
          ConditionExpression: 'attribute_not_exists(openPulls) OR openPulls < :max',
          ExpressionAttributeValues: { ':one': 1, ':max': MAX_OPEN_PULLS },
        },
      },
    ],
    async (index) =>
      index === 0 ? conflict(PULL_MESSAGES.changed) : index === 1 ? alreadyOpen(lock) : conflict(PULL_MESSAGES.tooMany),
  );
  return applied(pull, fields);
}

/** Changes fields of a pull request on the version read (409 `stale` otherwise). */
export async function updatePull(pull: PullRecord, fields: Record<string, unknown>): Promise<PullRecord> {
  await transact(
    [{ Update: versionedUpdate(numberKey(pull.repoId, pull.number), pull.version, fields) }],
    [PULL_MESSAGES.changed],
  );
  return applied(pull, fields);
}

/** The record as written: fields set, `undefined` ones removed, the version one up. */
function applied(pull: PullRecord, fields: Record<string, unknown>): PullRecord {
  const written: Record<string, unknown> = { ...pull, version: pull.version + 1 };
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined) delete written[name];
    else written[name] = value;
  }
  return written as unknown as PullRecord;
}

export const listApprovals = (repoId: string, number: number) =>
  queryPrefix<Approval>(partition(repoId), `${PREFIXES.repos.approval}${pad(number)}#`);

/** Sets (or, `approve` false, withdraws) the caller's approval of a revision; at most MAX_APPROVALS. */
export async function setApproval(
  pull: PullRecord,
  who: Omit<Approval, 'revisionId' | 'at'>,
  revisionId: string,
  approve: boolean,
): Promise<void> {
  const key = approvalKey(pull.repoId, pull.number, who.userId);
  if (!approve) {
    await transact([{ Delete: { TableName: TABLE(), Key: key } }]);
    return;
  }
  const current = await listApprovals(pull.repoId, pull.number);
  if (current.length >= MAX_APPROVALS && !current.some((a) => a.userId === who.userId)) {
    throw conflict(PULL_MESSAGES.maxApprovals);
  }
  await transact([{ Put: { TableName: TABLE(), Item: { ...key, ...who, revisionId, at: Date.now() } } }]);
}

export const listThreads = (repoId: string, number: number) =>
  queryPrefix<ThreadRecord>(partition(repoId), `${PREFIXES.repos.thread}${pad(number)}#`);

/** A new review thread with its first comment. */
export async function createThread(
  pull: PullRecord,
  thread: Omit<ThreadRecord, 'id' | 'number' | 'comments'>,
  comment: Omit<ThreadComment, 'id'>,
): Promise<string> {
  const id = newId('thr_');
  const first = { ...comment, id: newId('rvc_') };
  await transact([
    {
      Put: {
        TableName: TABLE(),
        Item: { ...threadKey(pull.repoId, pull.number, id), ...thread, id, number: pull.number, comments: [first] },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
  ]);
  return first.id;
}

/** A reply at the end of a thread (named by its id or any of its comments' ids); undefined when none. */
export async function replyToThread(
  pull: PullRecord,
  inReplyTo: string,
  comment: Omit<ThreadComment, 'id'>,
): Promise<string | undefined> {
  const threads = await listThreads(pull.repoId, pull.number);
  const thread = threads.find((t) => t.id === inReplyTo || t.comments.some((c) => c.id === inReplyTo));
  if (!thread) return undefined;
  const reply = { ...comment, id: newId('rvc_') };
  await transact([
    {
      Update: {
        TableName: TABLE(),
        Key: threadKey(pull.repoId, pull.number, thread.id),
        UpdateExpression: 'SET comments = list_append(comments, :reply)',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':reply': [reply] },
      },
    },
  ]);
  return reply.id;
}

/** GitHub's closing keywords with an issue number: `fixes #12`, `Closes #3`, `resolved #7`. */
const CLOSING = /\b(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?)\s*:?\s+#(\d{1,10})\b/gi;

/** The issue numbers texts close, each once, in order of appearance. */
export function closingNumbers(texts: string[]): number[] {
  const found = new Set<number>();
  for (const text of texts) for (const m of text.matchAll(CLOSING)) found.add(Number(m[1]));
  return [...found];
}
