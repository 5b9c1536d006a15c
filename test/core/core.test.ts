import { TestPlatform } from '../helpers/platform';

let p: TestPlatform;
beforeAll(async () => {
  p = await TestPlatform.start();
});
afterAll(() => p.close());

describe('GET /health', () => {
  it('answers without a token', async () => {
    const res = await p.get('/health', { token: null });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, time: expect.any(Number) });
  });
});

describe('GET /v1/me', () => {
  it('describes a person with their organizations, roles and scopes', async () => {
    const other = await p.newOrg();
    const res = await p.get('/v1/me');
    expect(res.status).toBe(200);
    expect(res.body.me).toMatchObject({
      kind: 'user',
      userId: p.owner.userId,
      email: p.owner.email,
      name: 'Test owner',
    });
    expect(res.body.me.orgs).toEqual([
      expect.objectContaining({
        orgId: p.org.orgId,
        slug: p.org.slug,
        kind: 'customer',
        role: 'owner',
        scopes: expect.arrayContaining(['org:write']),
      }),
    ]);
    expect(res.body.me.orgs.map((o: { orgId: string }) => o.orgId)).not.toContain(other.org.orgId);
  });

  it('lists every organization of the same person (same email, same user)', async () => {
    const viewer = await p.person('viewer');
    const other = await p.newOrg();
    const { addMember } = await import('../../shared/kernel/identity/orgs');
    await addMember(other.org.orgId, viewer.email, 'developer');
    const res = await p.get('/v1/me', { token: viewer.token });
    const roles = Object.fromEntries(res.body.me.orgs.map((o: { orgId: string; role: string }) => [o.orgId, o.role]));
    expect(roles).toEqual({ [p.org.orgId]: 'viewer', [other.org.orgId]: 'developer' });
    const viewerOrg = res.body.me.orgs.find((o: { orgId: string }) => o.orgId === p.org.orgId);
    expect(viewerOrg.scopes).not.toContain('env:read');
    expect(viewerOrg.scopes).toContain('projects:read');
  });

  it('reads email and name from the user record when the token carries none', async () => {
    const bare = await p.sign({ sub: p.owner.userId });
    const res = await p.get('/v1/me', { token: bare });
    expect(res.status).toBe(200);
    expect(res.body.me).toMatchObject({ userId: p.owner.userId, email: p.owner.email, name: 'Test owner' });
  });

  it('describes an API key with its own organization and scopes', async () => {
    const key = await p.apiKey(['org:read', 'projects:read']);
    const res = await p.get('/v1/me', { token: key });
    expect(res.status).toBe(200);
    expect(res.body.me).toMatchObject({
      kind: 'api_key',
      keyId: expect.stringMatching(/^key_/),
      scopes: ['org:read', 'projects:read'],
    });
    expect(res.body.me.orgs).toEqual([expect.objectContaining({ orgId: p.org.orgId, role: null })]);
  });

  it('refuses a missing token with 401 Unauthorized', async () => {
    const res = await p.get('/v1/me', { token: null });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'Unauthorized' });
  });
});

describe('GET /v1/locations', () => {
  it('lists the configured locations with the default marked', async () => {
    const res = await p.get('/v1/locations');
    expect(res.status).toBe(200);
    expect(res.body.default).toBe('fra');
    expect(res.body.locations).toContainEqual({ id: 'fra', name: 'Frankfurt', region: 'eu-central-1', default: true });
    expect(res.body.locations.filter((l: { default: boolean }) => l.default)).toHaveLength(1);
  });
});

describe('the stack around every route', () => {
  it('answers an unknown path with 404 Not found', async () => {
    const res = await p.get('/v1/nothing-here');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Not found' });
  });

  it('answers a known path with another method with 405 and Allow', async () => {
    const res = await p.call('POST', '/v1/me', { body: {} });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET');
  });

  it('answers malformed JSON with 400', async () => {
    const res = await p.call('PATCH', `/v1/orgs/${p.org.orgId}`, { rawBody: '{"name": ' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'The request body is not valid JSON.' });
  });
});
