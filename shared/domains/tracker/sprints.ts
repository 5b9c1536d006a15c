import { conflict, forbidden, invalid, isDomainError, notFound } from '../../kernel/ground/errors';
import { newId } from '../../kernel/store/ids';
import { deleteMany, queryPrefix, transact, updateVersioned } from '../../kernel/store/ops';
import { getItem, putNew } from '../../kernel/store/table';
import { permissionsFor } from './access';
import { canManageBoard, requireBoard } from './boards';
import { spaceIssues, writeChanges } from './issues';
import type { Space, Sprint, SprintReport, TrackedIssue } from './model';
import { type Actor, TRACKER_MESSAGES } from './records';
import { pkOf, TK, TP } from './store';

type Stored<T> = T & { pk: string; sk: string; version?: number };
const strip = (item: Stored<Sprint>): Sprint => {
  const {
    pk: _p,
    sk: _s,
    version: _v,
    committedIssueIds: _c,
    ...rest
  } = item as Stored<Sprint> & Record<string, unknown>;
  return rest as unknown as Sprint;
};

/**
 * Sprints of scrum boards: `future` → `active` (one per board; its issues at that moment are the
 * committed ones) → `closed` (the report is written into `data.report`; open issues go to
 * `carriedTo`, another open sprint of the board, or to the backlog, and remember the sprint in
 * `closedSprintIds`). Records `TSPRINT#<sprintId>` with the board's id.
 */
export async function boardSprints(orgId: string, boardId: string): Promise<Sprint[]> {
  const all = await queryPrefix<Stored<Sprint>>(pkOf(orgId), TP.sprint);
  return all
    .filter((s) => s.boardId === boardId)
    .map(strip)
    .sort((a, b) => a.position - b.position || a.createdAt - b.createdAt);
}

export async function getSprint(orgId: string, sprintId: string, consistent = false) {
  if (!/^spr_[0-9a-z]{26}$/.test(sprintId)) return undefined;
  return getItem<Stored<Sprint> & { version: number; committedIssueIds?: string[] }>(
    TK.sprint(orgId, sprintId),
    consistent,
  );
}

/** A sprint of a board the actor sees, with the board. */
export async function requireSprint(actor: Actor, sprintId: string, consistent = false) {
  const sprint = await getSprint(actor.orgId, sprintId, consistent);
  if (!sprint) throw notFound(TRACKER_MESSAGES.sprintNotFound);
  const { board, spaces } = await requireBoard(actor, sprint.boardId).catch(() => {
    throw notFound(TRACKER_MESSAGES.sprintNotFound);
  });
  return { sprint, board, spaces };
}

async function manage(actor: Actor, boardId: string) {
  const { board, spaces } = await requireBoard(actor, boardId, true);
  if (board.config.type !== 'scrum') throw invalid('Only scrum boards have sprints.');
  if (!canManageBoard(actor, board, spaces) && !spaces.some((s) => spaceCanManageSprints(actor, s)))
    throw forbidden(TRACKER_MESSAGES.cannotSprints);
  return { board, spaces };
}

const spaceCanManageSprints = (actor: Actor, s: Space) => permissionsFor(s, actor).manageSprints;

export async function createSprint(
  actor: Actor,
  boardId: string,
  input: { name?: string; goal?: string; startDate?: number; endDate?: number; capacity?: number },
): Promise<Sprint> {
  const { board } = await manage(actor, boardId);
  const existing = await boardSprints(actor.orgId, boardId);
  const now = Date.now();
  const sprint: Sprint = {
    sprintId: newId('spr_', now),
    boardId: board.boardId,
    name: input.name ?? `${board.name.replace(/ board$/, '')} Sprint ${existing.length + 1}`,
    goal: input.goal ?? '',
    state: 'future',
    ...(input.startDate !== undefined ? { startDate: input.startDate } : {}),
    ...(input.endDate !== undefined ? { endDate: input.endDate } : {}),
    position: existing.reduce((m, s) => Math.max(m, s.position), 0) + 1,
    createdAt: now,
    data: input.capacity !== undefined ? { capacity: input.capacity } : {},
  };
  await transact([putNew({ ...TK.sprint(actor.orgId, sprint.sprintId), ...sprint, version: 1 })]);
  return sprint;
}

