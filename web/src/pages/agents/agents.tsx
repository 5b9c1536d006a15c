import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import type { AgentDevice, NetworkRequest } from '../../../../client';
import { api } from '../../lib/api';
import { useDraft } from '../../lib/drafts';
import { useCan, useMe, useOrgId } from '../../lib/hooks';
import {
  Button,
  Checkbox,
  Done,
  ErrorNote,
  Loading,
  PageTitle,
  Section,
  SelectField,
  Status,
  TextArea,
  TextInput,
  when,
} from '../../ui/controls';
import { WhyWaiting } from './waiting';

export const agentsKey = (orgId: string) => ['agents', orgId];

/** The organization's agents: pending host requests, devices, jobs (with why they wait) and a new job. */
export default function Agents() {
  const orgId = useOrgId();
  const canWrite = useCan('agents:write');
  const canRun = useCan('agents:run');
  const q = useQuery({
    queryKey: agentsKey(orgId),
    queryFn: () => api().getAgents({ orgId }),
    refetchInterval: (query) =>
      query.state.data?.jobs.some((j) => j.status === 'queued' || j.status === 'running') ? 5000 : false,
  });
  const devices = q.data?.devices.filter((d) => d.status !== 'revoked') ?? [];
  const requests = q.data?.requests ?? [];
  const jobs = q.data?.jobs ?? [];
  const nameOf = (id: string | undefined) => q.data?.devices.find((d) => d.deviceId === id)?.name ?? id;
  return (
    <div>
      <PageTitle title="Agents">Agents</PageTitle>
      <p className="mt-2 max-w-3xl text-sm text-slate-700">
        Agent devices run jobs for the organization: HTTP requests, browser pages and, when allowed, commands, only to
        the hosts on their allowlist.{' '}
        {canWrite && <Link to={`/orgs/${orgId}/agents/approve`}>Approve a device login</Link>}
      </p>
      {q.isPending && <Loading what="agents" />}
      <ErrorNote error={q.error} />
      {q.data && (
        <>
          <Section title="Host requests">
            {requests.length === 0 ? (
              <p className="text-sm text-slate-700">No device is asking for a host.</p>
            ) : (
              <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200">
                {requests.map((r) => (
                  <RequestRow
                    key={`${r.deviceId}/${r.host}`}
                    r={r}
                    orgId={orgId}
                    device={nameOf(r.deviceId)}
                    canWrite={canWrite}
                  />
                ))}
              </ul>
            )}
          </Section>
          <Section title="Devices">
            {devices.length === 0 ? (
              <p className="text-sm text-slate-700">
                No devices. Run <code>platform agent login</code> on a machine and approve its code here.
              </p>
            ) : (
              <ul className="grid gap-3">
                {devices.map((d) => (
                  <DeviceCard key={d.deviceId} d={d} orgId={orgId} canWrite={canWrite} />
                ))}
              </ul>
            )}
          </Section>
          <Section title="Jobs">
            {jobs.length === 0 ? (
              <p className="text-sm text-slate-700">No jobs yet.</p>
            ) : (
              <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200">
                {jobs.map((j) => (
                  <li key={j.jobId} className="grid gap-1 p-3 text-sm">
                    <div className="flex flex-wrap items-center gap-2">
                      <Link to={`/orgs/${orgId}/agents/jobs/${j.jobId}`} className="font-medium">
                        {j.label ?? j.jobId}
                      </Link>
                      <Status value={j.status} />
                      <span className="text-slate-700">
                        {j.type}
                        {j.deviceId ? ` · on ${nameOf(j.deviceId)}` : ''}
                        {j.createdAt ? ` · ${when(j.createdAt)}` : ''}
                      </span>
                    </div>
                    <WhyWaiting job={j} requests={requests} />
                  </li>
                ))}
              </ul>
            )}
            <p className="mt-2 text-xs text-slate-700">The 50 latest jobs.</p>
          </Section>
          {canRun && <NewJob orgId={orgId} canExec={canWrite} />}
        </>
      )}
    </div>
  );
}

