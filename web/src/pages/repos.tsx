import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import { api } from '../lib/api';
import { useDraft } from '../lib/drafts';
import { useCan, useOrgId } from '../lib/hooks';
import { Button, Checkbox, ErrorNote, Loading, PageTitle, Section, TextInput, when } from '../ui/controls';

export default function Repos() {
  const orgId = useOrgId();
  const canWrite = useCan('git:write');
  const repos = useQuery({ queryKey: ['repos', orgId], queryFn: () => api().getRepos({ orgId }) });
  return (
    <div>
      <PageTitle title="Repositories">Repositories</PageTitle>
      {repos.isPending && <Loading what="repositories" />}
      <ErrorNote error={repos.error} />
      {repos.data?.repos.length === 0 && <p className="mt-4 text-sm text-slate-700">No repositories yet.</p>}
      <ul className="mt-4 divide-y divide-slate-200 rounded-lg border border-slate-200">
        {repos.data?.repos.map((r) => (
          <li key={r.resourceId} className="p-3">
            <Link to={`/orgs/${orgId}/repos/${r.name}`} className="font-semibold">
              {r.name}
            </Link>
            <p className="text-sm text-slate-700">
              {[r.description, r.language, r.updatedAt ? `updated ${when(r.updatedAt)}` : '']
                .filter(Boolean)
                .join(' · ')}
            </p>
          </li>
        ))}
      </ul>
      {canWrite && <CreateRepo orgId={orgId} />}
    </div>
  );
}

function CreateRepo({ orgId }: { orgId: string }) {
  const [form, setForm, clear] = useDraft('create-repo', { name: '', description: '', readme: true });
  const client = useQueryClient();
  const navigate = useNavigate();
  const create = useMutation({
    mutationFn: () =>
      api().postRepos({
        orgId,
        body: { name: form.name, readme: form.readme, ...(form.description ? { description: form.description } : {}) },
      }),
    onSuccess: async ({ repo }) => {
      clear();
      await client.invalidateQueries({ queryKey: ['repos', orgId] });
      navigate(`/orgs/${orgId}/repos/${repo.name}`);
    },
  });
  return (
    <Section title="Create a repository">
      <form
        className="grid max-w-xl gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate();
        }}
      >
        <TextInput
          label="Repository name"
          isRequired
          mono
          value={form.name}
          onChange={(name) => setForm({ ...form, name })}
        />
        <TextInput
          label="Description"
          value={form.description}
          onChange={(description) => setForm({ ...form, description })}
        />
        <Checkbox isSelected={form.readme} onChange={(readme) => setForm({ ...form, readme })}>
          Start with a README
        </Checkbox>
        <div>
          <Button type="submit" tone="primary" isDisabled={create.isPending}>
            Create repository
          </Button>
          <ErrorNote error={create.error} />
        </div>
      </form>
    </Section>
  );
}
