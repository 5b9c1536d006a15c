import { createKey } from '../../shared/kernel/identity/keys';
import { TestPlatform } from '../helpers/platform';
import { someId } from '../helpers/records';

/** Beyond the spec: the organization's API keys, listed, created (secret once) and revoked. */
let p: TestPlatform;
beforeAll(async () => {
  p = await TestPlatform.start();
});
afterAll(() => p.close());

describe('POST /v1/orgs/:orgId/keys', () => {
  it('creates a key whose secret is answered once and works with its scopes only', async () => {
    const { org, owner } = await p.newOrg();
    const expiresAt = Date.now() + 24 * 3600_000;
    const res = await p.post(
      `/v1/orgs/${org.orgId}/keys`,
      { name: '  CI  ', scopes: ['projects:read', 'projects:read', 'org:read'], expiresAt },
      { token: owner.token },
    );
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      key: {
        keyId: expect.stringMatching(/^key_/),
        kind: 'api',
        name: 'CI',
        scopes: ['projects:read', 'org:read'],
        createdAt: expect.any(Number),
        createdBy: owner.userId,
        expiresAt,
      },
      secret: expect.stringMatching(/^app_api_[A-Za-z0-9_-]{43}$/),
    });
    const { secret, key } = res.body;
    expect((await p.get(`/v1/orgs/${org.orgId}/projects`, { token: secret })).status).toBe(200);
    const refused = await p.get(`/v1/orgs/${org.orgId}/members`, { token: secret });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: 'Missing scope members:read' });

    // Never listed, never in the audit log.
    const listed = await p.get(`/v1/orgs/${org.orgId}/keys`, { token: owner.token });
    expect(listed.status).toBe(200);
    expect(listed.body.keys).toEqual([key]);
    expect(listed.text).not.toContain(secret);
    const audit = await p.get(`/v1/orgs/${org.orgId}/audit`, { token: owner.token });
    expect(audit.status).toBe(200);
    expect(audit.text).toContain(key.keyId);
    expect(audit.text).not.toContain(secret);
    expect(audit.text).not.toContain(secret.slice('app_api_'.length, 20));
  });

  it("refuses a scope the caller doesn't hold with 403 (a key can't make a stronger key)", async () => {
    const key = await p.apiKey(['org:read', 'org:write', 'projects:read']);
    const res = await p.post(
      `/v1/orgs/${p.org.orgId}/keys`,
      { name: 'stronger', scopes: ['projects:read', 'projects:write'] },
      { token: key },
    );
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: "You can't grant projects:write: you don't hold it." });
    const ok = await p.post(
      `/v1/orgs/${p.org.orgId}/keys`,
      { name: 'same', scopes: ['projects:read'] },
      { token: key },
    );
    expect(ok.status).toBe(201);
  });

  it('refuses an expiry in the past with 400', async () => {
    const res = await p.post(`/v1/orgs/${p.org.orgId}/keys`, {
      name: 'old',
      scopes: ['org:read'],
      expiresAt: Date.now() - 1000,
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'expiresAt must be in the future.' });
  });

  it.each([
    [{ name: 'x', scopes: [] }, 'scopes'],
    [{ name: 'x', scopes: ['root:all'] }, 'scopes.0'],
    [{ name: '', scopes: ['org:read'] }, 'name'],
    [{ scopes: ['org:read'] }, 'name'],
    [{ name: 'x', scopes: ['org:read'], expiresAt: 'soon' }, 'expiresAt'],
  ])('refuses %j with 400 naming %s', async (body, path) => {
    const res = await p.post(`/v1/orgs/${p.org.orgId}/keys`, body);
    expect(res.status).toBe(400);
    expect(res.body.issues).toEqual(expect.arrayContaining([expect.objectContaining({ path })]));
  });

  it('is refused to a developer with 403 Missing scope org:write', async () => {
    const dev = await p.person('developer');
    const res = await p.post(`/v1/orgs/${p.org.orgId}/keys`, { name: 'x', scopes: ['org:read'] }, { token: dev.token });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: 'Missing scope org:write' });
  });

  it("answers 404 Organization not found for another tenant's organization", async () => {
    const other = await p.newOrg();
    const res = await p.post(`/v1/orgs/${other.org.orgId}/keys`, { name: 'x', scopes: ['org:read'] });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Organization not found' });
  });
});

describe('GET /v1/orgs/:orgId/keys', () => {
  it('lists API keys newest first, without secrets or hashes, and not agent devices', async () => {
    const { org, owner } = await p.newOrg();
    const a = await p.post(`/v1/orgs/${org.orgId}/keys`, { name: 'a', scopes: ['org:read'] }, { token: owner.token });
    const b = await p.post(`/v1/orgs/${org.orgId}/keys`, { name: 'b', scopes: ['org:read'] }, { token: owner.token });
    // An agent device's token is the device's: managed with the agents, not listed here.
    await createKey({ orgId: org.orgId, kind: 'device', scopes: [], name: 'device', deviceId: 'dev_x' });
    const res = await p.get(`/v1/orgs/${org.orgId}/keys`, { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.body.keys.map((k: { name: string }) => k.name)).toEqual(['b', 'a']);
    expect(res.text).not.toContain('hash');
    expect(res.text).not.toContain(a.body.secret);
    expect(res.text).not.toContain(b.body.secret);
  });

  it('is refused to a viewer with 403 Missing scope org:write', async () => {
    const viewer = await p.person('viewer');
    const res = await p.get(`/v1/orgs/${p.org.orgId}/keys`, { token: viewer.token });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: 'Missing scope org:write' });
  });

  it("answers 404 Organization not found for another tenant's organization", async () => {
    const other = await p.newOrg();
    const res = await p.get(`/v1/orgs/${other.org.orgId}/keys`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Organization not found' });
  });
});

describe('DELETE /v1/orgs/:orgId/keys/:keyId', () => {
  it('revokes a key: it stops working at once and leaves the list', async () => {
    const made = await p.post(`/v1/orgs/${p.org.orgId}/keys`, { name: 'gone', scopes: ['org:read'] });
    const { key, secret } = made.body;
    expect((await p.get(`/v1/orgs/${p.org.orgId}`, { token: secret })).status).toBe(200);
    const res = await p.delete(`/v1/orgs/${p.org.orgId}/keys/${key.keyId}`);
    expect(res.status).toBe(204);
    const after = await p.get(`/v1/orgs/${p.org.orgId}`, { token: secret });
    expect(after.status).toBe(401);
    const listed = await p.get(`/v1/orgs/${p.org.orgId}/keys`);
    expect(listed.body.keys.map((k: { keyId: string }) => k.keyId)).not.toContain(key.keyId);
    const again = await p.delete(`/v1/orgs/${p.org.orgId}/keys/${key.keyId}`);
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ error: 'Key not found' });
  });

  it("answers 404 Key not found for another organization's key", async () => {
    const other = await p.newOrg();
    const made = await p.post(
      `/v1/orgs/${other.org.orgId}/keys`,
      { name: 'theirs', scopes: ['org:read'] },
      { token: other.owner.token },
    );
    const res = await p.delete(`/v1/orgs/${p.org.orgId}/keys/${made.body.key.keyId}`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Key not found' });
    expect((await p.get(`/v1/orgs/${other.org.orgId}`, { token: made.body.secret })).status).toBe(200);
  });

  it("answers 404 Organization not found for another tenant's organization", async () => {
    const other = await p.newOrg();
    const res = await p.delete(`/v1/orgs/${other.org.orgId}/keys/${someId('key_')}`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Organization not found' });
  });
});
