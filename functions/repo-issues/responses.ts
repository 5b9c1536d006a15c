import * as z from 'zod/mini';
import { Comment, RepoIssue } from '../../shared/domains/repos/record-schemas';
import type { ResponseDocs } from '../../shared/kernel/http/responses';

/** Success responses of the repo-issues routes (see shared/kernel/http/responses.ts): documentation only. */
export const responses: ResponseDocs = {
  'GET /v1/orgs/:orgId/repos/:name/issues': {
    200: z.object({ issues: z.array(RepoIssue), cursor: z.nullable(z.string()) }),
  },
  'POST /v1/orgs/:orgId/repos/:name/issues': { 201: z.object({ issue: RepoIssue }) },
  'GET /v1/orgs/:orgId/repos/:name/issues/:number': { 200: z.object({ issue: RepoIssue, comments: z.array(Comment) }) },
  'PATCH /v1/orgs/:orgId/repos/:name/issues/:number': { 200: z.object({ issue: RepoIssue }) },
  'POST /v1/orgs/:orgId/repos/:name/issues/:number/comments': { 201: z.object({ comment: Comment }) },
};
