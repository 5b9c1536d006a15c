import { keys } from '../../shared/kernel/store/table';
import { TestPlatform } from '../helpers/platform';
import { putRecord, someId } from '../helpers/records';

let p: TestPlatform;
beforeAll(async () => {
  p = await TestPlatform.start();
});
afterAll(() => p.close());

describe('GET /v1/orgs/:orgId', () => {
  it('answers the organization', async () => {
    const res = await p.get(`/v1/orgs/${p.org.orgId}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      org: {
        orgId: p.org.orgId,
        slug: p.org.slug,
        name: 'Test organization',
        kind: 'customer',
        createdAt: expect.any(Number),
        version: 1,
      },
    });
  });

  it('answers 404 Organization not found for an unknown organization', async () => {
    const res = await p.get(`/v1/orgs/${someId('org_')}`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Organization not found' });
  });

  it("answers another tenant's organization exactly like one that does not exist", async () => {
    const other = await p.newOrg();
    const res = await p.get(`/v1/orgs/${other.org.orgId}`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Organization not found' });
  });
});

describe('PATCH /v1/orgs/:orgId', () => {
  it('renames the organization, trimmed, and keeps the slug', async () => {
    const { org } = await p.newOrg();
    const owner = await p.person('owner', org.orgId);
    const res = await p.patch(`/v1/orgs/${org.orgId}`, { name: '  Renamed Inc  ' }, { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.body.org).toMatchObject({ orgId: org.orgId, slug: org.slug, name: 'Renamed Inc', version: 2 });
    expect(res.body.org.updatedAt).toEqual(expect.any(Number));
    const again = await p.get(`/v1/orgs/${org.orgId}`, { token: owner.token });
    expect(again.body.org.name).toBe('Renamed Inc');
  });

  it.each([
    [{ name: '' }, 'name'],
    [{ name: '   ' }, 'name'],
    [{ name: 'x'.repeat(65) }, 'name'],
    [{}, 'name'],
    [{ name: 42 }, 'name'],
  ])('refuses %j with 400 Invalid request naming %s', async (body, path) => {
    const res = await p.patch(`/v1/orgs/${p.org.orgId}`, body);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('Invalid request');
    expect(res.body.issues).toEqual(
      expect.arrayContaining([expect.objectContaining({ path, message: expect.any(String) })]),
    );
  });

  it('refuses a stale ifVersion with 409', async () => {
    const { org, owner } = await p.newOrg();
    const first = await p.patch(`/v1/orgs/${org.orgId}`, { name: 'One', ifVersion: 1 }, { token: owner.token });
    expect(first.status).toBe(200);
    const stale = await p.patch(`/v1/orgs/${org.orgId}`, { name: 'Two', ifVersion: 1 }, { token: owner.token });
    expect(stale.status).toBe(409);
    expect(stale.body).toEqual({ error: 'The organization changed since it was read. Reload and try again.' });
  });

  it('answers 404 Organization not found for an unknown organization', async () => {
    const res = await p.patch(`/v1/orgs/${someId('org_')}`, { name: 'X' });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Organization not found' });
  });

  it('is refused to a developer with 403 Missing scope org:write', async () => {
    const dev = await p.person('developer');
    const res = await p.patch(`/v1/orgs/${p.org.orgId}`, { name: 'Nope' }, { token: dev.token });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: 'Missing scope org:write' });
  });
});

describe('GET /v1/orgs/:orgId/contents', () => {
  it('counts what must be removed before deletion', async () => {
    const { org, owner } = await p.newOrg();
    const empty = await p.get(`/v1/orgs/${org.orgId}/contents`, { token: owner.token });
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({
      contents: { projects: 0, repositories: 0, databases: 0, buckets: 0, connectors: 0, agents: 0, docs: 0 },
    });
    await putRecord(org.orgId, `PRJ#${someId('prj_')}`);
    await putRecord(org.orgId, `PRJ#${someId('prj_')}`);
    await putRecord(org.orgId, `RES#bucket#${someId('res_')}`);
    // Agents are device records (shared/domains/agents/devices.ts); a revoked one's record stays.
    await putRecord(org.orgId, `DEVICE#${someId('dev_')}`, { status: 'active' });
    await putRecord(org.orgId, `DEVICE#${someId('dev_')}`, { status: 'revoked' });
    const res = await p.get(`/v1/orgs/${org.orgId}/contents`, { token: owner.token });
    expect(res.body.contents).toEqual({
      projects: 2,
      repositories: 0,
      databases: 0,
      buckets: 1,
      connectors: 0,
      agents: 1,
      docs: 0,
    });
  });

  it('answers 404 Organization not found for an unknown organization', async () => {
    const res = await p.get(`/v1/orgs/${someId('org_')}/contents`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Organization not found' });
  });
});

describe('DELETE /v1/orgs/:orgId', () => {
  it('deletes an empty customer organization with its members, teams, invites and keys', async () => {
    const { org, owner } = await p.newOrg();
    const key = await p.apiKey(['org:read'], org.orgId);
    const dev = await p.person('developer', org.orgId);
    await putRecord(org.orgId, `TEAM#${someId('team_')}`, { teamId: 't', slug: 't', name: 'T', members: 1 });
    await putRecord(org.orgId, `INVITE#${someId('inv_')}`, {
      inviteId: 'i',
      email: 'a@b.c',
      role: 'viewer',
      expiresAt: Date.now() + 1e6,
    });
    expect((await p.get(`/v1/orgs/${org.orgId}`, { token: key })).status).toBe(200);

    const res = await p.delete(`/v1/orgs/${org.orgId}`, { token: owner.token });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');

    expect((await p.get(`/v1/orgs/${org.orgId}`, { token: owner.token })).status).toBe(404);
    // The key went with it.
    expect((await p.get(`/v1/orgs/${org.orgId}`, { token: key })).status).toBe(401);
    const me = await p.get('/v1/me', { token: dev.token });
    expect(me.body.me.orgs).toEqual([]);
    const { getItem, keys } = await import('../../shared/kernel/store/table');
    expect(await getItem(keys.orgSlug(org.slug))).toBeUndefined();
  });

  it('refuses with 409 naming what remains, and leaves the organization usable', async () => {
    const { org, owner } = await p.newOrg();
    await putRecord(org.orgId, `PRJ#${someId('prj_')}`);
    await putRecord(org.orgId, `RES#database#${someId('res_')}`);
    await putRecord(org.orgId, `RES#database#${someId('res_')}`);
    await putRecord(org.orgId, `PAGE#${someId('pg_')}`);
    const res = await p.delete(`/v1/orgs/${org.orgId}`, { token: owner.token });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: 'Remove its 1 project, 2 databases and 1 doc first.' });
    const after = await p.get(`/v1/orgs/${org.orgId}`, { token: owner.token });
    expect(after.status).toBe(200);
    // The deletion mark was lifted: a rename still works.
    expect((await p.patch(`/v1/orgs/${org.orgId}`, { name: 'Still here' }, { token: owner.token })).status).toBe(200);
  });

  it('counts active agents (devices under their own prefix), not revoked ones', async () => {
    const { org, owner } = await p.newOrg();
    const device = (status: string) => ({ deviceId: someId('dev_'), orgId: org.orgId, status, name: 'laptop' });
    const revoked = device('revoked');
    await putRecord(org.orgId, `DEVICE#${revoked.deviceId}`, revoked);
    const active = device('active');
    await putRecord(org.orgId, `DEVICE#${active.deviceId}`, active);
    const res = await p.delete(`/v1/orgs/${org.orgId}`, { token: owner.token });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: 'Remove its 1 active agent first.' });
    await putRecord(org.orgId, `DEVICE#${active.deviceId}`, { ...active, status: 'revoked' });
    expect((await p.delete(`/v1/orgs/${org.orgId}`, { token: owner.token })).status).toBe(204);
  });

  it('is for owners only: an admin gets 403', async () => {
    const { org } = await p.newOrg();
    const admin = await p.person('admin', org.orgId);
    const res = await p.delete(`/v1/orgs/${org.orgId}`, { token: admin.token });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: 'Only owners can delete an organization.' });
  });

  it('is refused to an API key, which is no owner', async () => {
    const { org } = await p.newOrg();
    const key = await p.apiKey(['org:write'], org.orgId);
    const res = await p.delete(`/v1/orgs/${org.orgId}`, { token: key });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: 'Only owners can delete an organization.' });
  });

  it('refuses the platform organization with 400', async () => {
    const { org, owner } = await p.newOrg('platform');
    const res = await p.delete(`/v1/orgs/${org.orgId}`, { token: owner.token });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: "The platform organization can't be deleted." });
  });

  it('answers 404 Organization not found for an unknown organization', async () => {
    const res = await p.delete(`/v1/orgs/${someId('org_')}`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Organization not found' });
  });
});

