import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ApiError, createClient, type Issue } from '../../../../client';
import { api } from '../../lib/api';
import { accessToken, expire } from '../../lib/auth';
import { apiBase } from '../../lib/config';
import { useOrgId } from '../../lib/hooks';
import { Button, ErrorNote, Loading, PageTitle, Section, SelectField, TextInput, when } from '../../ui/controls';
import {
  ISSUE_TYPES,
  PRIORITIES,
  priorityName,
  RESOLUTIONS,
  STATUSES,
  statusName,
  typeName,
  WORKFLOW_STATUSES,
} from './catalog';
import { listOf, useLabels, useMembers, useSpaces } from './data';
import { NativeSelect, StatusLozenge } from './edit-kit';
import { orderOf, type ValueSource, withOrder } from './jql';
import { JqlInput, type JqlProblem } from './jql-input';

const PAGE = 50;

/**
 * A search through the typed client that keeps the position of a bad query: the API answers 400
 * with `line`, `column` (and `expected`) beside its message, which ApiError does not carry.
 */
async function search(orgId: string, jql: string, startAt: number) {
  let answer: { line?: number; column?: number } | undefined;
  const client = createClient({
    baseUrl: apiBase(),
    retries: 1,
    fetch: async (input, init) => {
      const headers = new Headers(init?.headers);
      const token = accessToken();
      if (token) headers.set('authorization', `Bearer ${token}`);
      const res = await fetch(input, { ...init, headers });
      if (res.status === 401) expire();
      if (res.status === 400)
        answer = await res
          .clone()
          .json()
          .catch(() => undefined);
      return res;
    },
  });
  try {
    return await client.getIssues({ orgId, jql, startAt, maxResults: PAGE });
  } catch (err) {
    if (err instanceof ApiError && err.status === 400) throw new JqlError(err, answer?.line, answer?.column);
    throw err;
  }
}

class JqlError extends Error implements JqlProblem {
  constructor(
    readonly apiError: ApiError,
    readonly line?: number,
    readonly column?: number,
  ) {
    super(apiError.message);
  }
}

export default function SearchPage() {
  const orgId = useOrgId();
  const [params, setParams] = useSearchParams();
  const jql = params.get('jql') ?? '';
  const startAt = Number(params.get('startAt') ?? 0) || 0;
  const [text, setText] = useState(jql);
  const [selected, setSelected] = useState<string[]>([]);
  const results = useQuery({
    queryKey: ['issue-search', orgId, jql, startAt],
    queryFn: () => search(orgId, jql, startAt),
    placeholderData: keepPreviousData,
    retry: false,
  });
  const source = useValueSource(orgId);
  const members = useMembers(orgId);
  const run = (next: string, at = 0) => {
    setSelected([]);
    setParams(next || at ? { jql: next, ...(at ? { startAt: String(at) } : {}) } : {});
  };
  const problem = results.error instanceof JqlError && !results.isFetching ? results.error : undefined;
  const page = results.data;
  const issues = problem ? [] : (page?.issues ?? []);
  const order = orderOf(jql);

  return (
    <div>
      <PageTitle title="Search issues">Search issues</PageTitle>
      <form
        className="mt-4 grid gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          run(text);
        }}
      >
        <JqlInput value={text} onChange={setText} onSubmit={() => run(text)} source={source} problem={problem} />
        <div className="flex flex-wrap gap-2">
          <Button type="submit" tone="primary">
            Search
          </Button>
          <Link
            to={`/orgs/${orgId}/tracker/issues/new`}
            className="inline-flex min-h-10 items-center rounded-md border border-slate-300 px-3 text-sm font-medium hover:bg-slate-50"
          >
            Create issue
          </Link>
        </div>
      </form>
      {results.error && !problem && <ErrorNote error={results.error} />}
      <Section title="Results" id="results">
        {(results.isPending || results.isPlaceholderData) && <Loading what="issues" />}
        {page && !problem && (
          <>
            <p role="status" className="mb-2 text-sm text-slate-700">
              {page.total === 0
                ? 'No issues match.'
                : `${page.startAt + 1}–${page.startAt + issues.length} of ${page.total} issues`}
            </p>
            {issues.length > 0 && (
              <ResultTable
                orgId={orgId}
                issues={issues}
                nameOf={members.nameOf}
                selected={selected}
                setSelected={setSelected}
                order={order}
                busy={results.isPlaceholderData}
                sort={(field) => {
                  const direction = order?.field === field && order.direction === 'ASC' ? 'DESC' : 'ASC';
                  const next = withOrder(jql, field, direction);
                  setText(next);
                  run(next);
                }}
              />
            )}
            <nav aria-label="Pages" className="mt-3 flex flex-wrap gap-2">
              <Button isDisabled={startAt === 0} onPress={() => run(jql, Math.max(0, startAt - PAGE))}>
                Previous page
              </Button>
              <Button isDisabled={startAt + PAGE >= page.total} onPress={() => run(jql, startAt + PAGE)}>
                Next page
              </Button>
            </nav>
          </>
        )}
      </Section>
      {selected.length > 0 && (
        <BulkChange
          orgId={orgId}
          issues={issues.filter((i) => selected.includes(i.key))}
          onDone={() => results.refetch()}
        />
      )}
    </div>
  );
}

