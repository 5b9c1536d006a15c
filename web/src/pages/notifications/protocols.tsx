import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { NotificationProtocol } from '../../../../client';
import { api } from '../../lib/api';
import { useDraft } from '../../lib/drafts';
import { useMe, useOrgId } from '../../lib/hooks';
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
} from '../../ui/controls';
import { NotifyNav } from './nav';

type Rule = NotificationProtocol['rules'][number];
type ResourceType = NotificationProtocol['attachments'][number]['resourceType'];
const RESOURCE_TYPES: { id: ResourceType; label: string }[] = [
  { id: 'org', label: 'This organization' },
  { id: 'project', label: 'Project' },
  { id: 'agent', label: 'Agent device' },
  { id: 'space', label: 'Tracker space' },
  { id: 'mailbox', label: 'Mailbox' },
  { id: 'calendar', label: 'Calendar' },
];
const typeLabel = (t: string) => RESOURCE_TYPES.find((r) => r.id === t)?.label ?? t;

const key = (orgId: string) => ['protocols', orgId];

/** Who may change protocols: owners and admins (the API refuses others). */
function useMayChange(orgId: string) {
  const role = useMe().data?.me.orgs.find((o) => o.orgId === orgId)?.role;
  return role === 'owner' || role === 'admin';
}

const minutes = (m: number) =>
  m === 0 ? 'at once' : m % 1440 === 0 ? `after ${m / 1440} d` : m % 60 === 0 ? `after ${m / 60} h` : `after ${m} min`;

/** A rule in words: its events and match, each step, and who gets it. */
function ruleText(r: Rule): string {
  const match = Object.entries(r.match ?? {})
    .map(([k, v]) => `${k} ${v.join(' or ')}`)
    .join(', ');
  const steps = r.steps
    .map(
      (s) =>
        `${r.beforeEvent && s.afterMinutes > 0 ? `${s.afterMinutes} min before` : minutes(s.afterMinutes)}: ${s.channels.join(', ')}`,
    )
    .join('; ');
  const who = [
    ...(r.roles?.length ? [`roles ${r.roles.join(', ')}`] : []),
    ...(r.userIds?.length ? [`${r.userIds.length} chosen people`] : []),
  ];
  return `When ${r.events.join(', ')}${match ? ` (${match})` : ''}: ${steps}; to ${who.length ? who.join(' and ') : "the event's own people"}${r.overrideQuietHours ? ', even in quiet hours' : ''}.`;
}

export default function Protocols() {
  const orgId = useOrgId();
  const mayChange = useMayChange(orgId);
  const list = useQuery({ queryKey: key(orgId), queryFn: () => api().getNotifyProtocols({ orgId }) });
  const protocols = list.data?.protocols ?? [];
  return (
    <div>
      <PageTitle title="Notification protocols">Notification protocols</PageTitle>
      <NotifyNav orgId={orgId} />
      <p className="mt-3 max-w-3xl text-sm text-slate-700">
        A protocol decides who is told of an event, how and when, until someone acknowledges. A protocol attached to
        nothing holds for the whole organization; one attached to a resource holds for that resource's events.
      </p>
      {!mayChange && <p className="mt-2 text-sm text-slate-700">Only owners and admins can change protocols.</p>}
      <Section title="Protocols">
        {list.isPending && <Loading what="protocols" />}
        <ErrorNote error={list.error} />
        {list.data && protocols.length === 0 && <p className="text-sm text-slate-700">No protocols yet.</p>}
        <ul className="grid gap-4">
          {protocols.map((p) => (
            <ProtocolCard key={p.protocolId} p={p} orgId={orgId} mayChange={mayChange} />
          ))}
        </ul>
      </Section>
      {mayChange && <NewProtocol orgId={orgId} />}
    </div>
  );
}

