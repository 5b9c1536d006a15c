import type { Role } from '../../kernel/auth/scopes';

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
