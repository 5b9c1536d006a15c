import { DomainError, invalid, notFound } from '../../kernel/ground/errors';
import { canEdit } from './access';
import { requireBoard } from './boards';
import { statusById, typeById, workflowOf } from './catalog';
import type { IssueInput } from './issues';
import { present, requireIssue, spaceIssues } from './issues';
import type { Board, Space, Sprint, TrackedIssue } from './model';
import { rankIssues } from './ranking';
import { type Actor, TRACKER_MESSAGES } from './records';
import { matching } from './search';
import { boardSprints } from './sprints';
import { applyTransition } from './transitions';

/** The queries that filter a board: its own and the quick filters named (comma-separated ids), ANDed. */
function boardQueries(board: Board, quickFilters?: string): string[] {
  const queries = board.config.query ? [board.config.query] : [];
  for (const id of (quickFilters ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const f = board.config.quickFilters.find((q) => q.id === id);
    if (!f) throw invalid(`Unknown quick filter: ${id}`);
    queries.push(f.query);
  }
  return queries;
}

const mappedStatuses = (board: Board) => new Set(board.config.columns.flatMap((c) => c.statusIds));

/**
 * Jira's kanban backlog: with `kanbanBacklog`, a kanban board's first column leaves the board for
 * its backlog (the cards are the other columns'; the backlog is that column's issues).
 */
const kanbanBacklogStatuses = (board: Board) =>
  board.config.type === 'kanban' && board.config.kanbanBacklog
    ? new Set(board.config.columns[0]?.statusIds ?? [])
    : undefined;

function laneOf(
  board: Board,
  issue: TrackedIssue,
  laneTests: { id: string; test: (i: TrackedIssue) => boolean }[],
): string {
  switch (board.config.swimlanes) {
    case 'assignee':
      return issue.assigneeId ?? 'unassigned';
    case 'priority':
      return issue.priorityId ?? 'none';
    case 'parent':
    case 'epic':
      return issue.parentId ?? 'none';
    case 'query':
      return laneTests.find((l) => l.test(issue))?.id ?? 'other';
    default:
      return 'all';
  }
}

const parentView = (i: TrackedIssue) => ({
  issueId: i.issueId,
  key: i.key,
  summary: i.summary,
  typeId: i.typeId,
  statusId: i.statusId,
  ...(i.parentId ? { parentId: i.parentId } : {}),
});

/**
 * A board's cards: the active sprints' issues (scrum; `sprint` picks one sprint) or the flow
 * (kanban: every issue in a mapped status, done ones hidden after `hideDoneAfterDays`), filtered by
 * the board's query and the quick filters, in rank order; with lanes, parents and subtask counts.
 */
export async function boardIssues(actor: Actor, boardId: string, q: { quickFilters?: string; sprint?: string }) {
  const { board, spaces } = await requireBoard(actor, boardId);
  const sprints = await boardSprints(actor.orgId, boardId);
  let sprintIds: Set<string> | undefined;
  if (board.config.type === 'scrum') {
    if (q.sprint) {
      const s = sprints.find((x) => x.sprintId === q.sprint);
      if (!s) throw notFound(TRACKER_MESSAGES.sprintNotFound);
      sprintIds = new Set([s.sprintId]);
    } else sprintIds = activeSprints(sprints);
  }
  const queries = boardQueries(board, q.quickFilters);
  const matched = await cardsOf(actor, board, sprintIds, queries);
  // WIP limits count the column as the board shows it without quick filters (as Jira's do).
  const counted = queries.length > (board.config.query ? 1 : 0) ? await cardsOf(actor, board, sprintIds) : matched;
  const laneTests: { id: string; test: (i: TrackedIssue) => boolean }[] = [];
  if (board.config.swimlanes === 'query') {
    for (const lane of board.config.swimlaneQueries ?? []) {
      const ids = new Set(
        (await matching(actor, lane.query, 'rank', undefined, board.config.spaceIds)).matched.map((i) => i.issueId),
      );
      laneTests.push({ id: lane.id, test: (i) => ids.has(i.issueId) });
    }
  }
  const everything = await allOf(actor, spaces);
  const byId = new Map(everything.map((i) => [i.issueId, i]));
  const parents: Record<string, ReturnType<typeof parentView>> = {};
  const subtasks: Record<string, { total: number; done: number }> = {};
  for (const issue of matched) {
    const parent = issue.parentId ? byId.get(issue.parentId) : undefined;
    if (parent) parents[parent.issueId] = parentView(parent);
  }
  for (const i of everything) {
    if (!i.parentId || typeById(i.typeId)?.level !== -1) continue;
    const c = subtasks[i.parentId] ?? { total: 0, done: 0 };
    subtasks[i.parentId] = c;
    c.total++;
    if (i.statusCategory === 'done') c.done++;
  }
  return {
    board,
    issues: matched,
    columns: columnLoads(board, counted),
    sprints: sprints.filter((s) => (sprintIds ? sprintIds.has(s.sprintId) : false)),
    lanes: Object.fromEntries(matched.map((i) => [i.issueId, laneOf(board, i, laneTests)])),
    parents,
    subtasks,
    spaces: spaces.map((s) => ({ spaceId: s.spaceId, key: s.key, name: s.name })),
  };
}

const activeSprints = (sprints: Sprint[]) =>
  new Set(sprints.filter((s) => s.state === 'active').map((s) => s.sprintId));

/**
 * A board's cards in rank order: issues of its spaces in a mapped status, matching its query and
 * `queries`; on a scrum board those of `sprintIds`, on a kanban board done ones go after
 * `hideDoneAfterDays`.
 */
async function cardsOf(
  actor: Actor,
  board: Board,
  sprintIds: Set<string> | undefined,
  queries: string[] = board.config.query ? [board.config.query] : [],
): Promise<TrackedIssue[]> {
  const mapped = mappedStatuses(board);
  const inBacklog = kanbanBacklogStatuses(board);
  const hideBefore =
    board.config.hideDoneAfterDays !== undefined ? Date.now() - board.config.hideDoneAfterDays * 86_400_000 : undefined;
  const { matched } = await matching(
    actor,
    queries,
    'rank',
    (i) => {
      if (!mapped.has(i.statusId) || inBacklog?.has(i.statusId)) return false;
      if (sprintIds) return i.sprintId !== undefined && sprintIds.has(i.sprintId);
      if (hideBefore !== undefined && i.statusCategory === 'done' && (i.statusChangedAt ?? 0) < hideBefore)
        return false;
      return true;
    },
    board.config.spaceIds,
  );
  return matched;
}

/**
 * Each column's load against its WIP limits. As in Jira, the limits are not enforced (a card can
 * always be moved): a column over `max` is `wipExceeded`, one under `min` `wipBelowMin`, for the
 * board to show. Subtasks are left out of the count with `wipExcludesSubtasks`.
 */
export function columnLoads(board: Board, cards: TrackedIssue[]) {
  const counted = board.config.wipExcludesSubtasks ? cards.filter((i) => typeById(i.typeId)?.level !== -1) : cards;
  return board.config.columns.map((c) => {
    const statuses = new Set(c.statusIds);
    const count = counted.filter((i) => statuses.has(i.statusId)).length;
    return {
      id: c.id,
      count,
      ...(c.min !== undefined ? { min: c.min } : {}),
      ...(c.max !== undefined ? { max: c.max } : {}),
      wipExceeded: c.max !== undefined && count > c.max,
      wipBelowMin: c.min !== undefined && count < c.min,
    };
  });
}

async function allOf(actor: Actor, spaces: Space[]): Promise<TrackedIssue[]> {
  const lists = await Promise.all(
    spaces.map(async (s) => (await spaceIssues(actor.orgId, s.spaceId)).map((i) => present(i, s))),
  );
  return lists.flat();
}

/**
 * A scrum board's backlog: the open sprints (future and active, each with its issues' ids), the
 * issues not done outside them (`backlogIds`), in rank order (a kanban board with `kanbanBacklog`:
 * the issues of its first column); the spaces' epics with their progress,
 * and subtask counts.
 */
export async function boardBacklog(actor: Actor, boardId: string, q: { quickFilters?: string }) {
  const { board, spaces } = await requireBoard(actor, boardId);
  const sprints = (await boardSprints(actor.orgId, boardId)).filter((s) => s.state !== 'closed');
  const open = new Set(sprints.map((s) => s.sprintId));
  const inBacklog = kanbanBacklogStatuses(board);
  const { matched } = await matching(
    actor,
    boardQueries(board, q.quickFilters),
    'rank',
    (i) =>
      typeById(i.typeId)?.level !== 1 &&
      typeById(i.typeId)?.level !== -1 &&
      (inBacklog ? inBacklog.has(i.statusId) : i.sprintId ? open.has(i.sprintId) : i.statusCategory !== 'done'),
    board.config.spaceIds,
  );
  const everything = await allOf(actor, spaces);
  const estimate = (i: TrackedIssue) =>
    board.config.estimation === 'storyPoints'
      ? (i.storyPoints ?? 0)
      : board.config.estimation === 'originalEstimate'
        ? (i.originalEstimate ?? 0)
        : 1;
  const subtaskCounts: Record<string, { total: number; done: number; points: number }> = {};
  for (const i of everything) {
    if (!i.parentId || typeById(i.typeId)?.level !== -1) continue;
    const c = subtaskCounts[i.parentId] ?? { total: 0, done: 0, points: 0 };
    subtaskCounts[i.parentId] = c;
    c.total++;
    if (i.statusCategory === 'done') c.done++;
    c.points += estimate(i);
  }
  const epics = everything
    .filter((i) => typeById(i.typeId)?.level === 1)
    .sort((a, b) => (a.rank < b.rank ? -1 : a.rank > b.rank ? 1 : 0))
    .map((e) => {
      const children = everything.filter((i) => i.parentId === e.issueId);
      return {
        issueId: e.issueId,
        key: e.key,
        summary: e.summary,
        statusCategory: e.statusCategory,
        progress: {
          total: children.length,
          done: children.filter((c) => c.statusCategory === 'done').length,
          points: children.reduce((t, c) => t + estimate(c), 0),
        },
      };
    });
  return {
    board,
    sprints: sprints.map((s: Sprint) => ({
      ...s,
      issueIds: matched.filter((i) => i.sprintId === s.sprintId).map((i) => i.issueId),
    })),
    issues: matched,
    backlogIds: matched.filter((i) => !i.sprintId).map((i) => i.issueId),
    epics,
    subtaskCounts,
  };
}

/**
 * Moves a card to a column: through the transition from its status to the column's first status
 * its workflow has (none: 409; one whose screen asks for fields not given: 409 naming them), then,
 * with `before`/`after`, ranks it next to that card.
 */
export async function moveCard(
  actor: Actor,
  boardId: string,
  input: { issue: string; columnId: string; before?: string; after?: string; fields?: IssueInput },
) {
  const { board } = await requireBoard(actor, boardId);
  if (input.before !== undefined && input.after !== undefined) throw invalid(TRACKER_MESSAGES.beforeOrAfter);
  const column = board.config.columns.find((c) => c.id === input.columnId);
  if (!column) throw notFound(TRACKER_MESSAGES.columnNotFound);
  const { issue, space } = await requireIssue(actor, input.issue, true);
  if (!board.config.spaceIds.includes(issue.spaceId)) throw notFound(TRACKER_MESSAGES.issueNotFound);
  if (!canEdit(issue, space, actor)) throw new DomainError('forbidden', TRACKER_MESSAGES.cannotTransition);
  let current = issue;
  let transition: string | null = null;
  if (!column.statusIds.includes(issue.statusId)) {
    const wf = workflowOf(space.config, issue.typeId);
    const targets = column.statusIds.filter((s) => wf.statuses.includes(s));
    const t = wf.transitions.find(
      (x) => targets.includes(x.to) && x.to !== issue.statusId && (!x.from || x.from.includes(issue.statusId)),
    );
    if (!t)
      throw new DomainError('conflict', TRACKER_MESSAGES.noTransition, {
        column: column.id,
        status: statusById(issue.statusId)?.name ?? issue.statusId,
      });
    current = await applyTransition(actor, space, issue, t, input.fields);
    transition = t.id;
  }
  let rank = current.rank;
  if (input.before !== undefined || input.after !== undefined) {
    const [ranked] = await rankIssues(actor, [current.issueId], { before: input.before, after: input.after });
    rank = ranked?.rank ?? rank;
  }
  // The column's load after the move: a warning, never a refusal (Jira's WIP limits only warn).
  const limited = column.max !== undefined || column.min !== undefined;
  const sprintIds = board.config.type === 'scrum' ? activeSprints(await boardSprints(actor.orgId, boardId)) : undefined;
  const load = limited
    ? columnLoads(
        { ...board, config: { ...board.config, columns: [column] } },
        await cardsOf(actor, board, sprintIds),
      )[0]
    : undefined;
  return {
    issue: present({ ...current, rank, version: rank !== current.rank ? current.version + 1 : current.version }, space),
    transition,
    ...(load ? { column: load } : {}),
  };
}
