import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type DragEvent, useCallback, useEffect, useRef, useState } from 'react';
import { Dialog, Heading, Modal } from 'react-aria-components';
import { Link, useSearchParams } from 'react-router';
import type { Client } from '../../../../client';
import type { Issue } from '../../../../client/operations';
import { ApiError, api, messageOf } from '../../lib/api';
import { useOrgId, useParam } from '../../lib/hooks';
import { Button, Checkbox, ErrorNote, Loading, PageTitle, SelectField, when } from '../../ui/controls';
import { RESOLUTIONS } from './catalog';
import {
  Avatar,
  BoardNav,
  fieldsAsked,
  issuePath,
  type MoveChoice,
  MoveMenu,
  PriorityMark,
  QuickCreate,
  TypeMark,
  useMembers,
  useSpaces,
} from './common';

type BoardData = Awaited<ReturnType<Client['getIssuesBoardsIssues']>>;
type Column = BoardData['board']['config']['columns'][number];
type LaneMode = 'none' | 'assignee' | 'epic';

/** A card's move: to a column (through its workflow) and next to another card (its rank). */
interface Move {
  issue: Issue;
  columnId: string;
  before?: string;
  after?: string;
  fields?: { resolution: string };
  by: 'pointer' | 'keyboard';
}

const columnOf = (columns: Column[], issue: Issue) => columns.find((c) => c.statusIds.includes(issue.statusId));

/** The board with the card moved where the person put it (shown at once; the API's answer follows). */
function placed(data: BoardData, move: Move): BoardData {
  const column = data.board.config.columns.find((c) => c.id === move.columnId);
  const statusId =
    column && !column.statusIds.includes(move.issue.statusId) ? (column.statusIds[0] ?? '') : move.issue.statusId;
  const moved = { ...move.issue, statusId };
  const anchor = move.before ?? move.after;
  if (!anchor) return { ...data, issues: data.issues.map((i) => (i.issueId === moved.issueId ? moved : i)) };
  const rest = data.issues.filter((i) => i.issueId !== moved.issueId);
  const at = rest.findIndex((i) => i.key === anchor);
  if (at < 0) return { ...data, issues: data.issues.map((i) => (i.issueId === moved.issueId ? moved : i)) };
  rest.splice(move.before ? at : at + 1, 0, moved);
  return { ...data, issues: rest };
}

