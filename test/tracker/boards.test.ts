import type { Person, TestPlatform } from '../helpers/platform';
import { paths, trackerPlatform } from './platform';

/** Boards: CRUD with baseVersion, cards and backlog with quick filters, moves through the workflow, sprints. */
let p: TestPlatform;
let developer: Person;
let t: ReturnType<typeof paths>;
let scrumBoard: string;

beforeAll(async () => {
  p = await trackerPlatform('tracker-boards');
  t = paths(p);
  developer = await p.person('developer');
  const web = await p.post(t.spaces, { key: 'WEB', name: 'Website', template: 'scrum' });
  scrumBoard = web.body.space.config.boardId;
  await p.post(t.spaces, { key: 'BUG', name: 'Bugs', template: 'bugs' });
});
afterAll(() => p.close());

const create = async (body: Record<string, unknown>) => {
  const res = await p.post(t.base, body);
  expect(res.status).toBe(201);
  return res.body.issue as { issueId: string; key: string; rank: string };
};
const keys = (list: { key: string }[]) => list.map((i) => i.key);

describe('boards', () => {
  it('creates, lists, patches with baseVersion and deletes a board', async () => {
    const made = await p.post(t.boards, { name: ' Both ', type: 'kanban', spaces: ['WEB', 'BUG'] });
    expect(made.status).toBe(201);
    const board = made.body.board;
    expect(board).toMatchObject({ name: 'Both', version: 1, config: { type: 'kanban', swimlanes: 'none' } });
    expect(board.config.columns.map((c: { id: string }) => c.id)).toEqual([
      'todo',
      'inprogress',
      'inreview',
      'done',
      'open',
      'resolved',
      'reopened',
      'closed',
    ]);
    const listed = await p.get(`${t.boards}?space=BUG`);
    expect(listed.body.boards.map((b: { boardId: string }) => b.boardId)).toContain(board.boardId);
    expect((await p.get(`${t.boards}?space=WEB`)).body.boards.length).toBe(2);
    expect((await p.get(t.boards)).body.boards.length).toBeGreaterThanOrEqual(3);
    const patched = await p.patch(t.board(board.boardId), {
      name: 'Renamed',
      baseVersion: 1,
      config: {
        swimlanes: 'assignee',
        hideDoneAfterDays: 14,
        columns: [{ id: 'all', name: 'All', statusIds: ['todo', 'open'] }],
      },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.board).toMatchObject({
      name: 'Renamed',
      version: 2,
      config: { swimlanes: 'assignee', hideDoneAfterDays: 14 },
    });
    const stale = await p.patch(t.board(board.boardId), { name: 'Again', baseVersion: 1 });
    expect([stale.status, stale.body.error]).toEqual([
      409,
      'The board changed since it was read. Reload and try again.',
    ]);
    const limits = [
      { config: { columns: [] } },
      { config: { cardFields: ['a', 'b', 'c', 'd', 'e', 'f', 'g'] } },
      { config: { hideDoneAfterDays: 366 } },
      { config: { columns: [{ id: 'x', name: 'X', statusIds: [], max: 1000 }] } },
      { config: { quickFilters: Array.from({ length: 31 }, (_, i) => ({ id: `q${i}`, name: 'Q', query: '' })) } },
      { name: '' },
      { baseVersion: -1 },
    ];
    for (const body of limits) expect((await p.patch(t.board(board.boardId), body)).status).toBe(400);
    expect((await p.get(t.board(board.boardId))).body.board.name).toBe('Renamed');
    const gone = await p.delete(t.board(board.boardId));
    expect(gone.body).toEqual({ boardId: board.boardId });
    expect((await p.get(t.board(board.boardId))).status).toBe(404);
    expect((await p.post(t.boards, { name: 'x', type: 'scrum', spaces: ['NOPE'] })).status).toBe(404);
    expect((await p.post(t.boards, { name: 'x', type: 'scrum', spaces: [] })).status).toBe(400);
  });

  it('moves cards through the workflow; a transition asking for fields is 409 naming them', async () => {
    const bugBoard = (await p.get(t.space('BUG'))).body.space.config.boardId;
    const bug = await create({ space: 'BUG', summary: 'Crash on save' });
    const move = (body: Record<string, unknown>) => p.post(`${t.board(bugBoard)}/move`, { issue: bug.key, ...body });
    const started = await move({ columnId: 'inprogress' });
    expect(started.status).toBe(200);
    expect(started.body).toMatchObject({
      issue: { statusId: 'inprogress', statusCategory: 'inprogress' },
      transition: 'start',
    });
    const needs = await move({ columnId: 'resolved' });
    expect(needs.status).toBe(409);
    expect(needs.body).toMatchObject({
      error: 'The transition "Resolve Issue" needs these fields: resolution.',
      fields: ['resolution'],
    });
    const resolved = await move({ columnId: 'resolved', fields: { resolution: "Won't Do" } });
    expect(resolved.body.issue).toMatchObject({
      statusId: 'resolved',
      statusCategory: 'done',
      resolutionId: 'wont-do',
    });
    expect(resolved.body.issue.statusLog.map((e: [string, number]) => e[0])).toEqual([
      'open',
      'inprogress',
      'resolved',
    ]);
    const none = await move({ columnId: 'inprogress' });
    expect([none.status, none.body.error]).toEqual([409, 'No transition leads this issue to that column.']);
    const reopened = await move({ columnId: 'reopened' });
    expect(reopened.body.issue.resolutionId).toBeUndefined();
    expect((await move({ columnId: 'nope' })).status).toBe(404);
    expect((await p.post(`${t.board(bugBoard)}/move`, { issue: 'WEB-999', columnId: 'open' })).status).toBe(404);
    const both = await move({ columnId: 'open', before: bug.key, after: bug.key });
    expect([both.status, both.body.error]).toEqual([400, 'Give exactly one of before or after.']);
  });
});

describe('WIP limits and the kanban backlog', () => {
  it('limits show on the board and in a move’s answer, never enforced (subtasks and quick filters as Jira counts); kanbanBacklog takes the first column off the board', async () => {
    await p.post(t.spaces, { key: 'WIP', name: 'Flow', template: 'kanban' });
    const board = (await p.post(t.boards, { name: 'Flow', type: 'kanban', spaces: ['WIP'] })).body.board;
    const columns = board.config.columns.map((c: { id: string }) =>
      c.id === 'inprogress' ? { ...c, max: 1 } : c.id === 'selected' ? { ...c, min: 1 } : c,
    );
    const patched = await p.patch(t.board(board.boardId), {
      config: { columns, quickFilters: [{ id: 'mine', name: 'Mine', query: 'assignee = currentUser()' }] },
    });
    expect(patched.status).toBe(200);
    const a = await create({ space: 'WIP', summary: 'First' });
    const b = await create({ space: 'WIP', summary: 'Second' });
    const move = (key: string) => p.post(`${t.board(board.boardId)}/move`, { issue: key, columnId: 'inprogress' });
    const first = await move(a.key);
    expect(first.body.column).toEqual({ id: 'inprogress', count: 1, max: 1, wipExceeded: false, wipBelowMin: false });
    // Over the limit: moved all the same, with the warning.
    const second = await move(b.key);
    expect(second.status).toBe(200);
    expect(second.body.issue.statusId).toBe('inprogress');
    expect(second.body.column).toMatchObject({ count: 2, wipExceeded: true });
    const load = (cards: { body: { columns: { id: string }[] } }, id: string) =>
      cards.body.columns.find((c) => c.id === id);
    const cards = await p.get(`${t.board(board.boardId)}/issues`);
    expect(load(cards, 'inprogress')).toMatchObject({ count: 2, max: 1, wipExceeded: true });
    expect(load(cards, 'selected')).toMatchObject({ count: 0, min: 1, wipBelowMin: true, wipExceeded: false });
    expect(load(cards, 'backlog')).toEqual({ id: 'backlog', count: 0, wipExceeded: false, wipBelowMin: false });
    // A quick filter narrows the cards, not the count.
    const mine = await p.get(`${t.board(board.boardId)}/issues?quickFilters=mine`);
    expect(mine.body.issues).toEqual([]);
    expect(load(mine, 'inprogress')).toMatchObject({ count: 2, wipExceeded: true });
    // Subtasks left out of the count when the board says so.
    const sub = await create({ space: 'WIP', summary: 'Part', type: 'Subtask', parent: a.key });
    expect((await move(sub.key)).body.column).toMatchObject({ count: 3 });
    await p.patch(t.board(board.boardId), { config: { wipExcludesSubtasks: true } });
    expect(load(await p.get(`${t.board(board.boardId)}/issues`), 'inprogress')).toMatchObject({ count: 2 });
    // Jira's kanban backlog: the first column's issues leave the board for the backlog.
    const waiting = await create({ space: 'WIP', summary: 'Waiting' });
    expect(keys((await p.get(`${t.board(board.boardId)}/issues`)).body.issues)).toContain(waiting.key);
    await p.patch(t.board(board.boardId), { config: { kanbanBacklog: true } });
    expect(keys((await p.get(`${t.board(board.boardId)}/issues`)).body.issues)).not.toContain(waiting.key);
    const backlog = (await p.get(`${t.board(board.boardId)}/backlog`)).body;
    expect(keys(backlog.issues)).toEqual([waiting.key]);
    expect(backlog.backlogIds).toEqual([waiting.issueId]);
    await p.post(`${t.board(board.boardId)}/move`, { issue: waiting.key, columnId: 'selected' });
    expect(keys((await p.get(`${t.board(board.boardId)}/issues`)).body.issues)).toContain(waiting.key);
    expect((await p.get(`${t.board(board.boardId)}/backlog`)).body.issues).toEqual([]);
  });
});

describe('sprints on a scrum board', () => {
  it('plans, starts, reports, completes and carries issues over; cards, backlog, quick filters, velocity', async () => {
    const a = await create({ space: 'WEB', summary: 'A', storyPoints: 3, assignee: developer.email });
    const b = await create({ space: 'WEB', summary: 'B', storyPoints: 5 });
    const epic = await create({ space: 'WEB', summary: 'Epic', type: 'Epic' });
    const c = await create({ space: 'WEB', summary: 'C', parent: epic.key });
    const s1 = await p.post(`${t.board(scrumBoard)}/sprints`, { goal: 'Ship it' });
    expect(s1.status).toBe(201);
    expect(s1.body.sprint).toMatchObject({ name: 'WEB Sprint 1', state: 'future', goal: 'Ship it' });
    const sprintId = s1.body.sprint.sprintId;
    const s2 = (await p.post(`${t.board(scrumBoard)}/sprints`, { name: 'Next' })).body.sprint;
    const planned = await p.post(`${t.base}/bulk`, {
      issues: [a.key, b.key],
      operation: 'edit',
      fields: { sprint: sprintId },
    });
    expect(planned.body).toMatchObject({ done: 2, failed: 0 });
    const backlog = await p.get(`${t.board(scrumBoard)}/backlog`);
    expect(backlog.status).toBe(200);
    const inSprint = backlog.body.sprints.find((s: { sprintId: string }) => s.sprintId === sprintId);
    expect(inSprint.issueIds).toEqual([a.issueId, b.issueId]);
    expect(backlog.body.backlogIds).toEqual([c.issueId]);
    expect(backlog.body.epics).toEqual([
      {
        issueId: epic.issueId,
        key: epic.key,
        summary: 'Epic',
        statusCategory: 'todo',
        progress: { total: 1, done: 0, points: 0 },
      },
    ]);
    const filtered = await p.get(`${t.board(scrumBoard)}/backlog?quickFilters=mine`, { token: developer.token });
    expect(filtered.body.issues.map((i: { key: string }) => i.key)).toEqual([a.key]);
    expect((await p.get(`${t.board(scrumBoard)}/backlog?quickFilters=nope`)).status).toBe(400);
    // No active sprint yet: no cards.
    expect((await p.get(`${t.board(scrumBoard)}/issues`)).body.issues).toEqual([]);
    const started = await p.patch(`${t.base}/sprints/${sprintId}`, { state: 'active' });
    expect(started.status).toBe(200);
    expect(started.body.sprint).toMatchObject({
      state: 'active',
      startDate: expect.any(Number),
      endDate: expect.any(Number),
    });
    const second = await p.patch(`${t.base}/sprints/${s2.sprintId}`, { state: 'active' });
    expect([second.status, second.body.error]).toEqual([409, 'This board already has an active sprint.']);
    const cards = await p.get(`${t.board(scrumBoard)}/issues`);
    expect(keys(cards.body.issues)).toEqual([a.key, b.key]);
    expect(cards.body.sprints.map((s: { sprintId: string }) => s.sprintId)).toEqual([sprintId]);
    expect(cards.body.lanes).toEqual({ [a.issueId]: 'all', [b.issueId]: 'all' });
    expect(cards.body.spaces).toEqual([expect.objectContaining({ key: 'WEB' })]);
    const mine = await p.get(`${t.board(scrumBoard)}/issues?quickFilters=mine`, { token: developer.token });
    expect(keys(mine.body.issues)).toEqual([a.key]);
    expect((await p.get(`${t.board(scrumBoard)}/issues?sprint=${s2.sprintId}`)).body.issues).toEqual([]);
    // Added after the start: counted as added.
    await p.put(t.issue(c.key), { sprint: sprintId });
    const done = await p.post(`${t.board(scrumBoard)}/move`, { issue: a.key, columnId: 'done' });
    expect(done.body.issue.statusCategory).toBe('done');
    expect((await p.delete(t.board(scrumBoard))).status).toBe(409);
    const listed = await p.get(`${t.board(scrumBoard)}/sprints`);
    expect(listed.body.sprints.map((s: { state: string }) => s.state)).toEqual(['active', 'future']);
    const closed = await p.patch(`${t.base}/sprints/${sprintId}`, { state: 'closed', carryTo: s2.sprintId });
    expect(closed.status).toBe(200);
    expect(closed.body.sprint.data.report).toEqual({
      committed: 2,
      added: 1,
      removed: 0,
      completed: 1,
      incomplete: 2,
      completedIssueIds: [a.issueId],
      incompleteIssueIds: [b.issueId, c.issueId],
      carriedTo: s2.sprintId,
    });
    const report = await p.get(`${t.base}/sprints/${sprintId}`);
    expect(report.body.sprint).toMatchObject({ state: 'closed', completedAt: expect.any(Number) });
    const bNow = (await p.get(t.issue(b.key))).body.issue;
    expect(bNow).toMatchObject({ sprintId: s2.sprintId, closedSprintIds: [sprintId] });
    const velocity = await p.get(`${t.board(scrumBoard)}/velocity`);
    expect(velocity.body).toEqual({
      estimation: 'storyPoints',
      sprints: [{ sprintId, name: 'WEB Sprint 1', completedAt: expect.any(Number), committed: 8, completed: 3 }],
    });
    const search = await p.get(`${t.base}?jql=${encodeURIComponent(`sprint = ${sprintId} ORDER BY key`)}`);
    expect(search.body.issues.map((i: { key: string }) => i.key)).toEqual([a.key, b.key, c.key]);
    // Deleting the board: the future sprint's issues return to the backlog.
    expect((await p.delete(`${t.base}/sprints/${sprintId}`)).status).toBe(200);
    const gone = await p.delete(t.board(scrumBoard));
    expect(gone.status).toBe(200);
    expect((await p.get(t.issue(b.key))).body.issue.sprintId).toBeUndefined();
    expect((await p.get(`${t.base}/sprints/${s2.sprintId}`)).status).toBe(404);
  });

  it('refuses sprints on kanban boards and unknown sprints', async () => {
    const kanban = (await p.post(t.boards, { name: 'K', type: 'kanban', spaces: ['BUG'] })).body.board;
    const res = await p.post(`${t.board(kanban.boardId)}/sprints`, {});
    expect([res.status, res.body.error]).toEqual([400, 'Only scrum boards have sprints.']);
    expect((await p.patch(`${t.base}/sprints/spr_00000000000000000000000000`, { name: 'x' })).status).toBe(404);
    expect((await p.get(`${t.board('brd_00000000000000000000000000')}/velocity`)).status).toBe(404);
    expect((await p.get(`${t.board('brd_00000000000000000000000000')}/sprints`)).status).toBe(404);
    const flow = await p.get(`${t.board(kanban.boardId)}/issues`);
    expect(flow.status).toBe(200);
    expect(flow.body.issues.length).toBeGreaterThan(0);
  });
});
