import type { Operations } from '../../client';
import { UsageError } from '../context';
import { table, when } from '../output';
import type { CommandSpec, Ctx } from '../spec';

/** `webhook`: signed webhook endpoints of the organization and their deliveries, over the typed client. */

type EventKind = Operations['postWebhooks']['body']['events'][number];

const org = async (c: Ctx) => {
  const s = await c.session();
  return { api: s.api, orgId: s.config.orgId };
};
const width = (c: Ctx) => c.io;
const SECRET_NOTE = 'Keep the signing secret now: it is not shown again (rotate-secret makes a new one).';

/** `--event a --event b` or `--event a,b`. */
function eventsOf(c: Ctx): EventKind[] {
  const kinds = c
    .all('event')
    .flatMap((e) => e.split(','))
    .map((e) => e.trim())
    .filter(Boolean);
  if (kinds.length === 0) throw new UsageError('Name at least one event kind with --event.');
  return kinds as EventKind[];
}

export const WEBHOOK_COMMANDS: CommandSpec[] = [
  {
    path: ['webhook', 'list'],
    aliases: ['ls'],
    summary: "the organization's webhook endpoints",
    examples: ['platform webhook list'],
    run: async (c) => {
      const { api, orgId } = await org(c);
      const res = await api.getWebhooks({ orgId });
      return c.print(res, () =>
        res.endpoints.length === 0
          ? 'No webhook endpoints. Add one: platform webhook create <url> --event deployment.ready'
          : table(
              [
                ['ID', 'URL', 'EVENTS', 'ENABLED'],
                ...res.endpoints.map((e) => [e.endpointId, e.url, e.events.join(','), e.enabled ? 'yes' : 'no']),
              ],
              width(c),
              [0, 3],
            ),
      );
    },
  },
  {
    path: ['webhook', 'create'],
    summary: 'send signed events to an https URL (Standard Webhooks); prints the signing secret once',
    positionals: [{ name: 'url', required: true }],
    options: {
      event: { type: 'string', value: 'KIND', help: 'an event kind (repeat, or a comma list)', multiple: true },
      description: { type: 'string', value: 'TEXT', help: 'what it is for' },
    },
    examples: ['platform webhook create https://hooks.example.com/platform --event deployment.ready,deployment.failed'],
    run: async (c) => {
      const { api, orgId } = await org(c);
      const res = await api.postWebhooks({
        orgId,
        body: { url: c.args[0] as string, events: eventsOf(c), description: c.str('description') },
      });
      return c.print(res, () => `Created ${res.endpoint.endpointId}.\nSigning secret: ${res.secret}\n${SECRET_NOTE}`);
    },
  },
  {
    path: ['webhook', 'remove'],
    aliases: ['rm'],
    summary: 'remove an endpoint (nothing more is sent to it)',
    positionals: [{ name: 'endpointId', required: true }],
    examples: ['platform webhook remove whe_01m8bqewt1ntccd2hvfr1kpxzm'],
    run: async (c) => {
      const { api, orgId } = await org(c);
      await api.deleteWebhooksByEndpointId({ orgId, endpointId: c.args[0] as string });
      return c.print({ removed: c.args[0] }, () => `Removed ${c.args[0]}.`);
    },
  },
  {
    path: ['webhook', 'rotate-secret'],
    summary: "a new signing secret for an endpoint (the old one keeps working for a while, as the API's answer says)",
    positionals: [{ name: 'endpointId', required: true }],
    examples: ['platform webhook rotate-secret whe_01m8bqewt1ntccd2hvfr1kpxzm'],
    run: async (c) => {
      const { api, orgId } = await org(c);
      const res = await api.postWebhooksSecret({ orgId, endpointId: c.args[0] as string });
      return c.print(res, () => `Signing secret: ${res.secret}\n${SECRET_NOTE}`);
    },
  },
  {
    path: ['webhook', 'deliveries'],
    summary: "an endpoint's deliveries, newest first, with their attempts",
    positionals: [{ name: 'endpointId', required: true }],
    options: { limit: { type: 'string', value: 'N', help: 'how many (1-100)' } },
    examples: ['platform webhook deliveries whe_01m8bqewt1ntccd2hvfr1kpxzm --limit 20'],
    run: async (c) => {
      const { api, orgId } = await org(c);
      const limit = c.str('limit');
      const res = await api.getWebhooksDeliveries({
        orgId,
        endpointId: c.args[0] as string,
        ...(limit ? { limit: Number(limit) } : {}),
      });
      return c.print(res, () =>
        res.deliveries.length === 0
          ? 'No deliveries yet.'
          : table(
              [
                ['ID', 'EVENT', 'STATUS', 'ATTEMPTS', 'LAST ANSWER', 'CREATED'],
                ...res.deliveries.map((d) => {
                  const last = d.attempts.at(-1);
                  return [
                    d.deliveryId,
                    d.kind,
                    d.status,
                    String(d.attempts.length),
                    last ? (last.status !== undefined ? String(last.status) : (last.error ?? '')) : '',
                    when(d.createdAt),
                  ];
                }),
              ],
              width(c),
              [0, 2, 3, 5],
            ),
      );
    },
  },
  {
    path: ['webhook', 'redeliver'],
    summary: 'send a delivery again',
    positionals: [
      { name: 'endpointId', required: true },
      { name: 'deliveryId', required: true },
    ],
    examples: ['platform webhook redeliver whe_01m8bqewt1ntccd2hvfr1kpxzm msg_01m8bqf2a7cz5n0q4k8x3w9d1e'],
    run: async (c) => {
      const { api, orgId } = await org(c);
      const res = await api.postWebhooksDeliveriesRedeliver({
        orgId,
        endpointId: c.args[0] as string,
        deliveryId: c.args[1] as string,
      });
      return c.print(res, () => `Sending ${res.delivery.deliveryId} again (${res.delivery.status}).`);
    },
  },
];
