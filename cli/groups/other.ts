import { readFileSync } from 'node:fs';
import { requireProject, sleep, UsageError } from '../context';
import { table, when } from '../output';
import type { CommandSpec, Ctx } from '../spec';
import { intOption, localFile } from './common';

/** `domain`, `notify`, `agent` and `connector`, over the typed client. */

const org = async (c: Ctx) => {
  const s = await c.session();
  return { s, api: s.api, orgId: s.config.orgId };
};
const width = (c: Ctx) => c.io;

const JOB_TYPES = ['http.batch', 'exec', 'browser.batch'] as const;
const JOB_FINAL = new Set(['done', 'failed', 'canceled', 'expired']);

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

/** Why a queued job waits, in words that say what to do. */
function waitingText(w: { reason: string; devices?: unknown[] }): string {
  if (w.reason === 'no_devices')
    return 'waiting: no device can run it. Log one in on a machine: npm run agent -- login';
  if (w.reason === 'offline') return 'waiting: the devices that can run it are offline (start the agent program).';
  const lacks = (w.devices ?? []).map((d) => {
    const x = d as { deviceId?: string; name?: string; hosts?: string[]; missing?: string[]; lacks?: unknown };
    return `${x.name ?? x.deviceId ?? '?'}: ${JSON.stringify(x.missing ?? x.hosts ?? x.lacks ?? d)}`;
  });
  return `waiting: blocked, no device may run it yet${lacks.length ? ` (${lacks.join('; ')})` : ''}. Approve the hosts it needs: platform agent devices, then platform agent approve <deviceId> <host>`;
}

/** Polls a job until it ends, printing each change of status (and why it waits) on stderr; exit 0 when done. */
async function watchJob(c: Ctx, jobId: string): Promise<number> {
  const { api, orgId } = await org(c);
  let said = '';
  for (;;) {
    const res = await api.getAgentsJobsByJobId({ orgId, jobId });
    const j = res.job;
    // Why a queued job waits is said in the organization's list (the job alone doesn't say it).
    const waiting =
      j.waiting ??
      (j.status === 'queued' ? (await api.getAgents({ orgId })).jobs.find((x) => x.jobId === jobId)?.waiting : null);
    const line = `${j.status}${waiting ? ` (${waitingText(waiting)})` : ''}`;
    if (line !== said) {
      c.io.stderr(`${jobId}: ${line}\n`);
      said = line;
    }
    if (JOB_FINAL.has(j.status) || c.io.signal?.aborted) {
      const done = j.status === 'done';
      c.print(res, () =>
        done
          ? `Job ${jobId} done.${res.resultsUrl ? ` Results: ${res.resultsUrl}` : ''}`
          : `Job ${jobId} ${j.status}${j.error ? `: ${j.error}` : '.'}`,
      );
      return done ? 0 : 1;
    }
    await sleep(c.io.pollMs ?? 1000, c.io.signal);
  }
}

