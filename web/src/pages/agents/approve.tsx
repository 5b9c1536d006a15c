import { useMutation, useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { api } from '../../lib/api';
import { useMe } from '../../lib/hooks';
import { Button, Done, ErrorNote, Loading, PageTitle, SelectField, TextInput } from '../../ui/controls';

type Kind = 'agent' | 'cli';
type Answer = { approve: boolean; kind: Kind; org?: string };

/**
 * A device login's approval (RFC 8628's verification URI, `/device?code=…`, also under an
 * organization's agents): the code the agent program (`platform agent login`) or the command line
 * (`platform login`) shows, answered as the signed-in person. An agent device joins the
 * organization chosen here (one where the person holds agents:write) as theirs; the command line
 * acts as the person. The program's poll then gets its token by itself.
 */
export default function Approve() {
  const { orgId: here } = useParams();
  const [search] = useSearchParams();
  const me = useMe();
  const orgs = (me.data?.me.orgs ?? []).filter((o) => o.scopes.includes('agents:write'));
  const [chosen, setKind] = useState<Kind>(search.get('kind') === 'cli' ? 'cli' : 'agent');
  const [code, setCode] = useState(search.get('code') ?? '');
  const [org, setOrg] = useState('');
  const orgId = org || (orgs.some((o) => o.orgId === here) ? (here as string) : (orgs[0]?.orgId ?? ''));
  const kindName = useId();
  const userCode = code.trim().toUpperCase();
  // What the code asks for (`GET /v1/me/device-codes/:userCode`): its kind, name and system; the
  // person chooses the kind only when the platform doesn't know the code.
  const asked = useQuery({
    queryKey: ['device-code', userCode],
    queryFn: () => api().getMeDeviceCodesByUserCode({ userCode }),
    enabled: userCode.replace(/[^A-Z0-9]/g, '').length >= 8,
    retry: false,
  });
  const found = asked.data?.deviceCode;
  const kind: Kind = found ? (found.kind === 'command-line' ? 'cli' : 'agent') : chosen;
  const answer = useMutation({
    mutationFn: async ({ approve }: { approve: boolean }): Promise<Answer> => {
      if (kind === 'agent') {
        await api().postAgentsLogin({ orgId, body: { userCode, approve } });
        return { approve, kind, org: orgs.find((o) => o.orgId === orgId)?.name };
      }
      await api().postLoginDeviceAnswer({ body: { userCode, approve } });
      return { approve, kind };
    },
  });
  const done = answer.data;
  return (
    <div className="max-w-2xl">
      <PageTitle title="Approve a device">Approve a device</PageTitle>
      {done ? (
        <div className="mt-4">
          <Done>
            {done.approve
              ? done.kind === 'agent'
                ? `Approved: the device joins ${done.org ?? 'the organization'} as yours. Go back to it: it continues by itself.`
                : 'Approved: the command line signs in as you. Go back to it: it continues by itself.'
              : 'Denied. The device was told no.'}
          </Done>
          {done.approve && done.kind === 'agent' && (
            <p className="mt-3 text-sm">
              <Link to={`/orgs/${orgId}/agents`}>See the organization's agents</Link>
            </p>
          )}
        </div>
      ) : (
        <form
          className="mt-4 grid gap-4"
          onSubmit={(e) => {
            e.preventDefault();
            answer.mutate({ approve: true });
          }}
        >
          {found ? (
            <section aria-label="What the code asks for" className="rounded border border-slate-200 p-3 text-sm">
              <p className="font-medium">
                {found.kind === 'agent-device'
                  ? 'An agent program asks to join an organization as your device'
                  : 'The command line asks to act as you'}
              </p>
              <p className="mt-1">
                “{found.name ?? (found.kind === 'agent-device' ? 'Agent' : 'platform CLI')}”
                {found.platform ? ` on ${found.platform}` : ''}
                {found.kind === 'agent-device'
                  ? `, for ${found.capabilities.length > 0 ? found.capabilities.join(', ') : 'http'} jobs, on an allowlist without hosts.`
                  : ', with your roles in your organizations, for 90 days.'}
              </p>
              {found.status !== 'pending' && (
                <p className="mt-1" role="alert">
                  This code was already answered.
                </p>
              )}
            </section>
          ) : (
            <fieldset>
              <legend className="text-sm font-medium">What shows the code</legend>
              <div className="mt-1 grid gap-1 text-sm">
                <label className="flex min-h-8 items-center gap-2">
                  <input
                    type="radio"
                    name={kindName}
                    checked={kind === 'agent'}
                    onChange={() => setKind('agent')}
                    className="size-4"
                  />
                  An agent program (<code>platform agent login</code>): it joins an organization as your device
                </label>
                <label className="flex min-h-8 items-center gap-2">
                  <input
                    type="radio"
                    name={kindName}
                    checked={kind === 'cli'}
                    onChange={() => setKind('cli')}
                    className="size-4"
                  />
                  The command line (<code>platform login</code>): it acts as you, with your roles
                </label>
              </div>
            </fieldset>
          )}
          <TextInput
            label="Code shown on the device"
            mono
            isRequired
            value={code}
            onChange={setCode}
            description="Check that it is the code your device shows: approve only a login you started yourself."
          />
          {kind === 'agent' &&
            (me.isPending ? (
              <Loading what="your organizations" />
            ) : orgs.length === 0 ? (
              <p className="text-sm" role="alert">
                None of your organizations lets you approve a device (agents:write).
              </p>
            ) : (
              <SelectField
                label="Organization"
                value={orgId}
                onChange={setOrg}
                options={orgs.map((o) => ({ id: o.orgId, label: `${o.name} (${o.slug})` }))}
              />
            ))}
          <div className="flex flex-wrap gap-2">
            <Button
              type="submit"
              tone="primary"
              isDisabled={answer.isPending || !userCode || (kind === 'agent' && !orgId)}
            >
              Approve
            </Button>
            <Button
              tone="danger"
              onPress={() => answer.mutate({ approve: false })}
              isDisabled={answer.isPending || !userCode || (kind === 'agent' && !orgId)}
            >
              Deny
            </Button>
          </div>
          <ErrorNote error={answer.error} />
        </form>
      )}
    </div>
  );
}
