import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { BranchProtection } from '../../../client';
import { api } from '../lib/api';
import { useDraft } from '../lib/drafts';
import { useCan } from '../lib/hooks';
import { Button, Done, ErrorNote, Loading, PageTitle, Section, TextArea, TextInput } from '../ui/controls';
import { RepoHeader, useRepo } from '../ui/repo-nav';

/** Protection of the default branch: approvals and the checks a merge needs. */
export default function RepoSettings() {
  const { orgId, name } = useRepo();
  const protection = useQuery({
    queryKey: ['protection', orgId, name],
    queryFn: () => api().getReposProtection({ orgId, name }),
  });
  return (
    <div>
      <RepoHeader orgId={orgId} name={name} />
      <PageTitle title={`Settings · ${name}`}>Settings</PageTitle>
      {protection.isPending && <Loading what="the protection" />}
      <ErrorNote error={protection.error} />
      {protection.data && <ProtectionForm orgId={orgId} name={name} current={protection.data} />}
    </div>
  );
}

type RequiredCheck = BranchProtection['requiredChecks'][number];
type Source = Exclude<RequiredCheck, string>['source'];

const checkName = (c: RequiredCheck) => (typeof c === 'string' ? c : c.name);

/** Who must write a bound check, as the API names it (docs/routes/pulls.md). */
const sourceText = (source: Source) =>
  source === 'platform'
    ? 'the platform'
    : 'apiKey' in source
      ? `API key ${source.apiKey}`
      : `agent key ${source.agentKey}`;

/**
 * The checks typed (one name a line) as the API takes them: a name that is required now bound to
 * its writer (`{ name, source }`) keeps that writer; any other is a bare name.
 */
function checksToSave(typed: string, current: RequiredCheck[]): RequiredCheck[] {
  const bound = new Map(current.flatMap((c) => (typeof c === 'string' ? [] : [[c.name, c] as const])));
  return typed
    .split('\n')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((name) => bound.get(name) ?? name);
}

function ProtectionForm({ orgId, name, current }: { orgId: string; name: string; current: BranchProtection }) {
  const canWrite = useCan('git:write');
  const [form, setForm, clear] = useDraft('protection', {
    approvals: String(current.requiredApprovals),
    checks: current.requiredChecks.map(checkName).join('\n'),
  });
  const client = useQueryClient();
  // The bound checks still listed in the form, with their writers.
  const bound = checksToSave(form.checks, current.requiredChecks).filter((c) => typeof c !== 'string');
  const save = useMutation({
    mutationFn: () =>
      api().putReposProtection({
        orgId,
        name,
        body: {
          requiredApprovals: Number(form.approvals),
          requiredChecks: checksToSave(form.checks, current.requiredChecks),
        },
      }),
    onSuccess: async () => {
      clear();
      await client.invalidateQueries({ queryKey: ['protection', orgId, name] });
    },
  });
  return (
    <Section title={`Protection of ${current.branch ?? 'the default branch'}`} id="protection">
      <p className="mb-3 text-sm text-slate-700">
        Pull requests into this branch merge only with these approvals and with every required check passed. The
        platform reports a <code>build</code> check for projects linked to this repository.
      </p>
      <form
        className="grid max-w-xl gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate();
        }}
      >
        <TextInput
          label="Required approvals"
          type="number"
          value={form.approvals}
          onChange={(approvals) => setForm({ ...form, approvals })}
        />
        <TextArea
          label="Required checks (one name a line)"
          mono
          rows={3}
          value={form.checks}
          onChange={(checks) => setForm({ ...form, checks })}
        />
        {bound.length > 0 && (
          <div className="text-sm">
            <p id="check-sources" className="font-medium">
              Checks bound to a writer
            </p>
            <p className="text-slate-700">Only a check from its writer counts; a name kept above keeps its writer.</p>
            <ul aria-labelledby="check-sources" className="mt-1 list-disc pl-5">
              {bound.map((c) => (
                <li key={c.name}>
                  <code>{c.name}</code> from {sourceText(c.source)}
                </li>
              ))}
            </ul>
          </div>
        )}
        {canWrite && (
          <div>
            <Button type="submit" tone="primary" isDisabled={save.isPending}>
              Save protection
            </Button>
            <ErrorNote error={save.error} />
            {save.isSuccess && <Done>Saved.</Done>}
          </div>
        )}
      </form>
    </Section>
  );
}
