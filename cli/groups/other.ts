import { UsageError } from '../context';
import { table, when } from '../output';
import type { CommandSpec, Ctx } from '../spec';

/** `domain`, `notify`, `agent` and `connector`, over the typed client. */

const org = async (c: Ctx) => {
  const s = await c.session();
  return { s, api: s.api, orgId: s.config.orgId };
};
const width = (c: Ctx) => c.io;

export const OTHER_COMMANDS: CommandSpec[] = [
  {
    path: ['domain', 'list'],
    aliases: ['ls'],
    summary: "the organization's custom domains and their state",
    options: { project: { type: 'string', value: 'P', help: 'of this project (id)', complete: 'project' } },
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
      const { requireProject } = await import('../context');
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
    run: async (c) => {
      const s = await c.session();
      const res = await s.api.postMeNotificationsAck({ noticeId: c.args[0] as string });
      return c.print(res, () => `Acknowledged ${c.args[0]}.`);
    },
  },
  {
    path: ['agent', 'devices'],
    summary: "the organization's agent devices, and network requests waiting for a decision",
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
  ...(['approve', 'deny'] as const).map(
    (decision): CommandSpec => ({
      path: ['agent', decision],
      summary: `${decision} a device's request to reach a host`,
      positionals: [
        { name: 'deviceId', required: true },
        { name: 'host', required: true },
      ],
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
    run: async (c) => {
      const { api, orgId } = await org(c);
      await api.deleteConnectorsByConnectorId({ orgId, connectorId: c.args[0] as string });
      return c.print({ removed: c.args[0] }, () => `Removed ${c.args[0]}.`);
    },
  },
];