function RequestRow(props: { r: NetworkRequest; orgId: string; device: string | undefined; canWrite: boolean }) {
  const { r, orgId } = props;
  const client = useQueryClient();
  const decide = useMutation({
    mutationFn: (decision: 'approve' | 'deny') =>
      api().postAgentsRequestsByDeviceIdAndHostAndDecision({ orgId, deviceId: r.deviceId, host: r.host, decision }),
    onSuccess: () => client.invalidateQueries({ queryKey: agentsKey(orgId) }),
  });
  return (
    <li className="flex flex-wrap items-center gap-x-4 gap-y-2 p-3 text-sm">
      <div className="min-w-0 flex-1">
        <p>
          <strong>{props.device}</strong> asks to reach <code>{r.host}</code>
        </p>
        <p className="text-xs text-slate-700">
          {r.reason ?? 'No reason given'}
          {r.createdAt ? ` · ${when(r.createdAt)}` : ''}
        </p>
      </div>
      {props.canWrite && (
        <div className="flex gap-2">
          <Button
            tone="primary"
            onPress={() => decide.mutate('approve')}
            isDisabled={decide.isPending}
            aria-label={`Approve ${r.host} for ${props.device}`}
          >
            Approve
          </Button>
          <Button
            tone="danger"
            onPress={() => decide.mutate('deny')}
            isDisabled={decide.isPending}
            aria-label={`Deny ${r.host} for ${props.device}`}
          >
            Deny
          </Button>
        </div>
      )}
      <div className="basis-full empty:hidden">
        <ErrorNote error={decide.error} />
      </div>
    </li>
  );
}

const CAPABILITIES = ['http', 'browser', 'exec'] as const;
type Capability = (typeof CAPABILITIES)[number];

function DeviceCard({ d, orgId, canWrite }: { d: AgentDevice; orgId: string; canWrite: boolean }) {
  const client = useQueryClient();
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const remove = useMutation({
    mutationFn: () => api().deleteAgentsDevicesByDeviceId({ orgId, deviceId: d.deviceId }),
    onSuccess: () => client.invalidateQueries({ queryKey: agentsKey(orgId) }),
  });
  const online = d.lastSeenAt !== undefined && Date.now() - d.lastSeenAt < 60_000;
  const headingId = `device-${d.deviceId}`;
  return (
    <li>
      <article aria-labelledby={headingId} className="rounded-lg border border-slate-200 p-4 text-sm">
        <div className="flex flex-wrap items-center gap-2">
          <h3 id={headingId} className="text-base font-semibold">
            {d.name}
          </h3>
          <span
            className={`rounded-full px-2 py-0.5 text-xs font-medium ${online ? 'bg-green-100 text-green-900' : 'bg-slate-100 text-slate-800'}`}
          >
            {online ? 'Online' : 'Offline'}
          </span>
        </div>
        <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
          <dt className="text-slate-700">Owner</dt>
          <dd>{d.ownerName ?? d.userId}</dd>
          <dt className="text-slate-700">System</dt>
          <dd>
            {d.platform ?? 'unknown'}
            {d.version ? ` · agent ${d.version}` : ''}
          </dd>
          <dt className="text-slate-700">Runs</dt>
          <dd>{d.capabilities.join(', ')}</dd>
          <dt className="text-slate-700">Network</dt>
          <dd className="break-words">
            {d.networkMode === 'full'
              ? 'Any host'
              : d.hosts?.length
                ? `Allowlist: ${d.hosts.join(', ')}`
                : 'Allowlist: no hosts yet'}
          </dd>
          <dt className="text-slate-700">Last seen</dt>
          <dd>{d.lastSeenAt ? when(d.lastSeenAt) : 'never'}</dd>
        </dl>
        {canWrite && (
          <div className="mt-3 flex flex-wrap gap-2">
            <Button onPress={() => setEditing(!editing)} aria-expanded={editing} aria-label={`Settings of ${d.name}`}>
              {editing ? 'Close settings' : 'Settings'}
            </Button>
            {confirming ? (
              <>
                <Button tone="danger" onPress={() => remove.mutate()} isDisabled={remove.isPending}>
                  Remove {d.name} now
                </Button>
                <Button onPress={() => setConfirming(false)}>Keep it</Button>
              </>
            ) : (
              <Button tone="danger" onPress={() => setConfirming(true)} aria-label={`Remove ${d.name}`}>
                Remove
              </Button>
            )}
          </div>
        )}
        {confirming && <p className="mt-2 text-sm">Its token stops working at once and its running jobs fail.</p>}
        <ErrorNote error={remove.error} />
        {editing && <DeviceSettings d={d} orgId={orgId} onDone={() => setEditing(false)} />}
      </article>
    </li>
  );
}

