import { devicePage } from '../../lib/local/device-page';
import { mailedCode } from '../helpers/outbox';
import { type Person, TestPlatform } from '../helpers/platform';
import { forgetLastPoll } from './helpers';

/**
 * The device login's verification URI, as a person meets it in a browser: `/device?code=…` on the
 * local platform sends them to the identity provider, where they sign in with their email and the
 * code mailed to it (the outbox), back to the page, which shows what the code asks for and their
 * organizations; their answer goes through the API, and the agent program's poll then gets its token.
 * A browser's part is played over HTTP: redirects followed by hand, forms posted as a browser does.
 */
let p: TestPlatform;
let viewer: Person;

beforeAll(async () => {
  p = await TestPlatform.start({ extra: [devicePage()] });
  viewer = await p.person('viewer');
});
afterAll(() => p.close());

const fromHtml = (s: string) =>
  s.replace(
    /&(amp|lt|gt|quot|#39);/g,
    (_m, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[e] as string,
  );

/** The hidden fields of the page's form, as a browser would send them back. */
const hiddenFields = (html: string) =>
  Object.fromEntries(
    [...html.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)].map((m) => [
      fromHtml(m[1] as string),
      fromHtml(m[2] as string),
    ]),
  );

/** A browser: one cookie jar, redirects seen one by one. */
class Browser {
  cookies = new Map<string, string>();
  async go(url: string, form?: Record<string, string>) {
    const res = await fetch(url, {
      method: form ? 'POST' : 'GET',
      redirect: 'manual',
      headers: {
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        ...(this.cookies.size ? { cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ') } : {}),
      },
      body: form ? new URLSearchParams(form).toString() : undefined,
    });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const [name, value] = (pair as string).split('=');
      this.cookies.set(name as string, value as string);
    }
    return { status: res.status, location: res.headers.get('location'), text: await res.text(), headers: res.headers };
  }
}

/** Opens the verification URI, signs in as `person` at the identity provider, lands on the page. */
async function signIn(browser: Browser, verificationUri: string, person: Person) {
  const toIdp = await browser.go(verificationUri);
  expect(toIdp.status).toBe(302);
  const authorize = toIdp.location as string;
  expect(authorize.startsWith(`${process.env.AUTH_URL}/authorize?`)).toBe(true);
  const emailPage = await browser.go(authorize);
  expect(emailPage.text).toContain('Sign in to the platform');
  const idp = new URL(authorize).origin;
  const codePage = await browser.go(`${idp}/authorize`, { ...hiddenFields(emailPage.text), email: person.email });
  expect(codePage.text).toContain(`A sign-in code was sent to ${person.email}.`);
  const wrong = await browser.go(`${idp}/authorize`, { ...hiddenFields(codePage.text), sign_in_code: '00000000' });
  expect(wrong.text).toContain('That code is not right.');
  const back = await browser.go(`${idp}/authorize`, {
    ...hiddenFields(codePage.text),
    sign_in_code: mailedCode(person.email),
  });
  expect(back.status).toBe(302);
  expect(back.location).toMatch(new RegExp(`^${p.baseUrl}/device/callback\\?code=[\\w-]+&state=`));
  const callback = await browser.go(back.location as string);
  expect(callback.status).toBe(302);
  expect([...browser.cookies.keys()]).toEqual(['platform_device']);
  return browser.go(new URL(callback.location as string, p.baseUrl).toString());
}

it('serves the verification URI: sign in, approve, and the agent program’s poll gets its token', async () => {
  const start = await p.post('/v1/agent/login', { name: 'build box', platform: 'linux' }, { token: null });
  expect(start.body.verificationUriComplete).toBe(`${p.baseUrl}/device?code=${start.body.userCode}`);
  const browser = new Browser();
  const approval = await signIn(browser, start.body.verificationUriComplete, p.owner);
  expect(approval.status).toBe(200);
  expect(approval.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  expect(approval.text).toContain('The agent program &quot;build box&quot; (linux) asks to join an organization');
  expect(approval.text).toContain(`<option value="${p.org.orgId}">`);
  const form = hiddenFields(approval.text);
  expect(form).toEqual({ code: start.body.userCode, csrf: expect.any(String) });
  // The page's session is not a token of the API's: nothing of it is in the page.
  expect(approval.text).not.toMatch(/eyJ[\w-]+\.[\w-]+\./);

  // Without the session's CSRF token nothing is answered.
  const forged = await browser.go(`${p.baseUrl}/device`, {
    ...form,
    csrf: 'x',
    orgId: p.org.orgId,
    decision: 'approve',
  });
  expect(forged.status).toBe(403);
  const pending = await p.post('/v1/agent/login/token', { deviceCode: start.body.deviceCode }, { token: null });
  expect(pending.body).toEqual({ error: 'authorization_pending' });

  const approved = await browser.go(`${p.baseUrl}/device`, { ...form, orgId: p.org.orgId, decision: 'approve' });
  expect(approved.status).toBe(200);
  expect(approved.text).toContain('Approved. Go back to the device');
  const again = await browser.go(start.body.verificationUriComplete);
  expect(again.status).toBe(409);

  await forgetLastPoll(start.body.deviceCode);
  const token = await p.post('/v1/agent/login/token', { deviceCode: start.body.deviceCode }, { token: null });
  expect(token.status).toBe(200);
  expect(token.body).toEqual({
    token: expect.stringMatching(/^app_dev_/),
    deviceId: expect.any(String),
    orgId: p.org.orgId,
  });
  const devices = await p.get(`/v1/orgs/${p.org.orgId}/agents`);
  expect(devices.body.devices).toContainEqual(
    expect.objectContaining({ deviceId: token.body.deviceId, userId: p.owner.userId, name: 'build box' }),
  );
});

it("a person's platform login: the page asks to act as them, with no organization to choose", async () => {
  const start = await p.post(
    '/v1/login/device',
    { name: 'platform CLI on laptop', platform: 'linux' },
    { token: null },
  );
  expect(start.body.verificationUriComplete).toBe(`${p.baseUrl}/device?code=${start.body.userCode}`);
  const browser = new Browser();
  const approval = await signIn(browser, start.body.verificationUriComplete, p.owner);
  expect(approval.status).toBe(200);
  expect(approval.text).toContain('Sign in the command line');
  expect(approval.text).toContain('&quot;platform CLI on laptop&quot; on linux asks to act as you');
  expect(approval.text).not.toContain('<select');
  const form = hiddenFields(approval.text);
  const approved = await browser.go(`${p.baseUrl}/device`, { ...form, decision: 'approve' });
  expect(approved.text).toContain('Approved. Go back to the device');
  await forgetLastPoll(start.body.deviceCode);
  const token = await p.post('/v1/login/device/token', { deviceCode: start.body.deviceCode }, { token: null });
  expect((await p.get('/v1/me', { token: token.body.token })).body.me.userId).toBe(p.owner.userId);
});

it('a person who may not approve devices sees why; an unknown code and an unknown email are said plainly', async () => {
  const start = await p.post('/v1/agent/login', { name: 'laptop' }, { token: null });
  const browser = new Browser();
  const page = await signIn(browser, start.body.verificationUriComplete, viewer);
  expect(page.status).toBe(403);
  expect(page.text).toContain('None of your organizations lets you approve this (agents:write).');

  const unknown = await browser.go(`${p.baseUrl}/device?code=BBBB-BBBB`);
  expect(unknown.status).toBe(404);
  expect(unknown.text).toContain('That code is unknown or expired. Start the login on the device again.');

  const stranger = new Browser();
  const toIdp = await stranger.go(start.body.verificationUriComplete);
  const emailPage = await stranger.go(toIdp.location as string);
  const idp = new URL(toIdp.location as string).origin;
  const refused = await stranger.go(`${idp}/authorize`, {
    ...hiddenFields(emailPage.text),
    email: 'nobody@example.com',
  });
  expect(refused.text).toContain('No one with this email is on this platform.');
});

it("the identity provider sends the platform's own client back only to a loopback /device/callback", async () => {
  const url = new URL(`${process.env.AUTH_URL}/authorize`);
  for (const [k, v] of Object.entries({
    client_id: 'platform',
    response_type: 'code',
    redirect_uri: 'https://attacker.example/device/callback',
    code_challenge: 'a'.repeat(43),
    code_challenge_method: 'S256',
  }))
    url.searchParams.set(k, v);
  const res = await fetch(url, { redirect: 'manual' });
  expect(res.status).toBe(400);
  expect(await res.text()).toBe('This redirect URI is not registered.');
});
