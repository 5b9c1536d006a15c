import type { SQSEvent } from 'aws-lambda';
import { handler } from '../../functions/workers/domain-checks';
import { getDomainRecord } from '../../shared/domains/custom-domains/records';
import { queuedIn } from '../helpers/sqs';
import { createProject } from '../projects/fixtures';
import { type DomainsWorld, startWorld, unique } from './helpers';

/**
 * The domain-checks worker handed the same message twice (SQS delivers at least once), with no
 * worker reading its queue: the domain is checked once and one next check is queued.
 */
let w: DomainsWorld;
beforeAll(async () => {
  w = await startWorld([]);
});
afterAll(async () => {
  await w.close();
});

it('a check message handed twice checks the domain once and queues one next check', async () => {
  const hostname = `twice.${unique('z')}.test`;
  const { projectId } = await createProject(w.p);
  expect((await w.p.post(`/v1/orgs/${w.p.org.orgId}/domains`, { hostname, projectId })).status).toBe(201);
  const added = await getDomainRecord(w.p.org.orgId, hostname, true);
  expect(added).toMatchObject({ status: 'pending', nextCheckAt: expect.any(Number) });
  const before = await queuedIn('domain-checks');
  const message = {
    Records: [
      {
        messageId: `check-${hostname}`,
        body: JSON.stringify({ orgId: w.p.org.orgId, hostname, due: added?.nextCheckAt }),
      },
    ],
  } as unknown as SQSEvent;
  expect(await handler(message)).toEqual({ batchItemFailures: [] });
  const checked = await getDomainRecord(w.p.org.orgId, hostname, true);
  expect(checked?.checkedAt).toEqual(expect.any(Number));
  expect(checked?.nextCheckAt).not.toBe(added?.nextCheckAt);
  expect(await handler(message)).toEqual({ batchItemFailures: [] });
  expect(await getDomainRecord(w.p.org.orgId, hostname, true)).toEqual(checked);
  expect(await queuedIn('domain-checks')).toBe(before + 1);
});
