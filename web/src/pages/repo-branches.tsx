import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api } from '../lib/api';
import { useDraft } from '../lib/drafts';
import { useCan } from '../lib/hooks';
import { Button, ErrorNote, Loading, PageTitle, Section, TextInput } from '../ui/controls';
import { RepoHeader, useRepo } from '../ui/repo-nav';

export default function RepoBranches() {
  const { orgId, name, repo } = useRepo();
  const canWrite = useCan('git:write');
  const branches = useQuery({
    queryKey: ['branches', orgId, name],
    queryFn: () => api().getReposBranches({ orgId, name }),
  });
  const base = `/orgs/${orgId}/repos/${name}`;
  return (
    <div>
      <RepoHeader orgId={orgId} name={name} />
      <PageTitle title={`Branches · ${name}`}>Branches</PageTitle>
      {branches.isPending && <Loading what="branches" />}
      <ErrorNote error={branches.error} />
      <ul className="mt-4 divide-y divide-slate-200 rounded-lg border border-slate-200">
        {branches.data?.branches.map((b) => (
          <li key={b.name} className="flex flex-wrap items-center gap-x-3 gap-y-1 p-3 text-sm">
            <Link to={`${base}?ref=${encodeURIComponent(b.name)}`} className="font-mono font-semibold">
              {b.name}
            </Link>
            {b.isDefault && <span className="rounded bg-slate-100 px-1.5 py-0.5 text-xs">default</span>}
            {b.protected && <span className="rounded bg-blue-100 px-1.5 py-0.5 text-xs text-blue-900">protected</span>}
            <code className="text-xs text-slate-700">{b.commit.slice(0, 12)}</code>
            <span className="ml-auto">
              {b.openPull !== null ? (
                <Link to={`${base}/pulls/${b.openPull}`}>Pull request #{b.openPull}</Link>
              ) : (
                !b.isDefault && (
                  <Link
                    to={`${base}/pulls/new?${new URLSearchParams({ source: b.name })}`}
                    aria-label={`Open a pull request from ${b.name}`}
                  >
                    Open a pull request
                  </Link>
                )
              )}
            </span>
          </li>
        ))}
      </ul>
      {canWrite && repo.data && !repo.data.empty && (
        <NewBranch orgId={orgId} name={name} from={repo.data.defaultBranch} />
      )}
    </div>
  );
}

function NewBranch({ orgId, name, from }: { orgId: string; name: string; from: string }) {
  const [form, setForm, clear] = useDraft('new-branch', { name: '', from });
  const client = useQueryClient();
  const create = useMutation({
    mutationFn: () => api().postReposBranches({ orgId, name, body: { name: form.name, from: form.from } }),
    onSuccess: async () => {
      clear();
      await client.invalidateQueries({ predicate: (q) => ['branches', 'repo'].includes(q.queryKey[0] as string) });
    },
  });
  return (
    <Section title="Create a branch">
      <form
        className="flex flex-wrap items-end gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate();
        }}
      >
        <TextInput
          label="Branch name"
          mono
          isRequired
          value={form.name}
          onChange={(n) => setForm({ ...form, name: n })}
        />
        <TextInput label="From" mono isRequired value={form.from} onChange={(f) => setForm({ ...form, from: f })} />
        <Button type="submit" tone="primary" isDisabled={create.isPending}>
          Create branch
        </Button>
      </form>
      <ErrorNote error={create.error} />
    </Section>
  );
}
