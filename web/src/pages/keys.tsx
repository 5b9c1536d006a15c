import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../lib/api';
import { useDraft } from '../lib/drafts';
import { useCan, useMe, useOrgId } from '../lib/hooks';
import { Button, Checkbox, ErrorNote, Loading, PageTitle, Section, TextInput, when } from '../ui/controls';

type Scope = Parameters<ReturnType<typeof api>['postKeys']>[0]['body']['scopes'][number];

export default function Keys() {
  const orgId = useOrgId();
  const canWrite = useCan('org:write');
  const keys = useQuery({ queryKey: ['keys', orgId], queryFn: () => api().getKeys({ orgId }) });
  return (
    <div>
      <PageTitle title="API keys">API keys</PageTitle>
      <p className="mt-2 text-sm text-slate-700">Keys act for the organization with the scopes they are given.</p>
      {keys.isPending && <Loading what="keys" />}
      <ErrorNote error={keys.error} />
      {keys.data?.keys.length === 0 && <p className="mt-4 text-sm">No keys yet.</p>}
      <ul aria-label="Keys" className="mt-4 divide-y divide-slate-200 rounded-lg border border-slate-200">
        {keys.data?.keys.map((k) => (
          <KeyRow key={k.keyId} orgId={orgId} k={k} canWrite={canWrite} />
        ))}
      </ul>
      {canWrite && <CreateKey orgId={orgId} />}
    </div>
  );
}

function KeyRow(props: {
  orgId: string;
  canWrite: boolean;
  k: { keyId: string; kind: string; name?: string; scopes: string[]; createdAt: number; expiresAt?: number };
}) {
  const { k, orgId } = props;
  const client = useQueryClient();
  const remove = useMutation({
    mutationFn: () => api().deleteKeysByKeyId({ orgId, keyId: k.keyId }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['keys', orgId] }),
  });
  return (
    <li className="flex flex-wrap items-start gap-3 p-3 text-sm">
      <div className="min-w-0 flex-1">
        <p className="font-medium">
          {k.name ?? k.keyId} <span className="font-normal text-slate-700">({k.kind})</span>
        </p>
        <p className="break-words text-slate-700">{k.scopes.join(', ')}</p>
        <p className="text-xs text-slate-700">
          Created {when(k.createdAt)}
          {k.expiresAt ? ` · expires ${when(k.expiresAt)}` : ''}
        </p>
      </div>
      {props.canWrite && (
        <div>
          <Button
            tone="danger"
            onPress={() => remove.mutate()}
            isDisabled={remove.isPending}
            aria-label={`Delete the key ${k.name ?? k.keyId}`}
          >
            Delete
          </Button>
          <ErrorNote error={remove.error} />
        </div>
      )}
    </li>
  );
}

function CreateKey({ orgId }: { orgId: string }) {
  const mine = useMe().data?.me.orgs.find((o) => o.orgId === orgId)?.scopes ?? [];
  const [form, setForm, clear] = useDraft('create-key', { name: '', scopes: [] as Scope[], days: '' });
  const [secret, setSecret] = useState<string>();
  const client = useQueryClient();
  const create = useMutation({
    mutationFn: () =>
      api().postKeys({
        orgId,
        body: {
          name: form.name,
          scopes: form.scopes,
          ...(form.days ? { expiresAt: Date.now() + Number(form.days) * 86_400_000 } : {}),
        },
      }),
    onSuccess: async (answer) => {
      clear();
      setSecret(answer.secret);
      await client.invalidateQueries({ queryKey: ['keys', orgId] });
    },
  });
  return (
    <Section title="Create a key">
      {secret && (
        <div role="status" className="mb-4 rounded-md border border-green-300 bg-green-50 p-3 text-sm">
          <p className="font-medium">The key's secret, shown this once: copy it now.</p>
          <code className="mt-1 block break-all">{secret}</code>
        </div>
      )}
      <form
        className="grid max-w-2xl gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate();
        }}
      >
        <TextInput label="Name" isRequired value={form.name} onChange={(name) => setForm({ ...form, name })} />
        <fieldset>
          <legend className="text-sm font-medium">Scopes</legend>
          <div className="mt-1 grid grid-cols-1 gap-x-4 sm:grid-cols-3">
            {mine.map((s) => (
              <Checkbox
                key={s}
                isSelected={form.scopes.includes(s)}
                onChange={(on) =>
                  setForm({ ...form, scopes: on ? [...form.scopes, s] : form.scopes.filter((x) => x !== s) })
                }
              >
                {s}
              </Checkbox>
            ))}
          </div>
        </fieldset>
        <TextInput
          label="Expires after (days, empty for never)"
          type="number"
          value={form.days}
          onChange={(days) => setForm({ ...form, days })}
        />
        <div>
          <Button type="submit" tone="primary" isDisabled={create.isPending}>
            Create key
          </Button>
          <ErrorNote error={create.error} />
        </div>
      </form>
    </Section>
  );
}
