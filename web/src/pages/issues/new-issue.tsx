import { useMutation } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { api } from '../../lib/api';
import { useDraft } from '../../lib/drafts';
import { useOrgId } from '../../lib/hooks';
import { Button, ErrorNote, Loading, PageTitle, SelectField, TextArea, TextInput } from '../../ui/controls';
import { ISSUE_TYPES, PRIORITIES } from './catalog';
import { listOf, useMembers, useSpace, useSpaces, useSprints } from './data';
import { Checks } from './edit-kit';

/** Jira's full "Create issue" form: every field POST /issues takes that a person sets by hand. */
export default function NewIssuePage() {
  const orgId = useOrgId();
  const navigate = useNavigate();
  const spaces = useSpaces(orgId);
  const members = useMembers(orgId);
  const [form, setForm, clear] = useDraft('create-issue', {
    space: '',
    type: '',
    summary: '',
    description: '',
    priority: 'medium',
    assignee: '',
    labels: '',
    components: [] as string[],
    fixVersions: [] as string[],
    sprint: '',
    parent: '',
    storyPoints: '',
    dueDate: '',
    originalEstimate: '',
  });
  const spaceKey = form.space || spaces.data?.spaces[0]?.key || '';
  const space = useSpace(orgId, spaceKey || undefined);
  const sprints = useSprints(orgId, space.data?.space.config.boardId);
  const typeIds = space.data?.space.config.issueTypeIds ?? [];
  const type = form.type && typeIds.includes(form.type) ? form.type : (space.data?.space.config.defaultTypeId ?? '');
  const set =
    <K extends keyof typeof form>(key: K) =>
    (value: (typeof form)[K]) =>
      setForm({ ...form, [key]: value });
  const create = useMutation({
    mutationFn: () =>
      api().postIssues({
        orgId,
        body: {
          space: spaceKey,
          summary: form.summary,
          ...(type ? { type } : {}),
          ...(form.description ? { description: form.description } : {}),
          priority: form.priority || null,
          ...(form.assignee ? { assignee: form.assignee } : {}),
          ...(form.labels.trim() ? { labels: listOf(form.labels) } : {}),
          ...(form.components.length ? { components: form.components } : {}),
          ...(form.fixVersions.length ? { fixVersions: form.fixVersions } : {}),
          ...(form.sprint ? { sprint: form.sprint } : {}),
          ...(form.parent.trim() ? { parent: form.parent.trim() } : {}),
          ...(form.storyPoints.trim() ? { storyPoints: Number(form.storyPoints) } : {}),
          ...(form.dueDate ? { dueDate: form.dueDate } : {}),
          ...(form.originalEstimate.trim() ? { originalEstimate: form.originalEstimate.trim() } : {}),
        },
      }),
    onSuccess: ({ issue }) => {
      clear();
      navigate(`/orgs/${orgId}/tracker/issues/${issue.key}`);
    },
  });
  if (spaces.isPending) return <Loading what="spaces" />;
  if (spaces.error) return <ErrorNote error={spaces.error} />;
  if (spaces.data.spaces.length === 0) {
    return (
      <div>
        <PageTitle title="Create issue">Create issue</PageTitle>
        <p className="mt-4 text-sm">There is no space to create an issue in yet.</p>
      </div>
    );
  }
  return (
    <div>
      <PageTitle title="Create issue">Create issue</PageTitle>
      <form
        className="mt-4 grid max-w-2xl gap-4"
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate();
        }}
      >
        <div className="grid gap-4 sm:grid-cols-2">
          <SelectField
            label="Space"
            value={spaceKey}
            onChange={(v) => setForm({ ...form, space: v, type: '', components: [], fixVersions: [], sprint: '' })}
            options={spaces.data.spaces.map((s) => ({ id: s.key, label: `${s.name} (${s.key})` }))}
          />
          <SelectField
            label="Issue type"
            value={type}
            onChange={set('type')}
            options={ISSUE_TYPES.filter((t) => typeIds.includes(t.id)).map((t) => ({ id: t.id, label: t.name }))}
          />
        </div>
        <TextInput label="Summary" isRequired value={form.summary} onChange={set('summary')} />
        <TextArea label="Description" rows={6} value={form.description} onChange={set('description')} />
        <div className="grid gap-4 sm:grid-cols-2">
          <SelectField
            label="Priority"
            value={form.priority}
            onChange={set('priority')}
            options={PRIORITIES.map((p) => ({ id: p.id, label: p.name }))}
          />
          <SelectField
            label="Assignee"
            value={form.assignee}
            onChange={set('assignee')}
            options={[
              { id: '', label: 'Automatic' },
              ...members.members.map((m) => ({ id: m.userId, label: m.name || m.email || m.userId })),
            ]}
          />
          <TextInput
            label="Labels"
            description="Separated by spaces or commas."
            value={form.labels}
            onChange={set('labels')}
          />
          <TextInput
            label="Parent"
            mono
            placeholder="An epic's key, e.g. WEB-1"
            value={form.parent}
            onChange={set('parent')}
          />
          <TextInput label="Story points" type="number" value={form.storyPoints} onChange={set('storyPoints')} />
          <TextInput
            label="Original estimate"
            placeholder="e.g. 1d 4h"
            value={form.originalEstimate}
            onChange={set('originalEstimate')}
          />
          <div className="text-sm">
            <label htmlFor="new-issue-due" className="font-medium">
              Due date
            </label>
            <input
              id="new-issue-due"
              type="date"
              value={form.dueDate}
              onChange={(e) => set('dueDate')(e.target.value)}
              className="mt-1 block w-full rounded-md border border-slate-400 px-2.5 py-1.5"
            />
          </div>
          {(sprints.data?.sprints.length ?? 0) > 0 && (
            <SelectField
              label="Sprint"
              value={form.sprint}
              onChange={set('sprint')}
              options={[
                { id: '', label: 'Backlog' },
                ...(sprints.data?.sprints ?? [])
                  .filter((s) => s.state !== 'closed')
                  .map((s) => ({ id: s.sprintId, label: s.name })),
              ]}
            />
          )}
        </div>
        {(space.data?.components.length ?? 0) > 0 && (
          <div>
            <p className="text-sm font-medium" id="new-components">
              Components
            </p>
            <Checks
              legend="Components"
              value={form.components}
              onChange={set('components')}
              options={(space.data?.components ?? []).map((c) => ({ id: c.componentId, label: c.name }))}
            />
          </div>
        )}
        {(space.data?.versions.length ?? 0) > 0 && (
          <div>
            <p className="text-sm font-medium">Fix versions</p>
            <Checks
              legend="Fix versions"
              value={form.fixVersions}
              onChange={set('fixVersions')}
              options={(space.data?.versions ?? [])
                .filter((v) => !v.archived)
                .map((v) => ({ id: v.versionId, label: v.name }))}
            />
          </div>
        )}
        <div>
          <Button type="submit" tone="primary" isDisabled={create.isPending}>
            Create
          </Button>
          <ErrorNote error={create.error} />
        </div>
      </form>
    </div>
  );
}