function ProtocolCard({ p, orgId, mayChange }: { p: NotificationProtocol; orgId: string; mayChange: boolean }) {
  const client = useQueryClient();
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const headingId = `protocol-${p.protocolId}`;
  const remove = useMutation({
    mutationFn: () => api().deleteNotifyProtocolsByProtocolId({ orgId, protocolId: p.protocolId }),
    onSuccess: () => client.invalidateQueries({ queryKey: key(orgId) }),
  });
  return (
    <li>
      <article aria-labelledby={headingId} className="rounded-lg border border-slate-200 p-4">
        <div className="flex flex-wrap items-center gap-2">
          <h3 id={headingId} className="text-base font-semibold">
            {p.name}
          </h3>
          <span
            className={`rounded-full px-2 py-0.5 text-xs font-medium ${p.enabled ? 'bg-green-100 text-green-900' : 'bg-slate-100 text-slate-800'}`}
          >
            {p.enabled ? 'Enabled' : 'Disabled'}
          </span>
        </div>
        {p.description && <p className="mt-1 text-sm text-slate-800">{p.description}</p>}
        <ul className="mt-2 list-disc pl-5 text-sm text-slate-800">
          {p.rules.map((r, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: rules have no id; their order is their identity
            <li key={i}>{ruleText(r)}</li>
          ))}
        </ul>
        <Attachments p={p} orgId={orgId} mayChange={mayChange} />
        {mayChange && (
          <div className="mt-3 flex flex-wrap gap-2">
            <Button onPress={() => setEditing(!editing)} aria-expanded={editing} aria-label={`Edit ${p.name}`}>
              {editing ? 'Close editor' : 'Edit'}
            </Button>
            {confirming ? (
              <>
                <Button tone="danger" onPress={() => remove.mutate()} isDisabled={remove.isPending}>
                  Delete {p.name} and its attachments
                </Button>
                <Button onPress={() => setConfirming(false)}>Keep it</Button>
              </>
            ) : (
              <Button tone="danger" onPress={() => setConfirming(true)} aria-label={`Delete ${p.name}`}>
                Delete
              </Button>
            )}
          </div>
        )}
        <ErrorNote error={remove.error} />
        {editing && <EditProtocol p={p} orgId={orgId} onDone={() => setEditing(false)} />}
      </article>
    </li>
  );
}

/** Name, description, enabled and the rules (as JSON, the API's own shape); saved only over the version shown. */
function EditProtocol({ p, orgId, onDone }: { p: NotificationProtocol; orgId: string; onDone: () => void }) {
  const client = useQueryClient();
  const [form, setForm, clear] = useDraft(`protocol-${p.protocolId}`, {
    name: p.name,
    description: p.description ?? '',
    enabled: p.enabled,
    rules: JSON.stringify(p.rules, null, 2),
  });
  const save = useMutation({
    mutationFn: () => {
      let rules: Rule[];
      try {
        rules = JSON.parse(form.rules) as Rule[];
      } catch {
        throw new Error('The rules are not valid JSON.');
      }
      return api().putNotifyProtocolsByProtocolId({
        orgId,
        protocolId: p.protocolId,
        body: {
          name: form.name,
          ...(form.description ? { description: form.description } : {}),
          enabled: form.enabled,
          rules,
          ...(p.version !== undefined ? { ifVersion: p.version } : {}),
        },
      });
    },
    onSuccess: async () => {
      clear();
      await client.invalidateQueries({ queryKey: key(orgId) });
      onDone();
    },
  });
  return (
    <form
      aria-label={`Edit ${p.name}`}
      className="mt-4 grid gap-3 border-t border-slate-200 pt-4"
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <TextInput label="Name" isRequired value={form.name} onChange={(name) => setForm({ ...form, name })} />
      <TextInput
        label="Description"
        value={form.description}
        onChange={(description) => setForm({ ...form, description })}
      />
      <Checkbox isSelected={form.enabled} onChange={(enabled) => setForm({ ...form, enabled })}>
        Enabled
      </Checkbox>
      <TextArea
        label="Rules (JSON)"
        mono
        rows={10}
        value={form.rules}
        onChange={(rules) => setForm({ ...form, rules })}
      />
      <div>
        <Button type="submit" tone="primary" isDisabled={save.isPending}>
          Save protocol
        </Button>
        <ErrorNote error={save.error} />
      </div>
    </form>
  );
}

