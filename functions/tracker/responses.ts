import * as z from 'zod/mini';
import type { ResponseDocs } from '../../shared/http/responses';

/** Success responses of the tracker routes (see shared/http/responses.ts): documentation only. */
const Space = z.object({
  orgId: z.string(),
  spaceId: z.string(),
  key: z.string(),
  name: z.string(),
  description: z.string(),
  template: z.enum(['basic', 'service', 'scrum', 'kanban', 'bugs']),
  leadId: z.optional(z.string()),
  archived: z.boolean(),
  seq: z.number(),
  version: z.number(),
  createdAt: z.number(),
  updatedAt: z.number(),
  config: z.object({
    issueTypeIds: z.array(z.string()),
    defaultTypeId: z.string(),
    workflows: z.record(z.string(), z.string()),
    access: z.object({ visibility: z.enum(['org', 'private']), members: z.array(z.unknown()) }),
    securityLevels: z.array(z.unknown()),
    defaultAssignee: z.enum(['lead', 'unassigned']),
    estimation: z.enum(['count', 'storyPoints', 'originalEstimate']),
    boardId: z.optional(z.string()),
    formerKeys: z.optional(z.array(z.string())),
  }),
});
const Version = z.object({
  versionId: z.string(),
  spaceId: z.string(),
  name: z.string(),
  description: z.string(),
  released: z.boolean(),
  archived: z.boolean(),
  position: z.number(),
  data: z.object({}),
});
const Component = z.object({
  componentId: z.string(),
  spaceId: z.string(),
  name: z.string(),
  description: z.string(),
  defaultAssignee: z.enum(['space', 'lead', 'unassigned']),
});
export const Issue = z.object({
  orgId: z.string(),
  issueId: z.string(),
  spaceId: z.string(),
  number: z.number(),
  key: z.string(),
  typeId: z.string(),
  summary: z.string(),
  statusId: z.string(),
  statusCategory: z.enum(['todo', 'inprogress', 'done']),
  labels: z.array(z.string()),
  componentIds: z.array(z.string()),
  fixVersionIds: z.array(z.string()),
  affectsVersionIds: z.array(z.string()),
  closedSprintIds: z.array(z.string()),
  rank: z.string(),
  watchers: z.array(z.string()),
  voters: z.array(z.string()),
  fields: z.record(z.string(), z.unknown()),
  excerpt: z.string(),
  statusLog: z.array(z.tuple([z.string(), z.number()])),
  commentCount: z.number(),
  attachmentCount: z.number(),
  participants: z.array(z.string()),
  sla: z.record(z.string(), z.unknown()),
  version: z.number(),
  createdAt: z.number(),
  updatedAt: z.number(),
});
const IssueSummary = z.object({
  issueId: z.string(),
  key: z.string(),
  summary: z.string(),
  typeId: z.string(),
  statusId: z.string(),
  statusCategory: z.string(),
});
const Permissions = z.record(z.string(), z.boolean());

export const responses: ResponseDocs = {
  'GET /v1/orgs/:orgId/issues/spaces': { 200: z.object({ spaces: z.array(Space) }) },
  'POST /v1/orgs/:orgId/issues/spaces': { 201: z.object({ space: Space }) },
  'GET /v1/orgs/:orgId/issues/spaces/:spaceKey': {
    200: z.object({
      space: Space,
      permissions: Permissions,
      allPermissions: z.array(z.string()),
      versions: z.array(Version),
      components: z.array(Component),
    }),
  },
  'PATCH /v1/orgs/:orgId/issues/spaces/:spaceKey': { 200: z.object({ space: Space }) },
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
};

export { Component, IssueSummary, Space, Version };
