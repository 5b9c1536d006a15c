import { useMutation, useQuery } from '@tanstack/react-query';
import { useId, useRef } from 'react';
import { Menu, MenuItem, MenuTrigger, Popover, Separator } from 'react-aria-components';
import { NavLink } from 'react-router';
import type { Issue, TrackerSpace } from '../../../../client/operations';
import { api } from '../../lib/api';
import { useDraft } from '../../lib/drafts';
import { Button, ErrorNote, SelectField, TextInput } from '../../ui/controls';
import { priorityMark, priorityName, typeMark, typeName } from './catalog';

/** The organization's members by id (assignees on cards); an unknown id shows as itself. */
export function useMembers(orgId: string) {
  const q = useQuery({ queryKey: ['members', orgId], queryFn: () => api().getMembers({ orgId }), staleTime: 60_000 });
  const byId = new Map((q.data?.members ?? []).map((m) => [m.userId, m.name || m.email || m.userId]));
  return (id: string | undefined) => (id ? (byId.get(id) ?? id) : 'Unassigned');
}

export function useSpaces(orgId: string) {
  return useQuery({ queryKey: ['tracker-spaces', orgId], queryFn: () => api().getIssuesSpaces({ orgId }) });
}

export const issuePath = (orgId: string, key: string) => `/orgs/${orgId}/tracker/issues/${encodeURIComponent(key)}`;

export function TypeMark({ typeId }: { typeId: string }) {
  const mark = typeMark[typeId] ?? { letter: typeName(typeId).slice(0, 1), tone: 'bg-slate-700' };
  return (
    <span
      title={typeName(typeId)}
      className={`inline-flex h-5 min-w-5 items-center justify-center rounded px-0.5 text-[10px] font-bold text-white ${mark.tone}`}
    >
      <span aria-hidden="true">{mark.letter}</span>
      <span className="sr-only">{typeName(typeId)}</span>
    </span>
  );
}

export function PriorityMark({ priorityId }: { priorityId: string | undefined }) {
  if (!priorityId) return null;
  const mark = priorityMark[priorityId] ?? { arrow: '•', tone: 'text-slate-800' };
  return (
    <span title={`Priority: ${priorityName(priorityId)}`} className={`text-sm font-bold ${mark.tone}`}>
      <span aria-hidden="true">{mark.arrow}</span>
      <span className="sr-only">Priority: {priorityName(priorityId)}</span>
    </span>
  );
}

const initials = (name: string) =>
  name
    .replace(/@.*/, '')
    .split(/[\s._-]+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => w[0]?.toUpperCase())
    .join('');

export function Avatar({ name, assigned }: { name: string; assigned: boolean }) {
  return (
    <span
      title={assigned ? `Assignee: ${name}` : 'Unassigned'}
      className={`inline-flex size-6 items-center justify-center rounded-full text-[10px] font-semibold ${assigned ? 'bg-teal-800 text-white' : 'border border-dashed border-slate-500 text-slate-700'}`}
    >
      <span aria-hidden="true">{assigned ? initials(name) || '?' : '–'}</span>
      <span className="sr-only">{assigned ? `Assignee: ${name}` : 'Unassigned'}</span>
    </span>
  );
}

/** The board's two views (Jira's sidebar: Backlog, Board). */
export function BoardNav({ orgId, boardId, scrum }: { orgId: string; boardId: string; scrum: boolean }) {
  const tab = ({ isActive }: { isActive: boolean }) =>
    `inline-block border-b-2 px-3 py-2 text-sm font-medium no-underline ${isActive ? 'border-blue-700 text-slate-900' : 'border-transparent text-slate-700'}`;
  const base = `/orgs/${orgId}/tracker/boards/${boardId}`;
  return (
    <nav aria-label="Board views" className="mt-2 border-b border-slate-200">
      <ul className="flex gap-1">
        <li>
          <NavLink to={`/orgs/${orgId}/tracker`} end className={tab}>
            Spaces
          </NavLink>
        </li>
        <li>
          <NavLink to={`${base}/backlog`} className={tab}>
            Backlog
          </NavLink>
        </li>
        <li>
          <NavLink to={base} end className={tab}>
            {scrum ? 'Active sprint' : 'Board'}
          </NavLink>
        </li>
      </ul>
    </nav>
  );
}

export interface MoveChoice {
  id: string;
  label: string;
  /** A line before this choice (groups: columns, then positions). */
  separate?: boolean;
}

