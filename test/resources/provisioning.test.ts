import { putLocation, putRegion } from '../../shared/domains/platform-admin/geo';
import { TestPlatform } from '../helpers/platform';

let p: TestPlatform;
beforeAll(async () => {
  p = await TestPlatform.start();
  // A location of the registry whose region no AWS client accepts, so provisioning there fails
  // for real (no mock). Written as the platform's operators would (PUT /v1/platform/…).
  await putRegion('not_a_region', { name: 'Nowhere' });
  await putLocation('void', { name: 'Nowhere', region: 'not_a_region' });
});
afterAll(() => p.close());

describe('POST /v1/orgs/:orgId/resources when the backend refuses', () => {
  it('answers 502 Provisioning failed., keeps the record in error with the cause, and lets it be deleted', async () => {
    const base = `/v1/orgs/${p.org.orgId}/resources`;
    const res = await p.post(base, { type: 'database', name: 'doomed', location: 'void' });
    expect(res.status).toBe(502);
    expect(res.body).toEqual({ error: 'Provisioning failed.' });

    const list = await p.get(`${base}?type=database`);
    const record = list.body.resources.find((r: { name: string }) => r.name === 'doomed');
    expect(record).toMatchObject({ status: 'error', location: 'void', region: 'not_a_region' });
    expect(record.error).toEqual(expect.stringContaining('Region'));

    // The name stays taken until the failed database is deleted.
    const again = await p.post(base, { type: 'database', name: 'doomed' });
    expect(again.status).toBe(409);
    expect((await p.delete(`${base}/database/${record.resourceId}`)).status).toBe(204);
    expect((await p.post(base, { type: 'database', name: 'doomed' })).status).toBe(201);
  });
});
