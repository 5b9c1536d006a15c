import * as z from 'zod/mini';
import {
  Board,
  ColumnLoad,
  Issue,
  IssueAttachment,
  IssueComment,
  IssueCounts,
  IssueLink,
  IssuePage,
  IssueSummary,
  IssueTransition,
  Permissions,
  Sprint,
  TrackerComponent,
  TrackerSpace,
  TrackerVersion,
  Worklog,
} from '../../shared/domains/tracker/record-schemas';
import { fileAnswer, type ResponseDocs, seeOther } from '../../shared/kernel/http/responses';

/** Success responses of the tracker routes (see shared/kernel/http/responses.ts): documentation only. */

export const responses: ResponseDocs = {
  'GET /v1/orgs/:orgId/issues/spaces': { 200: z.object({ spaces: z.array(TrackerSpace) }) },
  'POST /v1/orgs/:orgId/issues/spaces': { 201: z.object({ space: TrackerSpace }) },
  'GET /v1/orgs/:orgId/issues/spaces/:spaceKey': {
    200: z.object({
      space: TrackerSpace,
      permissions: Permissions,
      allPermissions: z.array(z.string()),
      versions: z.array(TrackerVersion),
      components: z.array(TrackerComponent),
    }),
  },
  'PATCH /v1/orgs/:orgId/issues/spaces/:spaceKey': { 200: z.object({ space: TrackerSpace }) },
  'GET /v1/orgs/:orgId/issues/labels': { 200: z.object({ labels: z.array(z.string()) }) },
  'POST /v1/orgs/:orgId/issues': { 201: z.object({ issue: Issue }) },
  'GET /v1/orgs/:orgId/issues/:issueKey': {
    200: z.object({
      issue: Issue,
      space: z.object({ spaceId: z.string(), key: z.string(), name: z.string(), template: z.string() }),
      description: z.string(),
      comments: z.array(z.unknown()),
      links: z.array(z.unknown()),
      worklogs: z.array(z.unknown()),
      attachments: z.array(z.unknown()),
      children: z.array(IssueSummary),
      parent: z.nullable(IssueSummary),
      transitions: z.array(z.object({ id: z.string(), name: z.string(), to: z.string(), fields: z.array(z.string()) })),
      permissions: Permissions,
    }),
  },
  'PUT /v1/orgs/:orgId/issues/:issueKey': { 200: z.object({ issue: Issue }) },
  'GET /v1/orgs/:orgId/issues/boards': { 200: z.object({ boards: z.array(Board) }) },
  'POST /v1/orgs/:orgId/issues/boards': { 201: z.object({ board: Board }) },
  'GET /v1/orgs/:orgId/issues/boards/:boardId': { 200: z.object({ board: Board }) },
  'PATCH /v1/orgs/:orgId/issues/boards/:boardId': { 200: z.object({ board: Board }) },
  'DELETE /v1/orgs/:orgId/issues/boards/:boardId': { 200: z.object({ boardId: z.string() }) },
  'GET /v1/orgs/:orgId/issues/boards/:boardId/issues': {
    200: z.object({
      board: Board,
      issues: z.array(Issue),
      columns: z.array(ColumnLoad),
      sprints: z.array(Sprint),
      lanes: z.record(z.string(), z.string()),
      parents: z.record(
        z.string(),
        z.object({
          issueId: z.string(),
          key: z.string(),
          summary: z.string(),
          typeId: z.string(),
          statusId: z.string(),
          parentId: z.optional(z.string()),
        }),
      ),
      subtasks: z.record(z.string(), IssueCounts),
      spaces: z.array(z.object({ spaceId: z.string(), key: z.string(), name: z.string() })),
    }),
  },
  'GET /v1/orgs/:orgId/issues/boards/:boardId/backlog': {
    200: z.object({
      board: Board,
      sprints: z.array(z.extend(Sprint, { issueIds: z.array(z.string()) })),
      issues: z.array(Issue),
      backlogIds: z.array(z.string()),
      epics: z.array(
        z.object({
          issueId: z.string(),
          key: z.string(),
          summary: z.string(),
          statusCategory: z.string(),
          progress: z.object({ total: z.number(), done: z.number(), points: z.number() }),
        }),
      ),
      subtaskCounts: z.record(z.string(), z.extend(IssueCounts, { points: z.number() })),
    }),
  },
  'POST /v1/orgs/:orgId/issues/boards/:boardId/move': {
    200: z.object({ issue: Issue, transition: z.nullable(z.string()), column: z.optional(ColumnLoad) }),
  },
  'GET /v1/orgs/:orgId/issues/boards/:boardId/sprints': { 200: z.object({ sprints: z.array(Sprint) }) },
  'POST /v1/orgs/:orgId/issues/boards/:boardId/sprints': { 201: z.object({ sprint: Sprint }) },
  'GET /v1/orgs/:orgId/issues/boards/:boardId/velocity': {
    200: z.object({
      estimation: z.string(),
      sprints: z.array(
        z.object({
          sprintId: z.string(),
          name: z.string(),
          completedAt: z.nullable(z.number()),
          committed: z.number(),
          completed: z.number(),
        }),
      ),
    }),
  },
  'GET /v1/orgs/:orgId/issues/sprints/:sprintId': { 200: z.object({ sprint: Sprint }) },
  'PATCH /v1/orgs/:orgId/issues/sprints/:sprintId': { 200: z.object({ sprint: Sprint }) },
  'DELETE /v1/orgs/:orgId/issues/sprints/:sprintId': { 200: z.object({ sprintId: z.string() }) },
  'GET /v1/orgs/:orgId/issues/:issueKey/comments': { 200: z.object({ comments: z.array(IssueComment) }) },
  'POST /v1/orgs/:orgId/issues/:issueKey/comments': { 201: z.object({ comment: IssueComment }) },
  'PATCH /v1/orgs/:orgId/issues/:issueKey/comments/:commentId': { 200: z.object({ comment: IssueComment }) },
  'DELETE /v1/orgs/:orgId/issues/:issueKey/comments/:commentId': { 204: null },
  'GET /v1/orgs/:orgId/issues/:issueKey/worklogs': { 200: z.object({ worklogs: z.array(Worklog) }) },
  'POST /v1/orgs/:orgId/issues/:issueKey/worklogs': { 201: z.object({ worklog: Worklog, issue: Issue }) },
  'POST /v1/orgs/:orgId/issues/:issueKey/links': { 201: z.object({ link: IssueLink }) },
  'DELETE /v1/orgs/:orgId/issues/:issueKey/links/:linkId': { 204: null },
  'POST /v1/orgs/:orgId/issues/:issueKey/attachments': {
    201: z.object({
      attachment: IssueAttachment,
      upload: z.object({ url: z.string(), method: z.literal('PUT'), headers: z.record(z.string(), z.string()) }),
    }),
  },
  'POST /v1/orgs/:orgId/issues/:issueKey/attachments/:attachmentId/complete': {
    200: z.object({ attachment: IssueAttachment }),
  },
  'GET /v1/orgs/:orgId/issues/:issueKey/attachments/:attachmentId': {
    200: z.object({ attachment: IssueAttachment, url: z.string() }),
  },
  'DELETE /v1/orgs/:orgId/issues/:issueKey/attachments/:attachmentId': { 204: null },
  'GET /v1/orgs/:orgId/issues/:issueKey/transitions': { 200: z.object({ transitions: z.array(IssueTransition) }) },
  'POST /v1/orgs/:orgId/issues/:issueKey/transitions': { 200: z.object({ issue: Issue }) },
  'POST /v1/orgs/:orgId/issues/spaces/:spaceKey/versions': { 201: z.object({ version: TrackerVersion }) },
  'PATCH /v1/orgs/:orgId/issues/spaces/:spaceKey/versions/:versionId': { 200: z.object({ version: TrackerVersion }) },
  'DELETE /v1/orgs/:orgId/issues/spaces/:spaceKey/versions/:versionId': { 204: null },
  'POST /v1/orgs/:orgId/issues/spaces/:spaceKey/components': { 201: z.object({ component: TrackerComponent }) },
  'PATCH /v1/orgs/:orgId/issues/spaces/:spaceKey/components/:componentId': {
    200: z.object({ component: TrackerComponent }),
  },
  'DELETE /v1/orgs/:orgId/issues/spaces/:spaceKey/components/:componentId': { 204: null },
  'GET /v1/orgs/:orgId/issues': { 200: IssuePage },
  // The file: Jira's CSV layout (`format=csv`) or the JSON export (`format=json`); a larger one by link.
  'GET /v1/orgs/:orgId/issues/export': {
    200: fileAnswer(
      {
        'text/csv': z.string(),
        'application/json': z.object({
          format: z.literal('tracker-issues/1'),
          exportedAt: z.number(),
          total: z.number(),
          issues: z.array(Issue),
        }),
      },
      '`attachment; filename="issues.csv"` (`issues.json` with `format=json`).',
    ),
    303: seeOther('A link to the file, valid 5 minutes (`GET` it without a token). Files over 4 MB.'),
  },
  'POST /v1/orgs/:orgId/issues/import': {
    200: z.object({
      total: z.number(),
      processed: z.number(),
      done: z.boolean(),
      nextRow: z.nullable(z.number()),
      keyMap: z.record(z.string(), z.string()),
      results: z.array(
        z.object({
          row: z.number(),
          key: z.optional(z.string()),
          from: z.optional(z.string()),
          error: z.optional(z.string()),
          warnings: z.optional(z.array(z.string())),
        }),
      ),
    }),
  },
  'POST /v1/orgs/:orgId/issues/import/upload': {
    200: z.object({
      upload: z.object({
        url: z.string(),
        method: z.literal('PUT'),
        headers: z.record(z.string(), z.string()),
        expiresAt: z.string(),
      }),
      file: z.string(),
    }),
  },
  'POST /v1/orgs/:orgId/issues/search': { 200: IssuePage },
  'POST /v1/orgs/:orgId/issues/rank': {
    200: z.object({ issues: z.array(z.object({ issueId: z.string(), key: z.string(), rank: z.string() })) }),
  },
  'POST /v1/orgs/:orgId/issues/bulk': {
    200: z.object({
      results: z.array(
        z.union([
          z.object({ issue: z.string(), ok: z.literal(true), key: z.optional(z.string()) }),
          z.object({ issue: z.string(), ok: z.literal(false), error: z.string() }),
        ]),
      ),
      done: z.number(),
      failed: z.number(),
    }),
  },
};