/** Issues of the board's spaces in `sprintId`. */
async function issuesIn(orgId: string, spaceIds: string[], sprintId: string): Promise<TrackedIssue[]> {
  const lists = await Promise.all(spaceIds.map((id) => spaceIssues(orgId, id)));
  return lists.flat().filter((i) => i.sprintId === sprintId);
}

export interface SprintChange {
  name?: string;
  goal?: string;
  startDate?: number;
  endDate?: number;
  capacity?: number;
  state?: 'active' | 'closed';
  /** On close: the open sprint of the board that takes the unfinished issues (else the backlog). */
  carryTo?: string;
}

/** Changes a sprint; `state` moves it future → active → closed, never back. */
export async function changeSprint(actor: Actor, sprintId: string, change: SprintChange): Promise<Sprint> {
  const found = await getSprint(actor.orgId, sprintId, true);
  if (!found) throw notFound(TRACKER_MESSAGES.sprintNotFound);
  const { board } = await manage(actor, found.boardId).catch((e: unknown) => {
    if (isDomainError(e, 'notFound')) throw notFound(TRACKER_MESSAGES.sprintNotFound);
    throw e;
  });
  const fields: Record<string, unknown> = {};
  if (change.name !== undefined) fields.name = change.name;
  if (change.goal !== undefined) fields.goal = change.goal;
  if (change.startDate !== undefined) fields.startDate = change.startDate;
  if (change.endDate !== undefined) fields.endDate = change.endDate;
  if (change.capacity !== undefined) fields.data = { ...found.data, capacity: change.capacity };
  const orgId = actor.orgId;
  if (change.state && change.state !== found.state) {
    if (change.state === 'active') {
      if (found.state !== 'future') throw conflict('Only a future sprint can be started.');
      const sprints = await boardSprints(orgId, board.boardId);
      if (sprints.some((s) => s.state === 'active')) throw conflict(TRACKER_MESSAGES.oneActive);
      const now = Date.now();
      fields.state = 'active';
      fields.startDate = change.startDate ?? found.startDate ?? now;
      fields.endDate = change.endDate ?? found.endDate ?? (fields.startDate as number) + 14 * 86_400_000;
      fields.committedIssueIds = (await issuesIn(orgId, board.config.spaceIds, sprintId)).map((i) => i.issueId);
    } else if (change.state === 'closed') {
      if (found.state !== 'active') throw conflict('Only the active sprint can be completed.');
      let carryTo: string | undefined;
      if (change.carryTo) {
        const target = await getSprint(orgId, change.carryTo, true);
        if (!target || target.boardId !== board.boardId || target.state !== 'future')
          throw invalid('carryTo names a future sprint of the same board.');
        carryTo = target.sprintId;
      }
      const issues = await issuesIn(orgId, board.config.spaceIds, sprintId);
      const committed = new Set(found.committedIssueIds ?? []);
      const done = issues.filter((i) => i.statusCategory === 'done');
      const open = issues.filter((i) => i.statusCategory !== 'done');
      const report: SprintReport = {
        committed: committed.size,
        added: issues.filter((i) => !committed.has(i.issueId)).length,
        removed: [...committed].filter((id) => !issues.some((i) => i.issueId === id)).length,
        completed: done.length,
        incomplete: open.length,
        completedIssueIds: done.map((i) => i.issueId),
        incompleteIssueIds: open.map((i) => i.issueId),
        ...(carryTo ? { carriedTo: carryTo } : {}),
      };
      for (const issue of done) {
        await writeChanges(orgId, issue, { closedSprintIds: [...issue.closedSprintIds, sprintId] });
      }
      for (const issue of open) {
        await writeChanges(orgId, issue, { sprintId: carryTo, closedSprintIds: [...issue.closedSprintIds, sprintId] });
      }
      fields.state = 'closed';
      fields.completedAt = Date.now();
      fields.data = { ...found.data, ...((fields.data as object) ?? {}), report };
    }
  }
  const saved = await updateVersioned<Stored<Sprint>>(
    TK.sprint(orgId, sprintId),
    found.version,
    fields,
    'The sprint changed. Reload and try again.',
  );
  return strip(saved);
}

