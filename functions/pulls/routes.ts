import * as z from 'zod/mini';
import { mergedDeployment, previewPullForAll, retirePreviews } from '../../shared/domains/deployments/preview-builds';
import { pullPreview } from '../../shared/domains/deployments/previews';
import {
  CHECK_MESSAGES,
  checkSummary,
  checksOf,
  requiredChecksBlock,
  requiredView,
} from '../../shared/domains/repos/checks';
import {
  addComment,
  authorOf,
  type CommentRecord,
  commentsOf,
  getNumbered,
  type IssueRecord,
  listNumbered,
  memberIds,
  requireNumbered,
  updateIssue,
} from '../../shared/domains/repos/issues';
import { requiredChecksFor } from '../../shared/domains/repos/protection';
import {
  closingNumbers,
  createPull,
  createThread,
  finishPull,
  gitPerson,
  listApprovals,
  listThreads,
  PULL_MESSAGES,
  type PullRecord,
  reopenPull,
  replyToThread,
  reviewedHead,
  revisionOf,
  setApproval,
  settledState,
  updatePull,
} from '../../shared/domains/repos/pulls';
import { type RepoRecord, requireRepo } from '../../shared/domains/repos/records';
import { repoGit } from '../../shared/domains/repos/tags';
import {
  Assignees,
  CommentBody,
  Labels,
  listQuery,
  NumberPath,
  numberOf,
  RepoPath,
} from '../../shared/domains/repos/thread-schemas';
import { type Caller, callerId } from '../../shared/kernel/auth/caller';
import { conflict, forbidden, invalid, notFound } from '../../shared/kernel/ground/errors';
import { describeError, log } from '../../shared/kernel/ground/log';
import { created, ok, route } from '../../shared/kernel/http/route';
import { oneLine } from '../../shared/kernel/http/text-checks';
import { newId } from '../../shared/kernel/store/ids';
import { publicFields } from '../../shared/kernel/store/table';
import { GitChangeError, GitConflict, type GitPort, GitTooFar } from '../../shared/ports/git';
import { checkRoutes } from './checks';

const Title = z.string().check(z.trim(), z.minLength(1), z.maxLength(150), oneLine);
const Description = z.string().check(z.maxLength(10_240));
const Branch = z.string().check(z.minLength(1), z.maxLength(255), oneLine);
const Sha = z.string().check(z.regex(/^[0-9a-f]{40}$/, 'Use a 40-character lowercase hex commit id.'));

const NOT_FOUND = ['Not found', PULL_MESSAGES.notFound];
/** Commits a pull request lists, and files it shows, at most. */
const MAX_COMMITS = 250;
const MAX_FILES = 300;
/** A file with more changed lines than this is shown collapsed. */
const COLLAPSE_LINES = 1000;

const requirePull = (repoId: string, number: number, consistent = false) =>
  requireNumbered<PullRecord>(repoId, number, 'pull', PULL_MESSAGES.notFound, consistent);

/** The repository and the pull request of a route's path. */
async function pullOf(orgId: string, params: { name: string; number: string }, consistent = false) {
  const r = await requireRepo(orgId, params.name);
  const pull = await requirePull(r.resourceId, numberOf(params.number), consistent);
  return { r, pull };
}

const isAuthorOr = (pull: PullRecord, caller: Caller, scopes: ReadonlySet<string>) =>
  pull.authorId === callerId(caller) || scopes.has('git:write');

/** A pull request as lists show it. */
function shown(p: PullRecord) {
  const {
    kind: _kind,
    version: _version,
    description: _d,
    mergedHead: _m,
    ...pull
  } = publicFields(p as PullRecord & Record<string, unknown>);
  return pull;
}

/** The heads of both branches now (null: the branch is gone). */
async function headsOf(port: GitPort, pull: PullRecord) {
  const [source = null, target = null] = await port.branchHeads(pull.repoId, [pull.sourceBranch, pull.targetBranch]);
  return { source, target };
}

