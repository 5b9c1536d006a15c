import { statOf } from '../../shared/kernel/audit/stats';
import { createKey } from '../../shared/kernel/identity/keys';
import type { Person } from '../helpers/platform';
import { TestPlatform } from '../helpers/platform';
import { platformOrg } from './helpers';

/** The platform's insight routes: operators only; the whole platform's traffic, audit and totals. */
let p: TestPlatform;
let operator: Person;
let agentKey: string;
let platformId: string;

beforeAll(async () => {
  p = await TestPlatform.start();
  const platform = await platformOrg();
  platformId = platform.orgId;
  operator = await p.person('admin', platform.orgId);
  agentKey = (await createKey({ orgId: platform.orgId, kind: 'agent', scopes: ['org:read'], name: 'ops' })).secret;
});
afterAll(() => p.close());

const ROUTES = ['/v1/platform/analytics', '/v1/platform/audit', '/v1/platform/stats'];

test.each(ROUTES)(
  '%s: a customer owner and a platform developer get 403; an operator and its agent key 200',
  async (path) => {
    const refused = await p.get(path);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: 'Only platform operators can do this.' });
    const developer = await p.person('developer', platformId);
    expect((await p.get(path, { token: developer.token })).status).toBe(403);
    expect((await p.get(path, { token: operator.token })).status).toBe(200);
    expect((await p.get(path, { token: agentKey })).status).toBe(200);
  },
);

test('the platform audit holds every organization’s entries, by day, and narrows to one with orgId', async () => {
  const target = `pg_platform${Date.now()}`;
  const since = Date.now() - 1;
  expect((await p.delete(`/v1/orgs/${p.org.orgId}/favorites/${target}`)).status).toBe(404);
  const all = await p.get(`/v1/platform/audit?from=${since}&target=${target}`, { token: operator.token });
  expect(all.status).toBe(200);
  expect(all.body.entries).toHaveLength(1);
  expect(all.body.entries[0]).toMatchObject({ orgId: p.org.orgId, action: 'favorites.delete', status: 404 });
  const mine = await p.get(`/v1/platform/audit?orgId=${p.org.orgId}&target=${target}`, { token: operator.token });
  expect(mine.body.entries).toHaveLength(1);
  const other = await p.get(`/v1/platform/audit?orgId=org_none&target=${target}`, { token: operator.token });
  expect(other.body.entries).toHaveLength(0);
  // The operators' own refused attempts are the platform's entries.
  const pages = await p.get(`/v1/platform/audit?orgId=${platformId}&limit=1`, { token: operator.token });
  expect(pages.status).toBe(200);
  expect(pages.body.entries.length).toBeLessThanOrEqual(1);
  const reversed = await p.get(`/v1/platform/audit?from=${since}&to=${since - 1}`, { token: operator.token });
  expect(reversed.status).toBe(400);
  expect(reversed.body).toEqual({ error: '`from` is after `to`.' });
});

test('paging the platform audit by day goes on from its cursor', async () => {
  const since = Date.now() - 1;
  const targets = [0, 1, 2].map((i) => `pg_paged${Date.now()}x${i}`);
  for (const t of targets) expect((await p.delete(`/v1/orgs/${p.org.orgId}/favorites/${t}`)).status).toBe(404);
  const seen: string[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < 50 && seen.length < 3; i++) {
    const q: string = `/v1/platform/audit?from=${since}&action=favorites.delete&limit=1${cursor ? `&cursor=${cursor}` : ''}`;
    const res = await p.get(q, { token: operator.token });
    expect(res.status).toBe(200);
    for (const e of res.body.entries) if (targets.includes(e.target.pageId)) seen.push(e.target.pageId);
    cursor = res.body.cursor;
    if (!cursor) break;
  }
  expect(seen).toEqual([...targets].reverse());
});

test('platform analytics: the same series, platform-wide or for one organization; ranges checked', async () => {
  const res = await p.get('/v1/platform/analytics?interval=day', { token: operator.token });
  expect(res.status).toBe(200);
  expect(res.body).toMatchObject({ orgId: null, interval: 'day', projectId: null });
  expect(res.body.series.length).toBeGreaterThanOrEqual(30);
  const one = await p.get(`/v1/platform/analytics?orgId=${p.org.orgId}`, { token: operator.token });
  expect(one.body.orgId).toBe(p.org.orgId);
  const long = await p.get(`/v1/platform/analytics?from=2026-01-01&to=2026-06-01`, { token: operator.token });
  expect(long.status).toBe(400);
  expect(long.body).toEqual({ error: 'The range from `from` to `to` is at most 90 days.' });
});

test('stats: totals by kind, moved by successful creates and deletes', async () => {
  const since = Date.now();
  for (let i = 0; i < 3; i++) {
    expect((await p.post(`/v1/orgs/${p.org.orgId}/pages`, { title: `Counted ${i}` })).status).toBe(201);
  }
  const res = await p.get('/v1/platform/stats', { token: operator.token });
  expect(res.status).toBe(200);
  // Pages this file made and never deleted: whatever else runs, the total holds them.
  expect(res.body.totals.pages).toBeGreaterThanOrEqual(3);
  expect(res.body.totals.organizations).toBeGreaterThanOrEqual(2);
  expect(Object.keys(res.body.totals)).toEqual(
    expect.arrayContaining([
      'organizations',
      'projects',
      'deployments',
      'repositories',
      'databases',
      'buckets',
      'mailboxes',
    ]),
  );
  expect(res.body.updatedAt).toBeGreaterThanOrEqual(since);
});

test('which writes move which total', () => {
  expect(statOf('projects.create', 201, {}, {})).toEqual({ kind: 'projects', delta: 1 });
  expect(statOf('projects.create', 400, {}, {})).toBeUndefined();
  expect(statOf('projects.delete', 204, { projectId: 'p' }, undefined)).toEqual({ kind: 'projects', delta: -1 });
  expect(statOf('resources.create', 201, {}, { type: 'bucket' })).toEqual({ kind: 'buckets', delta: 1 });
  expect(statOf('resources.delete', 204, { type: 'database', resourceId: 'r' }, undefined)).toEqual({
    kind: 'databases',
    delta: -1,
  });
  expect(statOf('resources.create', 201, {}, { type: 'unknown' })).toBeUndefined();
  expect(statOf('mail.admin.mailboxes.delete', 204, {}, undefined)).toEqual({ kind: 'mailboxes', delta: -1 });
  expect(statOf('pages.update', 200, {}, {})).toBeUndefined();
});