describe('GET /v1/orgs/:orgId/members', () => {
  let org: string;
  let owner: string;
  beforeAll(async () => {
    const o = await p.newOrg();
    org = o.org.orgId;
    owner = o.owner.token;
    await putRecord(org, keys.team(org, 'team_1').sk, {
      teamId: 'team_1',
      slug: 'web',
      name: 'Web',
      description: 'Front end',
      members: 3,
    });
    await putRecord(org, keys.invite(org, 'inv_1').sk, {
      inviteId: 'inv_1',
      email: 'new@example.com',
      role: 'developer',
      expiresAt: Date.now() + 86_400_000,
      createdAt: Date.now(),
    });
    await putRecord(org, keys.invite(org, 'inv_0').sk, {
      inviteId: 'inv_0',
      email: 'old@example.com',
      role: 'viewer',
      expiresAt: Date.now() - 1000,
    });
  });

  it('lists members, teams and pending invites for a caller with members:write', async () => {
    const res = await p.get(`/v1/orgs/${org}/members`, { token: owner });
    expect(res.status).toBe(200);
    expect(res.body.members).toEqual([
      {
        userId: expect.stringMatching(/^usr_/),
        role: 'owner',
        email: expect.stringContaining('@example.com'),
        name: 'Test owner',
        joinedAt: expect.any(Number),
      },
    ]);
    expect(res.body.teams).toEqual([
      { teamId: 'team_1', slug: 'web', name: 'Web', description: 'Front end', members: 3 },
    ]);
    expect(res.body.invites).toEqual([
      {
        inviteId: 'inv_1',
        email: 'new@example.com',
        role: 'developer',
        expiresAt: expect.any(Number),
        createdAt: expect.any(Number),
      },
    ]);
  });

  it('leaves invites out for a caller without members:write', async () => {
    const viewer = await p.person('viewer', org);
    const res = await p.get(`/v1/orgs/${org}/members`, { token: viewer.token });
    expect(res.status).toBe(200);
    expect(res.body).not.toHaveProperty('invites');
    expect(res.body.members).toHaveLength(2);
  });

  it('answers 404 Organization not found for an unknown organization', async () => {
    const res = await p.get(`/v1/orgs/${someId('org_')}/members`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Organization not found' });
  });
});
