/**
 * The stored shapes of issue tracking (spec part C, "Space", "Board", "Sprint", "Tracked issue"):
 * field names exactly as the spec writes them. Pure types and constants, no I/O.
 */

import type * as z from 'zod/mini';
import type { Board, Estimation as EstimationSchema, Issue, Sprint } from './record-schemas';

export type SpaceTemplate = 'basic' | 'service' | 'scrum' | 'kanban' | 'bugs';
export type SpaceColor = 'gray' | 'blue' | 'green' | 'teal' | 'yellow' | 'orange' | 'red' | 'pink' | 'purple';
export type StatusCategory = 'todo' | 'inprogress' | 'done';
export type SpaceRole = 'admin' | 'viewer' | 'member';
export type Estimation = z.output<typeof EstimationSchema>;
export type NotificationEvent =
  | 'created'
  | 'deleted'
  | 'assigned'
  | 'updated'
  | 'transitioned'
  | 'commented'
  | 'mentioned'
  | 'resolved';
export type NotificationRecipient = 'participants' | 'assignee' | 'reporter' | 'lead' | 'watchers';

/** The 21 space permissions, in the spec's order. */
export const PERMISSIONS = [
  'browse',
  'create',
  'edit',
  'editOwn',
  'transition',
  'assign',
  'assignable',
  'delete',
  'deleteOwn',
  'comment',
  'editComments',
  'deleteComments',
  'attach',
  'deleteAttachments',
  'link',
  'worklog',
  'manageWatchers',
  'manageSprints',
  'move',
  'administer',
  'serviceAgent',
] as const;
export type Permission = (typeof PERMISSIONS)[number];
export type Permissions = Partial<Record<Permission, boolean>>;

export type SecurityGrant =
  | { type: 'spaceRole'; role: string }
  | { type: 'orgRole'; role: string }
  | { type: 'user'; id: string }
  | { type: 'team'; id: string }
  | { type: 'reporter' | 'assignee' | 'lead' | 'anyone' };

export interface SecurityLevel {
  id: string;
  name: string;
  description?: string;
  grants: SecurityGrant[];
}

export interface AccessMember {
  type: 'user' | 'team';
  id: string;
  role: SpaceRole;
}

export interface FieldSetting {
  required?: boolean;
  hidden?: boolean;
  description?: string;
}

export interface SlaDefinition {
  id: string;
  name: string;
  /** Conditions (event names) that start, pause and stop the clock. */
  start: string[];
  pause: string[];
  stop: string[];
  /** Goals: `{ jql?, minutes, calendar }` (first matching applies). */
  goals: SlaGoal[];
}

export interface SlaGoal {
  query?: string;
  /** Goal in minutes. */
  minutes: number;
  calendar: 'business' | 'always';
}

/** Business hours: `days` maps an ISO weekday (1 = Monday … 7 = Sunday) to "HH:MM-HH:MM" ranges. */
export interface ServiceHours {
  timeZone: string;
  days: Record<string, string[]>;
  /** YYYY-MM-DD dates with no business hours. */
  holidays: string[];
}

export interface ServiceDesk {
  requestTypes: {
    id: string;
    name: string;
    description?: string;
    icon?: string;
    typeId: string;
    group?: string;
    fields: string[];
    hidden?: boolean;
  }[];
  queues: { id: string; name: string; query: string; columns?: string[] }[];
  slas: SlaDefinition[];
  hours: ServiceHours;
  portal: { enabled: boolean; title: string; intro: string; access: 'any' | 'org' | 'listed'; customers: string[] };
  cannedResponses: { id: string; name: string; body: string }[];
  satisfaction: boolean;
}

