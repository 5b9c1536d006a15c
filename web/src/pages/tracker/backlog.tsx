import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type DragEvent, useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import type { Client } from '../../../../client';
import type { Issue } from '../../../../client/operations';
import { api, messageOf } from '../../lib/api';
import { useCan, useOrgId, useParam } from '../../lib/hooks';
import { Button, Done, ErrorNote, Loading, PageTitle, Section, SelectField, TextInput, when } from '../../ui/controls';
import { statusName } from './catalog';
import {
  Avatar,
  BoardNav,
  issuePath,
  type MoveChoice,
  MoveMenu,
  PriorityMark,
  QuickCreate,
  TypeMark,
  useMembers,
  useSpaces,
} from './common';

type BacklogData = Awaited<ReturnType<Client['getIssuesBoardsBacklog']>>;
type OpenSprint = BacklogData['sprints'][number];
const BACKLOG = 'backlog';

/** An issue's move in the backlog: into a sprint or the backlog (`list`), next to another issue (its rank). */
interface Move {
  issue: Issue;
  list: string;
  before?: string;
  after?: string;
  by: 'pointer' | 'keyboard';
}

const listOf = (i: Issue) => i.sprintId ?? BACKLOG;

function placed(data: BacklogData, move: Move): BacklogData {
  const moved: Issue = { ...move.issue, sprintId: move.list === BACKLOG ? undefined : move.list };
  let issues = data.issues.map((i) => (i.issueId === moved.issueId ? moved : i));
  const anchor = move.before ?? move.after;
  if (anchor) {
    const rest = issues.filter((i) => i.issueId !== moved.issueId);
    const at = rest.findIndex((i) => i.key === anchor);
    if (at >= 0) {
      rest.splice(move.before ? at : at + 1, 0, moved);
      issues = rest;
    }
  }
  const ids = (list: string) => issues.filter((i) => listOf(i) === list).map((i) => i.issueId);
  return {
    ...data,
    issues,
    sprints: data.sprints.map((s) => ({ ...s, issueIds: ids(s.sprintId) })),
    backlogIds: ids(BACKLOG),
  };
}

