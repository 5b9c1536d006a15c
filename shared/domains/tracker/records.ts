import type { Role } from '../../kernel/auth/scopes';
import { PREFIXES } from '../../kernel/store/keys';
import { orgPk } from '../../kernel/store/table';

/**
 * Where the tracker keeps its records in the platform table, all under the organization's
 * partition (`ORG#<orgId>`), so an organization's deletion takes them along:
 *
 * - a space `TSPACE#<spaceId>`; each key it has had `TSPACEKEY#<KEY>` → its spaceId (created in a
 *   transaction with `attribute_not_exists`, so a key is unique in the organization, and a former key
 *   keeps resolving and stays taken);
 * - an issue `TISSUE#<issueId>`, listed per space by GSI1 (`TRKSPACE#<orgId>#<spaceId>` /
 *   `<statusId>#<updatedAt>#<issueId>`);
 *   each number it has had `TISSUENUM#<spaceId>#<number>` → its issueId (moved issues keep their old
 *   keys); its description `TDESC#<issueId>`;
 * - `TRKMETA`: the organization's last handed-out rank (new issues go last);
 * - boards `TBOARD#`, sprints `TSPRINT#`, versions `TVERSION#<spaceId>#`, components
 *   `TCOMPONENT#<spaceId>#`, comments `TCOMMENT#<issueId>#`, links `TLINK#<issueId>#`,
 *   worklogs `TWORKLOG#<issueId>#`, attachments `TATTACH#<issueId>#`;
 * - a person's issue history `TVIEWS#<userId>` (the issues opened with `remember=1`).
 */
export const pkOf = orgPk;
const k = (orgId: string, sk: string) => ({ pk: pkOf(orgId), sk });

export const TK = {
  space: (orgId: string, spaceId: string) => k(orgId, `${PREFIXES.tracker.space}${spaceId}`),
  spaceKey: (orgId: string, key: string) => k(orgId, `${PREFIXES.tracker.spaceKey}${key.toUpperCase()}`),
  issue: (orgId: string, issueId: string) => k(orgId, `${PREFIXES.tracker.issue}${issueId}`),
  issueNumber: (orgId: string, spaceId: string, n: number) =>
    k(orgId, `${PREFIXES.tracker.issueNumber}${spaceId}#${n}`),
  description: (orgId: string, issueId: string) => k(orgId, `${PREFIXES.tracker.description}${issueId}`),
  meta: (orgId: string) => k(orgId, 'TRKMETA'),
  /** A person's issue history (`remember=1`; views.ts). */
  views: (orgId: string, userId: string) => k(orgId, `${PREFIXES.tracker.views}${userId}`),
  /** How many issues of a space are in a status (`n`), moved in the transactions that change it. */
  statusCount: (orgId: string, spaceId: string, statusId: string) =>
    k(orgId, `${PREFIXES.tracker.statusCount}${spaceId}#${statusId}`),
  board: (orgId: string, boardId: string) => k(orgId, `${PREFIXES.tracker.board}${boardId}`),
  sprint: (orgId: string, sprintId: string) => k(orgId, `${PREFIXES.tracker.sprint}${sprintId}`),
  version: (orgId: string, spaceId: string, id: string) => k(orgId, `${PREFIXES.tracker.version}${spaceId}#${id}`),
  component: (orgId: string, spaceId: string, id: string) => k(orgId, `${PREFIXES.tracker.component}${spaceId}#${id}`),
  comment: (orgId: string, issueId: string, id: string) => k(orgId, `${PREFIXES.tracker.comment}${issueId}#${id}`),
  link: (orgId: string, issueId: string, id: string) => k(orgId, `${PREFIXES.tracker.link}${issueId}#${id}`),
  worklog: (orgId: string, issueId: string, id: string) => k(orgId, `${PREFIXES.tracker.worklog}${issueId}#${id}`),
};

export const TP = {
  space: PREFIXES.tracker.space,
  issue: PREFIXES.tracker.issue,
  board: PREFIXES.tracker.board,
  sprint: PREFIXES.tracker.sprint,
  version: (spaceId: string) => `${PREFIXES.tracker.version}${spaceId}#`,
  component: (spaceId: string) => `${PREFIXES.tracker.component}${spaceId}#`,
  comment: (issueId: string) => `${PREFIXES.tracker.comment}${issueId}#`,
  link: (issueId: string) => `${PREFIXES.tracker.link}${issueId}#`,
  worklog: (issueId: string) => `${PREFIXES.tracker.worklog}${issueId}#`,
};

/** GSI1 partition of a space's issues. */
export const spaceIssuesPk = (orgId: string, spaceId: string) => `${PREFIXES.tracker.spaceIssues}${orgId}#${spaceId}`;
/**
 * GSI1 sort key of an issue in its space: by status, then by last update, so a query narrowed to
 * statuses reads only those, most recently updated first when it wants them so.
 */
export const spaceIssuesSk = (statusId: string, updatedAt: number, issueId: string) =>
  `${statusId}#${String(Math.max(0, Math.floor(updatedAt))).padStart(15, '0')}#${issueId}`;

/** Who acts: the organization, the caller's id (a person's or a key's), its organization role. */
export interface Actor {
  orgId: string;
  id: string;
  person: boolean;
  role?: Role;
}

export const TRACKER_MESSAGES = {
  spaceNotFound: 'Space not found',
  issueNotFound: 'Issue not found',
  boardNotFound: 'Board not found',
  sprintNotFound: 'Sprint not found',
  versionNotFound: 'Version not found',
  componentNotFound: 'Component not found',
  commentNotFound: 'Comment not found',
  linkNotFound: 'Link not found',
  keyTaken: 'A space with this key already exists.',
  keyFormat: 'A space key starts with a letter and holds only letters and digits (2-10).',
  administer: 'Only administrators of this space can change it.',
  importAdmins: 'Only administrators of this space can import issues.',
  cannotCreate: "You can't create issues in this space.",
  cannotEdit: "You can't edit this issue.",
  cannotTransition: "You can't transition this issue.",
  cannotDelete: "You can't delete this issue.",
  cannotComment: "You can't comment on this issue.",
  cannotSprints: "You can't manage sprints on this board.",
  cannotBoard: "You can't change this board.",
  boardChanged: 'The board changed since it was read. Reload and try again.',
  activeSprint: "A board with an active sprint can't be deleted. Complete the sprint first.",
  oneActive: 'This board already has an active sprint.',
  beforeOrAfter: 'Give exactly one of before or after.',
  rankSelf: "An issue can't be ranked next to itself.",
  columnNotFound: 'Column not found',
  noTransition: 'No transition leads this issue to that column.',
  subtaskParent: 'A subtask needs a parent issue.',
  badParent: "This issue type can't have that parent.",
  importTooLarge: 'Import files can be up to 5 MB.',
  descriptionTooLong: (n: number) => `A description can be up to 65536 characters; this one has ${n}.`,
  importOneSource: 'Send one of `content` (the file) and `file` (an uploaded file’s token).',
  issueChanged: 'The issue changed since it was read. Reload and try again.',
  archived: 'This space is archived.',
} as const;

/** A transaction item that adds `delta` to a space's count of issues in `statusId`. */
export const countBy = (table: string, orgId: string, spaceId: string, statusId: string, delta: number) => ({
  Update: {
    TableName: table,
    Key: TK.statusCount(orgId, spaceId, statusId),
    UpdateExpression: 'ADD #n :d',
    ExpressionAttributeNames: { '#n': 'n' },
    ExpressionAttributeValues: { ':d': delta },
  },
});
