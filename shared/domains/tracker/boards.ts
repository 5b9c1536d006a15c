import { conflict, forbidden, invalid, notFound } from '../../kernel/ground/errors';
import { newId } from '../../kernel/store/ids';
import { queryPrefix, transact, updateVersioned } from '../../kernel/store/ops';
import { getItem, putNew } from '../../kernel/store/table';
import { canBrowse, permissionsFor } from './access';
import { statusById, workflowById } from './catalog';
import type { Board, BoardConfig, Space } from './model';
import { type Actor, TRACKER_MESSAGES } from './records';
import { pkOf, TK, TP } from './store';

type Stored<T> = T & { pk: string; sk: string };
const strip = <T extends object>(item: Stored<T>): T => {
  const { pk: _p, sk: _s, ...rest } = item as Stored<T> & Record<string, unknown>;
  return rest as unknown as T;
};

/**
 * The columns of a board over `spaces`: one per status of their workflows, in workflow order
 * (the first space's statuses first), each named after its status (Jira's team-managed boards).
 */
export function columnsFor(spaces: Pick<Space, 'config'>[]): BoardConfig['columns'] {
  const seen: string[] = [];
  for (const space of spaces) {
    for (const wf of new Set(Object.values(space.config.workflows))) {
      for (const s of workflowById(wf)?.statuses ?? []) if (!seen.includes(s)) seen.push(s);
    }
  }
  return seen.map((id) => ({ id, name: statusById(id)?.name ?? id, statusIds: [id] }));
}

export function newBoardConfig(
  type: 'scrum' | 'kanban',
  spaces: Pick<Space, 'spaceId' | 'config'>[],
  query?: string,
): BoardConfig {
  return {
    type,
    spaceIds: spaces.map((s) => s.spaceId),
    ...(query ? { query } : {}),
    columns: columnsFor(spaces),
    swimlanes: 'none',
    quickFilters: [
      { id: 'mine', name: 'Only my issues', query: 'assignee = currentUser()' },
      { id: 'recent', name: 'Recently updated', query: 'updated >= -1d' },
    ],
    cardFields: [],
    estimation: spaces[0]?.config.estimation ?? 'count',
    sharing: { org: true, teams: [], users: [] },
  };
}

export async function getBoard(orgId: string, boardId: string, consistent = false): Promise<Board | undefined> {
  if (!/^brd_[0-9a-z]{26}$/.test(boardId)) return undefined;
  const item = await getItem<Stored<Board>>(TK.board(orgId, boardId), consistent);
  return item ? strip(item) : undefined;
}

/** The spaces of a board the actor may browse. */
export async function boardSpaces(actor: Actor, board: Board): Promise<Space[]> {
  const all = await queryPrefix<Stored<Space>>(pkOf(actor.orgId), TP.space);
  return all.map(strip).filter((s) => board.config.spaceIds.includes(s.spaceId) && canBrowse(s, actor));
}

/** A board the actor sees (it browses one of its spaces), with those spaces; else 404. */
export async function requireBoard(
  actor: Actor,
  boardId: string,
  consistent = false,
): Promise<{ board: Board; spaces: Space[] }> {
  const board = await getBoard(actor.orgId, boardId, consistent);
  if (!board) throw notFound(TRACKER_MESSAGES.boardNotFound);
  const spaces = await boardSpaces(actor, board);
  if (spaces.length === 0) throw notFound(TRACKER_MESSAGES.boardNotFound);
  return { board, spaces };
}

/** Whether the actor may change the board: its owner, or an administrator of one of its spaces. */
export function canManageBoard(actor: Actor, board: Board, spaces: Space[]): boolean {
  if (actor.role === 'owner' || actor.role === 'admin') return true;
  if (board.ownerId === actor.id) return true;
  return spaces.some((s) => permissionsFor(s, actor).administer);
}

export async function listBoards(actor: Actor, spaceRef?: Space): Promise<Board[]> {
  const [boards, spaces] = await Promise.all([
    queryPrefix<Stored<Board>>(pkOf(actor.orgId), TP.board),
    queryPrefix<Stored<Space>>(pkOf(actor.orgId), TP.space),
  ]);
  const browsable = new Set(
    spaces
      .map(strip)
      .filter((s) => canBrowse(s, actor))
      .map((s) => s.spaceId),
  );
  return boards
    .map(strip)
    .filter((b) => b.config.spaceIds.some((id) => browsable.has(id)))
    .filter((b) => !spaceRef || b.config.spaceIds.includes(spaceRef.spaceId))
    .sort((a, b) => a.createdAt - b.createdAt);
}

export async function createBoard(
  actor: Actor,
  input: { name: string; type: 'scrum' | 'kanban'; spaces: Space[]; query?: string },
): Promise<Board> {
  const now = Date.now();
  const board: Board = {
    boardId: newId('brd_', now),
    name: input.name,
    ...(actor.person ? { ownerId: actor.id } : {}),
    version: 1,
    createdAt: now,
    updatedAt: now,
    config: newBoardConfig(input.type, input.spaces, input.query),
  };
  await transact([putNew({ ...TK.board(actor.orgId, board.boardId), ...board })]);
  return board;
}

export async function patchBoard(
  actor: Actor,
  boardId: string,
  patch: { name?: string; config?: Partial<BoardConfig>; baseVersion?: number },
  resolveSpaces: (refs: string[]) => Promise<Space[]>,
): Promise<Board> {
  const { board, spaces } = await requireBoard(actor, boardId, true);
  if (!canManageBoard(actor, board, spaces)) throw forbidden(TRACKER_MESSAGES.cannotBoard);
  if (patch.baseVersion !== undefined && patch.baseVersion !== board.version)
    throw conflict(TRACKER_MESSAGES.boardChanged);
  const config: BoardConfig = { ...board.config };
  for (const [k, v] of Object.entries(patch.config ?? {}))
    if (v !== undefined) (config as unknown as Record<string, unknown>)[k] = v;
  if (patch.config?.spaceIds) config.spaceIds = (await resolveSpaces(patch.config.spaceIds)).map((s) => s.spaceId);
  const ids = new Set<string>();
  for (const c of config.columns) {
    if (ids.has(c.id)) throw invalid(`Column ids must be unique: ${c.id}`);
    ids.add(c.id);
    if (c.min !== undefined && c.max !== undefined && c.min > c.max)
      throw invalid(`Column ${c.id}: min can't be above max.`);
  }
  const fields: Record<string, unknown> = { config, updatedAt: Date.now() };
  if (patch.name !== undefined) fields.name = patch.name;
  const saved = await updateVersioned<Stored<Board>>(
    TK.board(actor.orgId, boardId),
    board.version,
    fields,
    TRACKER_MESSAGES.boardChanged,
  );
  return strip(saved);
}
