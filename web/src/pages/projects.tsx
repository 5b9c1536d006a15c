import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import { api } from '../lib/api';
import { useDraft } from '../lib/drafts';
import { hostUrl, useCan, useOrgId } from '../lib/hooks';
import { Button, ErrorNote, Loading, PageTitle, Section, SelectField, Status, TextInput, when } from '../ui/controls';

type Framework = 'static' | 'node' | 'nextjs';
const slugOf = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 48);

export default function Projects() {
  const orgId = useOrgId();
  const canWrite = useCan('projects:write');
  const projects = useQuery({
    queryKey: ['projects', orgId],
    queryFn: () => api().getProjects({ orgId, include: 'summary' }),
  });
  return (
    <div>
      <PageTitle title="Projects">Projects</PageTitle>
      {projects.isPending && <Loading what="projects" />}
      <ErrorNote error={projects.error} />
      {projects.data && projects.data.projects.length === 0 && (
        <p className="mt-4 text-sm text-slate-700">No projects yet.</p>
      )}
      <ul className="mt-4 grid gap-3 md:grid-cols-2">
        {projects.data?.projects.map((p) => (
          <li key={p.projectId} className="rounded-lg border border-slate-200 p-4">
            <h2 className="text-base font-semibold">
              <Link to={`/orgs/${orgId}/projects/${p.projectId}`}>{p.name}</Link>
            </h2>
            <p className="mt-1 text-sm text-slate-700">
              {p.framework}
              {p.repo ? ` · repository ${p.repo.name}` : ''}
            </p>
            {p.productionHost && (
              <p className="mt-1 truncate text-sm">
                <a href={hostUrl(p.productionHost)}>{p.productionHost}</a>
              </p>
            )}
            {p.latest && (
              <p className="mt-2 flex items-center gap-2 text-sm">
                <Status value={p.latest.status} /> Latest deployment {when(p.latest.createdAt)}
              </p>
            )}
          </li>
        ))}
      </ul>
      {canWrite && <CreateProject orgId={orgId} />}
    </div>
  );
}

function CreateProject({ orgId }: { orgId: string }) {
  const [form, setForm, clear] = useDraft('create-project', {
    name: '',
    slug: '',
    slugEdited: false,
    framework: 'static' as Framework,
    repoId: '',
  });
  const repos = useQuery({ queryKey: ['repos', orgId], queryFn: () => api().getRepos({ orgId }) });
  const client = useQueryClient();
  const navigate = useNavigate();
  const create = useMutation({
    mutationFn: () =>
      api().postProjects({
        orgId,
        body: {
          name: form.name,
          slug: form.slug,
          framework: form.framework,
          ...(form.repoId ? { repoId: form.repoId } : {}),
        },
      }),
    onSuccess: async ({ project }) => {
      clear();
      await client.invalidateQueries({ queryKey: ['projects', orgId] });
      navigate(`/orgs/${orgId}/projects/${project.projectId}`);
    },
  });
  return (
    <Section title="Create a project">
      <form
        className="grid max-w-xl gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate();
        }}
      >
        <TextInput
          label="Name"
          isRequired
          value={form.name}
          onChange={(name) => setForm({ ...form, name, slug: form.slugEdited ? form.slug : slugOf(name) })}
        />
        <TextInput
          label="Slug"
          isRequired
          mono
          description="Its address: <slug>.<apps domain>."
          value={form.slug}
          onChange={(slug) => setForm({ ...form, slug, slugEdited: true })}
        />
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
          value={form.repoId || 'none'}
          onChange={(repoId) => setForm({ ...form, repoId: repoId === 'none' ? '' : repoId })}
          options={[
            { id: 'none', label: 'None (deploy uploads from the command line)' },
            ...(repos.data?.repos.map((r) => ({ id: r.resourceId, label: r.name })) ?? []),
          ]}
        />
        <div>
          <Button type="submit" tone="primary" isDisabled={create.isPending}>
            Create project
          </Button>
          <ErrorNote error={create.error} />
        </div>
      </form>
    </Section>
  );
}
