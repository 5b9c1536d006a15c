import { raiseEvent } from '../notifications/raise';
import { listPeople } from '../repos/people';
import type { Space, TrackedIssue } from './model';
import type { Actor } from './records';

/**
 * Members a text names: Jira's `[~accountid:<userId>]` and `@handle` (the handles repositories
 * use: an email's local part, unique in the organization). An email address's `@` names nobody.
 */
export async function mentionedIn(orgId: string, text: string): Promise<string[]> {
  const ids = new Set([...text.matchAll(/\[~accountid:([A-Za-z0-9_]+)\]/g)].map((m) => m[1] as string));
  const handles = new Set(
    [...text.matchAll(/(?:^|[^\w@.])@([a-z0-9][a-z0-9-]*)/gi)].map((m) => (m[1] as string).toLowerCase()),
  );
  if (ids.size === 0 && handles.size === 0) return [];
  const people = await listPeople(orgId);
  return people.filter((p) => ids.has(p.userId) || handles.has(p.handle)).map((p) => p.userId);
}

/**
 * `issue.assigned` for a new assignee and `issue.mentioned` for the members a new text names, as
 * repository issues raise them (shared/domains/notifications), never for the person who did it; about the space.
 */
export async function raiseTrackerEvents(
  actor: Actor,
  space: Space,
  issue: TrackedIssue,
  change: { assigned?: string; text?: string },
): Promise<void> {
  const base = {
    orgId: actor.orgId,
    resources: [{ type: 'space' as const, id: space.spaceId }],
    attributes: { space: space.key, key: issue.key, issueId: issue.issueId },
    title: `${issue.key}: ${issue.summary}`,
  };
  const assigned = change.assigned && change.assigned !== actor.id ? [change.assigned] : [];
  const mentioned = change.text
    ? (await mentionedIn(actor.orgId, change.text)).filter((id) => id !== actor.id && !assigned.includes(id))
    : [];
  await Promise.all([
    assigned.length > 0 ? raiseEvent({ ...base, kind: 'issue.assigned', people: assigned }) : undefined,
    mentioned.length > 0
      ? raiseEvent({ ...base, kind: 'issue.mentioned', people: mentioned, body: (change.text as string).slice(0, 500) })
      : undefined,
  ]);
}
