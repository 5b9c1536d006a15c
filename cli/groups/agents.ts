import { readFileSync } from 'node:fs';
import { type AgentDevice, ApiError, type Operations } from '../../client';
import { CliError, sleep, UsageError } from '../context';
import { table, when } from '../output';
import type { CommandSpec, Ctx } from '../spec';
import { intOption, list, localFile } from './common';

/**
 * `agent`: the organization's agent devices (their capabilities, network mode and allowed hosts),
 * network requests, and jobs (queued, followed to their end, canceled, their results printed).
 */

const org = async (c: Ctx) => {
  const s = await c.session();
  return { s, api: s.api, orgId: s.config.orgId };
};

const JOB_TYPES = ['http.batch', 'exec', 'browser.batch'] as const;
const JOB_FINAL = new Set(['done', 'failed', 'canceled', 'expired']);
const CAPABILITIES = ['http', 'browser', 'exec'] as const;

type JobAnswer = Operations['getAgentsJobsByJobId']['response'];

/** JSON given inline, or @FILE (@- reads stdin); not JSON is a usage mistake. */
async function jsonInput(c: Ctx, value: string): Promise<unknown> {
  let text = value;
  if (value.startsWith('@')) {
    const name = value.slice(1);
    text = name === '-' ? await c.io.stdin() : readFileSync(localFile(c, name).file, 'utf8');
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new UsageError(`--input is not JSON${value.startsWith('@') ? ` (${value.slice(1)})` : ''}.`);
  }
}

interface BlockedDevice {
  deviceId: string;
  name?: string;
  online?: boolean;
  capability?: string;
  hosts?: string[];
}

/** Why a queued job waits, in words that say what to do: each device with what it lacks and the command that gives it. */
export function waitingText(w: { reason: string; devices?: unknown[] }): string {
  if (w.reason === 'no_devices')
    return 'waiting: no device can run it. Log one in on a machine: npm run agent -- login';
  if (w.reason === 'offline') return 'waiting: the devices that can run it are offline (start the agent program).';
  const lacks = ((w.devices ?? []) as BlockedDevice[]).map((d) => {
    const needs = [
      ...(d.capability
        ? [`the ${d.capability} capability (platform agent device set ${d.deviceId} --capabilities ${d.capability},…)`]
        : []),
      ...(d.hosts?.length
        ? [`access to ${d.hosts.join(', ')} (platform agent approve ${d.deviceId} ${d.hosts[0]})`]
        : []),
    ];
    return `${d.name ?? d.deviceId}${d.online === false ? ' (offline)' : ''} needs ${needs.join(' and ') || 'nothing named'}`;
  });
  return `waiting: blocked, no device may run it yet${lacks.length ? `: ${lacks.join('; ')}` : ''}.`;
}

/**
 * A done job's results, fetched through the link the API answers: an exec job's output as it ran,
 * an http.batch's answers one by one, anything else as JSON.
 */
async function resultsText(res: JobAnswer): Promise<string> {
  if (!res.resultsUrl) return 'It left no results.';
  const got = await fetch(res.resultsUrl);
  if (!got.ok) throw new CliError(`The results could not be read (${got.status}). Their link: ${res.resultsUrl}`);
  const text = await got.text();
  let results: unknown;
  try {
    results = JSON.parse(text);
  } catch {
    return text;
  }
  const r = results as {
    exitCode?: number | null;
    signal?: string | null;
    stdout?: string;
    stderr?: string;
    responses?: { url: string; status?: number; body?: string; error?: string; truncated?: boolean }[];
  };
  if (res.job.type === 'exec' && typeof r.stdout === 'string') {
    const end = r.signal ? `signal ${r.signal}` : `exit code ${r.exitCode}`;
    return [r.stdout.trimEnd(), ...(r.stderr ? [`stderr:\n${r.stderr.trimEnd()}`] : []), `(${end})`]
      .filter(Boolean)
      .join('\n');
  }
  if (res.job.type === 'http.batch' && Array.isArray(r.responses)) {
    return r.responses
      .map((x) =>
        x.error
          ? `${x.url}: ${x.error}`
          : `${x.url}: ${x.status}${x.truncated ? ' (body truncated)' : ''}\n${(x.body ?? '').trimEnd()}`,
      )
      .join('\n\n');
  }
  return JSON.stringify(results, null, 2);
}

