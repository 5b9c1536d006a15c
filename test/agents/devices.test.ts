import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '../../shared/kernel/store/client';
import { TABLE } from '../../shared/kernel/store/table';
import { type Person, TestPlatform } from '../helpers/platform';
import { forgetLastPoll, loggedInDevice as login, loginKey } from './helpers';

const loggedInDevice = (by?: Person, name?: string) => login(p, by, name);

/**
 * Agent devices: the device login (RFC 8628) from start to token, answered by a person of the
 * organization; devices listed, changed (new capabilities and full network access by the owner
 * only) and revoked (the token stops at once); network requests filed by the device and decided.
 */
let p: TestPlatform;
let admin: Person;
let viewer: Person;
const agents = () => `/v1/orgs/${p.org.orgId}/agents`;

beforeAll(async () => {
  p = await TestPlatform.start();
  admin = await p.person('admin');
  viewer = await p.person('viewer');
});
afterAll(() => p.close());

describe('device login', () => {
  it('pending, slow down, approved by a person, the token once; the device is the approver’s', async () => {
    const start = await p.post('/v1/agent/login', { name: 'build box' }, { token: null });
    expect(start.status).toBe(200);
    expect(start.body).toEqual({
      deviceCode: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      userCode: expect.stringMatching(/^[B-DF-HJ-NP-TV-XZ]{4}-[B-DF-HJ-NP-TV-XZ]{4}$/),
      verificationUri: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/device$/),
      verificationUriComplete: expect.stringContaining(`?code=${start.body.userCode}`),
      interval: 5,
      expiresIn: 900,
    });
    const ask = () => p.post('/v1/agent/login/token', { deviceCode: start.body.deviceCode }, { token: null });
    expect((await ask()).body).toEqual({ error: 'authorization_pending' });
    expect((await ask()).body).toEqual({ error: 'slow_down' });
    // A key can't answer; a viewer has no agents:write; the owner-to-be types the code loosely.
    const byKey = await p.post(`${agents()}/login`, { userCode: start.body.userCode }, { token: await p.apiKey() });
    expect(byKey.status).toBe(403);
    expect(byKey.body).toEqual({ error: 'Only people can approve a device.' });
    expect((await p.post(`${agents()}/login`, { userCode: start.body.userCode }, { token: viewer.token })).status).toBe(
      403,
    );
    const typed = start.body.userCode.toLowerCase().replace('-', ' ');
    expect((await p.post(`${agents()}/login`, { userCode: typed }, { token: admin.token })).body).toEqual({ ok: true });
    const again = await p.post(`${agents()}/login`, { userCode: start.body.userCode }, { token: admin.token });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ error: 'That code was already used.' });
    await forgetLastPoll(start.body.deviceCode);
    const issued = await ask();
    expect(issued.status).toBe(200);
    expect(issued.body).toEqual({
      token: expect.stringMatching(/^app_dev_/),
      deviceId: expect.stringMatching(/^dev_/),
      orgId: p.org.orgId,
    });
    expect((await ask()).body).toEqual({ error: 'expired_token' });
    const listed = await p.get(agents());
    expect(listed.body.devices).toContainEqual({
      deviceId: issued.body.deviceId,
      orgId: p.org.orgId,
      userId: admin.userId,
      name: 'build box',
      ownerName: 'Test admin',
      status: 'active',
      capabilities: ['http'],
      networkMode: 'allowlist',
      hosts: [],
      createdAt: expect.any(Number),
      updatedAt: expect.any(Number),
    });
  });

  it('denied is access_denied; unknown codes are 404 and expired_token; a token is for device routes only', async () => {
    const start = await p.post('/v1/agent/login', {}, { token: null });
    await p.post(`${agents()}/login`, { userCode: start.body.userCode, approve: false });
    expect(
      (await p.post('/v1/agent/login/token', { deviceCode: start.body.deviceCode }, { token: null })).body,
    ).toEqual({
      error: 'access_denied',
    });
    const unknown = await p.post(`${agents()}/login`, { userCode: 'BBBB-BBBB' });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: 'That code is unknown or expired. Start the login on the device again.' });
    expect((await p.post('/v1/agent/login/token', { deviceCode: 'nope' }, { token: null })).body).toEqual({
      error: 'expired_token',
    });
    expect((await p.post('/v1/agent/login/token', {}, { token: null })).status).toBe(400);
    const device = await loggedInDevice();
    expect((await p.get(agents(), { token: device.token })).status).toBe(401);
    // Fifteen minutes on, a login is over, approved or not.
    const late = await p.post('/v1/agent/login', {}, { token: null });
    await db.send(
      new UpdateCommand({
        TableName: TABLE(),
        Key: loginKey(late.body.deviceCode),
        UpdateExpression: 'SET expiresAt = :past',
        ExpressionAttributeValues: { ':past': Date.now() - 1 },
      }),
    );
    expect((await p.post('/v1/agent/login/token', { deviceCode: late.body.deviceCode }, { token: null })).body).toEqual(
      {
        error: 'expired_token',
      },
    );
  });
});