export default function BoardPage() {
  const orgId = useOrgId();
  const boardId = useParam('boardId');
  const [params, setParams] = useSearchParams();
  const lanes = (['assignee', 'epic'].includes(params.get('lanes') ?? '') ? params.get('lanes') : 'none') as LaneMode;
  const [filters, setFilters] = useState<string[]>([]);
  const queryKey = ['board-issues', orgId, boardId, filters.join(',')];
  const q = useQuery({
    queryKey,
    queryFn: () =>
      api().getIssuesBoardsIssues({ orgId, boardId, ...(filters.length ? { quickFilters: filters.join(',') } : {}) }),
  });
  const spaces = useSpaces(orgId);
  const nameOf = useMembers(orgId);
  const client = useQueryClient();
  const [notes, setNotes] = useState<Record<string, string>>({});
  const [said, say] = useState('');
  const [asking, setAsking] = useState<{ move: Move; fields: string[] } | null>(null);
  const focusAfter = useRef<string | null>(null);
  const [tick, setTick] = useState(0);

  // After a move by keyboard, focus stays with the card (its Move button), wherever it went.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs after each render a move asked for
  useEffect(() => {
    const key = focusAfter.current;
    if (!key) return;
    const button = document.querySelector<HTMLElement>(`[data-card="${CSS.escape(key)}"] [data-move]`);
    if (button) {
      button.focus();
      focusAfter.current = null;
    }
  }, [tick, q.data]);

  const data = q.data;
  const board = data?.board;
  const columns = board?.config.columns ?? [];

  const run = useCallback(
    async (move: Move) => {
      const key = ['board-issues', orgId, boardId, filters.join(',')];
      const before = client.getQueryData<BoardData>(key);
      if (!before) return;
      const from = columnOf(before.board.config.columns, move.issue);
      const to = before.board.config.columns.find((c) => c.id === move.columnId);
      if (!to) return;
      const sameColumn = from?.id === to.id;
      if (sameColumn && !move.before && !move.after) return;
      await client.cancelQueries({ queryKey: key });
      client.setQueryData<BoardData>(key, placed(before, move));
      setNotes(({ [move.issue.key]: _gone, ...rest }) => rest);
      if (move.by === 'keyboard') {
        focusAfter.current = move.issue.key;
        setTick((t) => t + 1);
      }
      try {
        const rank = move.before ? { before: move.before } : move.after ? { after: move.after } : {};
        if (sameColumn) {
          await api().postIssuesRank({ orgId, body: { issues: [move.issue.key], ...rank } });
          say(`${move.issue.key} ranked ${move.before ? `before ${move.before}` : `after ${move.after}`}.`);
        } else {
          const answer = await api().postIssuesBoardsMove({
            orgId,
            boardId,
            body: { issue: move.issue.key, columnId: to.id, ...rank, ...(move.fields ? { fields: move.fields } : {}) },
          });
          const load = answer.column;
          say(
            `${move.issue.key} moved to ${to.name}.${load?.wipExceeded ? ` ${to.name} is over its limit of ${load.max}.` : ''}`,
          );
        }
      } catch (err) {
        // Refused: the card goes back where it was, and the API's answer shows on it.
        client.setQueryData(key, before);
        const message = messageOf(err);
        const asked = fieldsAsked(message);
        if (
          err instanceof ApiError &&
          err.status === 409 &&
          asked.length > 0 &&
          asked.every((f) => f === 'resolution')
        ) {
          setAsking({ move, fields: asked });
        } else {
          setNotes((n) => ({ ...n, [move.issue.key]: message }));
          say('');
        }
        if (move.by === 'keyboard') {
          focusAfter.current = move.issue.key;
          setTick((t) => t + 1);
        }
      } finally {
        void client.invalidateQueries({ queryKey: ['board-issues', orgId, boardId] });
      }
    },
    [client, orgId, boardId, filters],
  );

  const [drag, setDrag] = useState<{ key: string; over?: { columnId: string; lane: string; mark: string } } | null>(
    null,
  );

  if (!data || !board) {
    return (
      <div>
        <PageTitle title="Board">Board</PageTitle>
        {q.isPending && <Loading what="the board" />}
        <ErrorNote error={q.error} />
      </div>
    );
  }

  const scrum = board.config.type === 'scrum';
  const sprint = data.sprints[0];
  const boardSpaces = (spaces.data?.spaces ?? []).filter((s) => board.config.spaceIds.includes(s.spaceId));
  const cards = data.issues;
  const laneOf = (i: Issue): string => {
    if (lanes === 'assignee') return i.assigneeId ?? 'unassigned';
    if (lanes === 'epic') {
      const parent = i.parentId ? data.parents[i.parentId] : undefined;
      if (parent?.typeId === 'epic') return parent.issueId;
      const grand = parent?.parentId ? data.parents[parent.parentId] : undefined;
      return grand?.typeId === 'epic' ? grand.issueId : 'none';
    }
    return 'all';
  };
  const laneName = (id: string) => {
    if (lanes === 'assignee') return id === 'unassigned' ? 'Unassigned' : nameOf(id);
    if (lanes === 'epic') {
      const e = data.parents[id];
      return e ? `${e.key} ${e.summary}` : 'Issues without epic';
    }
    return '';
  };
  const laneIds = [...new Set(cards.map(laneOf))];
  if (lanes === 'assignee')
    laneIds.sort((a, b) => (a === 'unassigned' ? 1 : b === 'unassigned' ? -1 : laneName(a).localeCompare(laneName(b))));
  if (lanes === 'epic') laneIds.sort((a, b) => (a === 'none' ? 1 : b === 'none' ? -1 : 0));
  if (laneIds.length === 0) laneIds.push(lanes === 'none' ? 'all' : 'none');

  const cellOf = (columnId: string, lane: string) =>
    cards.filter((i) => columnOf(columns, i)?.id === columnId && laneOf(i) === lane);
  const loadOf = (columnId: string) => data.columns.find((c) => c.id === columnId);

  /** Where a pointer over a list would put the dragged card: before or after the card under it, or at the end. */
  const dropAt = (e: DragEvent<HTMLElement>, columnId: string, lane: string, dragged: string) => {
    const target = (e.target as HTMLElement).closest<HTMLElement>('[data-card]');
    const key = target?.dataset.card;
    if (target && key && key !== dragged) {
      const r = target.getBoundingClientRect();
      return e.clientY < r.top + r.height / 2 ? { before: key } : { after: key };
    }
    if (key === dragged) return { stay: true };
    const cell = cellOf(columnId, lane).filter((i) => i.key !== dragged);
    const last = cell[cell.length - 1];
    return last ? { after: last.key } : {};
  };

  const grid = { gridTemplateColumns: `repeat(${columns.length}, minmax(15rem, 1fr))` };

  const renderCell = (column: Column, lane: string) => {
    const cell = cellOf(column.id, lane);
    const over = drag?.over?.columnId === column.id && drag.over.lane === lane;
    return (
      <ul
        key={column.id}
        aria-label={lane === 'all' ? column.name : `${column.name}, ${laneName(lane)}`}
        className={`min-h-24 space-y-2 rounded-md p-2 ${over ? 'bg-blue-50 outline-2 outline-dashed outline-blue-600' : 'bg-slate-100'}`}
        onDragOver={(e) => {
          if (!drag) return;
          e.preventDefault();
          e.dataTransfer.dropEffect = 'move';
          const at = dropAt(e, column.id, lane, drag.key);
          const mark = 'before' in at ? `b:${at.before}` : 'after' in at ? `a:${at.after}` : '';
          if (drag.over?.columnId !== column.id || drag.over.lane !== lane || drag.over.mark !== mark)
            setDrag({ key: drag.key, over: { columnId: column.id, lane, mark } });
        }}
        onDrop={(e) => {
          e.preventDefault();
          const dragged = drag?.key ?? e.dataTransfer.getData('text/plain');
          setDrag(null);
          const issue = cards.find((i) => i.key === dragged);
          if (!issue) return;
          const at = dropAt(e, column.id, lane, dragged);
          if ('stay' in at) return;
          void run({ issue, columnId: column.id, ...at, by: 'pointer' });
        }}
      >
        {cell.map((issue, index) => {
          const choices: MoveChoice[] = columns
            .filter((c) => c.id !== column.id)
            .map((c) => ({ id: `to:${c.id}`, label: `Move to ${c.name}` }));
          const positions: MoveChoice[] = [];
          if (index > 0) positions.push({ id: 'top', label: 'Top of column' }, { id: 'up', label: 'Move up' });
          if (index < cell.length - 1)
            positions.push({ id: 'down', label: 'Move down' }, { id: 'bottom', label: 'Bottom of column' });
          if (positions[0] && choices.length) positions[0].separate = true;
          const mark = drag?.over?.columnId === column.id && drag.over.lane === lane ? drag.over.mark : '';
          return (
            <li
              key={issue.issueId}
              data-card={issue.key}
              draggable
              onDragStart={(e) => {
                e.dataTransfer.setData('text/plain', issue.key);
                e.dataTransfer.effectAllowed = 'move';
                setDrag({ key: issue.key });
              }}
              onDragEnd={() => setDrag(null)}
              className={`relative cursor-grab rounded-md border bg-white p-2 shadow-sm ${drag?.key === issue.key ? 'opacity-50' : ''} ${mark === `b:${issue.key}` ? 'border-t-4 border-t-blue-700' : ''} ${mark === `a:${issue.key}` ? 'border-b-4 border-b-blue-700' : ''} ${notes[issue.key] ? 'border-red-400' : 'border-slate-300'}`}
            >
              <p className="text-sm">
                <Link
                  to={issuePath(orgId, issue.key)}
                  draggable={false}
                  aria-label={`${issue.key}: ${issue.summary}`}
                  className="text-slate-900 no-underline after:absolute after:inset-0 hover:underline"
                >
                  {issue.summary}
                </Link>
              </p>
              <div className="mt-2 flex flex-wrap items-center gap-2">
                <TypeMark typeId={issue.typeId} />
                <span className="font-mono text-xs text-slate-700">{issue.key}</span>
                <PriorityMark priorityId={issue.priorityId} />
                {issue.storyPoints !== undefined && (
                  <span className="rounded-full bg-slate-200 px-1.5 text-xs" title="Story points">
                    {issue.storyPoints}
                    <span className="sr-only"> story points</span>
                  </span>
                )}
                {data.subtasks[issue.issueId] && (
                  <span className="text-xs text-slate-700">
                    {data.subtasks[issue.issueId]?.done}/{data.subtasks[issue.issueId]?.total} subtasks
                  </span>
                )}
                <span className="ml-auto flex items-center gap-1">
                  <Avatar name={nameOf(issue.assigneeId)} assigned={!!issue.assigneeId} />
                  <MoveMenu
                    label={`Move ${issue.key}`}
                    choices={[...choices, ...positions]}
                    onChoose={(choice) => {
                      const base = { issue, by: 'keyboard' as const };
                      if (choice.startsWith('to:')) void run({ ...base, columnId: choice.slice(3) });
                      const pick = (i: number) => cell[i]?.key;
                      const target =
                        choice === 'top'
                          ? { before: pick(0) }
                          : choice === 'up'
                            ? { before: pick(index - 1) }
                            : choice === 'down'
                              ? { after: pick(index + 1) }
                              : choice === 'bottom'
                                ? { after: pick(cell.length - 1) }
                                : undefined;
                      if (target) void run({ ...base, columnId: column.id, ...target });
                    }}
                  />
                </span>
              </div>
              {notes[issue.key] && (
                <p
                  role="alert"
                  className="relative z-10 mt-2 rounded border border-red-300 bg-red-50 px-2 py-1 text-xs text-red-900"
                >
                  {notes[issue.key]}
                </p>
              )}
            </li>
          );
        })}
      </ul>
    );
  };

  return (
    <div>
      <PageTitle title={board.name}>{board.name}</PageTitle>
      <BoardNav orgId={orgId} boardId={boardId} scrum={scrum} />
      {scrum && sprint && (
        <p className="mt-3 text-sm text-slate-800">
          <span className="font-semibold">{sprint.name}</span>
          {sprint.endDate ? ` · ends ${when(sprint.endDate)}` : ''}
          {sprint.goal ? ` · Goal: ${sprint.goal}` : ''} ·{' '}
          <Link to={`/orgs/${orgId}/tracker/boards/${boardId}/backlog`}>Complete sprint in the backlog</Link>
        </p>
      )}
      <div className="mt-3 flex flex-wrap items-end gap-x-6 gap-y-2">
        <SelectField
          label="Swimlanes"
          className="w-44"
          value={lanes}
          onChange={(v) => {
            const next = new URLSearchParams(params);
            if (v === 'none') next.delete('lanes');
            else next.set('lanes', v);
            setParams(next, { replace: true });
          }}
          options={[
            { id: 'none', label: 'None' },
            { id: 'assignee', label: 'By assignee' },
            { id: 'epic', label: 'By epic' },
          ]}
        />
        <fieldset className="flex flex-wrap gap-x-4">
          <legend className="sr-only">Quick filters</legend>
          {board.config.quickFilters.map((f) => (
            <Checkbox
              key={f.id}
              isSelected={filters.includes(f.id)}
              onChange={(on) => setFilters(on ? [...filters, f.id] : filters.filter((x) => x !== f.id))}
            >
              {f.name}
            </Checkbox>
          ))}
        </fieldset>
      </div>
      <div className="mt-3 rounded-md border border-slate-200 p-3">
        <QuickCreate
          orgId={orgId}
          form={`quick-create-${boardId}`}
          label="Create an issue"
          spaces={boardSpaces}
          sprint={scrum ? sprint?.sprintId : undefined}
          onCreated={(issue) => {
            say(`${issue.key} created${scrum && !sprint ? ' in the backlog' : ''}.`);
            void client.invalidateQueries({ queryKey: ['board-issues', orgId, boardId] });
          }}
        />
      </div>
      <p role="status" className="mt-2 min-h-5 text-sm text-green-800">
        {said}
      </p>
      {scrum && !sprint ? (
        <p className="mt-4 text-sm text-slate-800">
          No sprint is active. Plan and start one in the{' '}
          <Link to={`/orgs/${orgId}/tracker/boards/${boardId}/backlog`}>backlog</Link>.
        </p>
      ) : (
        // biome-ignore lint/a11y/noNoninteractiveTabindex: the board scrolls sideways; the keyboard reaches it
        <section aria-label="Board" tabIndex={0} className="mt-2 overflow-x-auto pb-2">
          <div className="grid min-w-min gap-2" style={grid}>
            {columns.map((c) => {
              const load = loadOf(c.id);
              const over = load?.wipExceeded;
              return (
                <div
                  key={c.id}
                  className={`flex items-center gap-2 rounded-md px-2 py-1 text-xs font-semibold uppercase ${over ? 'bg-red-100 text-red-900' : 'text-slate-700'}`}
                >
                  <span>{c.name}</span>
                  <span className="font-normal normal-case">
                    {load?.count ?? 0}
                    {load?.max !== undefined ? ` of max ${load.max}` : ''}
                    {over ? ' (over the limit)' : ''}
                  </span>
                </div>
              );
            })}
          </div>
          {laneIds.map((lane) =>
            lane === 'all' ? (
              <div key={lane} className="grid min-w-min gap-2" style={grid}>
                {columns.map((c) => renderCell(c, lane))}
              </div>
            ) : (
              <section key={lane} aria-label={laneName(lane)} className="mt-3">
                <h2 className="mb-1 text-sm font-semibold">
                  {laneName(lane)}{' '}
                  <span className="font-normal text-slate-700">
                    ({cards.filter((i) => laneOf(i) === lane).length} issues)
                  </span>
                </h2>
                <div className="grid min-w-min gap-2" style={grid}>
                  {columns.map((c) => renderCell(c, lane))}
                </div>
              </section>
            ),
          )}
        </section>
      )}
      <Modal
        isOpen={!!asking}
        onOpenChange={(open) => !open && setAsking(null)}
        isDismissable
        className="fixed inset-0 z-50 flex items-center justify-center bg-slate-900/40 p-4"
      >
        <Dialog className="w-full max-w-md rounded-lg bg-white p-4 shadow-xl outline-none">
          {asking && (
            <TransitionScreen
              move={asking.move}
              column={columns.find((c) => c.id === asking.move.columnId)?.name ?? ''}
              onCancel={() => setAsking(null)}
              onMove={(resolution) => {
                const move = { ...asking.move, fields: { resolution } };
                setAsking(null);
                void run(move);
              }}
            />
          )}
        </Dialog>
      </Modal>
    </div>
  );
}

/** Jira's transition screen: a move to a column whose transition asks for a resolution. */
function TransitionScreen(props: {
  move: Move;
  column: string;
  onCancel: () => void;
  onMove: (resolution: string) => void;
}) {
  const [resolution, setResolution] = useState('done');
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        props.onMove(resolution);
      }}
    >
      <Heading slot="title" className="text-lg font-semibold">
        Move {props.move.issue.key} to {props.column}
      </Heading>
      <p className="mt-1 text-sm text-slate-700">This transition asks for a resolution.</p>
      <SelectField
        label="Resolution"
        className="mt-3"
        value={resolution}
        onChange={setResolution}
        options={RESOLUTIONS}
      />
      <div className="mt-4 flex justify-end gap-2">
        <Button onPress={props.onCancel}>Cancel</Button>
        <Button type="submit" tone="primary">
          Move
        </Button>
      </div>
    </form>
  );
}
