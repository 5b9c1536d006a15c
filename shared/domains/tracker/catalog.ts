import type { SpaceConfig, SpaceTemplate, StatusCategory } from './model';
import type { WorkflowTransition } from './record-schemas';

/**
 * The tracker's built-in catalog, modelled on Jira Cloud: statuses, issue types, priorities,
 * resolutions, workflows (which statuses an issue type moves through, and the transitions between
 * them, some asking for fields as Jira's transition screens do) and the five space templates.
 * Ids are short stable slugs; requests may name any entry by id or by name (any case).
 */

export interface Status {
  id: string;
  name: string;
  category: StatusCategory;
}
export interface IssueType {
  id: string;
  name: string;
  /** 1: epic (a parent of standard issues), 0: standard, -1: subtask (needs a parent). */
  level: 1 | 0 | -1;
}
export interface Named {
  id: string;
  name: string;
}
/** A workflow's transition: its record schema (./record-schemas.ts) is the source. */
export type Transition = WorkflowTransition;
export interface Workflow {
  id: string;
  name: string;
  /** In board order; the first is where new issues start. */
  statuses: string[];
  transitions: Transition[];
}

export const STATUSES: Status[] = [
  { id: 'backlog', name: 'Backlog', category: 'todo' },
  { id: 'todo', name: 'To Do', category: 'todo' },
  { id: 'selected', name: 'Selected for Development', category: 'todo' },
  { id: 'open', name: 'Open', category: 'todo' },
  { id: 'reopened', name: 'Reopened', category: 'todo' },
  { id: 'waiting-support', name: 'Waiting for support', category: 'todo' },
  { id: 'inprogress', name: 'In Progress', category: 'inprogress' },
  { id: 'inreview', name: 'In Review', category: 'inprogress' },
  { id: 'waiting-customer', name: 'Waiting for customer', category: 'inprogress' },
  { id: 'done', name: 'Done', category: 'done' },
  { id: 'resolved', name: 'Resolved', category: 'done' },
  { id: 'closed', name: 'Closed', category: 'done' },
];

export const ISSUE_TYPES: IssueType[] = [
  { id: 'epic', name: 'Epic', level: 1 },
  { id: 'story', name: 'Story', level: 0 },
  { id: 'task', name: 'Task', level: 0 },
  { id: 'bug', name: 'Bug', level: 0 },
  { id: 'service-request', name: 'Service request', level: 0 },
  { id: 'incident', name: 'Incident', level: 0 },
  { id: 'problem', name: 'Problem', level: 0 },
  { id: 'change', name: 'Change', level: 0 },
  { id: 'subtask', name: 'Subtask', level: -1 },
];

export const PRIORITIES: Named[] = [
  { id: 'highest', name: 'Highest' },
  { id: 'high', name: 'High' },
  { id: 'medium', name: 'Medium' },
  { id: 'low', name: 'Low' },
  { id: 'lowest', name: 'Lowest' },
];
export const DEFAULT_PRIORITY = 'medium';

export const RESOLUTIONS: Named[] = [
  { id: 'done', name: 'Done' },
  { id: 'wont-do', name: "Won't Do" },
  { id: 'duplicate', name: 'Duplicate' },
  { id: 'cannot-reproduce', name: 'Cannot Reproduce' },
];

/** Every status reachable from any other, each transition named after its target (team-managed). */
const simplified = (id: string, name: string, statuses: string[]): Workflow => ({
  id,
  name,
  statuses,
  transitions: statuses.map((to) => ({ id: to, name: statusById(to)?.name ?? to, to })),
});

export const WORKFLOWS: Workflow[] = [
  simplified('software', 'Software simplified workflow', ['todo', 'inprogress', 'inreview', 'done']),
  simplified('kanban', 'Kanban workflow', ['backlog', 'selected', 'inprogress', 'done']),
  simplified('basic', 'Basic workflow', ['todo', 'inprogress', 'done']),
  {
    id: 'classic',
    name: 'Jira workflow',
    statuses: ['open', 'inprogress', 'resolved', 'reopened', 'closed'],
    transitions: [
      { id: 'start', name: 'Start Progress', from: ['open', 'reopened'], to: 'inprogress' },
      { id: 'stop', name: 'Stop Progress', from: ['inprogress'], to: 'open' },
      {
        id: 'resolve',
        name: 'Resolve Issue',
        from: ['open', 'inprogress', 'reopened'],
        to: 'resolved',
        fields: ['resolution'],
      },
      {
        id: 'close',
        name: 'Close Issue',
        from: ['open', 'inprogress', 'resolved', 'reopened'],
        to: 'closed',
        fields: ['resolution'],
      },
      { id: 'reopen', name: 'Reopen Issue', from: ['resolved', 'closed'], to: 'reopened' },
    ],
  },
  {
    id: 'service',
    name: 'Service management workflow',
    statuses: ['waiting-support', 'waiting-customer', 'inprogress', 'resolved', 'closed'],
    transitions: [
      { id: 'respond', name: 'Respond to customer', from: ['waiting-support', 'inprogress'], to: 'waiting-customer' },
      { id: 'support', name: 'Back to support', from: ['waiting-customer', 'inprogress'], to: 'waiting-support' },
      { id: 'start', name: 'Start progress', from: ['waiting-support', 'waiting-customer'], to: 'inprogress' },
      {
        id: 'resolve',
        name: 'Resolve this issue',
        from: ['waiting-support', 'waiting-customer', 'inprogress'],
        to: 'resolved',
        fields: ['resolution'],
      },
      { id: 'close', name: 'Close', from: ['resolved'], to: 'closed' },
      { id: 'reopen', name: 'Reopen', from: ['resolved', 'closed'], to: 'waiting-support' },
    ],
  },
];

