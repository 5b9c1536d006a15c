import * as z from 'zod/mini';

/**
 * The records the tracker routes answer, each declared once and registered by its id: lib/openapi.ts names them
 * in `components.schemas`, the typed client declares a type of each. Only documentation
 * (functions/<group>/responses.ts) imports these values, so they stay out of the Lambda bundles; code
 * imports their types.
 */

export const Estimation = z.enum(['count', 'storyPoints', 'originalEstimate']);

/** Who a security level lets see its issues. */
const SecurityGrant = z.union([
  z.object({ type: z.literal('spaceRole'), role: z.string() }),
  z.object({ type: z.literal('orgRole'), role: z.string() }),
  z.object({ type: z.literal('user'), id: z.string() }),
  z.object({ type: z.literal('team'), id: z.string() }),
  z.object({ type: z.enum(['reporter', 'assignee', 'lead', 'anyone']) }),
]);

const SlaDefinition = z.object({
  id: z.string(),
  name: z.string(),
  /** Conditions (event names) that start, pause and stop the clock. */
  start: z.array(z.string()),
  pause: z.array(z.string()),
  stop: z.array(z.string()),
  /** Goals: `{ query?, minutes, calendar }` (the first matching applies). */
  goals: z.array(
    z.object({
      query: z.optional(z.string()),
      /** Goal in minutes. */
      minutes: z.number(),
      calendar: z.enum(['business', 'always']),
    }),
  ),
});

/** A service space's desk: request types, queues, SLAs, business hours, portal, canned responses. */
const ServiceDesk = z.object({
  requestTypes: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      description: z.optional(z.string()),
      icon: z.optional(z.string()),
      typeId: z.string(),
      group: z.optional(z.string()),
      fields: z.array(z.string()),
      hidden: z.optional(z.boolean()),
    }),
  ),
  queues: z.array(
    z.object({ id: z.string(), name: z.string(), query: z.string(), columns: z.optional(z.array(z.string())) }),
  ),
  slas: z.array(SlaDefinition),
  /** Business hours: `days` maps an ISO weekday (1 = Monday … 7 = Sunday) to "HH:MM-HH:MM" ranges. */
  hours: z.object({
    timeZone: z.string(),
    days: z.record(z.string(), z.array(z.string())),
    /** YYYY-MM-DD dates with no business hours. */
    holidays: z.array(z.string()),
  }),
  portal: z.object({
    enabled: z.boolean(),
    title: z.string(),
    intro: z.string(),
    access: z.enum(['any', 'org', 'listed']),
    customers: z.array(z.string()),
  }),
  cannedResponses: z.array(z.object({ id: z.string(), name: z.string(), body: z.string() })),
  satisfaction: z.boolean(),
});

const ScreenFields = z.record(z.string(), z.string());

/** A space as stored and answered (spec part C, "Space"). */
export const TrackerSpace = z
  .object({
    orgId: z.string(),
    spaceId: z.string(),
    key: z.string(),
    name: z.string(),
    description: z.string(),
    template: z.enum(['basic', 'service', 'scrum', 'kanban', 'bugs']),
    leadId: z.optional(z.string()),
    icon: z.optional(z.string()),
    color: z.optional(z.enum(['gray', 'blue', 'green', 'teal', 'yellow', 'orange', 'red', 'pink', 'purple'])),
    archived: z.boolean(),
    archivedAt: z.optional(z.number()),
    /** The last issue number handed out in this space. */
    seq: z.number(),
    version: z.number(),
    createdAt: z.number(),
    updatedAt: z.number(),
    config: z.object({
      issueTypeIds: z.array(z.string()),
      defaultTypeId: z.string(),
      /** Issue type id → workflow id. */
      workflows: z.record(z.string(), z.string()),
      screens: z.object({ create: ScreenFields, edit: ScreenFields, view: ScreenFields }),
      fieldSettings: z.record(
        z.string(),
        z.object({
          required: z.optional(z.boolean()),
          hidden: z.optional(z.boolean()),
          description: z.optional(z.string()),
        }),
      ),
      customFieldIds: z.array(z.string()),
      access: z.object({
        visibility: z.enum(['org', 'private']),
        members: z.array(
          z.object({ type: z.enum(['user', 'team']), id: z.string(), role: z.enum(['admin', 'viewer', 'member']) }),
        ),
      }),
      permissionSchemeId: z.optional(z.string()),
      securityLevels: z.array(
        z.object({
          id: z.string(),
          name: z.string(),
          description: z.optional(z.string()),
          grants: z.array(SecurityGrant),
        }),
      ),
      defaultSecurityLevelId: z.optional(z.string()),
      notifications: z.partialRecord(
        z.enum(['created', 'deleted', 'assigned', 'updated', 'transitioned', 'commented', 'mentioned', 'resolved']),
        z.array(z.enum(['participants', 'assignee', 'reporter', 'lead', 'watchers'])),
      ),
      defaultAssignee: z.enum(['lead', 'unassigned']),
      estimation: Estimation,
      boardId: z.optional(z.string()),
      servicedesk: z.optional(ServiceDesk),
      formerKeys: z.optional(z.array(z.string())),
    }),
  })
  .register(z.globalRegistry, { id: 'TrackerSpace' });
