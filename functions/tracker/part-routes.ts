import * as z from 'zod/mini';
import { transitionsFrom, workflowOf } from '../../shared/domains/tracker/catalog';
import { raiseTrackerEvents } from '../../shared/domains/tracker/events';
import { present, requireIssue } from '../../shared/domains/tracker/issues';
import {
  addComment,
  addLink,
  addWorklog,
  attachmentLink,
  completeAttachment,
  deleteAttachment,
  deleteComment,
  deleteLink,
  editComment,
  listComments,
  listWorklogs,
  startAttachment,
} from '../../shared/domains/tracker/parts';
import { TRACKER_MESSAGES } from '../../shared/domains/tracker/records';
import { applyTransition, findTransition } from '../../shared/domains/tracker/transitions';
import { HttpError } from '../../shared/kernel/http/http-error';
import { created, noContent, ok, route } from '../../shared/kernel/http/route';
import { actorOf, IssueEdit, Ref, str, trimmed } from './common';

const IssuePath = z.object({ orgId: z.string(), issueKey: Ref });
const CommentPath = z.object({ orgId: z.string(), issueKey: Ref, commentId: str(1, 64) });
const LinkPath = z.object({ orgId: z.string(), issueKey: Ref, linkId: str(1, 64) });
const AttachmentPath = z.object({ orgId: z.string(), issueKey: Ref, attachmentId: str(1, 64) });
const Body = str(1, 32_768);
const base = '/v1/orgs/:orgId/issues/:issueKey';

