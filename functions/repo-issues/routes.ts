import * as z from 'zod/mini';
import {
  addComment,
  authorOf,
  type CommentRecord,
  commentsOf,
  createNumbered,
  type IssueRecord,
  listNumbered,
  memberIds,
  raiseIssueEvents,
  requireNumbered,
  updateIssue,
} from '../../shared/domains/repos/issues';
import { requireRepo } from '../../shared/domains/repos/records';
import {
  Assignees,
  CommentBody,
  Labels,
  listQuery,
  NumberPath,
  numberOf,
  RepoPath,
} from '../../shared/domains/repos/thread-schemas';
import { callerId } from '../../shared/kernel/auth/caller';
import { forbidden, notFound } from '../../shared/kernel/ground/errors';
import { created, ok, route } from '../../shared/kernel/http/route';
import { oneLine } from '../../shared/kernel/http/text-checks';
import { publicFields } from '../../shared/kernel/store/table';

const M = {
  notMember: 'Assignees must be members of this organization.',
  issueNotFound: 'Issue not found',
  createFailed: 'Could not create the issue. Try again.',
  onlyAuthor: 'Only the author or members with git:write can change this issue.',
  changed: 'The issue changed. Reload and try again.',
  commentFailed: 'Could not add the comment. Try again.',
} as const;

const Title = z.string().check(z.trim(), z.minLength(1), z.maxLength(256), oneLine);
const Body = z.string().check(z.maxLength(65_536));

/** The issue of a number: 404 `Issue not found` when it is none, or a pull request. */
const requireIssue = (repoId: string, number: number, consistent = false) =>
  requireNumbered<IssueRecord>(repoId, number, 'issue', M.issueNotFound, consistent);

/** An issue as the API shows it (its storage fields left out). */
function shown(i: IssueRecord) {
  const { kind: _kind, version: _version, ...issue } = publicFields(i as IssueRecord & Record<string, unknown>);
  return issue;
}

export const routes = [
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/repos/:name/issues',
    scope: 'git:read',
    summary:
      'Issues, newest first: `state` (default open), `label`, `author` and `assignee` (a member id or handle); ' +
      'pages of `limit` (default 30) with a signed `cursor`.',
    params: RepoPath,
    query: listQuery(['open', 'closed']),
    errors: { 400: ['Invalid page cursor. Run the request again.'] },
    run: async ({ org, params, query }) => {
      const r = await requireRepo(org.orgId, params.name);
      const page = await listNumbered<IssueRecord>(r, 'issue', query);
      return ok({ issues: page.items.map(shown), cursor: page.cursor });
    },
  }),
  route({
    method: 'POST',
    path: '/v1/orgs/:orgId/repos/:name/issues',
    scope: 'git:read',
    summary: 'Opens an issue under the next number of the repository (shared with pull requests).',
    params: RepoPath,
    body: z.object({
      title: Title,
      body: z._default(Body, ''),
      labels: z._default(Labels, []),
      assignees: z._default(Assignees, []),
    }),
    errors: { 400: [M.notMember], 409: [M.createFailed] },
    run: async ({ org, params, body, caller }) => {
      const r = await requireRepo(org.orgId, params.name);
      const assignees = await memberIds(org.orgId, body.assignees, M.notMember);
      const now = Date.now();
      const issue = await createNumbered<IssueRecord>(
        r,
        (number) => ({
          kind: 'issue',
          number,
          orgId: org.orgId,
          repoId: r.resourceId,
          title: body.title,
          body: body.body,
          state: 'open',
          labels: [...new Set(body.labels)],
          assignees,
          comments: 0,
          ...authorOf(caller),
          createdAt: now,
          updatedAt: now,
          version: 1,
        }),
        M.createFailed,
      );
      await raiseIssueEvents({ orgId: org.orgId, name: r.name }, issue, callerId(caller), {
        assigned: assignees,
        text: body.body,
      });
      return created({ issue: shown(issue) });
    },
  }),
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/repos/:name/issues/:number',
    scope: 'git:read',
    summary: 'An issue and its comments, oldest first.',
    params: NumberPath,
    errors: { 404: ['Not found', M.issueNotFound] },
    run: async ({ org, params }) => {
      const r = await requireRepo(org.orgId, params.name);
      const number = numberOf(params.number);
      const [issue, comments] = await Promise.all([
        requireIssue(r.resourceId, number),
        commentsOf(r.resourceId, number),
      ]);
      return ok({
        issue: shown(issue),
        comments: comments.map((c) => publicFields(c as CommentRecord & Record<string, unknown>)),
      });
    },
  }),
  route({
    method: 'PATCH',
    path: '/v1/orgs/:orgId/repos/:name/issues/:number',
    scope: 'git:read',
    summary:
      'Changes an issue (its author, or members with git:write): `state` closed sets `closedAt` and `closedBy`, ' +
      'open clears them. Written only if the issue is as it was read (else 409).',
    params: NumberPath,
    body: z.object({
      title: z.optional(Title),
      body: z.optional(Body),
      labels: z.optional(Labels),
      assignees: z.optional(Assignees),
      state: z.optional(z.enum(['open', 'closed'])),
    }),
    errors: { 400: [M.notMember], 403: [M.onlyAuthor], 404: ['Not found', M.issueNotFound], 409: [M.changed] },
    run: async ({ org, params, body, caller, scopes }) => {
      const r = await requireRepo(org.orgId, params.name);
      const number = numberOf(params.number);
      const issue = await requireIssue(r.resourceId, number, true);
      if (issue.authorId !== callerId(caller) && !scopes.has('git:write')) throw forbidden(M.onlyAuthor);
      const now = Date.now();
      const fields: Record<string, unknown> = { updatedAt: now };
      if (body.title !== undefined) fields.title = body.title;
      if (body.body !== undefined) fields.body = body.body;
      if (body.labels !== undefined) fields.labels = [...new Set(body.labels)];
      if (body.assignees !== undefined) fields.assignees = await memberIds(org.orgId, body.assignees, M.notMember);
      const state = body.state !== undefined && body.state !== issue.state ? body.state : undefined;
      if (state === 'closed') Object.assign(fields, { state, closedAt: now, closedBy: callerId(caller) });
      if (state === 'open')
        Object.assign(fields, { state, closedAt: undefined, closedBy: undefined, closedByPull: undefined });
      const updated = await updateIssue(org.orgId, r.resourceId, issue, fields, state, M.changed);
      await raiseIssueEvents({ orgId: org.orgId, name: r.name }, updated, callerId(caller), {
        assigned: ((fields.assignees as string[] | undefined) ?? []).filter((id) => !issue.assignees.includes(id)),
        text: body.body,
      });
      return ok({ issue: shown(updated) });
    },
  }),
  route({
    method: 'POST',
    path: '/v1/orgs/:orgId/repos/:name/issues/:number/comments',
    scope: 'git:read',
    summary: "Adds a comment to an issue (the issue's `comments` goes up in the same write).",
    params: NumberPath,
    body: CommentBody,
    errors: { 404: ['Not found', M.issueNotFound], 409: [M.commentFailed] },
    run: async ({ org, params, body, caller }) => {
      const r = await requireRepo(org.orgId, params.name);
      const number = numberOf(params.number);
      const comment = await addComment(r, number, 'issue', authorOf(caller), body.body, {
        notFound: () => notFound(M.issueNotFound),
        failure: M.commentFailed,
      });
      const issue = await requireIssue(r.resourceId, number);
      await raiseIssueEvents({ orgId: org.orgId, name: r.name }, issue, callerId(caller), { text: body.body });
      return created({ comment });
    },
  }),
];
