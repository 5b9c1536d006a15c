import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { moveDueTimers } from '../../lib/local/timers';
import { db } from '../../shared/kernel/store/client';
import { TABLE } from '../../shared/kernel/store/table';
import { TIMER_PK } from '../../shared/ports/scheduler/local';
import type { Person, TestPlatform } from '../helpers/platform';
import { startQueueWorker } from '../helpers/sqs';
import { until } from '../helpers/until';
import { paths, trackerPlatform } from './platform';

/** The tracker's notifications through shared/domains/notifications: issue.assigned, issue.mentioned, issue.sla_breached once. */
let p: TestPlatform;
let t: ReturnType<typeof paths>;
let dev: Person;
let worker: { stop: () => Promise<void> } | undefined;

beforeAll(async () => {
  worker = await startQueueWorker('notify');
  p = await trackerPlatform('tracker-notify');
  t = paths(p);
  dev = await p.person('developer');
});
afterAll(async () => {
  await p.close();
  await worker?.stop();
});

const noticesOf = async (person: Person, event: string) =>
  ((await p.get('/v1/me/notifications', { token: person.token })).body.notices ?? []).filter(
    (x: { event: string }) => x.event === event,
  );

it('raises issue.assigned for a new assignee and issue.mentioned for a member named in a comment', async () => {
  await p.post(t.spaces, { key: 'NTF', name: 'Notify', template: 'basic' });
  const issue = (await p.post(t.base, { space: 'NTF', summary: 'Ping', assignee: dev.email })).body.issue;
  const assigned = await until(async () => (await noticesOf(dev, 'issue.assigned'))[0]);
  expect(assigned).toMatchObject({ event: 'issue.assigned' });
  expect(JSON.stringify(assigned)).toContain(issue.key);
  const handle = (dev.email.split('@')[0] as string).toLowerCase().replace(/[^a-z0-9]+/g, '-');
  await p.post(`${t.issue(issue.key)}/comments`, { body: `@${handle} can you look?` });
  const mentioned = await until(async () => (await noticesOf(dev, 'issue.mentioned'))[0]);
  expect(mentioned).toMatchObject({ event: 'issue.mentioned' });
  // The owner assigned it and wrote the comment: nothing for the owner.
  expect(await noticesOf(p.owner, 'issue.assigned')).toEqual([]);
});

/** The local scheduler's timers whose message names the issue. */
async function timersOf(issueId: string): Promise<number> {
  const out = await db.send(
    new QueryCommand({
      TableName: TABLE(),
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :t',
      ExpressionAttributeValues: { ':t': TIMER_PK },
      ConsistentRead: false,
    }),
  );
  return (out.Items ?? []).filter((t) => JSON.stringify(t).includes(issueId.slice(4))).length;
}

it('raises issue.sla_breached once when a clock runs out', async () => {
  await p.post(t.spaces, { key: 'DESK', name: 'Desk', template: 'service' });
  await p.patch(t.space('DESK'), {
    config: {
      servicedesk: {
        slas: [
          {
            id: 'fast',
            name: 'Fast',
            start: ['created'],
            pause: [],
            stop: ['resolved'],
            goals: [{ minutes: 1, calendar: 'always' }],
          },
        ],
      },
    },
  });
  const issue = (await p.post(t.base, { space: 'DESK', summary: 'Printer on fire', assignee: dev.userId })).body.issue;
  // Timers are the whole table's (other files' too): this issue's is looked at, not the count moved.
  expect(await timersOf(issue.issueId)).toBe(1);
  await moveDueTimers(issue.createdAt + 30_000);
  expect(await timersOf(issue.issueId)).toBe(1);
  await moveDueTimers(issue.createdAt + 61_000);
  expect(await timersOf(issue.issueId)).toBe(0);
  const breached = await until(async () => (await noticesOf(dev, 'issue.sla_breached'))[0]);
  expect(JSON.stringify(breached)).toContain('Fast');
  // The timer is gone once moved; a second pass raises nothing more.
  await moveDueTimers(issue.createdAt + 120_000);
  await p.get(t.issue(issue.key));
  expect((await noticesOf(dev, 'issue.sla_breached')).length).toBe(1);
});
