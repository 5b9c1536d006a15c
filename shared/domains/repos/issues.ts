import type { Caller } from '../../kernel/auth/caller';
import { conflict, invalid, notFound } from '../../kernel/ground/errors';
import { db } from '../../kernel/store/client';
import { UpdateCommand } from '../../kernel/store/commands';
import { decodeCursor, encodeCursor } from '../../kernel/store/cursor';
import { newId } from '../../kernel/store/ids';
import { PREFIXES } from '../../kernel/store/keys';
import { queryPages, queryPrefix, transact } from '../../kernel/store/ops';
import { getItem, TABLE, versionedUpdate } from '../../kernel/store/table';
import { raiseEvent } from '../notifications/raise';
import { resourceKey } from '../resources/records';
import { listPeople, type Person } from './people';
import type { Comment, RepoIssue } from './record-schemas';

/**
 * Repository issues and their comments (the repo-issues group; pull requests share the numbers).
 * Kept beside the repository's id, so they go with it (shared/domains/repos/tags.ts `removeRepoIndex`):
 * an issue or a pull request is `NUM#<number>` (its `kind` says which), a comment
 * `CMT#<number>#<commentId>`.
 *
 * Numbers: one sequence per repository, `lastNumber` on the repository record. A create takes the
 * next one with an atomic ADD, then puts its item only if that number is free, in one transaction
 * with the repository's open count; so parallel creates never wait on each other and never share
 * a number. A number whose put fails (the counter behind older items) is skipped for the next; a
 * create that finds NUMBER_TRIES taken in a row answers the spec's 409. A number is never reused:
 * a crash between the two steps leaves a gap, never a duplicate.
 */
export type ThreadKind = 'issue' | 'pull';

/** Who wrote an issue or a comment. */
export type Author = Pick<RepoIssue, 'authorId' | 'authorEmail' | 'authorName'>;

/**
 * An issue as stored: its record (the schema ./record-schemas.ts `RepoIssue`, whose fields the spec
 * leaves optional) with the ones every stored issue has, its kind and its version.
 */
export type IssueRecord = RepoIssue &
  Required<Pick<RepoIssue, 'body' | 'state' | 'labels' | 'assignees' | 'comments' | 'createdAt' | 'updatedAt'>> & {
    kind: 'issue';
    version: number;
  };

/** A comment as stored: its record (`Comment`) with both times. */
export type CommentRecord = Comment & Required<Pick<Comment, 'createdAt' | 'updatedAt'>>;

const NUMBER_TRIES = 3;
const pad = (n: number) => String(n).padStart(10, '0');
export const numberKey = (repoId: string, number: number) => ({
  pk: `${PREFIXES.repos.repo}${repoId}`,
  sk: `${PREFIXES.repos.number}${pad(number)}`,
});
const commentKey = (repoId: string, number: number, commentId: string) => ({
  pk: `${PREFIXES.repos.repo}${repoId}`,
  sk: `${PREFIXES.repos.comment}${pad(number)}#${commentId}`,
});
export const NUMBER_PREFIX = PREFIXES.repos.number;
export const COMMENT_PREFIX = (number: number) => `${PREFIXES.repos.comment}${pad(number)}#`;

/** The comments of an issue or pull request (they share the numbering), oldest first. */
export const commentsOf = (repoId: string, number: number) =>
  queryPrefix<CommentRecord>(numberKey(repoId, number).pk, COMMENT_PREFIX(number));

/** Who wrote something: a person by id, email and name; a key by its id. */
export function authorOf(caller: Caller): Author {
  if (caller.kind === 'user') {
    return {
      authorId: caller.userId,
      ...(caller.email ? { authorEmail: caller.email } : {}),
      ...(caller.name ? { authorName: caller.name } : {}),
    };
  }
  return { authorId: caller.keyId, authorName: `Key ${caller.keyId}` };
}

/**
 * Assignees as members' ids: each given as a member's id or handle (`-/people`); 400 `message`
 * when one names nobody of the organization. Duplicates are kept once, in the order given.
 */
export async function memberIds(orgId: string, given: string[], message: string): Promise<string[]> {
  if (given.length === 0) return [];
  const people = await listPeople(orgId);
  const ids = given.map((g) => memberOf(people, g));
  if (ids.some((id) => id === undefined)) throw invalid(message);
  return [...new Set(ids as string[])];
}

/** The member a handle (`@` optional) or id names, by id; undefined when none. */
const memberOf = (people: Person[], given: string) =>
  people.find((p) => p.userId === given || p.handle === given.replace(/^@/, ''))?.userId;

/** A list filter's person (`author`, `assignee`): the member's id, or the value as given (it matches nobody). */
const personIdIn = (people: Person[], given: string | undefined) =>
  given === undefined ? undefined : (memberOf(people, given) ?? given);

