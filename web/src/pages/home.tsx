import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Navigate, useNavigate, useParams } from 'react-router';
import { api } from '../lib/api';
import { useDraft } from '../lib/drafts';
import { useMe } from '../lib/hooks';
import { Button, ErrorNote, Loading, PageTitle, TextInput } from '../ui/controls';

/** The start: the organization last used (or the first); a person in none creates one. */
export function Home() {
  const me = useMe();
  const { orgId } = useParams();
  if (me.isPending) return <Loading what="your organizations" />;
  if (me.error) return <ErrorNote error={me.error} />;
  const orgs = me.data.me.orgs;
  const last = localStorage.getItem('platform.org');
  const chosen = orgs.find((o) => o.orgId === orgId) ?? orgs.find((o) => o.orgId === last) ?? orgs[0];
  if (chosen) return <Navigate to={`/orgs/${chosen.orgId}/projects`} replace />;
  return <CreateOrg />;
}

function CreateOrg() {
  const [form, setForm, clear] = useDraft('org', { name: '', slug: '' });
  const client = useQueryClient();
  const navigate = useNavigate();
  const create = useMutation({
    mutationFn: () => api().postOrgs({ body: form }),
    onSuccess: async ({ org }) => {
      clear();
      await client.invalidateQueries({ queryKey: ['me'] });
      navigate(`/orgs/${org.orgId}/projects`);
    },
  });
  return (
    <div className="max-w-md">
      <PageTitle title="Create an organization">Create an organization</PageTitle>
      <p className="mt-2 text-sm text-slate-700">You are in no organization yet. Create one, or ask to be invited.</p>
      <form
        className="mt-4 space-y-3"
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate();
        }}
      >
        <TextInput label="Name" value={form.name} onChange={(name) => setForm({ ...form, name })} isRequired />
        <TextInput label="Slug" value={form.slug} onChange={(slug) => setForm({ ...form, slug })} isRequired mono />
        <Button type="submit" tone="primary" isDisabled={create.isPending}>
          Create organization
        </Button>
        <ErrorNote error={create.error} />
      </form>
    </div>
  );
}