export type TrackerSpace = z.output<typeof TrackerSpace>;

export const TrackerVersion = z
  .object({
    versionId: z.string(),
    spaceId: z.string(),
    name: z.string(),
    description: z.string(),
    startDate: z.optional(z.string()),
    releaseDate: z.optional(z.string()),
    released: z.boolean(),
    releasedAt: z.optional(z.number()),
    archived: z.boolean(),
    position: z.number(),
    /** What the version was deployed as (the deployments group records it). */
    data: z.object({
      deployments: z.optional(
        z.array(
          z.object({ deploymentId: z.string(), projectId: z.string(), label: z.optional(z.string()), at: z.number() }),
        ),
      ),
    }),
  })
  .register(z.globalRegistry, { id: 'TrackerVersion' });
export type TrackerVersion = z.output<typeof TrackerVersion>;

export const TrackerComponent = z
  .object({
    componentId: z.string(),
    spaceId: z.string(),
    name: z.string(),
    description: z.string(),
    leadId: z.optional(z.string()),
    defaultAssignee: z.enum(['space', 'lead', 'unassigned']),
  })
  .register(z.globalRegistry, { id: 'TrackerComponent' });
export type TrackerComponent = z.output<typeof TrackerComponent>;

export const Issue = z
  .object({
    orgId: z.string(),
    issueId: z.string(),
    spaceId: z.string(),
    number: z.number(),
    key: z.string(),
    typeId: z.string(),
    summary: z.string(),
    statusId: z.string(),
    statusCategory: z.enum(['todo', 'inprogress', 'done']),
    statusChangedAt: z.optional(z.number()),
    resolutionId: z.optional(z.string()),
    resolvedAt: z.optional(z.number()),
    priorityId: z.optional(z.string()),
    assigneeId: z.optional(z.string()),
    reporterId: z.optional(z.string()),
    creatorId: z.optional(z.string()),
    labels: z.array(z.string()),
    componentIds: z.array(z.string()),
    fixVersionIds: z.array(z.string()),
    affectsVersionIds: z.array(z.string()),
    /** YYYY-MM-DD. */
    dueDate: z.optional(z.string()),
    /** YYYY-MM-DD. */
    startDate: z.optional(z.string()),
    storyPoints: z.optional(z.number()),
    originalEstimate: z.optional(z.number()),
    remainingEstimate: z.optional(z.number()),
    timeSpent: z.optional(z.number()),
    environment: z.optional(z.string()),
    parentId: z.optional(z.string()),
    sprintId: z.optional(z.string()),
    closedSprintIds: z.array(z.string()),
    rank: z.string(),
    watchers: z.array(z.string()),
    voters: z.array(z.string()),
    fields: z.record(z.string(), z.unknown()),
    excerpt: z.string(),
    /** [statusId, at, by?]: who made the change, when known. */
    statusLog: z.array(z.union([z.tuple([z.string(), z.number()]), z.tuple([z.string(), z.number(), z.string()])])),
    /** [field, before, after, at, by?]: changes of assignee, reporter, priority, resolution and fixVersion. */
    fieldLog: z.optional(
      z.array(
        z.union([
          z.tuple([z.string(), z.array(z.string()), z.array(z.string()), z.number()]),
          z.tuple([z.string(), z.array(z.string()), z.array(z.string()), z.number(), z.string()]),
        ]),
      ),
    ),
    commentCount: z.number(),
    attachmentCount: z.number(),
    requestTypeId: z.optional(z.string()),
    channel: z.optional(z.string()),
    participants: z.array(z.string()),
    requesterEmail: z.optional(z.string()),
    emailParticipants: z.optional(z.array(z.string())),
    sla: z.record(z.string(), z.unknown()),
    version: z.number(),
    createdAt: z.number(),
    updatedAt: z.number(),
  })
  .register(z.globalRegistry, { id: 'Issue' });
export type Issue = z.output<typeof Issue>;

export const IssueSummary = z
  .object({
    issueId: z.string(),
    key: z.string(),
    summary: z.string(),
    typeId: z.string(),
    statusId: z.string(),
    statusCategory: z.string(),
  })
  .register(z.globalRegistry, { id: 'IssueSummary' });
export type IssueSummary = z.output<typeof IssueSummary>;

export const Permissions = z.record(z.string(), z.boolean());

/** A quick filter or a swimlane: a named JQL query. */
const NamedQuery = z.object({ id: z.string(), name: z.string(), query: z.string() });

