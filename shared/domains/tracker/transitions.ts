import { DomainError, forbidden } from '../../kernel/ground/errors';
import { permissionsFor } from './access';
import { findNamed, RESOLUTIONS, statusById, type Transition, transitionsFrom, workflowOf } from './catalog';
import { goalsAfter, type IssueInput, resolveInput, slaModule, statusChange, writeChanges } from './issues';
import type { Space, TrackedIssue } from './model';
import type { Actor } from './records';

/** 409 naming the fields a transition asks for (`fields` in the answer too). */
export const fieldsNeeded = (t: Transition, missing: string[]) =>
  new DomainError('conflict', `The transition "${t.name}" needs these fields: ${missing.join(', ')}.`, {
    fields: missing,
    transition: t.id,
  });

/** The transition out of the issue's status that `ref` names: its id, its name, or its target status (id or name). */
export function findTransition(space: Space, issue: TrackedIssue, ref: string): Transition | undefined {
  const open = transitionsFrom(workflowOf(space.config, issue.typeId), issue.statusId);
  const r = ref.trim().toLowerCase();
  return (
    open.find((t) => t.id === ref) ??
    open.find((t) => t.name.toLowerCase() === r) ??
    open.find((t) => t.to === ref || statusById(t.to)?.name.toLowerCase() === r)
  );
}

/**
 * The change a transition makes: the new status (and its log entry), the fields its screen asks
 * for (a missing one is 409 naming them all), the resolution set on entering a done status and
 * cleared on leaving one.
 */
export async function transitionChange(
  actor: Actor,
  space: Space,
  issue: TrackedIssue,
  transition: Transition,
  input: IssueInput = {},
): Promise<{ change: Partial<TrackedIssue>; description?: string }> {
  if (!permissionsFor(space, actor).transition) throw forbidden("You can't transition this issue.");
  const missing = (transition.fields ?? []).filter((f) => (input as Record<string, unknown>)[f] == null);
  if (missing.length > 0) throw fieldsNeeded(transition, missing);
  const { fields, description } = await resolveInput(actor, space, input, issue);
  const now = Date.now();
  const change = { ...statusChange(issue, transition.to, now, actor.id), ...fields };
  const clocks = space.config.servicedesk
    ? (await slaModule()).clocksAfter(space, issue, { kind: 'status', to: transition.to }, now)
    : undefined;
  if (clocks) change.sla = clocks;
  if (fields.resolutionId && statusById(transition.to)?.category === 'done') change.resolutionId = fields.resolutionId;
  if (change.resolutionId && !findNamed(RESOLUTIONS, change.resolutionId)) change.resolutionId = 'done';
  return { change, ...(description !== undefined ? { description } : {}) };
}

/** Takes a transition: its change written (only what changed, on the version read), the SLA timers kept in step. */
export async function applyTransition(
  actor: Actor,
  space: Space,
  issue: TrackedIssue,
  transition: Transition,
  input: IssueInput = {},
): Promise<TrackedIssue> {
  const { change, description } = await transitionChange(actor, space, issue, transition, input);
  const goals = await goalsAfter(actor, space, issue, change);
  if (goals) change.sla = goals;
  const next = await writeChanges(actor.orgId, issue, change, description, actor.id);
  if (change.sla) await (await slaModule()).syncSlaTimers(space, next);
  return next;
}
