import type { AgentJob, NetworkRequest } from '../../../../client';

type Blocked = {
  deviceId: string;
  name: string;
  online?: boolean;
  capability?: string;
  hosts?: string[];
  network?: string;
};

/**
 * Why a queued job waits, in words, from the API's `waiting` (the list of `GET …/agents`):
 * no device, capable devices offline, or each device with what it lacks; a lacking host with a
 * pending network request waits for the owner's approval.
 */
export function WhyWaiting({ job, requests }: { job: AgentJob; requests: NetworkRequest[] }) {
  if (job.status !== 'queued') return null;
  const w = job.waiting;
  if (w === undefined) return null;
  if (w === null) return <p className="text-sm">Ready: a device takes it at its next poll.</p>;
  if (w.reason === 'no_devices') {
    return (
      <p className="text-sm">
        <strong>Waiting: no device.</strong> The organization has no agent device yet. Log one in with{' '}
        <code>platform agent login</code> and approve it.
      </p>
    );
  }
  const devices = (w.devices ?? []) as Blocked[];
  if (w.reason === 'offline') {
    return (
      <p className="text-sm">
        <strong>Waiting: devices offline.</strong> {devices.map((d) => d.name).join(', ')}{' '}
        {devices.length === 1 ? 'can' : 'can each'} run it but {devices.length === 1 ? 'has' : 'have'} not been seen for
        a minute.
      </p>
    );
  }
  return (
    <div className="text-sm">
      <p>
        <strong>Waiting: no device may run it.</strong>
      </p>
      <ul className="mt-1 list-disc pl-5">
        {devices.map((d) => {
          const pending = (d.hosts ?? []).filter((h) =>
            requests.some((r) => r.deviceId === d.deviceId && r.host === h && (r.status ?? 'pending') === 'pending'),
          );
          const unasked = (d.hosts ?? []).filter((h) => !pending.includes(h));
          const lacks = [
            ...(d.capability ? [`the ${d.capability} capability`] : []),
            ...(unasked.length ? [`hosts not on its allowlist: ${unasked.join(', ')}`] : []),
            ...(pending.length ? [`waiting for host approval: ${pending.join(', ')}`] : []),
          ];
          return (
            <li key={d.deviceId}>
              {d.name}
              {d.online === false ? ' (offline)' : ''}: {lacks.join('; ') || 'nothing'}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
