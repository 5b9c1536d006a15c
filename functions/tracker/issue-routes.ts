import * as z from 'zod/mini';
import { raiseTrackerEvents } from '../../shared/domains/tracker/events';
import { createIssue, editIssue, requireIssue } from '../../shared/domains/tracker/issues';
import { labelsOf } from '../../shared/domains/tracker/labels';
import { issuePage } from '../../shared/domains/tracker/page';
import { TRACKER_MESSAGES } from '../../shared/domains/tracker/records';
import { created, ok, route } from '../../shared/kernel/http/route';
import { actorOf, IssueEdit, issueFields, OrgPath, Ref, str } from './common';

const IssuePath = z.object({ orgId: z.string(), issueKey: Ref });

export const issueRoutes = [
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/issues/labels',
    scope: 'issues:read',
    summary: 'Labels used on the issues the caller sees (of one `space`), most used first.',
    params: OrgPath,
    query: z.object({ space: z.optional(str(1, 64)) }),
    errors: { 404: [TRACKER_MESSAGES.spaceNotFound] },
    run: async (ctx) => ok({ labels: await labelsOf(actorOf(ctx), ctx.query.space) }),
  }),
  route({
    method: 'POST',
    path: '/v1/orgs/:orgId/issues',
    scope: 'issues:write',
    summary:
      'Creates an issue in `space` (key or id). Catalog fields take names or ids, people ids or emails, ' +
      '`parent` an issue key; its number comes from the space’s counter in the issue’s own transaction.',
    params: OrgPath,
    body: z.object({ ...z.partial(z.object(issueFields)).shape, space: str(1, 64), summary: issueFields.summary }),
    errors: {
      400: [TRACKER_MESSAGES.subtaskParent, TRACKER_MESSAGES.badParent],
      403: [TRACKER_MESSAGES.cannotCreate],
      404: [TRACKER_MESSAGES.spaceNotFound],
    },
    run: async (ctx) => {
      const actor = actorOf(ctx);
      const { space: ref, ...input } = ctx.body;
      const { issue, space } = await createIssue(actor, ref, input);
      await raiseTrackerEvents(actor, space, issue, {
        assigned: issue.assigneeId,
        text: input.description,
      });
      return created({ issue });
    },
  }),
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/issues/:issueKey',
    scope: 'issues:read',
    summary:
      'An issue by key (former keys of moved issues and renamed spaces too) or `iss_` id, with its space and ' +
      'its page: description, comments, links, attachments, children, the transitions open to the caller ' +
      'and the caller’s permissions on it. A hidden issue is 404. `remember=1` (Jira’s `updateHistory`) puts it ' +
      'first in the caller’s issue history (50 issues), which JQL reads: `issue in issueHistory()`, `lastViewed`.',
    params: IssuePath,
    query: z.object({ remember: z._default(z.enum(['0', '1']), '0') }),
    errors: { 404: [TRACKER_MESSAGES.issueNotFound] },
    run: async (ctx) => ok(await issuePage(actorOf(ctx), ctx.params.issueKey, ctx.query.remember === '1')),
  }),
  route({
    method: 'PUT',
    path: '/v1/orgs/:orgId/issues/:issueKey',
    scope: 'issues:write',
    summary:
      'Edits an issue (Jira’s PUT /issue/{key}): the fields given, as on creation; only the fields that change ' +
      'are written, on the condition that the issue is unchanged since it was read.',
    params: IssuePath,
    body: IssueEdit,
    errors: {
      400: [TRACKER_MESSAGES.subtaskParent, TRACKER_MESSAGES.badParent],
      403: [TRACKER_MESSAGES.cannotEdit],
      404: [TRACKER_MESSAGES.issueNotFound],
      409: [TRACKER_MESSAGES.issueChanged],
    },
    run: async (ctx) => {
      const actor = actorOf(ctx);
      const before = await requireIssue(actor, ctx.params.issueKey);
      const issue = await editIssue(actor, ctx.params.issueKey, ctx.body);
      await raiseTrackerEvents(actor, before.space, issue, {
        assigned: issue.assigneeId !== before.issue.assigneeId ? issue.assigneeId : undefined,
        text: ctx.body.description,
      });
      return ok({ issue });
    },
  }),
];
