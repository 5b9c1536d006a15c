import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useSearchParams } from 'react-router';
import { api } from '../lib/api';
import { useDraft } from '../lib/drafts';
import { Button, ErrorNote, PageTitle, Section, SelectField, TextArea, TextInput } from '../ui/controls';
import { RepoHeader, useRepo } from '../ui/repo-nav';

export default function PullNew() {
  const { orgId, name, repo } = useRepo();
  const [params] = useSearchParams();
  const branches = repo.data?.branches ?? [];
  const target = repo.data?.defaultBranch ?? 'main';
  return (
    <div>
      <RepoHeader orgId={orgId} name={name} />
      <PageTitle title={`New pull request · ${name}`}>New pull request</PageTitle>
      {repo.data && (
        <PullForm
          orgId={orgId}
          name={name}
          branches={branches}
          source={params.get('source') ?? branches.find((b) => b !== target) ?? target}
          target={target}
        />
      )}
      <ErrorNote error={repo.error} />
    </div>
  );
}

function PullForm(props: { orgId: string; name: string; branches: string[]; source: string; target: string }) {
  const { orgId, name } = props;
  const [form, setForm, clear] = useDraft('new-pull', {
    source: props.source,
    target: props.target,
    title: '',
    description: '',
  });
  const compare = useQuery({
    queryKey: ['compare', orgId, name, form.target, form.source],
    queryFn: () => api().getReposCompare({ orgId, name, base: form.target, head: form.source }),
    enabled: form.source !== form.target,
  });
  const client = useQueryClient();
  const navigate = useNavigate();
  const create = useMutation({
    mutationFn: () =>
      api().postReposPulls({
        orgId,
        name,
        body: {
          title: form.title,
          source: form.source,
          target: form.target,
          ...(form.description ? { description: form.description } : {}),
        },
      }),
    onSuccess: async ({ pull }) => {
      clear();
      await client.invalidateQueries({ queryKey: ['pulls', orgId, name] });
      navigate(`/orgs/${orgId}/repos/${name}/pulls/${pull.number}`);
    },
  });
  const options = props.branches.map((b) => ({ id: b, label: b }));
  return (
    <Section title="Branches and description">
      <form
        className="grid max-w-2xl gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate();
        }}
      >
        <div className="flex flex-wrap gap-3">
          <SelectField
            label="Merge into"
            className="w-56"
            value={form.target}
            onChange={(target) => setForm({ ...form, target })}
            options={options}
          />
          <SelectField
            label="From"
            className="w-56"
            value={form.source}
            onChange={(source) => setForm({ ...form, source })}
            options={options}
          />
        </div>
        {compare.data && (
          <p role="status" className="text-sm text-slate-700">
            {compare.data.status === 'identical'
              ? 'These branches are identical.'
              : `${compare.data.aheadBy} commit${compare.data.aheadBy === 1 ? '' : 's'} ahead, ${compare.data.total} file${compare.data.total === 1 ? '' : 's'} changed.`}
            {compare.data.pull !== null && ` Pull request #${compare.data.pull} is already open for these branches.`}
          </p>
        )}
        <ErrorNote error={compare.error} />
        <TextInput label="Title" isRequired value={form.title} onChange={(title) => setForm({ ...form, title })} />
        <TextArea
          label="Description"
          value={form.description}
          onChange={(description) => setForm({ ...form, description })}
        />
        <div>
          <Button type="submit" tone="primary" isDisabled={create.isPending}>
            Create pull request
          </Button>
          <ErrorNote error={create.error} />
        </div>
      </form>
    </Section>
  );
}