/** What a finished job prints: its end, and a done job's results (or with --link, their link). */
async function finished(c: Ctx, res: JobAnswer): Promise<number> {
  const j = res.job;
  const code = j.status === 'done' ? 0 : 1;
  if (c.json) return c.print(res, () => '') + code;
  if (j.status !== 'done') {
    const expired = j.status === 'expired' ? ` (nothing ran it before ${when(j.expiresAt)})` : '';
    return c.print(res, () => `Job ${j.jobId} ${j.status}${j.error ? `: ${j.error}` : `${expired}.`}`) + code;
  }
  if (c.flag('link')) return c.print(res, () => `Job ${j.jobId} done. Results: ${res.resultsUrl ?? '(none)'}`);
  c.io.stderr(`Job ${j.jobId} done.\n`);
  const text = await resultsText(res);
  c.io.stdout(`${text}\n`);
  return 0;
}

/**
 * Polls a job until it ends, printing each change of status (and why it waits) on stderr; a
 * queued job past its expiry ends the watch as expired. Exit 0 when done.
 */
async function watchJob(c: Ctx, jobId: string): Promise<number> {
  const { api, orgId } = await org(c);
  let said = '';
  for (;;) {
    let res = await api.getAgentsJobsByJobId({ orgId, jobId });
    let j = res.job;
    // Nothing will run it past its expiry, whether or not the platform settled it yet.
    if (j.status === 'queued' && Date.now() >= j.expiresAt) {
      res = { ...res, job: { ...j, status: 'expired' } };
      j = res.job;
    }
    // Why a queued job waits is said in the organization's list (the job alone doesn't say it).
    const waiting =
      j.waiting ??
      (j.status === 'queued' ? (await api.getAgents({ orgId })).jobs.find((x) => x.jobId === jobId)?.waiting : null);
    const line = `${j.status}${waiting ? ` (${waitingText(waiting)})` : ''}`;
    if (line !== said) {
      c.io.stderr(`${jobId}: ${line}\n`);
      said = line;
    }
    if (JOB_FINAL.has(j.status)) return finished(c, res);
    if (c.io.signal?.aborted) return c.print(res, () => `Job ${jobId} ${j.status}.`) + 1;
    await sleep(c.io.pollMs ?? 1000, c.io.signal);
  }
}

/** A device of the organization by id (its hosts and capabilities as they are now). */
async function deviceOf(c: Ctx, deviceId: string): Promise<AgentDevice> {
  const { api, orgId } = await org(c);
  const device = (await api.getAgents({ orgId })).devices.find((d) => d.deviceId === deviceId);
  if (!device || device.status === 'revoked')
    throw new CliError(`No device ${deviceId} in this organization: platform agent devices lists them.`);
  return device;
}

/** Lowercase hostnames, checked only as the API checks them. */
const hostsOf = (values: string[]) => values.flatMap((v) => list(v) ?? []).map((h) => h.toLowerCase());

const LINK = { type: 'boolean', help: "print the results' link (5 minutes) instead of the results" } as const;

