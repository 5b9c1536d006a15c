import { TestPlatform } from '../helpers/platform';

/**
 * `GET /v1/me/device-codes/:userCode`: what a typed device code asks for, before the person answers
 * it (the web app's approval page shows it): an agent program's login or the command line's, with
 * its name, system and status; people only; unknown codes 404.
 */
let p: TestPlatform;

beforeAll(async () => {
  p = await TestPlatform.start();
});
afterAll(() => p.close());

const lookup = (code: string, token?: string) =>
  p.get(`/v1/me/device-codes/${encodeURIComponent(code)}`, token === undefined ? {} : { token });

it("an agent program's login: its kind, name, system and capabilities, pending until answered", async () => {
  const start = await p.post(
    '/v1/agent/login',
    { name: 'build box', platform: 'linux', capabilities: ['http', 'browser'] },
    { token: null },
  );
  expect(start.status).toBe(200);
  const res = await lookup(start.body.userCode);
  expect(res.status).toBe(200);
  expect(res.body).toEqual({
    deviceCode: {
      kind: 'agent-device',
      userCode: start.body.userCode,
      name: 'build box',
      platform: 'linux',
      capabilities: expect.arrayContaining(['http', 'browser']),
      status: 'pending',
    },
  });
  // Typed as a person types it: lower case, without the dash.
  const typed = (start.body.userCode as string).replace('-', '').toLowerCase();
  expect((await lookup(typed)).body.deviceCode.userCode).toBe(start.body.userCode);
  const answered = await p.post(`/v1/orgs/${p.org.orgId}/agents/login`, {
    userCode: start.body.userCode,
    approve: true,
  });
  expect(answered.status).toBeLessThan(300);
  expect((await lookup(start.body.userCode)).body.deviceCode.status).toBe('approved');
});

it("the command line's login: kind command-line, no capabilities", async () => {
  const start = await p.post(
    '/v1/login/device',
    { name: 'platform CLI on laptop', platform: 'darwin' },
    { token: null },
  );
  const res = await lookup(start.body.userCode);
  expect(res.status).toBe(200);
  expect(res.body.deviceCode).toEqual({
    kind: 'command-line',
    userCode: start.body.userCode,
    name: 'platform CLI on laptop',
    platform: 'darwin',
    capabilities: [],
    status: 'pending',
  });
});

it('an unknown code is 404 in the login’s words; an API key is refused (people only); no token is 401', async () => {
  const unknown = await lookup('ZZZZ-ZZZZ');
  expect(unknown.status).toBe(404);
  expect(unknown.body.error).toBe('That code is unknown or expired. Start the login on the device again.');
  const start = await p.post('/v1/login/device', { name: 'cli' }, { token: null });
  const byKey = await lookup(start.body.userCode, await p.apiKey());
  expect(byKey.status).toBe(403);
  expect(byKey.body.error).toBe('Only a person answers a device code: sign in (an API key can’t).');
  expect((await p.get(`/v1/me/device-codes/${start.body.userCode}`, { token: null })).status).toBe(401);
});
