import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN } from '../cli/helpers';
import { type Person, TestPlatform } from '../helpers/platform';

/**
 * People's command-line logins by device code (RFC 8628): the login's start, the person's answer,
 * the token once, the session acting as the person with their current role, its listing and
 * revocation; every error; and `platform login` doing it end to end.
 */
let p: TestPlatform;
let developer: Person;
beforeAll(async () => {
  p = await TestPlatform.start();
  developer = await p.person('developer');
});
afterAll(() => p.close());

const start = async () => {
  const res = await p.post('/v1/login/device', { name: 'platform CLI on test', platform: 'linux' }, { token: null });
  expect(res.status).toBe(200);
  return res.body as { deviceCode: string; userCode: string; interval: number };
};
const token = (deviceCode: string) => p.post('/v1/login/device/token', { deviceCode }, { token: null });
const answer = (userCode: string, as: string, approve = true) =>
  p.post('/v1/login/device/answer', { userCode, approve }, { token: as });

describe('a login by device code', () => {
  it('starts, waits for the person, then gives a token once that acts as them', async () => {
    const res = await p.post('/v1/login/device', { name: 'platform CLI on laptop' }, { token: null });
    expect(res.body).toEqual({
      deviceCode: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      userCode: expect.stringMatching(/^[B-DF-HJ-NP-TV-XZ]{4}-[B-DF-HJ-NP-TV-XZ]{4}$/),
      verificationUri: `${p.baseUrl}/device`,
      verificationUriComplete: `${p.baseUrl}/device?code=${res.body.userCode}`,
      interval: 5,
      expiresIn: 900,
    });
    const { deviceCode, userCode } = res.body;
    expect((await token(deviceCode)).body).toEqual({ error: 'authorization_pending' });
    expect((await token(deviceCode)).body).toEqual({ error: 'slow_down' });

    // Typed in lower case without the dash: the same code.
    const approved = await answer(userCode.toLowerCase().replace('-', ''), developer.token);
    expect(approved).toMatchObject({ status: 200, body: { ok: true } });
    const issued = await token(deviceCode);
    expect(issued.status).toBe(200);
    expect(issued.body).toEqual({
      token: expect.stringMatching(/^app_ses_/),
      sessionId: expect.stringMatching(/^ses_/),
      expiresAt: expect.any(Number),
    });
    expect((await token(deviceCode)).body).toEqual({ error: 'expired_token' });

    // The person, with their role: a developer reads projects but can't rename the organization.
    const session = issued.body.token as string;
    const me = await p.get('/v1/me', { token: session });
    expect(me.body.me).toMatchObject({ kind: 'user', userId: developer.userId, email: developer.email });
    expect((await p.get(`/v1/orgs/${p.org.orgId}/projects`, { token: session })).status).toBe(200);
    const rename = await p.patch(`/v1/orgs/${p.org.orgId}`, { name: 'Taken over' }, { token: session });
    expect(rename).toMatchObject({ status: 403, body: { error: 'Missing scope org:write' } });

    // Listed (never the token), then revoked: the token stops at once.
    const listed = await p.get('/v1/me/sessions', { token: developer.token });
    expect(listed.body.sessions).toContainEqual({
      sessionId: issued.body.sessionId,
      label: 'platform CLI on laptop',
      createdAt: expect.any(Number),
      expiresAt: issued.body.expiresAt,
    });
    expect(listed.text).not.toContain(session);
    expect((await p.delete(`/v1/me/sessions/${issued.body.sessionId}`, { token: session })).status).toBe(204);
    expect((await p.get('/v1/me', { token: session })).status).toBe(401);
    expect((await p.delete(`/v1/me/sessions/${issued.body.sessionId}`, { token: developer.token })).body).toEqual({
      error: 'Session not found',
    });
  });

  it('a denied login is access_denied; an answered code is not answered again', async () => {
    const { deviceCode, userCode } = await start();
    expect((await answer(userCode, developer.token, false)).status).toBe(200);
    expect((await token(deviceCode)).body).toEqual({ error: 'access_denied' });
    expect(await answer(userCode, developer.token)).toMatchObject({
      status: 409,
      body: { error: 'That code was already used.' },
    });
  });

  it("refuses unknown codes, keys answering for a person, and another kind's code", async () => {
    expect((await token('no-such-code')).body).toEqual({ error: 'expired_token' });
    expect(await answer('BCDF-GHJK', developer.token)).toMatchObject({
      status: 404,
      body: { error: 'That code is unknown or expired. Start the login on the device again.' },
    });
    const { userCode } = await start();
    const key = await p.apiKey();
    expect(await answer(userCode, key)).toMatchObject({
      status: 403,
      body: { error: 'Only people can approve a login.' },
    });
    expect((await p.get('/v1/me/sessions', { token: key })).status).toBe(403);
    expect((await p.delete('/v1/me/sessions/ses_x', { token: key })).status).toBe(403);
    // An agent device's code is not a person's login, nor the reverse.
    const agent = await p.post('/v1/agent/login', { name: 'box' }, { token: null });
    expect((await answer(agent.body.userCode, developer.token)).status).toBe(404);
    const person = await start();
    const asAgent = await p.post(`/v1/orgs/${p.org.orgId}/agents/login`, { userCode: person.userCode });
    expect(asAgent.status).toBe(404);
    expect((await p.get('/v1/me/sessions', { token: null })).status).toBe(401);
  });

  it('a session token of another shape is no session', async () => {
    expect((await p.get('/v1/me', { token: 'app_ses_short' })).status).toBe(401);
    expect((await p.get('/v1/me', { token: `app_ses_${'A'.repeat(43)}` })).status).toBe(401);
  });
});

describe('platform login by device code', () => {
  it('shows the code, waits for the approval and stores a session acting as the person', async () => {
    const configHome = mkdtempSync(join(tmpdir(), 'platform-cli-config-'));
    const child = spawn(process.execPath, [BIN, 'login', '--url', p.baseUrl, '--org', p.org.slug], {
      env: { PATH: process.env.PATH ?? '', XDG_CONFIG_HOME: configHome, HOME: configHome },
      stdio: 'pipe',
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString('utf8');
    });
    const code = await new Promise<string>((resolve, reject) => {
      child.stderr.on('data', (d: Buffer) => {
        stderr += d.toString('utf8');
        const found = /one-time code: ([A-Z]{4}-[A-Z]{4})/.exec(stderr);
        if (found && stderr.includes('Waiting')) resolve(found[1] as string);
      });
      child.on('close', () => reject(new Error(`login ended first: ${stderr}`)));
    });
    expect(stderr).toContain(`${p.baseUrl}/device?code=${code}`);
    expect((await answer(code, developer.token)).status).toBe(200);
    const exit = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect({ exit, stdout }).toEqual({
      exit: 0,
      stdout: expect.stringContaining(`Logged in to ${p.baseUrl} as ${developer.email}, organization ${p.org.slug}`),
    });
    const config = readFileSync(join(configHome, 'platform', 'config.json'), 'utf8');
    const stored = /"token": "(app_ses_[^"]+)"/.exec(config)?.[1] as string;
    expect((await p.get('/v1/me', { token: stored })).body.me.userId).toBe(developer.userId);
  });
});
