/**
 * The stored shapes of issue tracking (spec part C, "Space", "Board", "Sprint", "Tracked issue"):
 * field names exactly as the spec writes them. Pure types and constants, no I/O.
 */

import type * as z from 'zod/mini';
import type { Board, Estimation as EstimationSchema, Issue, Sprint, TrackerSpace } from './record-schemas';

/** A space is stored as answered: its record schema (./record-schemas.ts) is the source, and its parts' types come from it. */
export type Space = TrackerSpace;
export type SpaceConfig = Space['config'];
export type SpaceTemplate = Space['template'];
export type SpaceColor = NonNullable<Space['color']>;
export type AccessMember = SpaceConfig['access']['members'][number];
export type SpaceRole = AccessMember['role'];
export type SecurityLevel = SpaceConfig['securityLevels'][number];
export type SecurityGrant = SecurityLevel['grants'][number];
export type FieldSetting = SpaceConfig['fieldSettings'][string];
export type NotificationEvent = keyof SpaceConfig['notifications'];
export type NotificationRecipient = NonNullable<SpaceConfig['notifications'][NotificationEvent]>[number];
export type ServiceDesk = NonNullable<SpaceConfig['servicedesk']>;
export type SlaDefinition = ServiceDesk['slas'][number];
export type SlaGoal = SlaDefinition['goals'][number];
export type ServiceHours = ServiceDesk['hours'];
export type StatusCategory = 'todo' | 'inprogress' | 'done';
export type Estimation = z.output<typeof EstimationSchema>;

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