export const AGENT_COMMANDS: CommandSpec[] = [
  {
    path: ['agent', 'devices'],
    summary: "the organization's agent devices, and network requests waiting for a decision",
    examples: ['platform agent devices'],
    run: async (c) => {
      const { api, orgId } = await org(c);
      const res = await api.getAgents({ orgId });
      return c.print({ devices: res.devices, requests: res.requests }, () => {
        const devices =
          res.devices.length === 0
            ? 'No devices. Run the agent program on a machine: npm run agent -- login'
            : table(
                [
                  ['ID', 'NAME', 'OWNER', 'STATUS', 'CAPABILITIES', 'HOSTS', 'SEEN'],
                  ...res.devices.map((d) => [
                    d.deviceId,
                    d.name,
                    d.ownerName ?? d.userId,
                    d.status ?? 'active',
                    d.capabilities.join(','),
                    d.networkMode === 'full' ? '(full network)' : (d.hosts ?? []).join(',') || '-',
                    when(d.lastSeenAt),
                  ]),
                ],
                c.io,
                [0, 3, 6],
              );
        const pending = res.requests.filter((r) => (r.status ?? 'pending') === 'pending');
        const requests = pending.length
          ? `\n\nNetwork requests waiting (platform agent approve <deviceId> <host>):\n${table(
              [['DEVICE', 'HOST', 'REASON'], ...pending.map((r) => [r.deviceId, r.host, r.reason ?? ''])],
              c.io,
              [0, 1],
            )}`
          : '';
        return devices + requests;
      });
    },
  },
  {
    path: ['agent', 'device', 'set'],
    summary: 'change a device: its capabilities, name, network mode or allowed hosts (PATCH …/agents/devices/:id)',
    details:
      '--capabilities replaces the list (http, browser, exec); adding one, or --network full, is the owner’s alone.\n' +
      '--allow-host and --remove-host change the allowed hosts (a hostname, or *.example.com for its subdomains).',
    positionals: [{ name: 'deviceId', required: true }],
    options: {
      capabilities: { type: 'string', value: 'http,exec', help: 'what it may run', complete: CAPABILITIES },
      name: { type: 'string', value: 'N', help: 'its name' },
      network: { type: 'string', value: 'allowlist|full', help: 'its network mode', complete: ['allowlist', 'full'] },
      'allow-host': { type: 'string', value: 'HOST', help: 'allow a host (repeat, or a comma list)', multiple: true },
      'remove-host': { type: 'string', value: 'HOST', help: 'remove an allowed host', multiple: true },
    },
    examples: [
      'platform agent device set dev_01m8bqewt1ntccd2hvfr1kpxzm --capabilities http,exec',
      'platform agent device set dev_01m8bqewt1ntccd2hvfr1kpxzm --allow-host api.github.com --allow-host *.example.com',
    ],
    run: async (c) => {
      const deviceId = c.args[0] as string;
      const capabilities = list(c.str('capabilities'));
      for (const k of capabilities ?? [])
        if (!(CAPABILITIES as readonly string[]).includes(k))
          throw new UsageError(`Unknown capability ${k}: use ${CAPABILITIES.join(', ')}.`);
      const network = c.str('network');
      if (network !== undefined && network !== 'allowlist' && network !== 'full')
        throw new UsageError('--network takes allowlist or full.');
      const allow = hostsOf(c.all('allow-host'));
      const remove = new Set(hostsOf(c.all('remove-host')));
      if (!capabilities && network === undefined && !c.str('name') && allow.length === 0 && remove.size === 0)
        throw new UsageError('Say what to change: --capabilities, --name, --network, --allow-host or --remove-host.');
      const { api, orgId } = await org(c);
      let hosts: string[] | undefined;
      if (allow.length || remove.size) {
        const device = await deviceOf(c, deviceId);
        hosts = [...new Set([...(device.hosts ?? []), ...allow])].filter((h) => !remove.has(h));
      }
      const body = {
        ...(capabilities ? { capabilities: capabilities as (typeof CAPABILITIES)[number][] } : {}),
        ...(c.str('name') ? { name: c.str('name') } : {}),
        ...(network ? { networkMode: network as 'allowlist' | 'full' } : {}),
        ...(hosts ? { hosts } : {}),
      };
      const res = await api.patchAgentsDevicesByDeviceId({ orgId, deviceId, body });
      const said = [
        ...(capabilities ? [`capabilities ${capabilities.join(', ')}`] : []),
        ...(body.name ? [`name ${body.name}`] : []),
        ...(network ? [`network ${network}`] : []),
        ...(hosts ? [`hosts ${hosts.join(', ') || '(none)'}`] : []),
      ];
      return c.print(res, () => `Device ${deviceId}: ${said.join('; ')}.`);
    },
  },
  {
    path: ['agent', 'jobs'],
    summary: "the organization's recent agent jobs (with an id: that job, and a done job's results)",
    positionals: [{ name: 'jobId' }],
    options: { link: LINK },
    examples: ['platform agent jobs', 'platform agent jobs job_01m8bqewt1ntccd2hvfr1kpxzm'],
    run: async (c) => {
      const { api, orgId } = await org(c);
      if (c.args[0]) {
        const res = await api.getAgentsJobsByJobId({ orgId, jobId: c.args[0] });
        const j = res.job;
        if (c.json) return c.print(res, () => '');
        const head = [
          `${j.jobId} ${j.type} [${j.status}]${j.label ? ` ${j.label}` : ''}`,
          `device: ${j.deviceId ?? '-'}, created ${when(j.createdAt)}, expires ${when(j.expiresAt)}`,
          ...(j.error ? [`error: ${j.error}`] : []),
          ...(j.waiting ? [waitingText(j.waiting)] : []),
          ...(res.resultsUrl && c.flag('link') ? [`results: ${res.resultsUrl}`] : []),
        ].join('\n');
        c.io.stdout(`${head}\n`);
        if (j.status === 'done' && !c.flag('link')) c.io.stdout(`\n${await resultsText(res)}\n`);
        return 0;
      }
      const res = await api.getAgents({ orgId });
      return c.print({ jobs: res.jobs }, () =>
        res.jobs.length === 0
          ? 'No jobs.'
          : table(
              [
                ['ID', 'TYPE', 'STATUS', 'DEVICE', 'CREATED'],
                ...res.jobs.map((j) => [j.jobId, j.type, j.status, j.deviceId ?? '-', when(j.createdAt)]),
              ],
              c.io,
              [0, 2, 4],
            ),
      );
    },
  },
  {
    path: ['agent', 'job', 'create'],
    summary: 'queue a job for the agent devices (--watch: follow it to its end and print its results)',
    details:
      "--input is the job's input as JSON, or @FILE to read it from a file (- : stdin). --host: a host it needs to\n" +
      'reach (repeat it). The job waits for a device that may run it: platform agent job watch says why it waits.',
    options: {
      type: {
        type: 'string',
        value: 'http.batch|exec|browser.batch',
        help: 'what it runs',
        required: true,
        complete: JOB_TYPES,
      },
      input: { type: 'string', value: 'JSON|@FILE', help: 'its input', required: true },
      host: { type: 'string', value: 'H', help: 'a host it needs to reach', multiple: true },
      label: { type: 'string', value: 'L', help: 'a label to find it by' },
      ttl: { type: 'string', value: 'SECONDS', help: 'how long it may wait in the queue (60-604800)' },
      watch: { type: 'boolean', help: 'follow it to its end (exit 1 unless it is done)' },
      link: LINK,
    },
    examples: [
      'platform agent job create --type http.batch --input \'{"requests":[{"url":"https://example.com"}]}\' --host example.com --watch',
      'platform agent job create --type exec --input @job.json',
    ],
    run: async (c) => {
      const type = c.str('type') as string;
      if (!(JOB_TYPES as readonly string[]).includes(type))
        throw new UsageError(`Unknown job type ${type}: use ${JOB_TYPES.join(', ')}.`);
      const input = await jsonInput(c, c.str('input') as string);
      const ttlSeconds = intOption(c, 'ttl', 60, 604_800);
      const { api, orgId } = await org(c);
      const hosts = c.all('host');
      const res = await api.postAgentsJobs({
        orgId,
        body: {
          type: type as (typeof JOB_TYPES)[number],
          input,
          label: c.str('label'),
          ...(hosts.length ? { hosts } : {}),
          ...(ttlSeconds ? { ttlSeconds } : {}),
        },
      });
      if (!c.flag('watch'))
        return c.print(
          res,
          () => `Queued job ${res.jobId} (${type}). Follow it: platform agent job watch ${res.jobId}`,
        );
      c.io.stderr(`Queued job ${res.jobId} (${type}).\n`);
      return watchJob(c, res.jobId);
    },
  },
  {
    path: ['agent', 'job', 'watch'],
    summary: 'follow a job to its end, saying why it waits; prints a done job’s results',
    details:
      'Each change of status goes to stderr. It ends when the job does, or once a queued job is past its expiry.',
    positionals: [{ name: 'jobId', required: true }],
    options: { link: LINK },
    examples: ['platform agent job watch job_01m8bhk6hy7q', 'platform agent job watch job_01m8bhk6hy7q --link'],
    run: (c) => watchJob(c, c.args[0] as string),
  },
  {
    path: ['agent', 'job', 'cancel'],
    summary: 'cancel a job: a queued one at once, a running one once its device stops (canceling)',
    positionals: [{ name: 'jobId', required: true }],
    examples: ['platform agent job cancel job_01m8bhk6hy7q'],
    run: async (c) => {
      const { api, orgId } = await org(c);
      const jobId = c.args[0] as string;
      const res = await api.postAgentsJobsCancel({ orgId, jobId });
      return c.print(res, () =>
        res.status === 'canceled'
          ? `Canceled ${jobId}.`
          : `Canceling ${jobId}: its device stops it at its next heartbeat.`,
      );
    },
  },
  {
    path: ['agent', 'device', 'approve'],
    summary: "approve a device's login by the code it shows (--deny: refuse it)",
    details: 'The agent program prints a code like BCDF-GHJK when it logs in (npm run agent -- login).',
    positionals: [{ name: 'code', required: true }],
    options: { deny: { type: 'boolean', help: 'refuse the login instead' } },
    examples: ['platform agent device approve BCDF-GHJK'],
    run: async (c) => {
      const { api, orgId } = await org(c);
      const userCode = (c.args[0] as string).toUpperCase();
      const res = await api.postAgentsLogin({ orgId, body: { userCode, approve: !c.flag('deny') } });
      return c.print(res, () =>
        c.flag('deny') ? `Refused the login ${userCode}.` : `Approved the login ${userCode}: the device is signed in.`,
      );
    },
  },
  {
    path: ['agent', 'approve'],
    summary: 'allow a device to reach a host: its pending request approved, or the host allowed directly',
    details:
      'With a pending network request for the host, approves it. Without one (nothing filed it yet), adds the\n' +
      "host to the device's allowed hosts (as platform agent device set --allow-host).",
    positionals: [
      { name: 'deviceId', required: true },
      { name: 'host', required: true },
    ],
    examples: ['platform agent approve dev_01m8bqewt1ntccd2hvfr1kpxzm api.github.com'],
    run: async (c) => {
      const { api, orgId } = await org(c);
      const [deviceId, given] = c.args as [string, string];
      const host = given.toLowerCase();
      try {
        const res = await api.postAgentsRequestsByDeviceIdAndHostAndDecision({
          orgId,
          deviceId,
          host,
          decision: 'approve',
        });
        return c.print(res, () => `Approved ${host} for ${deviceId}.`);
      } catch (err) {
        if (!(err instanceof ApiError && err.status === 404 && err.message === 'Request not found')) throw err;
      }
      const device = await deviceOf(c, deviceId);
      const hosts = device.hosts ?? [];
      if (hosts.includes(host)) return c.print({ ok: true }, () => `${deviceId} already allows ${host}.`);
      const res = await api.patchAgentsDevicesByDeviceId({ orgId, deviceId, body: { hosts: [...hosts, host] } });
      return c.print(res, () => `Allowed ${host} for ${deviceId} (no request was pending: added to its hosts).`);
    },
  },
  {
    path: ['agent', 'deny'],
    summary: "deny a device's request to reach a host",
    positionals: [
      { name: 'deviceId', required: true },
      { name: 'host', required: true },
    ],
    examples: ['platform agent deny dev_01m8bqewt1ntccd2hvfr1kpxzm api.github.com'],
    run: async (c) => {
      const { api, orgId } = await org(c);
      const [deviceId, host] = c.args as [string, string];
      const res = await api.postAgentsRequestsByDeviceIdAndHostAndDecision({ orgId, deviceId, host, decision: 'deny' });
      return c.print(res, () => `Denied ${host} for ${deviceId}.`);
    },
  },
];
