import * as z from 'zod/mini';
import { ChangedFile, Comment, Commit, Conflict } from '../../shared/domains/repos/record-schemas';
import type { ResponseDocs } from '../../shared/kernel/http/responses';

/** Success responses of the pulls routes (see shared/kernel/http/responses.ts): documentation only. */
const nullableString = z.nullable(z.string());
const Strategy = z.enum(['fast-forward', 'squash', 'three-way']);

const Pull = z.object({
  number: z.number(),
  pullRequestId: z.string(),
  orgId: z.string(),
  repoId: z.string(),
  title: z.string(),
  state: z.optional(z.enum(['open', 'closed', 'merged'])),
  sourceBranch: z.string(),
  targetBranch: z.string(),
  labels: z.optional(z.array(z.string())),
  assignees: z.optional(z.array(z.string())),
  comments: z.optional(z.number()),
  createdAt: z.optional(z.number()),
  updatedAt: z.optional(z.number()),
  closedAt: z.optional(z.number()),
  closedBy: z.optional(z.string()),
  authorId: z.string(),
  authorEmail: z.optional(z.string()),
  authorName: z.optional(z.string()),
  mergeCommitId: z.optional(z.string()),
  previousPullRequestIds: z.optional(z.array(z.string())),
});

const PullDetail = z.object({
  ...Pull.shape,
  description: z.string(),
  base: nullableString,
  head: nullableString,
  mergeCommitId: nullableString,
  revisionId: nullableString,
  sourceBranchExists: z.nullable(z.boolean()),
});

const Thread = z.object({
  id: z.string(),
  path: nullableString,
  line: z.nullable(z.number()),
  side: z.enum(['old', 'new']),
  beforeCommitId: z.string(),
  afterCommitId: nullableString,
  outdated: z.boolean(),
  comments: z.array(
    z.object({
      id: z.string(),
      body: z.string(),
      author: z.object({ id: nullableString, name: z.string(), email: nullableString }),
      createdAt: z.number(),
      updatedAt: z.nullable(z.number()),
      deleted: z.boolean(),
    }),
  ),
});

const State = z.object({ state: z.enum(['open', 'closed', 'merged']) });

export const responses: ResponseDocs = {
  'GET /v1/orgs/:orgId/repos/:name/pulls': { 200: z.object({ pulls: z.array(Pull), cursor: nullableString }) },
  'POST /v1/orgs/:orgId/repos/:name/pulls': { 201: z.object({ pull: Pull }) },
  'GET /v1/orgs/:orgId/repos/:name/pulls/:number': {
    200: z.object({
      pull: PullDetail,
      mergeOptions: z.array(Strategy),
      conflicts: z.array(Conflict),
      comments: z.array(Comment),
    }),
  },
  'PATCH /v1/orgs/:orgId/repos/:name/pulls/:number': { 200: z.object({ pull: Pull }) },
  'GET /v1/orgs/:orgId/repos/:name/pulls/:number/commits': {
    200: z.object({ commits: z.array(Commit), truncated: z.boolean() }),
  },
  'GET /v1/orgs/:orgId/repos/:name/pulls/:number/files': {
    200: z.object({
      files: z.array(ChangedFile),
      total: z.number(),
      truncated: z.boolean(),
      base: nullableString,
      head: z.string(),
    }),
  },
  'GET /v1/orgs/:orgId/repos/:name/pulls/:number/review': {
    200: z.object({
      revisionId: nullableString,
      base: nullableString,
      head: nullableString,
      approvals: z.array(z.object({ id: z.string(), name: z.string(), email: nullableString })),
      required: z.number(),
      rules: z.array(
        z.object({ name: z.string(), required: z.number(), fromTemplate: z.boolean(), satisfied: z.boolean() }),
      ),
      approved: z.boolean(),
      overridden: z.boolean(),
      viewerApproved: z.boolean(),
      threads: z.array(Thread),
    }),
  },
  'POST /v1/orgs/:orgId/repos/:name/pulls/:number/review/comments': {
    201: z.object({ comment: z.object({ id: z.string() }) }),
  },
  'POST /v1/orgs/:orgId/repos/:name/pulls/:number/approval': { 200: z.object({ approved: z.boolean() }) },
  'POST /v1/orgs/:orgId/repos/:name/pulls/:number/merge': {
    200: z.object({ merged: z.literal(true), mergeCommitId: nullableString, closedIssues: z.array(z.number()) }),
  },
  'POST /v1/orgs/:orgId/repos/:name/pulls/:number/close': { 200: State },
  'POST /v1/orgs/:orgId/repos/:name/pulls/:number/reopen': { 200: State },
  'POST /v1/orgs/:orgId/repos/:name/pulls/:number/comments': { 201: z.object({ comment: Comment }) },
};
