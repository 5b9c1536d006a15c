import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../lib/api';
import { useDraft } from '../lib/drafts';
import { useCan } from '../lib/hooks';
import { Button, Checkbox, ErrorNote, Loading, PageTitle, Section, TextInput, when } from '../ui/controls';
import { ProjectNav, useProject } from '../ui/project-nav';

type Target = 'production' | 'preview' | 'development';
const TARGETS: Target[] = ['production', 'preview', 'development'];
const titles: Record<Target, string> = { production: 'Production', preview: 'Preview', development: 'Development' };

export default function ProjectEnv() {
  const { orgId, projectId, data } = useProject();
  const canWrite = useCan('env:write');
  const vars = useQuery({
    queryKey: ['env', orgId, projectId],
    queryFn: () => api().getProjectsEnv({ orgId, projectId }),
  });
  const name = data?.project.name ?? 'project';
  return (
    <div>
      <PageTitle title={`Environment variables of ${name}`}>{name}: environment variables</PageTitle>
      <ProjectNav orgId={orgId} projectId={projectId} />
      {vars.isPending && <Loading what="variables" />}
      <ErrorNote error={vars.error} />
      {vars.data &&
        TARGETS.map((target) => {
          const here = vars.data.vars.filter((v) => v.targets.includes(target));
          return (
            <Section key={target} title={titles[target]} id={`env-${target}`}>
              {here.length === 0 ? (
                <p className="text-sm text-slate-700">No variables for {target}.</p>
              ) : (
                <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200">
                  {here.map((v) => (
                    <EnvRow key={v.key} orgId={orgId} projectId={projectId} v={v} target={target} canWrite={canWrite} />
                  ))}
                </ul>
              )}
            </Section>
          );
        })}
      {canWrite && <AddVariable orgId={orgId} projectId={projectId} />}
    </div>
  );
}

function EnvRow(props: {
  orgId: string;
  projectId: string;
  target: Target;
  canWrite: boolean;
  v: { key: string; value: string | null; sensitive: boolean; targets: Target[]; updatedAt: number };
}) {
  const { v } = props;
  const client = useQueryClient();
  const remove = useMutation({
    mutationFn: () => api().deleteProjectsEnvByKey({ orgId: props.orgId, projectId: props.projectId, key: v.key }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['env', props.orgId, props.projectId] }),
  });
  return (
    <li className="flex flex-wrap items-center gap-x-4 gap-y-1 p-3 text-sm">
      <code className="font-semibold">{v.key}</code>
      <span className="min-w-0 flex-1 truncate font-mono">
        {v.sensitive || v.value === null ? (
          <span>
            <span aria-hidden="true">••••••••</span>
            <span className="sr-only">hidden</span>
            <span className="ml-2 rounded bg-slate-100 px-1.5 py-0.5 font-sans text-xs">Sensitive</span>
          </span>
        ) : (
          v.value
        )}
      </span>
      <span className="text-slate-700">
        {v.targets.join(', ')} · {when(v.updatedAt)}
      </span>
      {props.canWrite && (
        <div>
          <Button
            tone="danger"
            onPress={() => remove.mutate()}
            isDisabled={remove.isPending}
            aria-label={`Delete ${v.key} (${props.target})`}
          >
            Delete
          </Button>
          <ErrorNote error={remove.error} />
        </div>
      )}
    </li>
  );
}

function AddVariable({ orgId, projectId }: { orgId: string; projectId: string }) {
  const [form, setForm, clear] = useDraft('add-env', {
    key: '',
    value: '',
    targets: ['production', 'preview'] as Target[],
    sensitive: true,
  });
  const client = useQueryClient();
  const add = useMutation({
    mutationFn: () =>
      api().postProjectsEnv({
        orgId,
        projectId,
        body: { vars: [{ key: form.key, value: form.value }], targets: form.targets, sensitive: form.sensitive },
      }),
    onSuccess: async () => {
      clear();
      await client.invalidateQueries({ queryKey: ['env', orgId, projectId] });
    },
  });
  return (
    <Section title="Add a variable">
      <form
        className="grid max-w-xl gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          add.mutate();
        }}
      >
        <TextInput label="Key" mono isRequired value={form.key} onChange={(key) => setForm({ ...form, key })} />
        <TextInput
          label="Value"
          mono
          type={form.sensitive ? 'password' : 'text'}
          value={form.value}
          onChange={(value) => setForm({ ...form, value })}
        />
        <fieldset>
          <legend className="text-sm font-medium">Targets</legend>
          <div className="mt-1 flex flex-wrap gap-4">
            {TARGETS.map((t) => (
              <Checkbox
                key={t}
                isSelected={form.targets.includes(t)}
                onChange={(on) =>
                  setForm({ ...form, targets: on ? [...form.targets, t] : form.targets.filter((x) => x !== t) })
                }
              >
                {titles[t]}
              </Checkbox>
            ))}
          </div>
        </fieldset>
        <Checkbox isSelected={form.sensitive} onChange={(sensitive) => setForm({ ...form, sensitive })}>
          Sensitive (its value is never shown again, and masked in logs)
        </Checkbox>
        <div>
          <Button type="submit" tone="primary" isDisabled={add.isPending}>
            Add variable
          </Button>
          <ErrorNote error={add.error} />
        </div>
      </form>
    </Section>
  );
}