describe('a login that asks for capabilities', () => {
  it('approving it grants them (http always); the device page names them; an unknown one is 400', async () => {
    const start = await p.post('/v1/agent/login', { name: 'exec box', capabilities: ['exec'] }, { token: null });
    expect(start.status).toBe(200);
    expect((await p.post(`${agents()}/login`, { userCode: start.body.userCode })).body).toEqual({ ok: true });
    await forgetLastPoll(start.body.deviceCode);
    const issued = await p.post('/v1/agent/login/token', { deviceCode: start.body.deviceCode }, { token: null });
    const device = (await p.get(agents())).body.devices.find(
      (d: { deviceId: string }) => d.deviceId === issued.body.deviceId,
    );
    expect(device).toMatchObject({ name: 'exec box', capabilities: ['http', 'exec'], hosts: [] });
    const bad = await p.post('/v1/agent/login', { capabilities: ['root'] }, { token: null });
    expect(bad.status).toBe(400);
  });
});

describe('devices', () => {
  it('the owner adds capabilities and full network access; others may narrow, not widen', async () => {
    const device = await loggedInDevice(admin);
    const path = `${agents()}/devices/${device.deviceId}`;
    const widen = await p.patch(path, { capabilities: ['http', 'exec'] });
    expect(widen.status).toBe(403);
    expect(widen.body).toEqual({ error: "Only the device's owner can add capabilities or allow full network access." });
    expect((await p.patch(path, { networkMode: 'full' })).status).toBe(403);
    expect((await p.patch(path, { name: 'renamed', hosts: ['api.example.com', '*.example.org'] })).body).toEqual({
      ok: true,
    });
    expect(
      (await p.patch(path, { capabilities: ['http', 'exec'], networkMode: 'full' }, { token: admin.token })).status,
    ).toBe(200);
    const shown = (await p.get(agents())).body.devices.find(
      (d: { deviceId: string }) => d.deviceId === device.deviceId,
    );
    expect(shown).toMatchObject({
      name: 'renamed',
      capabilities: ['http', 'exec'],
      networkMode: 'full',
      hosts: ['api.example.com', '*.example.org'],
    });
    for (const body of [
      { hosts: ['localhost'] },
      { hosts: ['UPPER.example.com'] },
      { capabilities: [] },
      { name: '' },
    ]) {
      expect((await p.patch(path, body, { token: admin.token })).status).toBe(400);
    }
    expect((await p.patch(`${agents()}/devices/dev_nope`, { name: 'x' })).body).toEqual({ error: 'Device not found' });
  });

  it('revoking a device stops its token at once', async () => {
    const device = await loggedInDevice();
    const call = () => p.post('/v1/agent/network-requests', { host: 'api.example.com' }, { token: device.token });
    expect((await call()).status).toBe(200);
    expect((await p.delete(`${agents()}/devices/${device.deviceId}`)).status).toBe(204);
    expect((await call()).status).toBe(401);
    const shown = (await p.get(agents())).body.devices.find(
      (d: { deviceId: string }) => d.deviceId === device.deviceId,
    );
    expect(shown.status).toBe('revoked');
    expect((await p.patch(`${agents()}/devices/${device.deviceId}`, { name: 'x' })).status).toBe(404);
    expect((await p.delete(`${agents()}/devices/dev_nope`)).body).toEqual({ error: 'Device not found' });
  });
});