/** Both heads of an open comparison: 404 `Branch or commit not found.` when one is gone. */
async function requireHeads(port: GitPort, pull: PullRecord) {
  const heads = await headsOf(port, pull);
  if (!heads.source || !heads.target) throw notFound(PULL_MESSAGES.refNotFound);
  return heads as { source: string; target: string };
}

/** Merge options of the pull request now: 400 `too far apart` when the storage won't compare them. */
async function mergeState(port: GitPort, repoId: string, target: string, source: string, tooFar: () => Error) {
  try {
    return await port.mergeOptions(repoId, target, source);
  } catch (err) {
    if (err instanceof GitTooFar) throw tooFar();
    throw err;
  }
}

/** The merge base of both heads (null: unrelated histories); `tooFar()` when too far apart. */
async function mergeBaseOf(
  port: GitPort,
  repoId: string,
  heads: { source: string; target: string },
  tooFar: () => Error,
): Promise<string | null> {
  try {
    return await port.mergeBase(repoId, heads.target, heads.source);
  } catch (err) {
    if (err instanceof GitTooFar) throw tooFar();
    throw err;
  }
}

/** The revision a pull request's review is of (see `reviewedHead`); null when none. */
function revisionAt(pull: PullRecord, source: string | null): string | null {
  const head = reviewedHead(pull, source);
  return head ? revisionOf(pull, head) : null;
}

/** Approvals of the current revision by anyone but the author; the branch rule's count. */
async function reviewState(r: RepoRecord, pull: PullRecord, revisionId: string | null) {
  const approvals = (await listApprovals(pull.repoId, pull.number)).filter(
    (a) => a.revisionId === revisionId && a.userId !== pull.authorId,
  );
  const protectedTarget = (r.requiredApprovals ?? 0) > 0 && pull.targetBranch === r.defaultBranch;
  const required = protectedTarget ? (r.requiredApprovals as number) : 0;
  return { approvals, required, protectedTarget, approved: approvals.length >= required };
}

