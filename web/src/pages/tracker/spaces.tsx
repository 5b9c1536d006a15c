import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import { api } from '../../lib/api';
import { useDraft } from '../../lib/drafts';
import { useCan, useOrgId } from '../../lib/hooks';
import { Button, Checkbox, ErrorNote, Loading, PageTitle, Section, SelectField, TextInput } from '../../ui/controls';
import { TEMPLATES } from './catalog';
import { useSpaces } from './common';

/** The tracker's start: the spaces the person can browse, each with its boards; create a space or a board. */
export default function TrackerSpaces() {
  const orgId = useOrgId();
  const canWrite = useCan('issues:write');
  const spaces = useSpaces(orgId);
  const boards = useQuery({ queryKey: ['tracker-boards', orgId], queryFn: () => api().getIssuesBoards({ orgId }) });
  const list = spaces.data?.spaces ?? [];
  const allBoards = boards.data?.boards ?? [];
  return (
    <div>
      <PageTitle title="Issues">Spaces and boards</PageTitle>
      {(spaces.isPending || boards.isPending) && <Loading what="spaces" />}
      <ErrorNote error={spaces.error ?? boards.error} />
      {spaces.data && list.length === 0 && (
        <p className="mt-4 text-sm text-slate-700">No spaces yet. Create one below to start tracking work.</p>
      )}
      {list.length > 0 && (
        <ul className="mt-4 divide-y divide-slate-200 rounded-lg border border-slate-200">
          {list.map((s) => {
            const own = allBoards.filter((b) => b.config.spaceIds.includes(s.spaceId));
            return (
              <li key={s.spaceId} className="p-3">
                <h2 className="font-semibold">
                  {s.name} <span className="font-mono text-sm text-slate-700">({s.key})</span>
                </h2>
                <p className="text-sm text-slate-700">
                  {TEMPLATES.find((t) => t.id === s.template)?.label ?? s.template} · {s.seq} issue
                  {s.seq === 1 ? '' : 's'} created
                </p>
                {own.length > 0 ? (
                  <ul aria-label={`Boards of ${s.name}`} className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-sm">
                    {own.map((b) => (
                      <li key={b.boardId} className="flex flex-wrap gap-x-2">
                        <Link to={`/orgs/${orgId}/tracker/boards/${b.boardId}`} className="font-medium">
                          {b.name}
                        </Link>
                        <span className="text-slate-700">{b.config.type === 'scrum' ? 'Scrum' : 'Kanban'}</span>
                        <Link
                          to={`/orgs/${orgId}/tracker/boards/${b.boardId}/backlog`}
                          aria-label={`Backlog of ${b.name}`}
                        >
                          Backlog
                        </Link>
                      </li>
                    ))}
                  </ul>
                ) : (
                  <p className="mt-2 text-sm text-slate-700">No board shows this space.</p>
                )}
              </li>
            );
          })}
        </ul>
      )}
      {canWrite && <CreateSpace orgId={orgId} />}
      {canWrite && list.length > 0 && <CreateBoard orgId={orgId} spaces={list} />}
    </div>
  );
}

/** A key from a name, as Jira suggests one: the initials, or the first letters of one word. */
const suggestKey = (name: string) => {
  const words = name
    .toUpperCase()
    .replace(/[^A-Z0-9 ]/g, ' ')
    .split(/\s+/)
    .filter(Boolean);
  const key = words.length > 1 ? words.map((w) => w[0]).join('') : (words[0] ?? '').slice(0, 4);
  return key.replace(/^[0-9]+/, '').slice(0, 10);
};

function CreateSpace({ orgId }: { orgId: string }) {
  const [form, setForm, clear] = useDraft('create-space', {
    name: '',
    key: '',
    keyTouched: false,
    template: 'scrum' as (typeof TEMPLATES)[number]['id'],
  });
  const client = useQueryClient();
  const navigate = useNavigate();
  const key = form.keyTouched ? form.key : suggestKey(form.name);
  const create = useMutation({
    mutationFn: () => api().postIssuesSpaces({ orgId, body: { name: form.name, key, template: form.template } }),
    onSuccess: async ({ space }) => {
      clear();
      await client.invalidateQueries({ queryKey: ['tracker-spaces', orgId] });
      await client.invalidateQueries({ queryKey: ['tracker-boards', orgId] });
      // A scrum space starts with planning (its backlog); the others with their board.
      const board = `/orgs/${orgId}/tracker/boards/${space.config.boardId}`;
      if (space.config.boardId) navigate(space.template === 'scrum' ? `${board}/backlog` : board);
    },
  });
  return (
    <Section title="Create a space">
      <form
        className="grid max-w-xl gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate();
        }}
      >
        <TextInput label="Name" isRequired value={form.name} onChange={(name) => setForm({ ...form, name })} />
        <TextInput
          label="Key"
          isRequired
          mono
          description="2-10 capital letters and digits, starting with a letter: the prefix of its issues' keys (WEB-1)."
          value={key}
          onChange={(k) => setForm({ ...form, key: k.toUpperCase(), keyTouched: true })}
        />
        <SelectField
          label="Template"
          value={form.template}
          onChange={(template) => setForm({ ...form, template })}
          options={TEMPLATES.map((t) => ({ id: t.id, label: t.label }))}
        />
        <div>
          <Button type="submit" tone="primary" isDisabled={create.isPending}>
            Create space
          </Button>
          <ErrorNote error={create.error} />
        </div>
      </form>
    </Section>
  );
}

function CreateBoard({ orgId, spaces }: { orgId: string; spaces: { spaceId: string; key: string; name: string }[] }) {
  const [form, setForm, clear] = useDraft('create-board', {
    name: '',
    type: 'kanban' as 'scrum' | 'kanban',
    spaces: [] as string[],
  });
  const client = useQueryClient();
  const navigate = useNavigate();
  const create = useMutation({
    mutationFn: () =>
      api().postIssuesBoards({ orgId, body: { name: form.name, type: form.type, spaces: form.spaces } }),
    onSuccess: async ({ board }) => {
      clear();
      await client.invalidateQueries({ queryKey: ['tracker-boards', orgId] });
      navigate(`/orgs/${orgId}/tracker/boards/${board.boardId}`);
    },
  });
  return (
    <Section title="Create a board">
      <form
        className="grid max-w-xl gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate();
        }}
      >
        <TextInput label="Board name" isRequired value={form.name} onChange={(name) => setForm({ ...form, name })} />
        <SelectField
          label="Board type"
          value={form.type}
          onChange={(type) => setForm({ ...form, type })}
          options={[
            { id: 'kanban', label: 'Kanban' },
            { id: 'scrum', label: 'Scrum' },
          ]}
        />
        <fieldset>
          <legend className="text-sm font-medium">Spaces it shows</legend>
          {spaces.map((s) => (
            <Checkbox
              key={s.spaceId}
              isSelected={form.spaces.includes(s.spaceId)}
              onChange={(on) =>
                setForm({
                  ...form,
                  spaces: on ? [...form.spaces, s.spaceId] : form.spaces.filter((x) => x !== s.spaceId),
                })
              }
            >
              {s.name} ({s.key})
            </Checkbox>
          ))}
        </fieldset>
        <div>
          <Button type="submit" tone="primary" isDisabled={create.isPending}>
            Create board
          </Button>
          <ErrorNote error={create.error} />
        </div>
      </form>
    </Section>
  );
}
