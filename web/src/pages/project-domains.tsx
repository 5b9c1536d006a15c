import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../lib/api';
import { useDraft } from '../lib/drafts';
import { useCan } from '../lib/hooks';
import { useCursorList } from '../lib/query';
import { Button, ErrorNote, Loading, MoreButton, PageTitle, Section, Status, TextInput, when } from '../ui/controls';
import { ProjectNav, useProject } from '../ui/project-nav';

export default function ProjectDomains() {
  const { orgId, projectId, data } = useProject();
  const canWrite = useCan('projects:write');
  const list = useCursorList(
    ['domains', orgId, projectId],
    (cursor) => api().getDomains({ orgId, projectId, cursor, limit: 20 }),
    (page) => page.domains,
  );
  const name = data?.project.name ?? 'project';
  return (
    <div>
      <PageTitle title={`Domains of ${name}`}>{name}: domains</PageTitle>
      <ProjectNav orgId={orgId} projectId={projectId} />
      <Section title="Domains">
        {list.isPending && <Loading what="domains" />}
        <ErrorNote error={list.error} />
        {!list.isPending && list.items.length === 0 && <p className="text-sm text-slate-700">No domains yet.</p>}
        <ul className="space-y-3">
          {list.items.map((d) => (
            <li key={d.hostname} className="rounded-lg border border-slate-200 p-3">
              <h3 className="flex flex-wrap items-center gap-2 font-semibold">
                {d.hostname} <Status value={d.status} />
              </h3>
              {d.message && <p className="mt-1 text-sm">{d.message}</p>}
              {d.redirectTo && <p className="mt-1 text-sm">Redirects to {d.redirectTo}</p>}
              <p className="mt-2 text-sm font-medium">DNS records to create (zone {d.zone})</p>
              {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard */}
              <pre tabIndex={0} className="mt-1 overflow-x-auto rounded bg-slate-100 p-2 text-xs">
                {d.records}
              </pre>
              {d.checkedAt && <p className="mt-1 text-xs text-slate-700">Last checked {when(d.checkedAt)}</p>}
              {canWrite && <Verify orgId={orgId} hostname={d.hostname} projectId={projectId} />}
            </li>
          ))}
        </ul>
        <MoreButton hasMore={list.hasMore} loading={list.loadingMore} onMore={list.more} what="domains" />
      </Section>
      {canWrite && <AddDomain orgId={orgId} projectId={projectId} />}
    </div>
  );
}

function Verify({ orgId, hostname, projectId }: { orgId: string; hostname: string; projectId: string }) {
  const client = useQueryClient();
  const verify = useMutation({
    mutationFn: () => api().postDomainsVerify({ orgId, hostname }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['domains', orgId, projectId] }),
  });
  return (
    <div className="mt-2">
      <Button onPress={() => verify.mutate()} isDisabled={verify.isPending} aria-label={`Verify ${hostname}`}>
        Verify
      </Button>
      <ErrorNote error={verify.error} />
    </div>
  );
}

function AddDomain({ orgId, projectId }: { orgId: string; projectId: string }) {
  const [form, setForm, clear] = useDraft('add-domain', { hostname: '', redirectTo: '' });
  const client = useQueryClient();
  const add = useMutation({
    mutationFn: () =>
      api().postDomains({
        orgId,
        body: { hostname: form.hostname, projectId, ...(form.redirectTo ? { redirectTo: form.redirectTo } : {}) },
      }),
    onSuccess: async () => {
      clear();
      await client.invalidateQueries({ queryKey: ['domains', orgId, projectId] });
    },
  });
  return (
    <Section title="Add a domain">
      <form
        className="grid max-w-xl gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          add.mutate();
        }}
      >
        <TextInput
          label="Hostname"
          mono
          isRequired
          value={form.hostname}
          onChange={(hostname) => setForm({ ...form, hostname })}
        />
        <TextInput
          label="Redirect to (optional)"
          mono
          value={form.redirectTo}
          onChange={(redirectTo) => setForm({ ...form, redirectTo })}
        />
        <div>
          <Button type="submit" tone="primary" isDisabled={add.isPending}>
            Add domain
          </Button>
          <ErrorNote error={add.error} />
        </div>
      </form>
    </Section>
  );
}
