import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api } from '../../lib/api';
import { useCan, useOrgId, useParam } from '../../lib/hooks';
import { Button, Done, ErrorNote, Loading, PageTitle, Section, SelectField, Status, when } from '../../ui/controls';
import { agentsKey } from './agents';
import { WhyWaiting } from './waiting';

const moving = (status: string | undefined) => status === 'queued' || status === 'running' || status === 'canceling';

/** A job: its state, why it waits, its input and output; cancel it, or ask a device's owner for the hosts it lacks. */
export default function Job() {
  const orgId = useOrgId();
  const jobId = useParam('jobId');
  const canRun = useCan('agents:run');
  const client = useQueryClient();
  const q = useQuery({
    queryKey: ['agent-job', orgId, jobId],
    queryFn: () => api().getAgentsJobsByJobId({ orgId, jobId }),
    refetchInterval: (query) => (moving(query.state.data?.job.status) ? 3000 : false),
  });
  const job = q.data?.job;
  // `waiting` is in the organization's list (it weighs the job against every device).
  const agents = useQuery({
    queryKey: agentsKey(orgId),
    queryFn: () => api().getAgents({ orgId }),
    refetchInterval: job?.status === 'queued' ? 5000 : false,
  });
  const listed = agents.data?.jobs.find((j) => j.jobId === jobId);
  const devices = agents.data?.devices.filter((d) => d.status !== 'revoked') ?? [];
  const cancel = useMutation({
    mutationFn: () => api().postAgentsJobsCancel({ orgId, jobId }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['agent-job', orgId, jobId] }),
  });
  const results = q.data?.resultsUrl;
  const title = job?.label ?? jobId;
  return (
    <div>
      <p className="text-sm">
        <Link to={`/orgs/${orgId}/agents`}>Agents</Link>
      </p>
      <PageTitle title={`Job ${title}`}>Job {title}</PageTitle>
      {q.isPending && <Loading what="the job" />}
      <ErrorNote error={q.error} />
      {job && (
        <>
          <dl className="mt-4 grid max-w-3xl grid-cols-[auto_1fr] gap-x-6 gap-y-1 text-sm">
            <dt className="text-slate-700">Status</dt>
            <dd>
              <Status value={job.status} />
            </dd>
            <dt className="text-slate-700">Type</dt>
            <dd>{job.type}</dd>
            <dt className="text-slate-700">Device</dt>
            <dd>
              {job.deviceId ? (devices.find((d) => d.deviceId === job.deviceId)?.name ?? job.deviceId) : 'none yet'}
            </dd>
            <dt className="text-slate-700">Hosts</dt>
            <dd className="break-words">{job.hosts?.length ? job.hosts.join(', ') : 'none'}</dd>
            <dt className="text-slate-700">Created</dt>
            <dd>{when(job.createdAt)}</dd>
            {job.claimedAt && (
              <>
                <dt className="text-slate-700">Started</dt>
                <dd>{when(job.claimedAt)}</dd>
              </>
            )}
            {job.completedAt ? (
              <>
                <dt className="text-slate-700">Ended</dt>
                <dd>{when(job.completedAt)}</dd>
              </>
            ) : (
              <>
                <dt className="text-slate-700">Expires</dt>
                <dd>{when(job.expiresAt)}</dd>
              </>
            )}
          </dl>
          {job.status === 'queued' && (
            <Section title="Why it waits">
              {listed ? (
                <WhyWaiting job={listed} requests={agents.data?.requests ?? []} />
              ) : agents.isPending ? (
                <Loading what="the devices" />
              ) : (
                <p className="text-sm">Older than the 50 latest jobs: its reason is not listed.</p>
              )}
              {canRun && devices.length > 0 && <RequestAccess orgId={orgId} jobId={jobId} devices={devices} />}
            </Section>
          )}
          {canRun && (job.status === 'queued' || job.status === 'running') && (
            <div className="mt-6">
              <Button tone="danger" onPress={() => cancel.mutate()} isDisabled={cancel.isPending}>
                Cancel job
              </Button>
              <ErrorNote error={cancel.error} />
              {cancel.data?.status === 'canceling' && (
                <Done>Canceling: the device stops it at its next heartbeat.</Done>
              )}
            </div>
          )}
          <Section title="Output">
            {job.error && (
              <p className="rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-900">{job.error}</p>
            )}
            {results ? (
              <p className="text-sm">
                <a href={results}>Download the results</a> (JSON; the link works for 5 minutes, the page makes a new one
                each time it loads).
              </p>
            ) : (
              !job.error && (
                <p className="text-sm text-slate-700">
                  {moving(job.status) ? 'No output yet: the job has not ended.' : 'No results.'}
                </p>
              )
            )}
          </Section>
          <Section title="Input">
            <pre className="max-h-96 overflow-auto rounded-md bg-slate-50 p-3 text-xs">
              {JSON.stringify(job.input ?? null, null, 2)}
            </pre>
          </Section>
        </>
      )}
    </div>
  );
}

function RequestAccess(props: { orgId: string; jobId: string; devices: { deviceId: string; name: string }[] }) {
  const client = useQueryClient();
  const [deviceId, setDeviceId] = useState(props.devices[0]?.deviceId ?? '');
  const ask = useMutation({
    mutationFn: () => api().postAgentsJobsRequestAccess({ orgId: props.orgId, jobId: props.jobId, body: { deviceId } }),
    onSuccess: () => client.invalidateQueries({ queryKey: agentsKey(props.orgId) }),
  });
  const d = ask.data;
  return (
    <form
      className="mt-4 flex flex-wrap items-end gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        ask.mutate();
      }}
    >
      <SelectField
        label="Device to run it"
        value={deviceId}
        onChange={setDeviceId}
        options={props.devices.map((x) => ({ id: x.deviceId, label: x.name }))}
      />
      <Button type="submit" isDisabled={ask.isPending || !deviceId}>
        Request access
      </Button>
      <div className="basis-full empty:hidden">
        <ErrorNote error={ask.error} />
        {d && (
          <Done>
            {d.requested.length
              ? `Asked for ${d.requested.join(', ')}: the device's owner approves them under Agents, host requests.`
              : 'No host to ask for.'}
            {d.missing?.capability ? ` The device also needs the ${d.missing.capability} capability.` : ''}
          </Done>
        )}
      </div>
    </form>
  );
}