export interface SpaceConfig {
  issueTypeIds: string[];
  defaultTypeId: string;
  /** Issue type id → workflow id. */
  workflows: Record<string, string>;
  screens: { create: Record<string, string>; edit: Record<string, string>; view: Record<string, string> };
  fieldSettings: Record<string, FieldSetting>;
  customFieldIds: string[];
  access: { visibility: 'org' | 'private'; members: AccessMember[] };
  permissionSchemeId?: string;
  securityLevels: SecurityLevel[];
  defaultSecurityLevelId?: string;
  notifications: Partial<Record<NotificationEvent, NotificationRecipient[]>>;
  defaultAssignee: 'lead' | 'unassigned';
  estimation: Estimation;
  boardId?: string;
  servicedesk?: ServiceDesk;
  formerKeys?: string[];
}

export interface Space {
  orgId: string;
  spaceId: string;
  key: string;
  name: string;
  description: string;
  template: SpaceTemplate;
  leadId?: string;
  icon?: string;
  color?: SpaceColor;
  archived: boolean;
  archivedAt?: number;
  /** The last issue number handed out in this space. */
  seq: number;
  version: number;
  createdAt: number;
  updatedAt: number;
  config: SpaceConfig;
}

/** A version and a component are stored as answered: their record schemas (./record-schemas.ts) are the source. */
/** The board and the sprint are answered as stored: their record schemas (./record-schemas.ts) are the source. */
export type { Board, Sprint, TrackerComponent as Component, TrackerVersion as Version } from './record-schemas';
export type BoardConfig = Board['config'];
export type BoardColumn = BoardConfig['columns'][number];
export type SprintState = Sprint['state'];
export type SprintReport = NonNullable<Sprint['data']['report']>;

export type FieldValue = boolean | null | string | number | string[] | { parent: string; child?: string };

export interface SlaClock {
  runningSince?: number;
  /** Milliseconds counted so far (business time for `business` calendars). */
  elapsed: number;
  paused?: boolean;
  stopped?: boolean;
  /** Goal in milliseconds. */
  goal?: number;
  calendar: 'business' | 'always';
  breached?: boolean;
  startedAt?: number;
  stoppedAt?: number;
}

export interface Approval {
  id: string;
  statusId: string;
  approvers: string[];
  needed: 'all' | 'one';
  decisions: { userId: string; decision: 'approved' | 'declined'; at: number }[];
  state: 'pending' | 'approved' | 'declined';
  createdAt: number;
  decidedAt?: number;
}

/**
 * One status change: [statusId, at (ms), by?]. The first entry is the status the issue was created
 * in; `by` is the person who made the change (absent in entries written before it was kept, and in
 * imported issues, whose history is the source's).
 */
export type StatusLogEntry = [string, number] | [string, number, string];

/** The fields besides status whose changes are kept, for JQL's WAS and CHANGED (as in Jira). */
export const HISTORY_FIELDS = {
  assignee: 'assigneeId',
  reporter: 'reporterId',
  priority: 'priorityId',
  resolution: 'resolutionId',
  fixVersion: 'fixVersionIds',
} as const;
export type HistoryField = keyof typeof HISTORY_FIELDS;

/** One change of a HISTORY_FIELDS field: [field, values before, values after, at (ms), by?]. */
export type FieldLogEntry =
  | [HistoryField, string[], string[], number]
  | [HistoryField, string[], string[], number, string];

/** The newest this many field changes are kept (an issue is one item of the table). */
export const MAX_FIELD_LOG = 300;

/**
 * An issue as stored: the answered record (`Issue` of ./record-schemas.ts) with its loose parts
 * typed exactly, and the fields it keeps but does not answer yet.
 */
export interface TrackedIssue extends Omit<Issue, 'fields' | 'fieldLog' | 'sla'> {
  securityLevelId?: string;
  fields: Record<string, FieldValue>;
  /** Changes of assignee, reporter, priority, resolution and fix versions, oldest first (absent: none yet). */
  fieldLog?: FieldLogEntry[];
  approvals?: Approval[];
  satisfaction?: number;
  satisfactionComment?: string;
  sla: Record<string, SlaClock>;
}