export default function BacklogPage() {
  const orgId = useOrgId();
  const boardId = useParam('boardId');
  const canWrite = useCan('issues:write');
  const queryKey = ['board-backlog', orgId, boardId];
  const q = useQuery({ queryKey, queryFn: () => api().getIssuesBoardsBacklog({ orgId, boardId }) });
  const velocity = useQuery({
    queryKey: ['board-velocity', orgId, boardId],
    queryFn: () => api().getIssuesBoardsVelocity({ orgId, boardId }),
  });
  const spaces = useSpaces(orgId);
  const nameOf = useMembers(orgId);
  const client = useQueryClient();
  const [notes, setNotes] = useState<Record<string, string>>({});
  const [said, say] = useState('');
  const [drag, setDrag] = useState<{ key: string; over?: { list: string; mark: string } } | null>(null);
  const focusAfter = useRef<string | null>(null);
  const [tick, setTick] = useState(0);

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

  const refresh = () => {
    void client.invalidateQueries({ queryKey: ['board-backlog', orgId, boardId] });
    void client.invalidateQueries({ queryKey: ['board-issues', orgId, boardId] });
  };

  const run = async (move: Move) => {
    const before = client.getQueryData<BacklogData>(queryKey);
    if (!before) return;
    const sameList = listOf(move.issue) === move.list;
    if (sameList && !move.before && !move.after) return;
    await client.cancelQueries({ queryKey });
    client.setQueryData<BacklogData>(queryKey, placed(before, move));
    setNotes(({ [move.issue.key]: _gone, ...rest }) => rest);
    if (move.by === 'keyboard') {
      focusAfter.current = move.issue.key;
      setTick((t) => t + 1);
    }
    const listName =
      move.list === BACKLOG ? 'the backlog' : (before.sprints.find((s) => s.sprintId === move.list)?.name ?? '');
    try {
      if (!sameList) {
        await api().putIssuesByIssueKey({
          orgId,
          issueKey: move.issue.key,
          body: { sprint: move.list === BACKLOG ? null : move.list },
        });
      }
      if (move.before || move.after) {
        await api().postIssuesRank({
          orgId,
          body: { issues: [move.issue.key], ...(move.before ? { before: move.before } : { after: move.after }) },
        });
      }
      say(
        sameList
          ? `${move.issue.key} ranked ${move.before ? `before ${move.before}` : `after ${move.after}`}.`
          : `${move.issue.key} moved to ${listName}.`,
      );
    } catch (err) {
      client.setQueryData(queryKey, before);
      setNotes((n) => ({ ...n, [move.issue.key]: messageOf(err) }));
      say('');
      if (move.by === 'keyboard') {
        focusAfter.current = move.issue.key;
        setTick((t) => t + 1);
      }
    } finally {
      refresh();
    }
  };

  const data = q.data;
  if (!data) {
    return (
      <div>
        <PageTitle title="Backlog">Backlog</PageTitle>
        {q.isPending && <Loading what="the backlog" />}
        <ErrorNote error={q.error} />
      </div>
    );
  }
  const board = data.board;
  const scrum = board.config.type === 'scrum';
  const sprints = [...data.sprints].sort(
    (a, b) => (a.state === 'active' ? 0 : 1) - (b.state === 'active' ? 0 : 1) || a.position - b.position,
  );
  const active = sprints.find((s) => s.state === 'active');
  const future = sprints.filter((s) => s.state === 'future');
  const boardSpaces = (spaces.data?.spaces ?? []).filter((s) => board.config.spaceIds.includes(s.spaceId));
  const itemsOf = (list: string) => data.issues.filter((i) => listOf(i) === list);
  const points = (items: Issue[]) => items.reduce((t, i) => t + (i.storyPoints ?? 0), 0);
  const nameOfList = (list: string) =>
    list === BACKLOG ? 'Backlog' : (sprints.find((s) => s.sprintId === list)?.name ?? list);

  const dropAt = (e: DragEvent<HTMLElement>, list: string, dragged: string) => {
    const target = (e.target as HTMLElement).closest<HTMLElement>('[data-card]');
    const key = target?.dataset.card;
    if (target && key && key !== dragged) {
      const r = target.getBoundingClientRect();
      return e.clientY < r.top + r.height / 2 ? { before: key } : { after: key };
    }
    if (key === dragged) return { stay: true };
    const rest = itemsOf(list).filter((i) => i.key !== dragged);
    const last = rest[rest.length - 1];
    return last ? { after: last.key } : {};
  };

  const renderList = (list: string) => {
    const items = itemsOf(list);
    const over = drag?.over?.list === list;
    const lists = [...sprints.map((s) => s.sprintId), BACKLOG];
    return (
      <ul
        aria-label={`Issues in ${nameOfList(list)}`}
        className={`min-h-12 divide-y divide-slate-200 rounded-md border ${over ? 'border-dashed border-blue-600 bg-blue-50' : 'border-slate-200'}`}
        onDragOver={(e) => {
          if (!drag) return;
          e.preventDefault();
          e.dataTransfer.dropEffect = 'move';
          const at = dropAt(e, list, drag.key);
          const mark = 'before' in at ? `b:${at.before}` : 'after' in at ? `a:${at.after}` : '';
          if (drag.over?.list !== list || drag.over.mark !== mark) setDrag({ key: drag.key, over: { list, mark } });
        }}
        onDrop={(e) => {
          e.preventDefault();
          const dragged = drag?.key ?? e.dataTransfer.getData('text/plain');
          setDrag(null);
          const issue = data.issues.find((i) => i.key === dragged);
          if (!issue) return;
          const at = dropAt(e, list, dragged);
          if ('stay' in at) return;
          void run({ issue, list, ...at, by: 'pointer' });
        }}
      >
        {items.length === 0 && (
          <li className="p-3 text-sm text-slate-700">
            {list === BACKLOG
              ? 'The backlog is empty.'
              : 'Plan this sprint: drag issues here, or use an issue’s Move menu.'}
          </li>
        )}
        {items.map((issue, index) => {
          const choices: MoveChoice[] = lists
            .filter((l) => l !== list)
            .map((l) => ({ id: `to:${l}`, label: l === BACKLOG ? 'Move to backlog' : `Move to ${nameOfList(l)}` }));
          const positions: MoveChoice[] = [];
          if (index > 0) positions.push({ id: 'top', label: 'Top' }, { id: 'up', label: 'Move up' });
          if (index < items.length - 1)
            positions.push({ id: 'down', label: 'Move down' }, { id: 'bottom', label: 'Bottom' });
          if (positions[0] && choices.length) positions[0].separate = true;
          const mark = over ? drag?.over?.mark : '';
          return (
            <li
              key={issue.issueId}
              data-card={issue.key}
              draggable={canWrite}
              onDragStart={(e) => {
                e.dataTransfer.setData('text/plain', issue.key);
                e.dataTransfer.effectAllowed = 'move';
                setDrag({ key: issue.key });
              }}
              onDragEnd={() => setDrag(null)}
              className={`relative bg-white px-3 py-2 ${drag?.key === issue.key ? 'opacity-50' : ''} ${mark === `b:${issue.key}` ? 'border-t-4 border-t-blue-700' : ''} ${mark === `a:${issue.key}` ? 'border-b-4 border-b-blue-700' : ''}`}
            >
              <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
                <TypeMark typeId={issue.typeId} />
                <span className="font-mono text-xs text-slate-700">{issue.key}</span>
                <Link
                  to={issuePath(orgId, issue.key)}
                  draggable={false}
                  aria-label={`${issue.key}: ${issue.summary}`}
                  className="min-w-0 flex-1 basis-40 text-sm text-slate-900 no-underline hover:underline"
                >
                  {issue.summary}
                </Link>
                <span className="rounded bg-slate-100 px-1.5 py-0.5 text-xs font-medium text-slate-800">
                  {statusName(issue.statusId)}
                </span>
                <PriorityMark priorityId={issue.priorityId} />
                {issue.storyPoints !== undefined && (
                  <span className="rounded-full bg-slate-200 px-1.5 text-xs" title="Story points">
                    {issue.storyPoints}
                    <span className="sr-only"> story points</span>
                  </span>
                )}
                <Avatar name={nameOf(issue.assigneeId)} assigned={!!issue.assigneeId} />
                {canWrite && (
                  <MoveMenu
                    label={`Move ${issue.key}`}
                    choices={[...choices, ...positions]}
                    onChoose={(choice) => {
                      const base = { issue, by: 'keyboard' as const };
                      if (choice.startsWith('to:')) {
                        void run({ ...base, list: choice.slice(3) });
                        return;
                      }
                      const pick = (i: number) => items[i]?.key;
                      const target =
                        choice === 'top'
                          ? { before: pick(0) }
                          : choice === 'up'
                            ? { before: pick(index - 1) }
                            : choice === 'down'
                              ? { after: pick(index + 1) }
                              : { after: pick(items.length - 1) };
                      void run({ ...base, list, ...target });
                    }}
                  />
                )}
              </div>
              {notes[issue.key] && (
                <p role="alert" className="mt-2 rounded border border-red-300 bg-red-50 px-2 py-1 text-xs text-red-900">
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
      <PageTitle title={`Backlog of ${board.name}`}>{board.name}: backlog</PageTitle>
      <BoardNav orgId={orgId} boardId={boardId} scrum={scrum} />
      <p role="status" className="mt-2 min-h-5 text-sm text-green-800">
        {said}
      </p>
      {scrum &&
        sprints.map((s) => (
          <SprintSection
            key={s.sprintId}
            orgId={orgId}
            sprint={s}
            items={itemsOf(s.sprintId)}
            points={points(itemsOf(s.sprintId))}
            canStart={!active && canWrite}
            canWrite={canWrite}
            future={future.filter((f) => f.sprintId !== s.sprintId)}
            boardId={boardId}
            onChanged={(message) => {
              say(message);
              refresh();
              void client.invalidateQueries({ queryKey: ['board-velocity', orgId, boardId] });
            }}
          >
            {renderList(s.sprintId)}
          </SprintSection>
        ))}
      <Section title="Backlog">
        <div className="mb-2 flex flex-wrap items-center gap-3">
          <p className="text-sm text-slate-700">
            {itemsOf(BACKLOG).length} issues
            {board.config.estimation === 'storyPoints' ? ` · ${points(itemsOf(BACKLOG))} points` : ''}
          </p>
          {scrum && canWrite && (
            <CreateSprint
              orgId={orgId}
              boardId={boardId}
              onCreated={(name) => {
                say(`${name} created.`);
                refresh();
              }}
            />
          )}
        </div>
        {renderList(BACKLOG)}
        {canWrite && (
          <div className="mt-3">
            <QuickCreate
              orgId={orgId}
              form={`backlog-create-${boardId}`}
              label="Create an issue in the backlog"
              spaces={boardSpaces}
              onCreated={(issue) => {
                say(`${issue.key} created in the backlog.`);
                refresh();
              }}
            />
          </div>
        )}
      </Section>
      {scrum && velocity.data && velocity.data.sprints.length > 0 && (
        <Section title="Velocity">
          <div className="overflow-x-auto">
            <table className="text-sm">
              <caption className="sr-only">
                Committed and completed per closed sprint ({velocity.data.estimation})
              </caption>
              <thead>
                <tr className="text-left">
                  <th className="pr-6 font-medium">Sprint</th>
                  <th className="pr-6 font-medium">Committed</th>
                  <th className="pr-6 font-medium">Completed</th>
                </tr>
              </thead>
              <tbody>
                {velocity.data.sprints.map((s) => (
                  <tr key={s.sprintId}>
                    <td className="pr-6">{s.name}</td>
                    <td className="pr-6">{s.committed}</td>
                    <td className="pr-6">{s.completed}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </Section>
      )}
    </div>
  );
}

function CreateSprint(props: { orgId: string; boardId: string; onCreated: (name: string) => void }) {
  const create = useMutation({
    mutationFn: () => api().postIssuesBoardsSprints({ orgId: props.orgId, boardId: props.boardId, body: {} }),
    onSuccess: ({ sprint }) => props.onCreated(sprint.name),
  });
  return (
    <div>
      <Button onPress={() => create.mutate()} isDisabled={create.isPending}>
        Create sprint
      </Button>
      <ErrorNote error={create.error} />
    </div>
  );
}

const WEEK = 7 * 86_400_000;

function SprintSection(props: {
  orgId: string;
  boardId: string;
  sprint: OpenSprint;
  items: Issue[];
  points: number;
  canStart: boolean;
  canWrite: boolean;
  future: OpenSprint[];
  onChanged: (message: string) => void;
  children: React.ReactNode;
}) {
  const { sprint, items } = props;
  const [panel, setPanel] = useState<'start' | 'complete' | null>(null);
  const headingId = useId();
  const done = items.filter((i) => i.statusCategory === 'done').length;
  return (
    <section aria-labelledby={headingId} className="mt-6">
      <div className="mb-2 flex flex-wrap items-center gap-x-3 gap-y-2">
        <h2 id={headingId} className="text-lg font-semibold">
          {sprint.name}
        </h2>
        <span
          className={`rounded-full px-2 py-0.5 text-xs font-medium ${sprint.state === 'active' ? 'bg-green-100 text-green-900' : 'bg-slate-100 text-slate-800'}`}
        >
          {sprint.state === 'active' ? 'Active' : 'Future'}
        </span>
        <span className="text-sm text-slate-700">
          {items.length} issues · {props.points} points
          {sprint.startDate && sprint.endDate ? ` · ${when(sprint.startDate)} – ${when(sprint.endDate)}` : ''}
        </span>
        {props.canWrite && sprint.state === 'future' && props.canStart && panel !== 'start' && (
          <Button tone="primary" className="ml-auto" onPress={() => setPanel('start')}>
            Start sprint
          </Button>
        )}
        {props.canWrite && sprint.state === 'active' && panel !== 'complete' && (
          <Button tone="primary" className="ml-auto" onPress={() => setPanel('complete')}>
            Complete sprint
          </Button>
        )}
      </div>
      {sprint.goal && <p className="mb-2 text-sm text-slate-800">Goal: {sprint.goal}</p>}
      {panel === 'start' && (
        <StartSprint
          orgId={props.orgId}
          sprint={sprint}
          count={items.length}
          onCancel={() => setPanel(null)}
          onStarted={() => {
            setPanel(null);
            props.onChanged(`${sprint.name} started.`);
          }}
        />
      )}
      {panel === 'complete' && (
        <CompleteSprint
          orgId={props.orgId}
          boardId={props.boardId}
          sprint={sprint}
          done={done}
          open={items.length - done}
          future={props.future}
          onCancel={() => setPanel(null)}
          onCompleted={(message) => {
            setPanel(null);
            props.onChanged(message);
          }}
        />
      )}
      {props.children}
    </section>
  );
}

function StartSprint(props: {
  orgId: string;
  sprint: OpenSprint;
  count: number;
  onCancel: () => void;
  onStarted: () => void;
}) {
  const [form, setForm] = useState({ name: props.sprint.name, goal: props.sprint.goal, weeks: '2' });
  const start = useMutation({
    mutationFn: () => {
      const now = Date.now();
      return api().patchIssuesSprintsBySprintId({
        orgId: props.orgId,
        sprintId: props.sprint.sprintId,
        body: {
          state: 'active',
          name: form.name,
          goal: form.goal,
          startDate: now,
          endDate: now + Number(form.weeks) * WEEK,
        },
      });
    },
    onSuccess: () => props.onStarted(),
  });
  return (
    <form
      aria-label={`Start ${props.sprint.name}`}
      className="mb-3 grid max-w-xl gap-3 rounded-md border border-slate-300 bg-slate-50 p-3"
      onSubmit={(e) => {
        e.preventDefault();
        start.mutate();
      }}
    >
      <p className="text-sm">
        {props.count} issue{props.count === 1 ? '' : 's'} will be included in this sprint.
      </p>
      <TextInput label="Sprint name" isRequired value={form.name} onChange={(name) => setForm({ ...form, name })} />
      <SelectField
        label="Duration"
        value={form.weeks}
        onChange={(weeks) => setForm({ ...form, weeks })}
        options={['1', '2', '3', '4'].map((w) => ({ id: w, label: `${w} week${w === '1' ? '' : 's'}` }))}
      />
      <TextInput label="Sprint goal" value={form.goal} onChange={(goal) => setForm({ ...form, goal })} />
      <div className="flex flex-wrap gap-2">
        <Button type="submit" tone="primary" isDisabled={start.isPending}>
          Start
        </Button>
        <Button onPress={props.onCancel}>Cancel</Button>
      </div>
      <ErrorNote error={start.error} />
    </form>
  );
}

function CompleteSprint(props: {
  orgId: string;
  boardId: string;
  sprint: OpenSprint;
  done: number;
  open: number;
  future: OpenSprint[];
  onCancel: () => void;
  onCompleted: (message: string) => void;
}) {
  const NEW = 'new';
  const [target, setTarget] = useState<string>(props.future[0]?.sprintId ?? BACKLOG);
  const complete = useMutation({
    mutationFn: async () => {
      let carryTo: string | undefined = target === BACKLOG ? undefined : target;
      let targetName = props.future.find((f) => f.sprintId === target)?.name ?? 'the backlog';
      if (target === NEW && props.open > 0) {
        const { sprint } = await api().postIssuesBoardsSprints({
          orgId: props.orgId,
          boardId: props.boardId,
          body: {},
        });
        carryTo = sprint.sprintId;
        targetName = sprint.name;
      } else if (target === NEW) carryTo = undefined;
      const { sprint } = await api().patchIssuesSprintsBySprintId({
        orgId: props.orgId,
        sprintId: props.sprint.sprintId,
        body: { state: 'closed', ...(carryTo ? { carryTo } : {}) },
      });
      const report = sprint.data.report;
      return `${sprint.name} completed: ${report?.completed ?? props.done} done${
        report?.incomplete ? `, ${report.incomplete} moved to ${targetName}` : ''
      }.`;
    },
    onSuccess: (message) => props.onCompleted(message),
  });
  return (
    <form
      aria-label={`Complete ${props.sprint.name}`}
      className="mb-3 grid max-w-xl gap-3 rounded-md border border-slate-300 bg-slate-50 p-3"
      onSubmit={(e) => {
        e.preventDefault();
        complete.mutate();
      }}
    >
      <p className="text-sm">
        {props.done} completed issue{props.done === 1 ? '' : 's'}, {props.open} open issue
        {props.open === 1 ? '' : 's'}.
      </p>
      {props.open > 0 && (
        <SelectField
          label="Move open issues to"
          value={target}
          onChange={setTarget}
          options={[
            ...props.future.map((f) => ({ id: f.sprintId, label: f.name })),
            { id: NEW, label: 'New sprint' },
            { id: BACKLOG, label: 'Backlog' },
          ]}
        />
      )}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" tone="primary" isDisabled={complete.isPending}>
          Complete sprint
        </Button>
        <Button onPress={props.onCancel}>Cancel</Button>
      </div>
      <ErrorNote error={complete.error} />
      {complete.isSuccess && <Done>Completed.</Done>}
    </form>
  );
}