export const partRoutes = [
  route({
    method: 'GET',
    path: `${base}/comments`,
    scope: 'issues:read',
    summary: 'An issue’s comments, oldest first (Jira’s GET /issue/{key}/comment).',
    params: IssuePath,
    errors: { 404: [TRACKER_MESSAGES.issueNotFound] },
    run: async (ctx) => ok({ comments: await listComments(actorOf(ctx), ctx.params.issueKey) }),
  }),
  route({
    method: 'POST',
    path: `${base}/comments`,
    scope: 'issues:write',
    summary: 'Comments on an issue; members named (`@handle`, `[~accountid:…]`) get `issue.mentioned`.',
    params: IssuePath,
    body: z.object({ body: Body }),
    errors: { 403: [TRACKER_MESSAGES.cannotComment], 404: [TRACKER_MESSAGES.issueNotFound] },
    run: async (ctx) => {
      const actor = actorOf(ctx);
      const { comment, issue, space } = await addComment(actor, ctx.params.issueKey, ctx.body.body);
      await raiseTrackerEvents(actor, space, present(issue, space), { text: ctx.body.body });
      return created({ comment });
    },
  }),
  route({
    method: 'PATCH',
    path: `${base}/comments/:commentId`,
    scope: 'issues:write',
    summary: 'Edits a comment: its author, or holders of `editComments`.',
    params: CommentPath,
    body: z.object({ body: Body }),
    errors: {
      403: ["You can't change this comment."],
      404: [TRACKER_MESSAGES.issueNotFound, TRACKER_MESSAGES.commentNotFound],
    },
    run: async (ctx) =>
      ok({ comment: await editComment(actorOf(ctx), ctx.params.issueKey, ctx.params.commentId, ctx.body.body) }),
  }),
  route({
    method: 'DELETE',
    path: `${base}/comments/:commentId`,
    scope: 'issues:write',
    summary: 'Deletes a comment: its author, or holders of `deleteComments`.',
    params: CommentPath,
    errors: {
      403: ["You can't change this comment."],
      404: [TRACKER_MESSAGES.issueNotFound, TRACKER_MESSAGES.commentNotFound],
    },
    run: async (ctx) => {
      await deleteComment(actorOf(ctx), ctx.params.issueKey, ctx.params.commentId);
      return noContent();
    },
  }),
  route({
    method: 'GET',
    path: `${base}/worklogs`,
    scope: 'issues:read',
    summary: 'Work logged on an issue (Jira’s GET /issue/{key}/worklog).',
    params: IssuePath,
    errors: { 404: [TRACKER_MESSAGES.issueNotFound] },
    run: async (ctx) => ok({ worklogs: await listWorklogs(actorOf(ctx), ctx.params.issueKey) }),
  }),
  route({
    method: 'POST',
    path: `${base}/worklogs`,
    scope: 'issues:write',
    summary:
      'Logs work: `timeSpent` in seconds or as `1h 30m`; the issue’s `timeSpent` grows and its `remainingEstimate` ' +
      'shrinks by as much (Jira’s auto-adjust).',
    params: IssuePath,
    body: z.object({
      timeSpent: z.union([z.int().check(z.minimum(1), z.maximum(315_360_000)), str(1, 40)]),
      started: z.optional(z.int().check(z.minimum(0))),
      comment: z.optional(str(0, 32_768)),
    }),
    errors: {
      400: ['timeSpent takes seconds or a duration such as 1w 2d 3h 30m.'],
      403: ["You can't log work on this issue."],
      404: [TRACKER_MESSAGES.issueNotFound],
    },
    run: async (ctx) => created(await addWorklog(actorOf(ctx), ctx.params.issueKey, ctx.body)),
  }),
  route({
    method: 'POST',
    path: `${base}/links`,
    scope: 'issues:write',
    summary:
      'Links the issue to another (`type` blocks, relates, duplicates or clones; `direction` outward by default: ' +
      '"this issue blocks that one"); both issues show the link.',
    params: IssuePath,
    body: z.object({ type: str(1, 32), issue: Ref, direction: z.optional(z.enum(['outward', 'inward'])) }),
    errors: {
      400: ['Unknown link type: <type>.', 'Unknown issue: <key>'],
      404: [TRACKER_MESSAGES.issueNotFound],
      409: ['These issues are already linked that way.'],
    },
    run: async (ctx) => created({ link: await addLink(actorOf(ctx), ctx.params.issueKey, ctx.body) }),
  }),
  route({
    method: 'DELETE',
    path: `${base}/links/:linkId`,
    scope: 'issues:write',
    summary: 'Removes a link from both issues.',
    params: LinkPath,
    errors: { 404: [TRACKER_MESSAGES.issueNotFound, TRACKER_MESSAGES.linkNotFound] },
    run: async (ctx) => {
      await deleteLink(actorOf(ctx), ctx.params.issueKey, ctx.params.linkId);
      return noContent();
    },
  }),
  route({
    method: 'POST',
    path: `${base}/attachments`,
    scope: 'issues:write',
    summary:
      'Starts an attachment (up to 100 MB): a presigned PUT into the platform bucket; then POST …/complete. ' +
      'The bytes never pass through the API.',
    params: IssuePath,
    body: z.object({
      filename: trimmed(1, 255),
      contentType: str(1, 255),
      size: z.int().check(z.minimum(0), z.maximum(100 * 1024 * 1024)),
    }),
    errors: { 403: ["You can't attach files to this issue."], 404: [TRACKER_MESSAGES.issueNotFound] },
    run: async (ctx) => created(await startAttachment(actorOf(ctx), ctx.params.issueKey, ctx.body)),
  }),
  route({
    method: 'POST',
    path: `${base}/attachments/:attachmentId/complete`,
    scope: 'issues:write',
    summary: 'Marks an attachment uploaded once its file is in the bucket with the size announced (else 409).',
    params: AttachmentPath,
    errors: { 404: ['Attachment not found'], 409: ['The file has not been uploaded yet.'] },
    run: async (ctx) =>
      ok({ attachment: await completeAttachment(actorOf(ctx), ctx.params.issueKey, ctx.params.attachmentId) }),
  }),
  route({
    method: 'GET',
    path: `${base}/attachments/:attachmentId`,
    scope: 'issues:read',
    summary: 'An uploaded attachment with a presigned download link (5 minutes).',
    params: AttachmentPath,
    errors: { 404: ['Attachment not found'] },
    run: async (ctx) => ok(await attachmentLink(actorOf(ctx), ctx.params.issueKey, ctx.params.attachmentId)),
  }),
  route({
    method: 'DELETE',
    path: `${base}/attachments/:attachmentId`,
    scope: 'issues:write',
    summary: 'Deletes an attachment and its file: its author, or holders of `deleteAttachments`.',
    params: AttachmentPath,
    errors: { 403: ["You can't delete this attachment."], 404: ['Attachment not found'] },
    run: async (ctx) => {
      await deleteAttachment(actorOf(ctx), ctx.params.issueKey, ctx.params.attachmentId);
      return noContent();
    },
  }),
  route({
    method: 'GET',
    path: `${base}/transitions`,
    scope: 'issues:read',
    summary:
      'The transitions open from the issue’s status, with the fields each asks for (Jira’s GET /issue/{key}/transitions).',
    params: IssuePath,
    errors: { 404: [TRACKER_MESSAGES.issueNotFound] },
    run: async (ctx) => {
      const { issue, space } = await requireIssue(actorOf(ctx), ctx.params.issueKey);
      const wf = workflowOf(space.config, issue.typeId);
      return ok({
        transitions: transitionsFrom(wf, issue.statusId).map((t) => ({
          id: t.id,
          name: t.name,
          to: t.to,
          fields: t.fields ?? [],
        })),
      });
    },
  }),
  route({
    method: 'POST',
    path: `${base}/transitions`,
    scope: 'issues:write',
    summary:
      'Moves the issue through a transition (`transition`: its id, its name or the target status); `fields` set ' +
      'what its screen asks for (missing ones: 409 naming them in `fields`).',
    params: IssuePath,
    body: z.object({ transition: str(1, 80), fields: z.optional(IssueEdit) }),
    errors: {
      403: [TRACKER_MESSAGES.cannotTransition],
      404: [TRACKER_MESSAGES.issueNotFound],
      409: [
        'No transition "<name>" from this issue\'s status.',
        'The transition "<name>" needs these fields: <fields>.',
        TRACKER_MESSAGES.issueChanged,
      ],
    },
    run: async (ctx) => {
      const actor = actorOf(ctx);
      const { issue, space } = await requireIssue(actor, ctx.params.issueKey, true);
      const t = findTransition(space, issue, ctx.body.transition);
      if (!t) throw new HttpError(409, `No transition "${ctx.body.transition}" from this issue's status.`);
      const next = await applyTransition(actor, space, issue, t, ctx.body.fields);
      return ok({ issue: present(next, space) });
    },
  }),
];