const pullRoutes = [
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/repos/:name/pulls',
    scope: 'git:read',
    summary:
      'Pull requests, newest first (`state` open, closed or merged; `label`, `author`, `assignee`; signed cursor). ' +
      'Listing open ones settles those finished outside: source deleted → closed, source already in the target → merged.',
    params: RepoPath,
    query: listQuery(['open', 'closed', 'merged']),
    errors: { 400: ['Invalid page cursor. Run the request again.'] },
    run: async ({ org, params, query }) => {
      const r = await requireRepo(org.orgId, params.name);
      const page = await listNumbered<PullRecord>(r, 'pull', query);
      if (query.state !== 'open') return ok({ pulls: page.items.map(shown), cursor: page.cursor });
      const port = await repoGit();
      const still = await Promise.all(
        page.items.map(async (pull) => {
          const settled = await settledState(port, pull);
          if (!settled) return pull;
          await finishPull(pull, settled.state, {
            ...(settled.state === 'closed' ? { closedAt: Date.now(), closedBy: 'system' } : {}),
            ...(settled.state === 'merged' && settled.source
              ? { mergeCommitId: settled.source, mergedHead: settled.source }
              : {}),
          })
            .then(() => retirePreviews(pull.repoId, pull.number, settled.state))
            .catch(() => undefined);
          return undefined;
        }),
      );
      return ok({ pulls: still.filter((p): p is PullRecord => p !== undefined).map(shown), cursor: page.cursor });
    },
  }),
  route({
    method: 'POST',
    path: '/v1/orgs/:orgId/repos/:name/pulls',
    scope: 'git:write',
    summary:
      'Opens a pull request from `source` into `target` under the next number. One open pull request per pair of ' +
      'branches; at most 1,000 open per repository.',
    params: RepoPath,
    body: z.object({
      title: Title,
      description: z._default(Description, ''),
      source: Branch,
      target: Branch,
      labels: z._default(Labels, []),
      assignees: z._default(Assignees, []),
    }),
    errors: {
      400: [
        PULL_MESSAGES.branchesSame,
        PULL_MESSAGES.notMember,
        PULL_MESSAGES.branchNotFound,
        PULL_MESSAGES.divergedCreate,
      ],
      409: [PULL_MESSAGES.alreadyOpen(1), PULL_MESSAGES.tooMany, PULL_MESSAGES.createFailed],
    },
    run: async ({ org, params, body, caller }) => {
      if (body.source === body.target) throw invalid(PULL_MESSAGES.branchesSame);
      const r = await requireRepo(org.orgId, params.name);
      const assignees = await memberIds(org.orgId, body.assignees, PULL_MESSAGES.notMember);
      const port = await repoGit();
      const [source, target] = await port.branchHeads(r.resourceId, [body.source, body.target]);
      if (!source || !target) throw invalid(PULL_MESSAGES.branchNotFound);
      await mergeState(port, r.resourceId, target, source, () => invalid(PULL_MESSAGES.divergedCreate));
      const now = Date.now();
      const pull = await createPull(r, (number) => ({
        kind: 'pull',
        number,
        pullRequestId: newId('pr_'),
        orgId: org.orgId,
        repoId: r.resourceId,
        title: body.title,
        description: body.description,
        state: 'open',
        sourceBranch: body.source,
        targetBranch: body.target,
        labels: [...new Set(body.labels)],
        assignees,
        comments: 0,
        ...authorOf(caller),
        createdAt: now,
        updatedAt: now,
        version: 1,
      }));
      await startPreviews(pull, source);
      return created({ pull: shown(pull) });
    },
  }),
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/repos/:name/pulls/:number',
    scope: 'git:read',
    summary:
      'A pull request in detail (merge base, heads, revision), the strategies that would merge it now, its ' +
      'conflicts and its comments.',
    params: NumberPath,
    errors: { 400: [PULL_MESSAGES.tooFar], 404: [...NOT_FOUND, PULL_MESSAGES.refNotFound] },
    run: async ({ org, params }) => {
      const { r, pull } = await pullOf(org.orgId, params);
      const port = await repoGit();
      const [heads, comments, preview, deployment] = await Promise.all([
        headsOf(port, pull),
        commentsOf(r.resourceId, pull.number),
        pullPreview(pull.repoId, pull.number),
        pull.state === 'merged' && pull.mergeCommitId
          ? mergedDeployment(org.orgId, pull.repoId, pull.mergeCommitId)
          : undefined,
      ]);
      const checkHead = reviewedHead(pull, heads.source) ?? heads.source;
      const headChecks = checkHead ? await checksOf(pull.repoId, checkHead) : [];
      const checks = checkSummary(headChecks);
      const open = pull.state === 'open';
      if (open && !heads.target) throw notFound(PULL_MESSAGES.refNotFound);
      const merge =
        open && heads.source && heads.target
          ? await mergeState(port, pull.repoId, heads.target, heads.source, () => invalid(PULL_MESSAGES.tooFar))
          : undefined;
      return ok({
        pull: {
          ...shown(pull),
          description: pull.description,
          base: merge?.mergeBase ?? null,
          head: heads.source,
          mergeCommitId: pull.mergeCommitId ?? null,
          revisionId: revisionAt(pull, heads.source),
          sourceBranchExists: heads.source !== null,
          checks: { ...checks, ...requiredView(requiredChecksFor(r, pull.targetBranch), headChecks) },
          preview,
          deployment: deployment
            ? {
                deploymentId: deployment.deploymentId,
                status: deployment.status ?? 'queued',
                host: deployment.host ?? null,
              }
            : null,
        },
        mergeOptions: merge?.options ?? [],
        conflicts: merge?.conflicts ?? [],
        comments: comments.map((c) => publicFields(c as CommentRecord & Record<string, unknown>)),
      });
    },
  }),
  route({
    method: 'PATCH',
    path: '/v1/orgs/:orgId/repos/:name/pulls/:number',
    scope: 'git:read',
    summary: 'Changes the title, description, labels or assignees (its author, or members with git:write).',
    params: NumberPath,
    body: z.object({
      title: z.optional(Title),
      description: z.optional(Description),
      labels: z.optional(Labels),
      assignees: z.optional(Assignees),
    }),
    errors: {
      400: [PULL_MESSAGES.notMember],
      403: [PULL_MESSAGES.onlyAuthorEdit],
      404: NOT_FOUND,
      409: [PULL_MESSAGES.changed],
    },
    run: async ({ org, params, body, caller, scopes }) => {
      const { pull } = await pullOf(org.orgId, params, true);
      if (!isAuthorOr(pull, caller, scopes)) throw forbidden(PULL_MESSAGES.onlyAuthorEdit);
      const fields: Record<string, unknown> = { updatedAt: Date.now() };
      if (body.title !== undefined) fields.title = body.title;
      if (body.description !== undefined) fields.description = body.description;
      if (body.labels !== undefined) fields.labels = [...new Set(body.labels)];
      if (body.assignees !== undefined)
        fields.assignees = await memberIds(org.orgId, body.assignees, PULL_MESSAGES.notMember);
      return ok({ pull: shown(await updatePull(pull, fields)) });
    },
  }),
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/repos/:name/pulls/:number/commits',
    scope: 'git:read',
    summary: 'The commits the source brings (newest first, 250 at most: `truncated` past them).',
    params: NumberPath,
    errors: { 400: [PULL_MESSAGES.tooFar], 404: [...NOT_FOUND, PULL_MESSAGES.refNotFound] },
    run: async ({ org, params }) => {
      const { pull } = await pullOf(org.orgId, params);
      const port = await repoGit();
      const heads = await requireHeads(port, pull);
      // From the merge base (not the target's head: CodeCommit walks down to it), and too far apart is 400.
      const base = await mergeBaseOf(port, pull.repoId, heads, () => invalid(PULL_MESSAGES.tooFar));
      const commits = await port.commitsBetween(pull.repoId, base ?? heads.target, heads.source, MAX_COMMITS + 1);
      return ok({ commits: commits.slice(0, MAX_COMMITS), truncated: commits.length > MAX_COMMITS });
    },
  }),
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/repos/:name/pulls/:number/files',
    scope: 'git:read',
    summary:
      'The files the source changes since the merge base, with unified hunks (binary files and files of more than ' +
      '1,000 changed lines `collapsed`; 300 files at most: `truncated`).',
    params: NumberPath,
    errors: { 400: [PULL_MESSAGES.tooFar], 404: [...NOT_FOUND, PULL_MESSAGES.refNotFound] },
    run: async ({ org, params }) => {
      const { pull } = await pullOf(org.orgId, params);
      const port = await repoGit();
      const heads = await requireHeads(port, pull);
      const base = await mergeBaseOf(port, pull.repoId, heads, () => invalid(PULL_MESSAGES.tooFar));
      const diff = await port.diff(pull.repoId, base, heads.source, {
        maxFiles: MAX_FILES,
        maxLines: 50_000,
      });
      const files = diff.files.map((f) =>
        f.binary || f.additions + f.deletions > COLLAPSE_LINES ? { ...f, collapsed: true, hunks: [] } : f,
      );
      return ok({ files, total: files.length, truncated: diff.truncated, base, head: heads.source });
    },
  }),
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/repos/:name/pulls/:number/review',
    scope: 'git:read',
    summary:
      'The review of the current revision: approvals that count (by others than the author, of this revision), ' +
      'what branch protection requires, and the review threads (`outdated` once their line changed).',
    params: NumberPath,
    errors: { 400: [PULL_MESSAGES.tooFar], 404: [...NOT_FOUND, PULL_MESSAGES.refNotFound] },
    run: async ({ org, params, caller }) => {
      const { r, pull } = await pullOf(org.orgId, params);
      const port = await repoGit();
      const heads = await headsOf(port, pull);
      const merge =
        heads.source && heads.target
          ? await mergeState(port, pull.repoId, heads.target, heads.source, () => invalid(PULL_MESSAGES.tooFar))
          : undefined;
      const revisionId = revisionAt(pull, heads.source);
      const [review, threads] = await Promise.all([
        reviewState(r, pull, revisionId),
        listThreads(pull.repoId, pull.number),
      ]);
      const outdated = await outdatedLines(port, pull, threads, heads.source);
      return ok({
        revisionId,
        base: merge?.mergeBase ?? null,
        head: heads.source,
        approvals: review.approvals.map((a) => ({ id: a.userId, name: a.name, email: a.email })),
        required: review.required,
        rules: review.protectedTarget
          ? [{ name: 'Branch protection', required: review.required, fromTemplate: true, satisfied: review.approved }]
          : [],
        approved: review.approved,
        overridden: false,
        viewerApproved: review.approvals.some((a) => a.userId === callerId(caller)),
        threads: threads.map((t) => ({
          id: t.id,
          path: t.path,
          line: t.line,
          side: t.side,
          beforeCommitId: t.beforeCommitId,
          afterCommitId: t.afterCommitId,
          outdated: outdated.has(t.id),
          comments: t.comments,
        })),
      });
    },
  }),
  route({
    method: 'POST',
    path: '/v1/orgs/:orgId/repos/:name/pulls/:number/review/comments',
    scope: 'git:read',
    summary:
      'A review comment: a new thread on `line` of `path` (`side` old or new) of the diff between `base` and ' +
      '`head` (default: the merge base and the source head), or a reply with `inReplyTo` (a thread or comment id).',
    params: NumberPath,
    body: z.object({
      body: z.string().check(z.trim(), z.minLength(1), z.maxLength(10_240)),
      inReplyTo: z.optional(z.string().check(z.minLength(1), z.maxLength(256))),
      path: z.optional(z.string().check(z.minLength(1), z.maxLength(4096))),
      line: z.optional(z.int().check(z.minimum(1))),
      side: z._default(z.enum(['old', 'new']), 'new'),
      base: z.optional(Sha),
      head: z.optional(Sha),
    }),
    errors: { 400: [PULL_MESSAGES.tooFar, PULL_MESSAGES.chooseLine], 404: NOT_FOUND, 409: [PULL_MESSAGES.noChanges] },
    run: async ({ org, params, body, caller }) => {
      const { pull } = await pullOf(org.orgId, params);
      const author = authorOf(caller);
      const comment = {
        body: body.body,
        author: { id: author.authorId, name: gitPerson(author).name, email: author.authorEmail ?? null },
        createdAt: Date.now(),
        updatedAt: null,
        deleted: false,
      };
      if (body.inReplyTo !== undefined) {
        const id = await replyToThread(pull, body.inReplyTo, comment);
        if (!id) throw notFound();
        return created({ comment: { id } });
      }
      if (body.path === undefined || body.line === undefined) throw invalid(PULL_MESSAGES.chooseLine);
      const port = await repoGit();
      const heads = await requireHeads(port, pull);
      const merge = await mergeState(port, pull.repoId, heads.target, heads.source, () =>
        invalid(PULL_MESSAGES.tooFar),
      );
      const base = body.base ?? merge.mergeBase;
      const head = body.head ?? heads.source;
      if (!base || base === head) throw conflict(PULL_MESSAGES.noChanges);
      const id = await createThread(
        pull,
        { path: body.path, line: body.line, side: body.side, beforeCommitId: base, afterCommitId: head },
        comment,
      );
      return created({ comment: { id } });
    },
  }),
  route({
    method: 'POST',
    path: '/v1/orgs/:orgId/repos/:name/pulls/:number/approval',
    scope: 'git:write',
    summary:
      'Approves (or, `approve: false`, withdraws) the revision `revisionId` (from the pull request or its review). ' +
      "An author can't approve their own; a new push makes a new revision.",
    params: NumberPath,
    body: z.object({ approve: z.boolean(), revisionId: z.optional(z.string().check(z.minLength(1))) }),
    errors: {
      403: [PULL_MESSAGES.ownApproval],
      404: NOT_FOUND,
      409: [PULL_MESSAGES.closed, PULL_MESSAGES.staleRevision, PULL_MESSAGES.maxApprovals],
    },
    run: async ({ org, params, body, caller }) => {
      const { pull } = await pullOf(org.orgId, params, true);
      const who = callerId(caller);
      if (pull.authorId === who) throw forbidden(PULL_MESSAGES.ownApproval);
      if (pull.state !== 'open') throw conflict(PULL_MESSAGES.closed);
      const port = await repoGit();
      const heads = await requireHeads(port, pull);
      const current = revisionOf(pull, heads.source);
      if (body.revisionId !== undefined && body.revisionId !== current) throw conflict(PULL_MESSAGES.staleRevision);
      const author = authorOf(caller);
      await setApproval(
        pull,
        { userId: who, name: gitPerson(author).name, email: author.authorEmail ?? null },
        current,
        body.approve,
      );
      return ok({ approved: body.approve });
    },
  }),
  route({
    method: 'POST',
    path: '/v1/orgs/:orgId/repos/:name/pulls/:number/merge',
    scope: 'git:write',
    summary:
      'Merges with `strategy` (fast-forward, squash: one commit `<title> (#N)` by the author, three-way: a merge ' +
      'commit). Merged into the default branch, `Fixes #N`-style keywords in the title, description and commits ' +
      'close those issues (`closedIssues`).',
    params: NumberPath,
    body: z.object({
      strategy: z.enum(['squash', 'fast-forward', 'three-way']),
      message: z.optional(z.string().check(z.trim(), z.maxLength(4096))),
      sourceCommitId: z.optional(Sha),
    }),
    errors: {
      404: [...NOT_FOUND, PULL_MESSAGES.refNotFound],
      409: [
        PULL_MESSAGES.alreadyClosed,
        PULL_MESSAGES.sourceChanged,
        PULL_MESSAGES.divergedMerge,
        PULL_MESSAGES.needsApprovals,
        CHECK_MESSAGES.missing('build'),
        CHECK_MESSAGES.notPassed('build', 'failure'),
        PULL_MESSAGES.strategy,
        PULL_MESSAGES.targetChanged,
      ],
    },
    run: async ({ org, params, body, caller }) => {
      const { r, pull } = await pullOf(org.orgId, params, true);
      if (pull.state !== 'open') throw conflict(PULL_MESSAGES.alreadyClosed);
      const port = await repoGit();
      const heads = await requireHeads(port, pull);
      if (body.sourceCommitId !== undefined && body.sourceCommitId !== heads.source) {
        throw conflict(PULL_MESSAGES.sourceChanged);
      }
      const merge = await mergeState(port, pull.repoId, heads.target, heads.source, () =>
        conflict(PULL_MESSAGES.divergedMerge),
      );
      const review = await reviewState(r, pull, revisionOf(pull, heads.source));
      if (!review.approved) throw conflict(PULL_MESSAGES.needsApprovals);
      const required = requiredChecksFor(r, pull.targetBranch);
      const unpassed = required.length > 0 && requiredChecksBlock(required, await checksOf(pull.repoId, heads.source));
      if (unpassed) throw conflict(unpassed);
      if (merge.mergeBase === heads.source) {
        // The source is in the target already: a merge of it landed since the pull request was read
        // (closed now, or about to be), or the target moved on with it.
        const now = (await pullOf(org.orgId, params, true)).pull;
        throw conflict(now.state === 'open' ? PULL_MESSAGES.targetChanged : PULL_MESSAGES.alreadyClosed);
      }
      if (!merge.options.includes(body.strategy)) throw conflict(PULL_MESSAGES.strategy);
      const merger = authorOf(caller);
      const message =
        body.message ||
        (body.strategy === 'squash'
          ? `${pull.title} (#${pull.number})`
          : `Merge pull request #${pull.number} from ${pull.sourceBranch}`);
      const closing = r.defaultBranch === pull.targetBranch;
      const brought = closing
        ? await port.commitsBetween(pull.repoId, merge.mergeBase ?? heads.target, heads.source, MAX_COMMITS)
        : [];
      let commitId: string;
      try {
        ({ commitId } = await port.merge(pull.repoId, {
          target: pull.targetBranch,
          targetCommit: heads.target,
          source: heads.source,
          strategy: body.strategy,
          message,
          author: body.strategy === 'squash' ? gitPerson(pull) : gitPerson(merger),
          committer: gitPerson(merger),
        }));
      } catch (err) {
        if (err instanceof GitConflict) throw conflict(PULL_MESSAGES.targetChanged);
        if (err instanceof GitChangeError) throw conflict(PULL_MESSAGES.strategy);
        if (err instanceof GitTooFar) throw conflict(PULL_MESSAGES.divergedMerge);
        throw err;
      }
      await finishPull(pull, 'merged', {
        mergeCommitId: commitId,
        mergedHead: heads.source,
        closedAt: Date.now(),
        closedBy: callerId(caller),
      });
      await retirePreviews(pull.repoId, pull.number, 'merged');
      const closedIssues = closing
        ? await closeIssues(r, pull, [pull.title, pull.description, ...brought.map((c) => c.message)], caller)
        : [];
      return ok({ merged: true, mergeCommitId: commitId, closedIssues });
    },
  }),
  route({
    method: 'POST',
    path: '/v1/orgs/:orgId/repos/:name/pulls/:number/close',
    scope: 'git:read',
    summary: 'Closes a pull request without merging (its author, or members with git:write).',
    params: NumberPath,
    errors: { 403: [PULL_MESSAGES.onlyAuthorClose], 404: NOT_FOUND, 409: [PULL_MESSAGES.changed] },
    run: async ({ org, params, caller, scopes }) => {
      const { pull } = await pullOf(org.orgId, params, true);
      if (!isAuthorOr(pull, caller, scopes)) throw forbidden(PULL_MESSAGES.onlyAuthorClose);
      if (pull.state !== 'open') return ok({ state: pull.state });
      const closed = await finishPull(pull, 'closed', { closedAt: Date.now(), closedBy: callerId(caller) });
      await retirePreviews(pull.repoId, pull.number, 'closed');
      return ok({ state: closed.state });
    },
  }),
  route({
    method: 'POST',
    path: '/v1/orgs/:orgId/repos/:name/pulls/:number/reopen',
    scope: 'git:read',
    summary:
      'Reopens a closed pull request as a new one under the same number (approvals start over); both branches ' +
      'must exist and differ, and no other pull request be open for them.',
    params: NumberPath,
    errors: {
      403: [PULL_MESSAGES.onlyAuthorReopen],
      404: NOT_FOUND,
      409: [
        PULL_MESSAGES.mergedReopen,
        PULL_MESSAGES.alreadyOpen(1),
        PULL_MESSAGES.branchGone('a', 'b'),
        PULL_MESSAGES.sameCommit,
        PULL_MESSAGES.tooMany,
        PULL_MESSAGES.changed,
      ],
    },
    run: async ({ org, params, caller, scopes }) => {
      const { pull } = await pullOf(org.orgId, params, true);
      if (!isAuthorOr(pull, caller, scopes)) throw forbidden(PULL_MESSAGES.onlyAuthorReopen);
      if (pull.state === 'merged') throw conflict(PULL_MESSAGES.mergedReopen);
      if (pull.state === 'open') return ok({ state: 'open' });
      const heads = await headsOf(await repoGit(), pull);
      if (!heads.source || !heads.target)
        throw conflict(PULL_MESSAGES.branchGone(pull.sourceBranch, pull.targetBranch));
      if (heads.source === heads.target) throw conflict(PULL_MESSAGES.sameCommit);
      const reopened = await reopenPull(pull);
      await startPreviews(reopened, heads.source);
      return ok({ state: reopened.state });
    },
  }),
  route({
    method: 'POST',
    path: '/v1/orgs/:orgId/repos/:name/pulls/:number/comments',
    scope: 'git:read',
    summary: 'Adds a comment to a pull request (its `comments` goes up in the same write).',
    params: NumberPath,
    body: CommentBody,
    errors: { 404: NOT_FOUND, 409: [PULL_MESSAGES.commentFailed] },
    run: async ({ org, params, body, caller }) => {
      const r = await requireRepo(org.orgId, params.name);
      const comment = await addComment(r, numberOf(params.number), 'pull', authorOf(caller), body.body, {
        notFound: () => notFound(PULL_MESSAGES.notFound),
        failure: PULL_MESSAGES.commentFailed,
      });
      return created({ comment });
    },
  }),
];

