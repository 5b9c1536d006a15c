import { PRECONDITION_FAILED } from '../../shared/kernel/http/middleware/preconditions';
import { TestPlatform } from '../helpers/platform';
import { createProject } from '../projects/fixtures';

/**
 * Conditional reads (issue 21): a GET answers an ETag that changes when what it shows changes,
 * and `If-None-Match` with it answers 304 without a body.
 */
let p: TestPlatform;
beforeAll(async () => {
  p = await TestPlatform.start();
});
afterAll(() => p.close());

it('a record: ETag, 304 while unchanged, a new ETag after a change', async () => {
  const project = await createProject(p);
  const path = `/v1/orgs/${p.org.orgId}/projects/${project.projectId}`;
  const first = await p.get(path);
  const etag = first.headers.get('etag') as string;
  expect(etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
  const same = await p.get(path, { headers: { 'if-none-match': etag } });
  expect(same.status).toBe(304);
  expect(same.text).toBe('');
  expect(same.headers.get('etag')).toBe(etag);
  expect((await p.get(path, { headers: { 'if-none-match': `W/${etag}, "other"` } })).status).toBe(304);
  expect((await p.get(path, { headers: { 'if-none-match': '*' } })).status).toBe(304);
  expect((await p.patch(path, { name: 'Renamed' })).status).toBe(200);
  const changed = await p.get(path, { headers: { 'if-none-match': etag } });
  expect(changed.status).toBe(200);
  expect(changed.body.project.name).toBe('Renamed');
  expect(changed.headers.get('etag')).not.toBe(etag);
});

it('lists too; errors and writes carry none', async () => {
  const list = await p.get(`/v1/orgs/${p.org.orgId}/projects`);
  const etag = list.headers.get('etag') as string;
  expect(etag).toBeTruthy();
  expect((await p.get(`/v1/orgs/${p.org.orgId}/projects`, { headers: { 'if-none-match': etag } })).status).toBe(304);
  expect((await p.get(`/v1/orgs/${p.org.orgId}/projects/prj_nothing`)).headers.get('etag')).toBeNull();
  const made = await p.post(`/v1/orgs/${p.org.orgId}/projects`, { name: 'E', slug: `e-${Date.now().toString(36)}` });
  expect(made.headers.get('etag')).toBeNull();
});

it('If-Match on a write: the current ETag passes, a stale one is 412 and nothing changes', async () => {
  const project = await createProject(p);
  const path = `/v1/orgs/${p.org.orgId}/projects/${project.projectId}`;
  const etag = (await p.get(path)).headers.get('etag') as string;
  const first = await p.patch(path, { name: 'First' }, { headers: { 'if-match': etag } });
  expect(first.status).toBe(200);
  const stale = await p.patch(path, { name: 'Second' }, { headers: { 'if-match': etag } });
  expect(stale.status).toBe(412);
  expect(stale.body).toEqual({ error: 'The resource changed since that version (If-Match). Reload and try again.' });
  expect((await p.get(path)).body.project.name).toBe('First');
  const now = (await p.get(path)).headers.get('etag') as string;
  expect((await p.patch(path, { name: 'Third' }, { headers: { 'if-match': `"nope", ${now}` } })).status).toBe(200);
  // `*`: the resource must exist.
  const gone = `/v1/orgs/${p.org.orgId}/projects/prj_nothing`;
  expect((await p.patch(gone, { name: 'x' }, { headers: { 'if-match': '*' } })).status).toBe(412);
  expect((await p.patch(path, { name: 'Fourth' }, { headers: { 'if-match': '*' } })).status).toBe(200);
});

/**
 * `If-Match` is atomic with the write (RFC 9110 §13.1.1): of concurrent writes naming the same
 * ETag, exactly one runs and the others answer 412.
 */
describe('concurrent writes with the same ETag: one runs, the others are 412', () => {
  const N = 10;
  const race = async (
    path: string,
    send: (i: number, etag: string) => Promise<{ status: number; body: unknown }>,
    token?: string,
  ) => {
    const etag = (await p.get(path, { token })).headers.get('etag') as string;
    expect(etag).toBeTruthy();
    const answers = await Promise.all(Array.from({ length: N }, (_, i) => send(i, etag)));
    const refused = answers.filter((a) => a.status === 412);
    for (const a of refused) expect(a.body).toEqual({ error: PRECONDITION_FAILED });
    return { statuses: answers.map((a) => a.status).sort(), answers };
  };

  it('a project PATCH', async () => {
    const project = await createProject(p);
    const path = `/v1/orgs/${p.org.orgId}/projects/${project.projectId}`;
    const { statuses, answers } = await race(path, (i, etag) =>
      p.patch(path, { name: `Racer ${i}` }, { headers: { 'if-match': etag } }),
    );
    expect(statuses).toEqual([200, ...Array(N - 1).fill(412)]);
    const winner = answers.find((a) => a.status === 200)?.body as { project: { name: string; version: number } };
    const now = (await p.get(path)).body.project;
    expect([now.name, now.version]).toEqual([winner.project.name, project.version + 1]);
  });

  it("an organization's PATCH", async () => {
    const { org, owner } = await p.newOrg();
    const path = `/v1/orgs/${org.orgId}`;
    const { statuses } = await race(
      path,
      (i, etag) => p.patch(path, { name: `Racer ${i}` }, { token: owner.token, headers: { 'if-match': etag } }),
      owner.token,
    );
    expect(statuses).toEqual([200, ...Array(N - 1).fill(412)]);
  });

  it('a DELETE (a webhook endpoint)', async () => {
    const made = await p.post(`/v1/orgs/${p.org.orgId}/webhooks`, {
      url: 'https://1.1.1.1/race',
      events: ['issue.assigned'],
    });
    expect(made.status).toBe(201);
    const path = `/v1/orgs/${p.org.orgId}/webhooks/${made.body.endpoint.endpointId}`;
    const { statuses } = await race(path, (_, etag) => p.delete(path, { headers: { 'if-match': etag } }));
    expect(statuses).toEqual([204, ...Array(N - 1).fill(412)]);
    expect((await p.get(path)).status).toBe(404);
  });
});