const COLUMNS: { field: string; title: string }[] = [
  { field: 'type', title: 'Type' },
  { field: 'key', title: 'Key' },
  { field: 'summary', title: 'Summary' },
  { field: 'status', title: 'Status' },
  { field: 'assignee', title: 'Assignee' },
  { field: 'priority', title: 'Priority' },
  { field: 'updated', title: 'Updated' },
];

function ResultTable(props: {
  orgId: string;
  issues: Issue[];
  nameOf: (id: string | undefined) => string;
  selected: string[];
  setSelected: (keys: string[]) => void;
  order: { field: string; direction: 'ASC' | 'DESC' } | undefined;
  busy: boolean;
  sort: (field: string) => void;
}) {
  const keys = props.issues.map((i) => i.key);
  const all = keys.length > 0 && keys.every((k) => props.selected.includes(k));
  const toggle = (key: string, on: boolean) =>
    props.setSelected(on ? [...props.selected, key] : props.selected.filter((k) => k !== key));
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200">
      <table aria-busy={props.busy || undefined} className="w-full min-w-[40rem] text-left text-sm">
        <thead className="bg-slate-50">
          <tr>
            <th scope="col" className="w-10 p-2">
              <input
                type="checkbox"
                className="size-4"
                aria-label="Select all issues on this page"
                checked={all}
                onChange={(e) => props.setSelected(e.target.checked ? keys : [])}
              />
            </th>
            {COLUMNS.map((c) => {
              const sorted =
                props.order?.field.toLowerCase() === c.field.toLowerCase() ? props.order.direction : undefined;
              return (
                <th
                  key={c.field}
                  scope="col"
                  className="p-2 font-semibold"
                  aria-sort={sorted === 'ASC' ? 'ascending' : sorted === 'DESC' ? 'descending' : undefined}
                >
                  <button
                    type="button"
                    className="rounded outline-none hover:underline focus-visible:ring-2 focus-visible:ring-blue-600"
                    onClick={() => props.sort(c.field)}
                  >
                    {c.title}
                    <span aria-hidden="true">{sorted === 'ASC' ? ' ↑' : sorted === 'DESC' ? ' ↓' : ''}</span>
                  </button>
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200">
          {props.issues.map((i) => (
            <tr key={i.issueId} className={props.selected.includes(i.key) ? 'bg-blue-50' : undefined}>
              <td className="p-2">
                <input
                  type="checkbox"
                  className="size-4"
                  aria-label={`Select ${i.key}`}
                  checked={props.selected.includes(i.key)}
                  onChange={(e) => toggle(i.key, e.target.checked)}
                />
              </td>
              <td className="p-2">{typeName(i.typeId)}</td>
              <td className="whitespace-nowrap p-2">
                <Link className="font-mono text-blue-800 underline" to={`/orgs/${props.orgId}/tracker/issues/${i.key}`}>
                  {i.key}
                </Link>
              </td>
              <td className="p-2">{i.summary}</td>
              <td className="p-2">
                <StatusLozenge name={statusName(i.statusId)} category={i.statusCategory} />
              </td>
              <td className="p-2">{props.nameOf(i.assigneeId) || 'Unassigned'}</td>
              <td className="p-2">{priorityName(i.priorityId)}</td>
              <td className="whitespace-nowrap p-2">{when(i.updatedAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

type Operation = 'transition' | 'assign' | 'priority' | 'labels' | 'watch' | 'unwatch' | 'move' | 'delete';
const OPERATIONS: { id: Operation; label: string }[] = [
  { id: 'transition', label: 'Transition' },
  { id: 'assign', label: 'Assign' },
  { id: 'priority', label: 'Change priority' },
  { id: 'labels', label: 'Set labels' },
  { id: 'watch', label: 'Watch' },
  { id: 'unwatch', label: 'Stop watching' },
  { id: 'move', label: 'Move to another space' },
  { id: 'delete', label: 'Delete' },
];

/** Jira's bulk change: one operation over the selected issues; the API's outcome for each. */
function BulkChange(props: { orgId: string; issues: Issue[]; onDone: () => unknown }) {
  const { orgId } = props;
  const client = useQueryClient();
  const members = useMembers(orgId);
  const spaces = useSpaces(orgId);
  const [operation, setOperation] = useState<Operation>('transition');
  const [status, setStatus] = useState('');
  const [resolution, setResolution] = useState('');
  const [assignee, setAssignee] = useState('');
  const [priority, setPriority] = useState('medium');
  const [labels, setLabels] = useState('');
  const [space, setSpace] = useState('');
  const [confirm, setConfirm] = useState(false);
  const statuses = useMemo(() => {
    const ids = new Set<string>();
    for (const s of spaces.data?.spaces ?? [])
      for (const w of Object.values(s.config.workflows)) for (const id of WORKFLOW_STATUSES[w] ?? []) ids.add(id);
    return STATUSES.filter((s) => ids.has(s.id));
  }, [spaces.data]);
  const targetStatus = status || statuses[0]?.id || '';
  const change = useMutation({
    mutationFn: () => {
      const issues = props.issues.map((i) => i.key);
      const body = ((): Parameters<ReturnType<typeof api>['postIssuesBulk']>[0]['body'] => {
        switch (operation) {
          case 'transition':
            return {
              issues,
              operation,
              transition: targetStatus,
              ...(resolution ? { fields: { resolution } } : {}),
            };
          case 'assign':
            return { issues, operation: 'edit', fields: { assignee: assignee || null } };
          case 'priority':
            return { issues, operation: 'edit', fields: { priority } };
          case 'labels':
            return { issues, operation: 'edit', fields: { labels: listOf(labels) } };
          case 'move':
            return { issues, operation, space: space || (spaces.data?.spaces[0]?.key ?? '') };
          default:
            return { issues, operation };
        }
      })();
      return api().postIssuesBulk({ orgId, body });
    },
    onSuccess: async () => {
      setConfirm(false);
      await client.invalidateQueries({ queryKey: ['issue'] });
      await props.onDone();
    },
  });
  const outcome = change.data;
  return (
    <Section title={`Bulk change ${props.issues.length} issue${props.issues.length === 1 ? '' : 's'}`} id="bulk">
      <form
        className="grid max-w-xl gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          if (operation === 'delete' && !confirm) setConfirm(true);
          else change.mutate();
        }}
      >
        <SelectField
          label="Operation"
          value={operation}
          onChange={(v) => {
            setOperation(v);
            setConfirm(false);
          }}
          options={OPERATIONS}
        />
        {operation === 'transition' && (
          <>
            <SelectField
              label="To status"
              value={targetStatus}
              onChange={setStatus}
              options={statuses.map((s) => ({ id: s.id, label: s.name }))}
            />
            <SelectField
              label="Resolution (when the transition asks for one)"
              value={resolution}
              onChange={setResolution}
              options={[{ id: '', label: 'None' }, ...RESOLUTIONS.map((r) => ({ id: r.id, label: r.name }))]}
            />
          </>
        )}
        {operation === 'assign' && (
          <SelectField
            label="Assignee"
            value={assignee}
            onChange={setAssignee}
            options={[
              { id: '', label: 'Unassigned' },
              ...members.members.map((m) => ({ id: m.userId, label: m.name || m.email || m.userId })),
            ]}
          />
        )}
        {operation === 'priority' && (
          <SelectField
            label="Priority"
            value={priority}
            onChange={setPriority}
            options={PRIORITIES.map((p) => ({ id: p.id, label: p.name }))}
          />
        )}
        {operation === 'labels' && (
          <TextInput
            label="Labels"
            description="They replace each issue's labels; separated by spaces or commas."
            value={labels}
            onChange={setLabels}
          />
        )}
        {operation === 'move' && (
          <div className="text-sm">
            <label className="font-medium" htmlFor="bulk-space">
              Space
            </label>
            <div className="mt-1">
              <NativeSelect
                id="bulk-space"
                value={space || (spaces.data?.spaces[0]?.key ?? '')}
                onChange={setSpace}
                options={(spaces.data?.spaces ?? []).map((s) => ({ id: s.key, label: `${s.name} (${s.key})` }))}
              />
            </div>
          </div>
        )}
        {confirm && (
          <p role="alert" className="text-sm text-red-900">
            Delete {props.issues.map((i) => i.key).join(', ')}? This can't be undone. Press Delete again to confirm.
          </p>
        )}
        <div>
          <Button type="submit" tone={operation === 'delete' ? 'danger' : 'primary'} isDisabled={change.isPending}>
            {operation === 'delete' ? 'Delete' : 'Apply'}
          </Button>
        </div>
        <ErrorNote error={change.error} />
      </form>
      {outcome && (
        <div className="mt-4" role="status">
          <p className="text-sm font-medium">
            {outcome.done} done, {outcome.failed} failed.
          </p>
          <ul aria-label="Outcome per issue" className="mt-2 grid gap-1 text-sm">
            {outcome.results.map((r) => (
              <li key={r.issue} className={r.ok ? 'text-green-900' : 'text-red-900'}>
                <span className="font-mono">{r.issue}</span>:{' '}
                {r.ok ? `done${r.key && r.key !== r.issue ? ` (now ${r.key})` : ''}` : r.error}
              </li>
            ))}
          </ul>
        </div>
      )}
    </Section>
  );
}

/** The values JQL completion offers: the catalogs, and the API's spaces, people, labels. */
function useValueSource(orgId: string): ValueSource {
  const spaces = useSpaces(orgId);
  const members = useMembers(orgId);
  const labels = useLabels(orgId);
  const spaceDetails = useQuery({
    queryKey: ['tracker-space-parts', orgId, spaces.data?.spaces.map((s) => s.key).join(',')],
    enabled: Boolean(spaces.data),
    staleTime: 60_000,
    queryFn: async () => {
      const all = await Promise.all(
        (spaces.data?.spaces ?? [])
          .slice(0, 20)
          .map((s) => api().getIssuesSpacesBySpaceKey({ orgId, spaceKey: s.key })),
      );
      return {
        components: [...new Set(all.flatMap((d) => d.components.map((c) => c.name)))],
        versions: [...new Set(all.flatMap((d) => d.versions.map((v) => v.name)))],
      };
    },
  });
  return useCallback<ValueSource>(
    (catalog) => {
      const list = spaces.data?.spaces ?? [];
      switch (catalog) {
        case 'status': {
          const used = new Set(
            list.flatMap((s) => Object.values(s.config.workflows).flatMap((w) => WORKFLOW_STATUSES[w] ?? [])),
          );
          return STATUSES.filter((s) => used.size === 0 || used.has(s.id)).map((s) => ({
            value: s.name,
            kind: 'status',
          }));
        }
        case 'type': {
          const used = new Set(list.flatMap((s) => s.config.issueTypeIds));
          return ISSUE_TYPES.filter((t) => used.size === 0 || used.has(t.id)).map((t) => ({
            value: t.name,
            kind: 'type',
          }));
        }
        case 'priority':
          return PRIORITIES.map((p) => ({ value: p.name, kind: 'priority' }));
        case 'resolution':
          return [
            ...RESOLUTIONS.map((r) => ({ value: r.name, kind: 'resolution' })),
            { value: 'Unresolved', kind: 'resolution' },
          ];
        case 'space':
          return list.map((s) => ({ value: s.key, kind: s.name }));
        case 'person':
          return members.members.flatMap((m) => (m.email ? [{ value: m.email, kind: m.name || 'person' }] : []));
        case 'label':
          return (labels.data?.labels ?? []).map((l) => ({ value: l, kind: 'label' }));
        case 'category':
          return ['To Do', 'In Progress', 'Done'].map((c) => ({ value: c, kind: 'category' }));
        case 'component':
          return (spaceDetails.data?.components ?? []).map((c) => ({ value: c, kind: 'component' }));
        case 'version':
          return (spaceDetails.data?.versions ?? []).map((v) => ({ value: v, kind: 'version' }));
        default:
          return [];
      }
    },
    [spaces.data, members.members, labels.data, spaceDetails.data],
  );
}
