import * as z from 'zod/mini';
import { addComment, authorOf } from '../../shared/domains/repos/issues';
import { PULL_MESSAGES } from '../../shared/domains/repos/pulls';
import { openPullRequest } from '../../shared/domains/repos/pulls/create';
import { listPulls, pullDetail } from '../../shared/domains/repos/pulls/read';
import { shown } from '../../shared/domains/repos/pulls/state';
import { closePullRequest, editPull, reopenPullRequest } from '../../shared/domains/repos/pulls/update';
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
import { notFound } from '../../shared/kernel/ground/errors';
import { created, ok, route } from '../../shared/kernel/http/route';
import { oneLine } from '../../shared/kernel/http/text-checks';
import { checkRoutes } from './checks';
import { reviewRoutes } from './review';

/**
 * The pulls group's routes: HTTP mapped to a use case of shared/domains/repos/pulls/ and back
 * (the review, approvals and merge in ./review.ts, check runs in ./checks.ts).
 */

const Title = z.string().check(z.trim(), z.minLength(1), z.maxLength(150), oneLine);
const Description = z.string().check(z.maxLength(10_240));
const Branch = z.string().check(z.minLength(1), z.maxLength(255), oneLine);

const NOT_FOUND = ['Not found', PULL_MESSAGES.notFound];

/** The path's pull request, as the use cases name it. */
const ask = (
  org: { orgId: string },
  params: { name: string; number: string },
  caller: Parameters<typeof editPull>[0]['caller'],
  scopes: ReadonlySet<string>,
) => ({ orgId: org.orgId, name: params.name, number: numberOf(params.number), caller, scopes });

const pullRoutes = [
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/repos/:name/pulls',
    scope: 'git:read',
    summary:
      'Pull requests, newest first (`state` open, closed or merged; `label`, `author`, `assignee`; signed cursor). ' +
      'Reads only: pull requests finished outside (source deleted, or pushed into the target) are settled by the push.',
    params: RepoPath,
    query: listQuery(['open', 'closed', 'merged']),
    errors: { 400: ['Invalid page cursor. Run the request again.'] },
    run: async ({ org, params, query }) => ok(await listPulls(org.orgId, params.name, query)),
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
    run: async ({ org, params, body, caller }) =>
      created({ pull: shown(await openPullRequest(org.orgId, params.name, caller, body)) }),
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
    run: async ({ org, params }) => ok(await pullDetail(org.orgId, params.name, numberOf(params.number))),
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
    run: async ({ org, params, body, caller, scopes }) =>
      ok({ pull: shown(await editPull(ask(org, params, caller, scopes), body)) }),
  }),
  route({
    method: 'POST',
    path: '/v1/orgs/:orgId/repos/:name/pulls/:number/close',
    scope: 'git:read',
    summary: 'Closes a pull request without merging (its author, or members with git:write).',
    params: NumberPath,
    errors: { 403: [PULL_MESSAGES.onlyAuthorClose], 404: NOT_FOUND, 409: [PULL_MESSAGES.changed] },
    run: async ({ org, params, caller, scopes }) =>
      ok({ state: await closePullRequest(ask(org, params, caller, scopes)) }),
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
    run: async ({ org, params, caller, scopes }) =>
      ok({ state: await reopenPullRequest(ask(org, params, caller, scopes)) }),
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

/** The pulls group: pull requests, their review and merge (./review.ts), check runs on commits (./checks.ts). */
export const routes = [...pullRoutes, ...reviewRoutes, ...checkRoutes];