/** More of a create's transaction: items written with the new one, and what their failed conditions mean. */
export interface NumberedExtras {
  items: (number: number) => NonNullable<Parameters<typeof transact>[0]>;
  /** The error for the failed condition of `items`' `index`-th item. */
  explain: (index: number) => Promise<Error>;
  /** The most open items of this kind the repository may have, and the 409 past it. */
  openCap?: { max: number; message: string };
}

/**
 * Creates the item of a new issue or pull request under the repository's next number: `item`
 * gets `number`; the repository's open count of its kind goes up in the same transaction (with
 * `extras`: its cap and more items). 409 `failure` when NUMBER_TRIES numbers in a row were taken.
 */
export async function createNumbered<T extends { kind: ThreadKind }>(
  repo: { orgId: string; resourceId: string },
  item: (number: number) => T,
  failure: string,
  extras?: NumberedExtras,
): Promise<T & { number: number }> {
  const counter = item(0).kind === 'issue' ? 'openIssues' : 'openPulls';
  const cap = extras?.openCap;
  for (let attempt = 0; attempt < NUMBER_TRIES; attempt++) {
    const out = await db.send(
      new UpdateCommand({
        TableName: TABLE(),
        Key: resourceKey(repo.orgId, 'repository', repo.resourceId),
        UpdateExpression: 'ADD lastNumber :one',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':one': 1 },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    const number = Number(out.Attributes?.lastNumber);
    const made = { ...item(number), number };
    const taken = await transact(
      [
        {
          Put: {
            TableName: TABLE(),
            Item: { ...numberKey(repo.resourceId, number), ...made },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        {
          Update: {
            TableName: TABLE(),
            Key: resourceKey(repo.orgId, 'repository', repo.resourceId),
            UpdateExpression: 'ADD #open :one',
            ...(cap ? { ConditionExpression: 'attribute_not_exists(#open) OR #open < :max' } : {}),
            ExpressionAttributeNames: { '#open': counter },
            ExpressionAttributeValues: { ':one': 1, ...(cap ? { ':max': cap.max } : {}) },
          },
        },
        ...(extras?.items(number) ?? []),
      ],
      async (index) => {
        if (index === 0) return TAKEN;
        if (index === 1) return conflict(cap?.message ?? failure);
        return extras ? extras.explain(index - 2) : undefined;
      },
    ).then(
      () => false,
      (err: unknown) => {
        if (err === TAKEN) return true;
        throw err;
      },
    );
    if (!taken) return made;
  }
  throw conflict(failure);
}
const TAKEN = new Error('number taken');

/** The item of a number when it is of `kind`: 404 `message` otherwise (the other kind, or none). */
export async function requireNumbered<T extends { kind: ThreadKind }>(
  repoId: string,
  number: number,
  kind: T['kind'],
  message: string,
  consistent = false,
): Promise<T> {
  const found = await getNumbered<T>(repoId, number, consistent);
  if (found?.kind !== kind) throw notFound(message);
  return found;
}

/** The issue or pull request of a number; undefined when there is none. */
export async function getNumbered<T extends { kind: ThreadKind }>(
  repoId: string,
  number: number,
  consistent = false,
): Promise<T | undefined> {
  return getItem<T>(numberKey(repoId, number), consistent);
}

/**
 * Adds a comment to an issue or pull request of `kind`, bumping its `comments` in the same
 * transaction; 404 `notFound` when the number is not one of that kind; 409 `failure` when the
 * transaction keeps losing to other writes (past transact's own retries).
 */
export async function addComment(
  repo: { orgId: string; resourceId: string },
  number: number,
  kind: ThreadKind,
  author: Author,
  body: string,
  errors: { notFound: () => Error; failure: string },
): Promise<CommentRecord> {
  const now = Date.now();
  const comment: CommentRecord = {
    commentId: newId('cmt_'),
    number,
    orgId: repo.orgId,
    repoId: repo.resourceId,
    body,
    ...author,
    createdAt: now,
    updatedAt: now,
  };
  try {
    await transact(
      [
        {
          Update: {
            TableName: TABLE(),
            Key: numberKey(repo.resourceId, number),
            UpdateExpression: 'ADD comments :one SET updatedAt = :now',
            ConditionExpression: 'kind = :kind',
            ExpressionAttributeValues: { ':one': 1, ':now': now, ':kind': kind },
          },
        },
        {
          Put: { TableName: TABLE(), Item: { ...commentKey(repo.resourceId, number, comment.commentId), ...comment } },
        },
      ],
      [errors.notFound, undefined],
    );
  } catch (err) {
    // Still losing to other writes after the transaction's own retries.
    if ((err as Error).name === 'TransactionCanceledException') throw conflict(errors.failure);
    throw err;
  }
  return comment;
}

/**
 * Writes `fields` on an issue only if it is still at the version read (409 `stale` otherwise); a
 * state change moves the repository's open count in the same transaction. Answers the issue as
 * written (`undefined` fields removed).
 */
export async function updateIssue(
  orgId: string,
  repoId: string,
  issue: IssueRecord,
  fields: Record<string, unknown>,
  state: 'open' | 'closed' | undefined,
  stale: string,
): Promise<IssueRecord> {
  await transact(
    [
      { Update: versionedUpdate(numberKey(repoId, issue.number), issue.version, fields) },
      ...(state
        ? [
            {
              Update: {
                TableName: TABLE(),
                Key: resourceKey(orgId, 'repository', repoId),
                UpdateExpression: 'ADD openIssues :delta',
                ExpressionAttributeValues: { ':delta': state === 'open' ? 1 : -1 },
              },
            },
          ]
        : []),
    ],
    [stale],
  );
  const written: Record<string, unknown> = { ...issue, version: issue.version + 1 };
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined) delete written[name];
    else written[name] = value;
  }
  return written as unknown as IssueRecord;
}

/** How many items a list reads at a time while filtering (a page holds at most its `limit`). */
const READ_BATCH = 100;

/**
 * A page of the repository's issues or pull requests, newest first, with `state` and the
 * optional filters (`author` and `assignee` a member's id or handle); the cursor is signed for
 * this repository and kind, and resumes after the page's last item.
 */
export async function listNumbered<T extends { kind: ThreadKind }>(
  repo: { orgId: string; resourceId: string },
  kind: ThreadKind,
  query: { state: string; cursor?: string; label?: string; author?: string; assignee?: string; limit: number },
): Promise<{ items: T[]; cursor: string | null }> {
  const scope = `${repo.orgId}:${repo.resourceId}:${kind}s`;
  const people = query.author !== undefined || query.assignee !== undefined ? await listPeople(repo.orgId) : [];
  const author = personIdIn(people, query.author);
  const assignee = personIdIn(people, query.assignee);
  const filters = ['kind = :kind', '#state = :state'];
  const values: Record<string, unknown> = {
    ':pk': numberKey(repo.resourceId, 0).pk,
    ':prefix': NUMBER_PREFIX,
    ':kind': kind,
    ':state': query.state,
  };
  if (query.label !== undefined) {
    filters.push('contains(labels, :label)');
    values[':label'] = query.label.trim();
  }
  if (author !== undefined) {
    filters.push('authorId = :author');
    values[':author'] = author;
  }
  if (assignee !== undefined) {
    filters.push('contains(assignees, :assignee)');
    values[':assignee'] = assignee;
  }
  // Filtered reads until the page is full: its cursor is the key of its last item when more may follow.
  const items: T[] = [];
  let next: Record<string, unknown> | undefined;
  const pages = queryPages<T & { pk: string; sk: string }>(
    {
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      FilterExpression: filters.join(' AND '),
      ExpressionAttributeNames: { '#state': 'state' },
      ExpressionAttributeValues: values,
      ScanIndexForward: false,
      Limit: READ_BATCH,
    },
    decodeCursor(scope, query.cursor),
  );
  for await (const { items: read, next: after } of pages) {
    const room = query.limit - items.length;
    items.push(...read.slice(0, room));
    const lastTaken = read[Math.min(room, read.length) - 1];
    if (read.length > room || (items.length === query.limit && after)) {
      next = lastTaken && { pk: lastTaken.pk, sk: lastTaken.sk };
      break;
    }
  }
  return { items, cursor: encodeCursor(scope, next) };
}

/** Members named `@handle` in `text` (an email address's `@` names nobody). */
export function mentionedIn(text: string, people: Person[]): string[] {
  const handles = new Set(
    [...text.matchAll(/(?:^|[^\w@.])@([a-z0-9][a-z0-9-]*)/gi)].map((m) => (m[1] as string).toLowerCase()),
  );
  return people.filter((p) => handles.has(p.handle)).map((p) => p.userId);
}

/**
 * `issue.assigned` for the issue's new assignees and `issue.mentioned` for the members a new text
 * names by `@handle`, never for the person who did it. About the organization (repositories take
 * no protocols of their own), matched by `repo` and `number`.
 */
export async function raiseIssueEvents(
  repo: { orgId: string; name: string },
  issue: Pick<IssueRecord, 'number' | 'title'>,
  by: string,
  change: { assigned?: string[]; text?: string },
): Promise<void> {
  const base = {
    orgId: repo.orgId,
    resources: [],
    attributes: { repo: repo.name, number: String(issue.number) },
    title: `#${issue.number} in ${repo.name}: ${issue.title}`,
  };
  const assigned = (change.assigned ?? []).filter((id) => id !== by);
  const mentioned = change.text
    ? mentionedIn(change.text, await listPeople(repo.orgId)).filter((id) => id !== by && !assigned.includes(id))
    : [];
  await Promise.all([
    assigned.length > 0 ? raiseEvent({ ...base, kind: 'issue.assigned', people: assigned }) : undefined,
    mentioned.length > 0
      ? raiseEvent({ ...base, kind: 'issue.mentioned', people: mentioned, body: (change.text as string).slice(0, 500) })
      : undefined,
  ]);
}
