import { handler } from '../../functions/workers/domain-checks';
import { getDomainRecord } from '../../shared/domains/custom-domains/records';
import { setLocalRecord } from '../../shared/ports/dns/local';
import { createProject } from '../projects/fixtures';
import { type DomainsWorld, startWorld, unique, until } from './helpers';

/**
 * The domain-checks worker through its queue (lib/workers.ts): a domain added pending is checked
 * again by itself (the wait shortened to a second here, 5 minutes otherwise), and once its
 * records show it becomes active with no request, raising domain.verified.
 */
let w: DomainsWorld;
beforeAll(async () => {
  process.env.DOMAIN_CHECK_DELAY_SECONDS = '1';
  w = await startWorld();
});
afterAll(async () => {
  await w.close();
  delete process.env.DOMAIN_CHECK_DELAY_SECONDS;
});

it('re-checks a pending domain by itself until its records show, then raises domain.verified', async () => {
  const hostname = `auto.${unique('z')}.test`;
  const { projectId } = await createProject(w.p);
  expect((await w.p.post(`/v1/orgs/${w.p.org.orgId}/domains`, { hostname, projectId })).status).toBe(201);
  // Checked without a request: still pending, the next check planned.
  const checked = await until(async () => {
    const d = await getDomainRecord(w.p.org.orgId, hostname, true);
    return d?.checkedAt ? d : undefined;
  });
  expect(checked.status).toBe('pending');
  expect(checked.message).toContain('the TXT record');
  expect(checked.nextCheckAt).toBeGreaterThan(checked.checkedAt as number);

  await setLocalRecord(hostname, { name: hostname, type: 'CNAME', value: 'cname.localhost' });
  await setLocalRecord(hostname, {
    name: `_platform-verify.${hostname}`,
    type: 'TXT',
    value: `platform-verify=${checked.token}`,
  });
  const active = await until(async () => {
    const d = await getDomainRecord(w.p.org.orgId, hostname, true);
    return d?.status === 'active' ? d : undefined;
  });
  expect(active.nextCheckAt).toBeUndefined();
  const notice = await until(async () => {
    const res = await w.p.get('/v1/me/notifications');
    return res.body.notices?.find((n: { event: string }) => n.event === 'domain.verified');
  });
  expect(notice.title).toBe(`${hostname} is verified`);
});

// A malformed message is not the worker's to drop: the workers' table's schema refuses it before
// the handler runs, and it is reported failed, so the queue's redrive takes it to the dead letters.
it('reports a message that names no domain as failed (to the dead letters), running nothing', async () => {
  const res = await handler({
    Records: [
      { messageId: 'm1', body: '{"orgId":1}' },
      { messageId: 'm2', body: 'not json' },
    ],
  } as never);
  expect(res).toEqual({ batchItemFailures: [{ itemIdentifier: 'm1' }, { itemIdentifier: 'm2' }] });
});
