import * as z from 'zod/mini';
import {
  ChangedFile,
  CheckRun,
  CheckSummary,
  Comment,
  Commit,
  Conflict,
  nullableString,
  PullRequest,
  PullRequestDetail,
  RequiredCheck,
  RequiredCheckStatus,
  ReviewThread,
  State,
  Strategy,
} from '../../shared/domains/repos/record-schemas';
import type { ResponseDocs } from '../../shared/kernel/http/responses';

/** Success responses of the pulls routes (see shared/kernel/http/responses.ts): documentation only. */

export const responses: ResponseDocs = {
  'GET /v1/orgs/:orgId/repos/:name/pulls': { 200: z.object({ pulls: z.array(PullRequest), cursor: nullableString }) },
  'POST /v1/orgs/:orgId/repos/:name/pulls': { 201: z.object({ pull: PullRequest }) },
  'GET /v1/orgs/:orgId/repos/:name/pulls/:number': {
    200: z.object({
      pull: PullRequestDetail,
      mergeOptions: z.array(Strategy),
      conflicts: z.array(Conflict),
      comments: z.array(Comment),
    }),
  },
  'PATCH /v1/orgs/:orgId/repos/:name/pulls/:number': { 200: z.object({ pull: PullRequest }) },
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
      threads: z.array(ReviewThread),
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
  'POST /v1/orgs/:orgId/repos/:name/commits/:sha/checks': {
    200: z.object({ check: CheckRun }),
    201: z.object({ check: CheckRun }),
  },
  'PATCH /v1/orgs/:orgId/repos/:name/commits/:sha/checks/:checkId': { 200: z.object({ check: CheckRun }) },
  'GET /v1/orgs/:orgId/repos/:name/commits/:sha/checks': {
    200: z.object({ commitId: z.string(), checks: z.array(CheckRun), cursor: nullableString, summary: CheckSummary }),
  },
  'GET /v1/orgs/:orgId/repos/:name/pulls/:number/checks': {
    200: z.object({
      head: nullableString,
      checks: z.array(CheckRun),
      cursor: nullableString,
      summary: CheckSummary,
      required: z.array(RequiredCheck),
      requiredStatus: z.array(RequiredCheckStatus),
    }),
  },
};