/** Name, what it runs, its network: only what changed is sent (adding a capability is the owner's alone). */
function DeviceSettings({ d, orgId, onDone }: { d: AgentDevice; orgId: string; onDone: () => void }) {
  const client = useQueryClient();
  const [form, setForm] = useState({
    name: d.name,
    capabilities: d.capabilities as Capability[],
    networkMode: d.networkMode ?? 'allowlist',
    hosts: (d.hosts ?? []).join('\n'),
  });
  const save = useMutation({
    mutationFn: () => {
      const hosts = [
        ...new Set(
          form.hosts
            .split(/[\s,]+/)
            .map((h) => h.trim().toLowerCase())
            .filter(Boolean),
        ),
      ];
      const same = (a: readonly string[], b: readonly string[]) =>
        a.length === b.length && a.every((x) => b.includes(x));
      return api().patchAgentsDevicesByDeviceId({
        orgId,
        deviceId: d.deviceId,
        body: {
          ...(form.name.trim() !== d.name ? { name: form.name.trim() } : {}),
          ...(same(form.capabilities, d.capabilities) ? {} : { capabilities: form.capabilities }),
          ...(form.networkMode !== (d.networkMode ?? 'allowlist') ? { networkMode: form.networkMode } : {}),
          ...(same(hosts, d.hosts ?? []) ? {} : { hosts }),
        },
      });
    },
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: agentsKey(orgId) });
      onDone();
    },
  });
  return (
    <form
      aria-label={`Settings of ${d.name}`}
      className="mt-4 grid max-w-xl gap-3 border-t border-slate-200 pt-4"
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <TextInput label="Name" isRequired value={form.name} onChange={(name) => setForm({ ...form, name })} />
      <fieldset>
        <legend className="text-sm font-medium">Runs</legend>
        <div className="mt-1 flex flex-wrap gap-4">
          {CAPABILITIES.map((c) => (
            <Checkbox
              key={c}
              isSelected={form.capabilities.includes(c)}
              onChange={(on) =>
                setForm({
                  ...form,
                  capabilities: on ? [...form.capabilities, c] : form.capabilities.filter((x) => x !== c),
                })
              }
            >
              {c}
            </Checkbox>
          ))}
        </div>
      </fieldset>
      <SelectField
        label="Network"
        value={form.networkMode}
        onChange={(networkMode) => setForm({ ...form, networkMode })}
        options={[
          { id: 'allowlist', label: 'Only the hosts on its allowlist' },
          { id: 'full', label: 'Any host (full network)' },
        ]}
      />
      <TextArea
        label="Allowed hosts (one a line; *.example.com for its subdomains)"
        mono
        rows={4}
        value={form.hosts}
        onChange={(hosts) => setForm({ ...form, hosts })}
      />
      <div>
        <Button type="submit" tone="primary" isDisabled={save.isPending}>
          Save settings
        </Button>
        <ErrorNote error={save.error} />
      </div>
    </form>
  );
}

type JobType = 'http.batch' | 'browser.batch' | 'exec';
const lines = (text: string) =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);

/** The input of a job from lines: `[METHOD] URL` requests, page URLs, or a command's arguments. */
function inputOf(type: JobType, text: string): unknown {
  if (type === 'exec') return { command: lines(text) };
  if (type === 'browser.batch') return { pages: lines(text).map((url) => ({ url, text: true })) };
  return {
    requests: lines(text).map((l) => {
      const [first, rest] = l.split(/\s+/, 2);
      return rest && /^[A-Z]+$/.test(first ?? '') ? { method: first, url: rest } : { url: l };
    }),
  };
}

const what: Record<JobType, string> = {
  'http.batch': 'Requests (one a line: a URL, or a method and a URL)',
  'browser.batch': 'Pages to open (one URL a line; their text is kept)',
  exec: 'Command (one argument a line, no shell)',
};

function NewJob({ orgId, canExec }: { orgId: string; canExec: boolean }) {
  const client = useQueryClient();
  const me = useMe().data?.me;
  const [form, setForm, clear] = useDraft('new-job', { type: 'http.batch' as JobType, label: '', input: '' });
  const create = useMutation({
    mutationFn: () =>
      api().postAgentsJobs({
        orgId,
        body: {
          type: form.type,
          ...(form.label.trim() ? { label: form.label.trim() } : {}),
          input: inputOf(form.type, form.input),
        },
      }),
    onSuccess: async () => {
      clear();
      await client.invalidateQueries({ queryKey: agentsKey(orgId) });
    },
  });
  const types: { id: JobType; label: string }[] = [
    { id: 'http.batch', label: 'HTTP requests' },
    { id: 'browser.batch', label: 'Browser pages' },
    ...(canExec ? [{ id: 'exec' as const, label: 'Command' }] : []),
  ];
  return (
    <Section title="New job">
      <form
        className="grid max-w-xl gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate();
        }}
      >
        <SelectField label="Type" value={form.type} onChange={(type) => setForm({ ...form, type })} options={types} />
        <TextInput label="Label" value={form.label} onChange={(label) => setForm({ ...form, label })} />
        <TextArea
          label={what[form.type]}
          mono
          isRequired
          rows={4}
          value={form.input}
          onChange={(input) => setForm({ ...form, input })}
        />
        <div>
          <Button type="submit" tone="primary" isDisabled={create.isPending || !me}>
            Queue job
          </Button>
          <ErrorNote error={create.error} />
          {create.isSuccess && (
            <Done>
              Queued. <Link to={`/orgs/${orgId}/agents/jobs/${create.data.jobId}`}>Open the job</Link>
            </Done>
          )}
        </div>
      </form>
    </Section>
  );
}