export const Board = z
  .object({
    boardId: z.string(),
    name: z.string(),
    ownerId: z.optional(z.string()),
    version: z.number(),
    createdAt: z.number(),
    updatedAt: z.number(),
    config: z.object({
      type: z.enum(['scrum', 'kanban']),
      spaceIds: z.array(z.string()),
      query: z.optional(z.string()),
      columns: z.array(
        z.object({
          id: z.string(),
          name: z.string(),
          statusIds: z.array(z.string()),
          min: z.optional(z.number()),
          max: z.optional(z.number()),
        }),
      ),
      swimlanes: z.enum(['query', 'none', 'assignee', 'priority', 'parent', 'epic']),
      swimlaneQueries: z.optional(z.array(NamedQuery)),
      quickFilters: z.array(NamedQuery),
      cardFields: z.array(z.string()),
      estimation: Estimation,
      hideDoneAfterDays: z.optional(z.number()),
      kanbanBacklog: z.optional(z.boolean()),
      wipExcludesSubtasks: z.optional(z.boolean()),
      sharing: z.object({ org: z.boolean(), teams: z.array(z.string()), users: z.array(z.string()) }),
    }),
  })
  .register(z.globalRegistry, { id: 'Board' });
export type Board = z.output<typeof Board>;

export const Sprint = z
  .object({
    sprintId: z.string(),
    boardId: z.string(),
    name: z.string(),
    goal: z.string(),
    state: z.enum(['active', 'closed', 'future']),
    startDate: z.optional(z.number()),
    endDate: z.optional(z.number()),
    completedAt: z.optional(z.number()),
    position: z.number(),
    createdAt: z.number(),
    data: z.object({
      capacity: z.optional(z.number()),
      report: z.optional(
        z.object({
          committed: z.number(),
          added: z.number(),
          removed: z.number(),
          completed: z.number(),
          incomplete: z.number(),
          completedIssueIds: z.array(z.string()),
          incompleteIssueIds: z.array(z.string()),
          carriedTo: z.optional(z.string()),
        }),
      ),
    }),
  })
  .register(z.globalRegistry, { id: 'Sprint' });
export type Sprint = z.output<typeof Sprint>;

export const IssuePage = z
  .object({
    issues: z.array(Issue),
    total: z.number(),
    startAt: z.number(),
    maxResults: z.number(),
    scanned: z.number(),
  })
  .register(z.globalRegistry, { id: 'IssuePage' });
export type IssuePage = z.output<typeof IssuePage>;

export const IssueComment = z
  .object({
    commentId: z.string(),
    issueId: z.string(),
    authorId: z.string(),
    body: z.string(),
    createdAt: z.number(),
    updatedAt: z.number(),
  })
  .register(z.globalRegistry, { id: 'IssueComment' });
export type IssueComment = z.output<typeof IssueComment>;

export const Worklog = z
  .object({
    worklogId: z.string(),
    issueId: z.string(),
    authorId: z.string(),
    /** Seconds. */
    timeSpent: z.number(),
    started: z.number(),
    comment: z.string(),
    createdAt: z.number(),
  })
  .register(z.globalRegistry, { id: 'Worklog' });
export type Worklog = z.output<typeof Worklog>;

export const IssueLink = z
  .object({
    linkId: z.string(),
    type: z.string(),
    direction: z.enum(['outward', 'inward']),
    /** The other issue. */
    issueId: z.string(),
    label: z.string(),
    createdAt: z.number(),
  })
  .register(z.globalRegistry, { id: 'IssueLink' });
export type IssueLink = z.output<typeof IssueLink>;

export const IssueAttachment = z
  .object({
    attachmentId: z.string(),
    issueId: z.string(),
    filename: z.string(),
    contentType: z.string(),
    size: z.number(),
    authorId: z.string(),
    uploaded: z.boolean(),
    createdAt: z.number(),
  })
  .register(z.globalRegistry, { id: 'IssueAttachment' });
export type IssueAttachment = z.output<typeof IssueAttachment>;

export const IssueTransition = z
  .object({
    id: z.string(),
    name: z.string(),
    to: z.string(),
    /** Fields the transition screen asks for (e.g. `resolution`); a workflow's transition may leave them out: none. */
    fields: z.array(z.string()),
  })
  .register(z.globalRegistry, { id: 'IssueTransition' });
export type IssueTransition = z.output<typeof IssueTransition>;

/** A transition of a workflow (the tracker's catalog, ./catalog.ts), which the issue's transitions answer. */
export const WorkflowTransition = z.extend(z.partial(IssueTransition, { fields: true }), {
  /** Statuses it leaves from; absent: any status (Jira's "global" transition). */
  from: z.optional(z.array(z.string())),
});
export type WorkflowTransition = z.output<typeof WorkflowTransition>;

export const IssueCounts = z
  .object({ total: z.number(), done: z.number() })
  .register(z.globalRegistry, { id: 'IssueCounts' });
export type IssueCounts = z.output<typeof IssueCounts>;

/** A board column's load against its WIP limits (warned about, not enforced). */
export const ColumnLoad = z
  .object({
    id: z.string(),
    count: z.number(),
    min: z.optional(z.number()),
    max: z.optional(z.number()),
    wipExceeded: z.boolean(),
    wipBelowMin: z.boolean(),
  })
  .register(z.globalRegistry, { id: 'ColumnLoad' });
export type ColumnLoad = z.output<typeof ColumnLoad>;