function Attachments({ p, orgId, mayChange }: { p: NotificationProtocol; orgId: string; mayChange: boolean }) {
  const client = useQueryClient();
  const detach = useMutation({
    mutationFn: (a: { resourceType: string; resourceId: string }) =>
      api().deleteNotifyProtocolsAttachmentsByResourceTypeAndTargetId({
        orgId,
        protocolId: p.protocolId,
        resourceType: a.resourceType,
        targetId: a.resourceId,
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: key(orgId) }),
  });
  return (
    <div className="mt-3">
      <h4 className="text-sm font-semibold">Attached to</h4>
      {p.attachments.length === 0 ? (
        <p className="text-sm text-slate-700">Nothing: it holds for the whole organization.</p>
      ) : (
        <ul className="mt-1 grid gap-1 text-sm">
          {p.attachments.map((a) => (
            <li key={`${a.resourceType}/${a.resourceId}`} className="flex flex-wrap items-center gap-2">
              <span>
                {typeLabel(a.resourceType)}: {a.resourceLabel ?? <code>{a.resourceId}</code>}
              </span>
              {mayChange && (
                <Button
                  onPress={() => detach.mutate(a)}
                  isDisabled={detach.isPending}
                  aria-label={`Detach ${typeLabel(a.resourceType)} ${a.resourceLabel ?? a.resourceId} from ${p.name}`}
                >
                  Detach
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
      <ErrorNote error={detach.error} />
      {mayChange && <Attach p={p} orgId={orgId} />}
    </div>
  );
}

/** Attach a resource: projects and devices chosen from the organization's, the others by id. */
function Attach({ p, orgId }: { p: NotificationProtocol; orgId: string }) {
  const client = useQueryClient();
  const [type, setType] = useState<ResourceType>('project');
  const [id, setId] = useState('');
  const [label, setLabel] = useState('');
  const projects = useQuery({
    queryKey: ['projects', orgId],
    queryFn: () => api().getProjects({ orgId }),
    enabled: type === 'project',
  });
  const agents = useQuery({
    queryKey: ['agents', orgId],
    queryFn: () => api().getAgents({ orgId }),
    enabled: type === 'agent',
  });
  const choices =
    type === 'project'
      ? (projects.data?.projects ?? []).map((x) => ({ id: x.projectId, label: x.name }))
      : type === 'agent'
        ? (agents.data?.devices ?? [])
            .filter((d) => d.status !== 'revoked')
            .map((d) => ({ id: d.deviceId, label: d.name }))
        : undefined;
  const chosen = type === 'org' ? orgId : choices ? ((id || choices[0]?.id) ?? '') : id;
  const chosenLabel = choices?.find((c) => c.id === chosen)?.label ?? label;
  const attach = useMutation({
    mutationFn: () =>
      api().postNotifyProtocolsAttachments({
        orgId,
        protocolId: p.protocolId,
        body: { type, id: chosen, ...(chosenLabel ? { label: chosenLabel } : {}) },
      }),
    onSuccess: async () => {
      setId('');
      setLabel('');
      await client.invalidateQueries({ queryKey: key(orgId) });
    },
  });
  return (
    <form
      aria-label={`Attach to ${p.name}`}
      className="mt-2 flex flex-wrap items-end gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        attach.mutate();
      }}
    >
      <SelectField
        label="Resource type"
        value={type}
        onChange={(t) => {
          setType(t);
          setId('');
        }}
        options={RESOURCE_TYPES}
      />
      {choices ? (
        <SelectField
          label={typeLabel(type)}
          className="min-w-40"
          value={chosen}
          onChange={setId}
          options={choices.length ? choices : [{ id: '', label: `No ${typeLabel(type).toLowerCase()}s` }]}
        />
      ) : type === 'org' ? null : (
        <>
          <TextInput label="Id" mono isRequired value={id} onChange={setId} />
          <TextInput label="Label" value={label} onChange={setLabel} />
        </>
      )}
      <Button type="submit" isDisabled={attach.isPending || !chosen}>
        Attach
      </Button>
      <div className="basis-full empty:hidden">
        <ErrorNote error={attach.error} />
      </div>
    </form>
  );
}

function NewProtocol({ orgId }: { orgId: string }) {
  const client = useQueryClient();
  const templates = useQuery({
    queryKey: ['protocol-templates', orgId],
    queryFn: () => api().getNotifyProtocolsTemplates({ orgId }),
    staleTime: 600_000,
  });
  const [template, setTemplate] = useState('');
  const list = templates.data?.templates ?? [];
  const chosen = list.find((t) => t.id === template) ?? list[0];
  const create = useMutation({
    mutationFn: () => api().postNotifyProtocols({ orgId, body: { template: chosen?.id ?? '' } }),
    onSuccess: () => client.invalidateQueries({ queryKey: key(orgId) }),
  });
  return (
    <Section title="New protocol">
      {templates.isPending && <Loading what="templates" />}
      <ErrorNote error={templates.error} />
      {chosen && (
        <form
          className="grid max-w-3xl gap-3"
          onSubmit={(e) => {
            e.preventDefault();
            create.mutate();
          }}
        >
          <SelectField
            label="Template"
            value={chosen.id}
            onChange={setTemplate}
            options={list.map((t) => ({ id: t.id, label: t.name }))}
          />
          <div className="rounded-md bg-slate-50 p-3 text-sm">
            <p>{chosen.description}</p>
            <ul className="mt-1 list-disc pl-5">
              {chosen.rules.map((r, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: rules have no id; their order is their identity
                <li key={i}>{ruleText(r)}</li>
              ))}
            </ul>
          </div>
          <div>
            <Button type="submit" tone="primary" isDisabled={create.isPending}>
              Create from template
            </Button>
            <ErrorNote error={create.error} />
            {create.isSuccess && <Done>Created {create.data.protocol.name}. Edit it above to change its rules.</Done>}
          </div>
        </form>
      )}
    </Section>
  );
}