/** The pulls group: pull requests, and check runs on commits (functions/pulls/checks.ts). */
export const routes = [...pullRoutes, ...checkRoutes];

/** Threads whose line changed since the commit they were written on (the source head moved there). */
async function outdatedLines(
  port: GitPort,
  pull: PullRecord,
  threads: { id: string; path: string | null; line: number | null; side: string; afterCommitId: string | null }[],
  head: string | null,
): Promise<Set<string>> {
  const out = new Set<string>();
  const byCommit = new Map<string, typeof threads>();
  for (const t of threads) {
    if (!t.afterCommitId || !head || t.afterCommitId === head || t.path === null || t.line === null) continue;
    byCommit.set(t.afterCommitId, [...(byCommit.get(t.afterCommitId) ?? []), t]);
  }
  for (const [after, list] of byCommit) {
    const { files } = await port.diff(pull.repoId, after, head as string, { maxFiles: MAX_FILES, maxLines: 50_000 });
    for (const t of list) {
      const file = files.find((f) => f.path === t.path);
      if (!file) continue;
      const line = t.line as number;
      // A new-side line is outdated when a hunk since covers it (or the file went); an old-side one when its file changed.
      const touched =
        file.change === 'deleted' ||
        t.side === 'old' ||
        file.collapsed ||
        file.hunks.some((h) => line >= h.oldStart && line < h.oldStart + Math.max(h.oldLines, 1));
      if (touched) out.add(t.id);
    }
  }
  return out;
}

/** Closes the open issues of this repository the texts name with a closing keyword; their numbers. */
async function closeIssues(r: RepoRecord, pull: PullRecord, texts: string[], caller: Caller): Promise<number[]> {
  const closed: number[] = [];
  for (const number of closingNumbers(texts)) {
    const issue = await getNumbered<IssueRecord>(r.resourceId, number, true);
    if (issue?.kind !== 'issue' || issue.state !== 'open') continue;
    const now = Date.now();
    try {
      await updateIssue(
        r.orgId,
        r.resourceId,
        issue,
        { state: 'closed', closedAt: now, closedBy: callerId(caller), closedByPull: pull.number, updatedAt: now },
        'closed',
        'The issue changed.',
      );
      closed.push(number);
    } catch {
      // Changed meanwhile: left as it is now.
    }
  }
  return closed;
}

/** The previews of a pull request just opened or reopened; a failure is logged, the pull request stands. */
async function startPreviews(pull: PullRecord, head: string): Promise<void> {
  try {
    await previewPullForAll(pull, head);
  } catch (err) {
    log.error('previews not started', { repoId: pull.repoId, number: pull.number, error: describeError(err) });
  }
}
