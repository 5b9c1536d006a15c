import * as z from 'zod/mini';
import { Comment } from '../../shared/domains/repos/record-schemas';
import type { ResponseDocs } from '../../shared/kernel/http/responses';

/** Success responses of the repo-issues routes (see shared/kernel/http/responses.ts): documentation only. */
const Issue = z.object({
  number: z.number(),
  orgId: z.string(),
  repoId: z.string(),
  title: z.string(),
  body: z.optional(z.string()),
  state: z.optional(z.enum(['open', 'closed'])),
  labels: z.optional(z.array(z.string())),
  assignees: z.optional(z.array(z.string())),
  comments: z.optional(z.number()),
  createdAt: z.optional(z.number()),
  updatedAt: z.optional(z.number()),
  closedAt: z.optional(z.number()),
  closedBy: z.optional(z.string()),
  closedByPull: z.optional(z.number()),
  authorId: z.string(),
  authorEmail: z.optional(z.string()),
  authorName: z.optional(z.string()),
});

export const responses: ResponseDocs = {
  'GET /v1/orgs/:orgId/repos/:name/issues': {
    200: z.object({ issues: z.array(Issue), cursor: z.nullable(z.string()) }),
  },
  'POST /v1/orgs/:orgId/repos/:name/issues': { 201: z.object({ issue: Issue }) },
  'GET /v1/orgs/:orgId/repos/:name/issues/:number': { 200: z.object({ issue: Issue, comments: z.array(Comment) }) },
  'PATCH /v1/orgs/:orgId/repos/:name/issues/:number': { 200: z.object({ issue: Issue }) },
  'POST /v1/orgs/:orgId/repos/:name/issues/:number/comments': { 201: z.object({ comment: Comment }) },
};
