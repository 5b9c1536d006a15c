import * as z from 'zod/mini';
import { CHECK_MESSAGES } from '../../shared/domains/repos/checks';
import { PULL_MESSAGES } from '../../shared/domains/repos/pulls';
import { mergePull } from '../../shared/domains/repos/pulls/merge';
import { pullCommits, pullFiles } from '../../shared/domains/repos/pulls/read';
import { approvePull, commentOnReview, pullReview } from '../../shared/domains/repos/pulls/review';
import { NumberPath, numberOf } from '../../shared/domains/repos/thread-schemas';
import { created, ok, route } from '../../shared/kernel/http/route';

/** The pulls group's routes of a pull request's changes, review, approvals and merge. */

const Sha = z.string().check(z.regex(/^[0-9a-f]{40}$/, 'Use a 40-character lowercase hex commit id.'));
const NOT_FOUND = ['Not found', PULL_MESSAGES.notFound];

export const reviewRoutes = [
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/repos/:name/pulls/:number/commits',
    scope: 'git:read',
    summary: 'The commits the source brings (newest first, 250 at most: `truncated` past them).',
    params: NumberPath,
    errors: { 400: [PULL_MESSAGES.tooFar], 404: [...NOT_FOUND, PULL_MESSAGES.refNotFound] },
    run: async ({ org, params }) => ok(await pullCommits(org.orgId, params.name, numberOf(params.number))),
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
    run: async ({ org, params }) => ok(await pullFiles(org.orgId, params.name, numberOf(params.number))),
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
    run: async ({ org, params, caller }) =>
      ok(await pullReview(org.orgId, params.name, numberOf(params.number), caller)),
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
    run: async ({ org, params, body, caller }) =>
      created({
        comment: { id: await commentOnReview(org.orgId, params.name, numberOf(params.number), caller, body) },
      }),
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
    run: async ({ org, params, body, caller }) =>
      ok({ approved: await approvePull(org.orgId, params.name, numberOf(params.number), caller, body) }),
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
    run: async ({ org, params, body, caller }) =>
      ok(await mergePull(org.orgId, params.name, numberOf(params.number), caller, body)),
  }),
];
