import { performance } from 'node:perf_hooks';
import type { NotifyMessage } from '../../shared/domains/notifications/queue-messages';
import type { BenchPlatform } from './platform';
import { median, ms, percentile, ratio } from './stats';

/**
 * Notifications: a page of 50 notices (`GET /v1/me/notifications`) against `GET /v1/orgs/:orgId`,
 * both through the local gateway with the same token, interleaved; and the lateness of the local
 * scheduler (timers as records, moved to the notify queue by `npm start`'s one-second loop): when a
 * timer's message can be received from the queue, after the time it was due.
 */
export interface NotificationFigures {
  runs: number;
  page: { notices: number; org: number };
  timers: number;
  lateness: { median: number; p95: number };
}

export async function benchNotifications(
  platform: BenchPlatform,
  options: { runs?: number; timers?: number } = {},
): Promise<NotificationFigures> {
  const runs = options.runs ?? 200;
  const count = options.timers ?? 40;
  const { createGateway, listen } = await import('../../lib/local/gateway');
  const { startTimers } = await import('../../lib/local/timers');
  const { scheduler } = await import('../../shared/ports/scheduler');
  const { PutCommand } = await import('@aws-sdk/lib-dynamodb');
  const { ReceiveMessageCommand, SQSClient } = await import('@aws-sdk/client-sqs');
  const { db } = await import('../../shared/kernel/store/client');
  const { TABLE } = await import('../../shared/kernel/store/table');
  const { noticeIdOf, noticeKey } = await import('../../shared/domains/notifications/notices');
  const { newId } = await import('../../shared/kernel/store/ids');

  const credentials = {
    accessKeyId: process.env.AWS_ACCESS_KEY_ID as string,
    secretAccessKey: process.env.AWS_SECRET_ACCESS_KEY as string,
  };
  const region = process.env.AWS_REGION as string;
  const gateway = createGateway();
  const port = await listen(gateway, 0);
  const client = new SQSClient({ endpoint: process.env.AWS_ENDPOINT_URL_SQS, region, credentials });
  try {
    for (let i = 0; i < 60; i++) {
      const eventId = newId('evt_', Date.now() - i * 1000);
      const noticeId = noticeIdOf({ eventId }, platform.userId);
      await db.send(
        new PutCommand({
          TableName: TABLE(),
          Item: {
            ...noticeKey(platform.userId, noticeId),
            noticeId,
            userId: platform.userId,
            orgId: platform.orgId,
            eventId,
            event: 'deployment.failed',
            title: `Deployment ${i} failed`,
            body: 'The build failed: exit code 1.',
            read: false,
            requireAck: false,
            createdAt: Date.now() - i * 1000,
            steps: [{ afterMinutes: 0, channels: ['inapp'] }],
            escalationStep: 0,
            stepsFrom: Date.now(),
            beforeEvent: false,
            overrideQuietHours: false,
            sent: [],
          },
        }),
      );
    }
    const get = async (path: string) => {
      const t0 = performance.now();
      const res = await fetch(`http://127.0.0.1:${port}${path}`, {
        headers: { authorization: `Bearer ${platform.jwt}` },
      });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`bench ${path}: ${res.status}`);
      return performance.now() - t0;
    };
    const notices: number[] = [];
    const org: number[] = [];
    for (let i = 0; i < runs + 20; i++) {
      const a = await get('/v1/me/notifications?limit=50');
      const b = await get(`/v1/orgs/${platform.orgId}`);
      if (i >= 20) {
        notices.push(a);
        org.push(b);
      }
    }

    // Timers due over the next 4 seconds, the loop as npm start runs it, each message received as it comes.
    const loop = startTimers(1000);
    const due = new Map<string, number>();
    const start = Date.now() + 500;
    for (let i = 0; i < count; i++) {
      const at = start + Math.round((i * 4000) / count);
      const key = `bench-${i}`;
      due.set(key, at);
      // Not a step the worker could take: the bench reads the queue itself, no worker runs.
      await scheduler().schedule(key, at, { type: 'bench', key } as unknown as NotifyMessage);
    }
    const late: number[] = [];
    const url = process.env.NOTIFY_QUEUE_URL as string;
    const deadline = Date.now() + 20_000;
    while (late.length < count && Date.now() < deadline) {
      const out = await client.send(
        new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }),
      );
      const now = Date.now();
      for (const m of out.Messages ?? []) {
        const key = (JSON.parse(m.Body ?? '{}') as { key?: string }).key;
        const at = key ? due.get(key) : undefined;
        if (at !== undefined) late.push(now - at);
      }
    }
    loop.stop();
    return {
      runs,
      page: { notices: median(notices), org: median(org) },
      timers: late.length,
      lateness: { median: median(late), p95: percentile(late, 95) },
    };
  } finally {
    client.destroy();
    gateway.closeAllConnections();
    gateway.close();
  }
}

export function renderNotifications(f: NotificationFigures): string {
  return [
    `A page of 50 notices against \`GET /v1/orgs/:orgId\`, both through the local gateway with one JWT, ` +
      `interleaved, median of ${f.runs}; and the local scheduler's lateness: ${f.timers} timers due over 4 s, ` +
      'moved by the one-second loop of `npm start`, each received from the notify queue:',
    '',
    '| measure | value | against | ratio |',
    '|---|--:|--:|--:|',
    `| \`GET /v1/me/notifications?limit=50\` | ${ms(f.page.notices)} | ${ms(f.page.org)} (\`GET /v1/orgs/:orgId\`) | ${ratio(f.page.notices, f.page.org)} |`,
    `| timer lateness, median | ${ms(f.lateness.median, 0)} | due time | |`,
    `| timer lateness, p95 | ${ms(f.lateness.p95, 0)} | due time | |`,
    '',
    'On AWS a timer up to 15 minutes ahead is an SQS message delay and a later one an EventBridge ' +
      "Scheduler one-time schedule (delivered within a minute of its time, by AWS's own account); neither is measured here.",
    '',
  ].join('\n');
}