/**
 * A card's keyboard way to do what dragging does (Jira's card menu "Move to…", "Top of column",
 * "Bottom of column"): React Aria's menu (arrow keys, Enter, Escape; focus back on its button).
 */
export function MoveMenu(props: {
  label: string;
  choices: MoveChoice[];
  onChoose: (id: string) => void;
  isDisabled?: boolean;
}) {
  return (
    <MenuTrigger>
      <Button
        aria-label={props.label}
        isDisabled={props.isDisabled}
        data-move=""
        className="relative z-10 min-h-8 px-2 py-0.5 text-xs"
      >
        Move
      </Button>
      <Popover placement="bottom end" className="min-w-48 rounded-md border border-slate-300 bg-white shadow-lg">
        <Menu
          aria-label={props.label}
          onAction={(id) => props.onChoose(String(id))}
          className="max-h-80 overflow-auto p-1 outline-none"
        >
          {props.choices.flatMap((c) => [
            ...(c.separate ? [<Separator key={`${c.id}-sep`} className="my-1 border-t border-slate-200" />] : []),
            <MenuItem
              key={c.id}
              id={c.id}
              className="cursor-default rounded px-3 py-2 text-sm outline-none data-[focused]:bg-blue-700 data-[focused]:text-white"
            >
              {c.label}
            </MenuItem>,
          ])}
        </Menu>
      </Popover>
    </MenuTrigger>
  );
}

/** The fields a refused transition asks for (`…needs these fields: resolution.`), if that was the refusal. */
export const fieldsAsked = (message: string): string[] =>
  /needs these fields: ([^.]+)\./
    .exec(message)?.[1]
    ?.split(',')
    .map((s) => s.trim()) ?? [];

/**
 * Quick create (Jira's "+ Create issue" at the foot of a list): a summary and a type, in one of
 * the board's spaces; `sprint` puts it in that sprint.
 */
export function QuickCreate(props: {
  orgId: string;
  form: string;
  spaces: Pick<TrackerSpace, 'spaceId' | 'key' | 'name' | 'config'>[];
  sprint?: string;
  label: string;
  onCreated: (issue: Issue) => void;
}) {
  const first = props.spaces[0];
  const [draft, setDraft, clear] = useDraft(props.form, { summary: '', type: '', space: '' });
  const space = props.spaces.find((s) => s.spaceId === draft.space) ?? first;
  const types = (space?.config.issueTypeIds ?? []).filter((t) => t !== 'subtask');
  const type = types.includes(draft.type) ? draft.type : (space?.config.defaultTypeId ?? types[0] ?? '');
  const summaryRef = useRef<HTMLDivElement>(null);
  const id = useId();
  const create = useMutation({
    mutationFn: () =>
      api().postIssues({
        orgId: props.orgId,
        body: {
          space: space?.spaceId ?? '',
          summary: draft.summary,
          type,
          ...(props.sprint ? { sprint: props.sprint } : {}),
        },
      }),
    onSuccess: ({ issue }) => {
      clear();
      props.onCreated(issue);
      summaryRef.current?.querySelector('input')?.focus();
    },
  });
  if (!space) return null;
  return (
    <form
      aria-labelledby={id}
      className="flex flex-wrap items-end gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        if (draft.summary.trim()) create.mutate();
      }}
    >
      <h2 id={id} className="sr-only">
        {props.label}
      </h2>
      {props.spaces.length > 1 && (
        <SelectField
          label="Space"
          className="w-40"
          value={space.spaceId}
          onChange={(s) => setDraft({ ...draft, space: s })}
          options={props.spaces.map((s) => ({ id: s.spaceId, label: `${s.name} (${s.key})` }))}
        />
      )}
      <SelectField
        label="Issue type"
        className="w-32"
        value={type}
        onChange={(t) => setDraft({ ...draft, type: t })}
        options={types.map((t) => ({ id: t, label: typeName(t) }))}
      />
      <div ref={summaryRef} className="min-w-48 flex-1">
        <TextInput
          label="What needs to be done?"
          isRequired
          value={draft.summary}
          onChange={(summary) => setDraft({ ...draft, summary })}
        />
      </div>
      <Button type="submit" tone="primary" isDisabled={create.isPending || !draft.summary.trim()}>
        Create issue
      </Button>
      <div className="basis-full">
        <ErrorNote error={create.error} />
      </div>
    </form>
  );
}
