import { PERMISSIONS, type Permission, type Permissions, type Space, type SpaceRole, type TrackedIssue } from './model';
import type { Actor } from './records';

/**
 * Who may do what in a space (Jira's permission scheme, reduced to three space roles):
 * organization owners and admins and the space's lead administer every space; listed members hold
 * their role; in an `org`-visible space other members of the organization are `member`s (viewers of
 * the organization are `viewer`s), keys are `member`s. A private space shows only to its members.
 * Team grants name no one yet: the organization records no team membership.
 */
export function spaceRoleOf(space: Space, actor: Actor): SpaceRole | undefined {
  if (actor.role === 'owner' || actor.role === 'admin') return 'admin';
  if (actor.person && space.leadId === actor.id) return 'admin';
  const listed = space.config.access.members.find((m) => m.type === 'user' && m.id === actor.id);
  if (listed) return listed.role;
  if (space.config.access.visibility !== 'org') return undefined;
  if (actor.role === 'viewer') return 'viewer';
  return 'member';
}

/** What only administrators hold (Jira's default permission scheme): everyone's comments, attachments and issues. */
const MEMBER_DENIED: Permission[] = ['administer', 'editComments', 'deleteComments', 'deleteAttachments', 'delete'];

/** The space permissions object of `role` (every name, true or false). */
export function permissionsOf(space: Space, role: SpaceRole | undefined): Required<Permissions> {
  const grant = (p: Permission): boolean => {
    if (!role) return false;
    if (role === 'admin') return p !== 'serviceAgent' || space.template === 'service';
    if (role === 'viewer') return p === 'browse';
    if (p === 'serviceAgent') return space.template === 'service';
    return !MEMBER_DENIED.includes(p);
  };
  return Object.fromEntries(PERMISSIONS.map((p) => [p, grant(p)])) as Required<Permissions>;
}

export const permissionsFor = (space: Space, actor: Actor) => permissionsOf(space, spaceRoleOf(space, actor));

/** Whether `actor` may browse the space at all. */
export const canBrowse = (space: Space, actor: Actor) => spaceRoleOf(space, actor) !== undefined;

/**
 * Whether `actor` sees `issue`: it browses the space and, when the issue has a security level,
 * one of the level's grants names it. A level the space no longer has is no level (Jira moves
 * issues off a level it deletes).
 */
export function canSee(issue: TrackedIssue, space: Space, actor: Actor): boolean {
  const role = spaceRoleOf(space, actor);
  if (!role) return false;
  if (!issue.securityLevelId) return true;
  const level = space.config.securityLevels.find((l) => l.id === issue.securityLevelId);
  if (!level) return true;
  return level.grants.some((g) => {
    switch (g.type) {
      case 'anyone':
        return true;
      case 'reporter':
        return issue.reporterId === actor.id;
      case 'assignee':
        return issue.assigneeId === actor.id;
      case 'lead':
        return space.leadId === actor.id;
      case 'user':
        return g.id === actor.id;
      case 'spaceRole':
        return g.role === role;
      case 'orgRole':
        return g.role === actor.role;
      default:
        return false;
    }
  });
}

/** Whether `actor` may edit `issue` (`edit`, or `editOwn` on what it reported). */
export function canEdit(issue: TrackedIssue, space: Space, actor: Actor): boolean {
  const p = permissionsFor(space, actor);
  return p.edit || (p.editOwn && issue.reporterId === actor.id);
}