/** Deletes a future sprint: its issues return to the backlog. */
export async function deleteSprint(actor: Actor, sprintId: string): Promise<void> {
  const found = await getSprint(actor.orgId, sprintId, true);
  if (!found) throw notFound(TRACKER_MESSAGES.sprintNotFound);
  const { board } = await manage(actor, found.boardId);
  if (found.state === 'active') throw conflict("The active sprint can't be deleted. Complete it first.");
  if (found.state === 'future') {
    for (const issue of await issuesIn(actor.orgId, board.config.spaceIds, sprintId)) {
      await writeChanges(actor.orgId, issue, { sprintId: undefined });
    }
  }
  await deleteMany([TK.sprint(actor.orgId, sprintId)]);
}

/**
 * Deletes a board: refused while one of its sprints is active; its future sprints' issues return
 * to the backlog, its sprints go with it (closed sprints stay in issues' `closedSprintIds`).
 */
export async function deleteBoard(actor: Actor, boardId: string): Promise<void> {
  const { board, spaces } = await requireBoard(actor, boardId, true);
  if (!canManageBoard(actor, board, spaces)) throw forbidden(TRACKER_MESSAGES.cannotBoard);
  const sprints = await boardSprints(actor.orgId, boardId);
  if (sprints.some((s) => s.state === 'active')) throw conflict(TRACKER_MESSAGES.activeSprint);
  const future = new Set(sprints.filter((s) => s.state === 'future').map((s) => s.sprintId));
  if (future.size > 0) {
    const lists = await Promise.all(board.config.spaceIds.map((id) => spaceIssues(actor.orgId, id)));
    for (const issue of lists.flat())
      if (issue.sprintId && future.has(issue.sprintId)) await writeChanges(actor.orgId, issue, { sprintId: undefined });
  }
  await deleteMany([...sprints.map((s) => TK.sprint(actor.orgId, s.sprintId)), TK.board(actor.orgId, boardId)]);
}

/** Velocity: the board's last closed sprints (up to 7), committed and completed estimates. */
export async function velocity(actor: Actor, boardId: string) {
  const { board } = await requireBoard(actor, boardId);
  const closed = (await boardSprints(actor.orgId, boardId)).filter((s) => s.state === 'closed').slice(-7);
  const issues = (await Promise.all(board.config.spaceIds.map((id) => spaceIssues(actor.orgId, id)))).flat();
  const byId = new Map(issues.map((i) => [i.issueId, i]));
  const estimate = (id: string) => {
    const i = byId.get(id);
    if (!i) return 0;
    if (board.config.estimation === 'storyPoints') return i.storyPoints ?? 0;
    if (board.config.estimation === 'originalEstimate') return i.originalEstimate ?? 0;
    return 1;
  };
  const sum = (ids: string[]) => ids.reduce((t, id) => t + estimate(id), 0);
  return {
    estimation: board.config.estimation,
    sprints: closed.map((s) => {
      const r = s.data.report;
      return {
        sprintId: s.sprintId,
        name: s.name,
        completedAt: s.completedAt ?? null,
        committed: sum([...(r?.completedIssueIds ?? []), ...(r?.incompleteIssueIds ?? [])]),
        completed: sum(r?.completedIssueIds ?? []),
      };
    }),
  };
}
