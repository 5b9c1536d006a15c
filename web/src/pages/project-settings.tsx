import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { Project } from '../../../client';
import { api } from '../lib/api';
import { useDraft } from '../lib/drafts';
import {
  Button,
  Checkbox,
  Done,
  ErrorNote,
  Loading,
  PageTitle,
  Section,
  SelectField,
  TextArea,
  TextInput,
} from '../ui/controls';
import { ProjectNav, useProject } from '../ui/project-nav';

export default function ProjectSettings() {
  const { orgId, projectId, data, error, isPending } = useProject();
  const [saved, setSaved] = useState(false);
  if (isPending) return <Loading what="the project" />;
  if (error) return <ErrorNote error={error} />;
  return (
    <div>
      <PageTitle title={`Settings of ${data.project.name}`}>{data.project.name}: settings</PageTitle>
      <ProjectNav orgId={orgId} projectId={projectId} />
      <SettingsForm key={data.project.version} orgId={orgId} project={data.project} onSaved={() => setSaved(true)} />
      {saved && <Done>Saved.</Done>}
    </div>
  );
}

function SettingsForm({ orgId, project, onSaved }: { orgId: string; project: Project; onSaved: () => void }) {
  const [form, setForm, clear] = useDraft(`settings-${project.version}`, {
    name: project.name,
    slug: project.slug,
    framework: project.framework,
    repoId: project.repoId ?? 'none',
    productionBranch: project.productionBranch,
    rootDirectory: project.rootDirectory,
    buildCommand: project.buildCommand ?? '',
    installCommand: project.installCommand ?? '',
    outputDirectory: project.outputDirectory ?? '',
    previewsEnabled: project.previews?.enabled ?? true,
    ignore: (project.previews?.ignore ?? []).join('\n'),
  });
  const repos = useQuery({ queryKey: ['repos', orgId], queryFn: () => api().getRepos({ orgId }) });
  const client = useQueryClient();
  const save = useMutation({
    mutationFn: () =>
      api().patchProjectsByProjectId({
        orgId,
        projectId: project.projectId,
        body: {
          name: form.name,
          slug: form.slug,
          framework: form.framework,
          repoId: form.repoId === 'none' ? null : form.repoId,
          productionBranch: form.productionBranch,
          rootDirectory: form.rootDirectory,
          buildCommand: form.buildCommand || null,
          installCommand: form.installCommand || null,
          outputDirectory: form.outputDirectory || null,
          previews: {
            enabled: form.previewsEnabled,
            ignore: form.ignore
              .split('\n')
              .map((s) => s.trim())
              .filter(Boolean),
          },
          ifVersion: project.version,
        },
      }),
    onSuccess: async () => {
      clear();
      onSaved();
      await client.invalidateQueries({ queryKey: ['project', orgId, project.projectId] });
    },
  });
  const text = (label: string, field: keyof typeof form, description?: string) => (
    <TextInput
      label={label}
      description={description}
      mono
      value={String(form[field])}
      onChange={(value) => setForm({ ...form, [field]: value })}
    />
  );
  return (
    <Section title="Project settings">
      <form
        className="grid max-w-2xl gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate();
        }}
      >
        <TextInput label="Name" value={form.name} onChange={(name) => setForm({ ...form, name })} />
        {text('Slug', 'slug')}
        <SelectField
          label="Framework"
          value={form.framework}
          onChange={(framework) => setForm({ ...form, framework })}
          options={[
            { id: 'static', label: 'Static site' },
            { id: 'node', label: 'Node.js server' },
            { id: 'nextjs', label: 'Next.js' },
          ]}
        />
        <SelectField
          label="Repository"
          value={form.repoId}
          onChange={(repoId) => setForm({ ...form, repoId })}
          options={[
            { id: 'none', label: 'None' },
            ...(repos.data?.repos.map((r) => ({ id: r.resourceId, label: r.name })) ?? []),
          ]}
        />
        {text('Production branch', 'productionBranch')}
        {text('Root directory', 'rootDirectory', 'The folder of the repository the project builds.')}
        {text('Build command', 'buildCommand', 'Empty: the build script of package.json, if any.')}
        {text('Install command', 'installCommand')}
        {text('Output directory', 'outputDirectory')}
        <Checkbox
          isSelected={form.previewsEnabled}
          onChange={(previewsEnabled) => setForm({ ...form, previewsEnabled })}
        >
          Build a preview of every pull request
        </Checkbox>
        <TextArea
          label="Paths whose changes alone build no preview (one glob a line)"
          mono
          rows={3}
          value={form.ignore}
          onChange={(ignore) => setForm({ ...form, ignore })}
        />
        <div>
          <Button type="submit" tone="primary" isDisabled={save.isPending}>
            Save settings
          </Button>
          <ErrorNote error={save.error} />
        </div>
      </form>
    </Section>
  );
}