export const OTHER_COMMANDS: CommandSpec[] = [
  {
    path: ['domain', 'list'],
    aliases: ['ls'],
    summary: "the organization's custom domains and their state",
    options: { project: { type: 'string', value: 'P', help: 'of this project (id)', complete: 'project' } },
    examples: ['platform domain list', 'platform domain list --project shop'],
    run: async (c) => {
      const { api, orgId } = await org(c);
      const res = await api.getDomains({ orgId, projectId: c.str('project') });
      return c.print(res, () =>
        res.domains.length === 0
          ? 'No domains yet. Add one: platform domain add <hostname> --project P'
          : table(
              [
                ['HOSTNAME', 'PROJECT', 'STATUS', 'CHECKED'],
                ...res.domains.map((d) => [d.hostname, d.projectId, d.status, when(d.checkedAt)]),
              ],
              width(c),
              [0, 2, 3],
            ),
      );
    },
  },
  {
    path: ['domain', 'add'],
    summary: 'serve a project on a hostname of yours; prints the DNS records to create',
    positionals: [{ name: 'hostname', required: true }],
    options: {
      project: {
        type: 'string',
        value: 'P',
        help: "the project's slug or id",
        required: true,
        defaulted: true,
        complete: 'project',
      },
      'redirect-to': { type: 'string', value: 'HOST', help: 'redirect to this hostname instead of serving' },
    },
    examples: ['platform domain add www.example.com --project web', 'platform domain verify www.example.com'],
    run: async (c) => {
      const s = await c.session();
      const project = await requireProject(s, c.str('project'));
      const res = await s.api.postDomains({
        orgId: s.config.orgId,
        body: { hostname: c.args[0] as string, projectId: project.projectId, redirectTo: c.str('redirect-to') },
      });
      return c.print(
        res,
        () => `Added ${res.domain.hostname} (${res.domain.status}). Create these records:\n${res.domain.records}`,
      );
    },
  },
  {
    path: ['domain', 'verify'],
    summary: "check a domain's DNS records now",
    positionals: [{ name: 'hostname', required: true }],
    examples: ['platform domain verify shop.example.com'],
    run: async (c) => {
      const { api, orgId } = await org(c);
      const res = await api.postDomainsVerify({ orgId, hostname: c.args[0] as string });
      const d = res.domain;
      return c.print(res, () => `${d.hostname}: ${d.status}${d.message ? ` (${d.message.replace(/\.$/, '')})` : ''}.`);
    },
  },
  {
    path: ['domain', 'records'],
    summary: 'the DNS records a domain needs',
    positionals: [{ name: 'hostname', required: true }],
    examples: ['platform domain records shop.example.com'],
    run: async (c) => {
      const { api, orgId } = await org(c);
      const hostname = c.args[0] as string;
      const res = await api.getDomains({ orgId });
      const domain = res.domains.find((d) => d.hostname === hostname);
      if (!domain) throw new UsageError(`No domain ${hostname} in this organization: platform domain list.`);
      return c.print({ domain }, () => `${domain.records}`);
    },
  },
  {
    path: ['notify', 'list'],
    aliases: ['ls'],
    summary: 'your notifications, newest first',
    options: { limit: { type: 'string', value: 'N', help: 'at most N' } },
    examples: ['platform notify list --limit 20'],
    run: async (c) => {
      const limit = c.str('limit') === undefined ? undefined : Number(c.str('limit'));
      if (limit !== undefined && !(Number.isInteger(limit) && limit >= 1 && limit <= 100)) {
        throw new UsageError('--limit takes a whole number from 1 to 100.');
      }
      const s = await c.session();
      const res = await s.api.getMeNotifications({ limit });
      return c.print(res, () =>
        res.notices.length === 0
          ? 'No notifications.'
          : table(
              [
                ['ID', 'WHEN', 'EVENT', 'TITLE', 'STATE'],
                ...res.notices.map((n) => [
                  n.noticeId,
                  when(n.createdAt),
                  n.event,
                  n.title,
                  n.requireAck ? (n.ackedAt ? 'acked' : 'needs ack') : n.read ? 'read' : 'new',
                ]),
              ],
              width(c),
              [0, 1, 4],
            ),
      );
    },
  },
  {
    path: ['notify', 'ack'],
    summary: 'acknowledge a notification that asks for it',
    positionals: [{ name: 'noticeId', required: true }],
    examples: ['platform notify ack nte_01m8bqewt1ntccd2hvfr1kpxzm'],
    run: async (c) => {
      const s = await c.session();
      const res = await s.api.postMeNotificationsAck({ noticeId: c.args[0] as string });
      return c.print(res, () => `Acknowledged ${c.args[0]}.`);
    },
  },
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
                  ['ID', 'NAME', 'OWNER', 'STATUS', 'CAPABILITIES', 'SEEN'],
                  ...res.devices.map((d) => [
                    d.deviceId,
                    d.name,
                    d.ownerName ?? d.userId,
                    d.status ?? 'active',
                    d.capabilities.join(','),
                    when(d.lastSeenAt),
                  ]),
                ],
                width(c),
                [0, 3, 5],
              );
        const pending = res.requests.filter((r) => (r.status ?? 'pending') === 'pending');
        const requests = pending.length
          ? `\n\nNetwork requests waiting (platform agent approve <deviceId> <host>):\n${table(
              [['DEVICE', 'HOST', 'REASON'], ...pending.map((r) => [r.deviceId, r.host, r.reason ?? ''])],
              width(c),
              [0, 1],
            )}`
          : '';
        return devices + requests;
      });
    },
  },
  {
    path: ['agent', 'jobs'],
    summary: "the organization's recent agent jobs (with an id: that job)",
    positionals: [{ name: 'jobId' }],
    examples: ['platform agent jobs', 'platform agent jobs job_01m8bqewt1ntccd2hvfr1kpxzm'],
    run: async (c) => {
      const { api, orgId } = await org(c);
      if (c.args[0]) {
        const res = await api.getAgentsJobsByJobId({ orgId, jobId: c.args[0] });
        const j = res.job;
        return c.print(res, () =>
          [
            `${j.jobId} ${j.type} [${j.status}]${j.label ? ` ${j.label}` : ''}`,
            `device: ${j.deviceId ?? '-'}, created ${when(j.createdAt)}, expires ${when(j.expiresAt)}`,
            ...(j.error ? [`error: ${j.error}`] : []),
            ...(j.waiting ? [`waiting: ${j.waiting.reason}`] : []),
            ...(res.resultsUrl ? [`results: ${res.resultsUrl}`] : []),
          ].join('\n'),
        );
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
              width(c),
              [0, 2, 4],
            ),
      );
    },
  },
  {
    path: ['agent', 'job', 'create'],
    summary: 'queue a job for the agent devices (--watch: follow it to its end)',
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
      ttl: { type: 'string', value: 'SECONDS', help: 'how long it may wait in the queue' },
      watch: { type: 'boolean', help: 'follow it to its end (exit 1 unless it is done)' },
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
      const ttlSeconds = intOption(c, 'ttl', 1);
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
      const job = res;
      if (!c.flag('watch'))
        return c.print(
          res,
          () => `Queued job ${job.jobId} (${type}). Follow it: platform agent job watch ${job.jobId}`,
        );
      c.io.stderr(`Queued job ${job.jobId} (${type}).\n`);
      return watchJob(c, job.jobId);
    },
  },
  {
    path: ['agent', 'job', 'watch'],
    summary: 'follow a job to its end, saying why it waits (no device, offline, a host not approved)',
    positionals: [{ name: 'jobId', required: true }],
    examples: ['platform agent job watch job_01m8bhk6hy7q'],
    run: (c) => watchJob(c, c.args[0] as string),
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
  ...(['approve', 'deny'] as const).map(
    (decision): CommandSpec => ({
      path: ['agent', decision],
      summary: `${decision} a device's request to reach a host`,
      positionals: [
        { name: 'deviceId', required: true },
        { name: 'host', required: true },
      ],
      examples: [`platform agent ${decision} dev_01m8bqewt1ntccd2hvfr1kpxzm api.github.com`],
      run: async (c) => {
        const { api, orgId } = await org(c);
        const [deviceId, host] = c.args as [string, string];
        const res = await api.postAgentsRequestsByDeviceIdAndHostAndDecision({
          orgId,
          deviceId,
          host,
          decision: decision === 'approve' ? 'approve' : 'deny',
        });
        return c.print(res, () => `${decision === 'approve' ? 'Approved' : 'Denied'} ${host} for ${deviceId}.`);
      },
    }),
  ),
  {
    path: ['connector', 'list'],
    aliases: ['ls'],
    summary: "the organization's MCP connectors",
    examples: ['platform connector list'],
    run: async (c) => {
      const { api, orgId } = await org(c);
      const res = await api.getConnectors({ orgId });
      return c.print(res, () =>
        res.connectors.length === 0
          ? 'No connectors.'
          : table(
              [
                ['ID', 'NAME', 'URL', 'STATUS', 'TOOLS'],
                ...res.connectors.map((k) => [
                  k.connectorId,
                  k.name,
                  k.url,
                  k.status ?? 'unknown',
                  String(k.toolCount),
                ]),
              ],
              width(c),
              [0, 3, 4],
            ),
      );
    },
  },
  {
    path: ['connector', 'test'],
    summary: 'connect to a connector now and list its tools again',
    positionals: [{ name: 'connectorId', required: true }],
    examples: ['platform connector test con_01m8bqewt1ntccd2hvfr1kpxzm'],
    run: async (c) => {
      const { api, orgId } = await org(c);
      const res = await api.postConnectorsTest({ orgId, connectorId: c.args[0] as string });
      const k = res.connector;
      return c.print(
        res,
        () => `${k.name}: ${k.status ?? 'unknown'}, ${k.toolCount} tools${k.lastError ? ` (${k.lastError})` : ''}.`,
      );
    },
  },
  {
    path: ['connector', 'remove'],
    aliases: ['rm'],
    summary: 'remove a connector',
    positionals: [{ name: 'connectorId', required: true }],
    examples: ['platform connector remove con_01m8bqewt1ntccd2hvfr1kpxzm'],
    run: async (c) => {
      const { api, orgId } = await org(c);
      await api.deleteConnectorsByConnectorId({ orgId, connectorId: c.args[0] as string });
      return c.print({ removed: c.args[0] }, () => `Removed ${c.args[0]}.`);
    },
  },
];
