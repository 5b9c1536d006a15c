import { requireProject, UsageError } from '../context';
import { table, when } from '../output';
import type { CommandSpec, Ctx } from '../spec';

/** `domain`, `notify` and `connector`, over the typed client (`agent`: ./agents.ts). */

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