describe('network requests', () => {
  it('one pending request per device and host, refreshed; approve adds the host, anything else denies', async () => {
    const device = await loggedInDevice();
    const file = (host: string, reason?: string) =>
      p.post('/v1/agent/network-requests', { host, reason }, { token: device.token });
    await file('API.Example.com', 'fetch the data');
    await file('api.example.com', 'again');
    await file('cdn.example.net');
    const pending = (await p.get(agents())).body.requests.filter(
      (r: { deviceId: string }) => r.deviceId === device.deviceId,
    );
    expect(pending.map((r: { host: string; reason?: string }) => [r.host, r.reason])).toEqual([
      ['api.example.com', 'again'],
      ['cdn.example.net', undefined],
    ]);
    const lastSeen = (await p.get(agents())).body.devices.find(
      (d: { deviceId: string }) => d.deviceId === device.deviceId,
    ).lastSeenAt;
    expect(lastSeen).toEqual(expect.any(Number));
    expect((await p.post(`${agents()}/requests/${device.deviceId}/api.example.com/approve`)).body).toEqual({
      ok: true,
    });
    expect((await p.post(`${agents()}/requests/${device.deviceId}/cdn.example.net/no`)).body).toEqual({ ok: true });
    const after = await p.get(agents());
    expect(after.body.requests.filter((r: { deviceId: string }) => r.deviceId === device.deviceId)).toEqual([]);
    expect(after.body.devices.find((d: { deviceId: string }) => d.deviceId === device.deviceId).hosts).toEqual([
      'api.example.com',
    ]);
    const missing = await p.post(`${agents()}/requests/${device.deviceId}/other.example.com/approve`);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: 'Request not found' });
    expect((await file('x')).status).toBe(400);
    expect((await p.post('/v1/agent/network-requests', { host: 'api.example.com' })).status).toBe(401);
  });
});

describe('allowed hosts: one rule on every path', () => {
  const badHost = (host: string) =>
    `${host} can't be allowed: a device allows public hostnames of two labels or more, optionally starting with *.`;
  const refused = ['127.0.0.1', '169.254.169.254', '*.10.0.0.1', 'localhost', 'app.localhost', 'printer.local'];
  const deviceHosts = async (deviceId: string) =>
    (await p.get(agents())).body.devices.find((d: { deviceId: string }) => d.deviceId === deviceId).hosts;

  it('PATCH refuses IP literals and names of this machine or a private network', async () => {
    const device = await loggedInDevice();
    const path = `${agents()}/devices/${device.deviceId}`;
    for (const host of [...refused, 'metadata.google.internal']) {
      const res = await p.patch(path, { hosts: ['api.example.com', host] });
      expect([host, res.status, res.body]).toEqual([host, 400, expect.anything()]);
      // One label fails the schema first (Invalid request); the rest say why.
      if (host !== 'localhost') expect(res.body).toEqual({ error: badHost(host) });
    }
    expect(await deviceHosts(device.deviceId)).toEqual([]);
  });

  it('a device files requests for public hostnames only; an older request for another host is never approved', async () => {
    const device = await loggedInDevice();
    for (const host of refused) {
      const res = await p.post('/v1/agent/network-requests', { host }, { token: device.token });
      expect([host, res.status, res.body]).toEqual([host, 400, { error: badHost(host) }]);
    }
    // Requests filed before the rule held (one a line in the table): approve refuses them, deny clears them.
    for (const host of ['169.254.169.254', 'localhost']) {
      await db.send(
        new PutCommand({
          TableName: TABLE(),
          Item: {
            pk: `ORG#${p.org.orgId}`,
            sk: `NETREQ#${device.deviceId}#${host}`,
            orgId: p.org.orgId,
            deviceId: device.deviceId,
            host,
            status: 'pending',
            createdAt: Date.now(),
            updatedAt: Date.now(),
          },
        }),
      );
      const approve = await p.post(`${agents()}/requests/${device.deviceId}/${host}/approve`);
      expect([host, approve.status, approve.body]).toEqual([host, 400, { error: badHost(host) }]);
      expect((await p.post(`${agents()}/requests/${device.deviceId}/${host}/deny`)).body).toEqual({ ok: true });
    }
    expect(await deviceHosts(device.deviceId)).toEqual([]);
  });
});