export function statusById(id: string): Status | undefined {
  return STATUSES.find((s) => s.id === id);
}
export function workflowById(id: string): Workflow | undefined {
  return WORKFLOWS.find((w) => w.id === id);
}
export function typeById(id: string): IssueType | undefined {
  return ISSUE_TYPES.find((t) => t.id === id);
}

/** An entry of `list` named by id or by name (any case; spaces, hyphens and underscores ignored: Sub-task is Subtask). */
export function findNamed<T extends Named>(list: readonly T[], value: string): T | undefined {
  const fold = (v: string) =>
    v
      .trim()
      .toLowerCase()
      .replace(/[\s_-]+/g, '');
  const v = fold(value);
  return list.find((x) => x.id === value) ?? list.find((x) => fold(x.name) === v || fold(x.id) === v);
}

interface Template {
  types: string[];
  defaultType: string;
  workflow: string;
  board: 'scrum' | 'kanban';
  estimation: SpaceConfig['estimation'];
}

export const TEMPLATES: Record<SpaceTemplate, Template> = {
  scrum: {
    types: ['epic', 'story', 'task', 'bug', 'subtask'],
    defaultType: 'story',
    workflow: 'software',
    board: 'scrum',
    estimation: 'storyPoints',
  },
  kanban: {
    types: ['epic', 'story', 'task', 'bug', 'subtask'],
    defaultType: 'task',
    workflow: 'kanban',
    board: 'kanban',
    estimation: 'count',
  },
  basic: {
    types: ['epic', 'task', 'subtask'],
    defaultType: 'task',
    workflow: 'basic',
    board: 'kanban',
    estimation: 'count',
  },
  bugs: {
    types: ['bug', 'task', 'epic', 'subtask'],
    defaultType: 'bug',
    workflow: 'classic',
    board: 'kanban',
    estimation: 'count',
  },
  service: {
    types: ['service-request', 'incident', 'problem', 'change', 'task', 'subtask'],
    defaultType: 'service-request',
    workflow: 'service',
    board: 'kanban',
    estimation: 'count',
  },
};

const SCREEN = {
  summary: 'required',
  description: 'optional',
  assignee: 'optional',
  priority: 'optional',
  labels: 'optional',
};

/** A new space's configuration from its template (Jira's defaults). */
export function templateConfig(template: SpaceTemplate): SpaceConfig {
  const t = TEMPLATES[template];
  const config: SpaceConfig = {
    issueTypeIds: [...t.types],
    defaultTypeId: t.defaultType,
    workflows: Object.fromEntries(t.types.map((type) => [type, t.workflow])),
    screens: { create: { ...SCREEN }, edit: { ...SCREEN }, view: { ...SCREEN } },
    fieldSettings: {},
    customFieldIds: [],
    access: { visibility: 'org', members: [] },
    securityLevels: [],
    notifications: {
      created: ['watchers', 'reporter', 'assignee'],
      assigned: ['assignee'],
      updated: ['watchers', 'reporter', 'assignee'],
      transitioned: ['watchers', 'reporter', 'assignee'],
      commented: ['watchers', 'reporter', 'assignee'],
      mentioned: ['participants'],
      resolved: ['watchers', 'reporter', 'assignee'],
      deleted: ['watchers', 'reporter', 'assignee'],
    },
    defaultAssignee: 'unassigned',
    estimation: t.estimation,
  };
  if (template === 'service') {
    config.servicedesk = {
      requestTypes: [
        { id: 'get-help', name: 'Get IT help', typeId: 'service-request', fields: ['summary', 'description'] },
        {
          id: 'report-incident',
          name: 'Report a system problem',
          typeId: 'incident',
          fields: ['summary', 'description'],
        },
      ],
      queues: [
        { id: 'open', name: 'All open', query: 'resolution IS EMPTY ORDER BY created DESC' },
        { id: 'mine', name: 'Assigned to me', query: 'assignee = currentUser() AND resolution IS EMPTY' },
      ],
      slas: [
        {
          id: 'first-response',
          name: 'Time to first response',
          start: ['created'],
          pause: ['status:waiting-customer'],
          stop: ['commented', 'status:waiting-customer', 'resolved'],
          goals: [{ minutes: 4 * 60, calendar: 'business' }],
        },
        {
          id: 'resolution',
          name: 'Time to resolution',
          start: ['created'],
          pause: ['status:waiting-customer'],
          stop: ['resolved'],
          goals: [{ minutes: 16 * 60, calendar: 'business' }],
        },
      ],
      hours: {
        timeZone: 'UTC',
        days: { 1: ['09:00-17:00'], 2: ['09:00-17:00'], 3: ['09:00-17:00'], 4: ['09:00-17:00'], 5: ['09:00-17:00'] },
        holidays: [],
      },
      portal: {
        enabled: true,
        title: 'Help center',
        intro: 'Welcome! You can raise a request from the options provided.',
        access: 'org',
        customers: [],
      },
      cannedResponses: [],
      satisfaction: true,
    };
  }
  return config;
}

/** The statuses an issue of `typeId` moves through in a space (its workflow's). */
export function workflowOf(config: SpaceConfig, typeId: string): Workflow {
  const id = config.workflows[typeId] ?? config.workflows[config.defaultTypeId] ?? Object.values(config.workflows)[0];
  return workflowById(id ?? '') ?? (workflowById('basic') as Workflow);
}

/** The transitions available from `statusId` in `workflow`. */
export function transitionsFrom(workflow: Workflow, statusId: string): Transition[] {
  return workflow.transitions.filter((t) => t.to !== statusId && (!t.from || t.from.includes(statusId)));
}
