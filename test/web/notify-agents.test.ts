import type { Page } from 'playwright-core';
import { forgetLastPoll, loggedInDevice } from '../agents/helpers';
import type { Person } from '../helpers/platform';
import { startQueueWorker } from '../helpers/sqs';
import { until } from '../helpers/until';
import { checkPage, newPage, showingPage, signIn, startWeb, type WebWorld } from './harness';

/**
 * Notifications and agents in the web app, in Chromium: the header's bell counts a notice an
 * event raised (through the notify worker) and is read again each minute, reading it clears the
 * count; a notice that needs an acknowledgement is acknowledged; a protocol made from a template,
 * renamed and attached in the app is the API's; an agent device is listed, a job queued in the app
 * says why it waits, the host it lacks is asked for and approved in the app; and a device login is
 * approved in the app at `/device?code=…`, after which the device's poll gets its token. Each page
 * is checked with axe at 1440 and 375 px and for console errors.
 */
let w: WebWorld;
let worker: { stop: () => Promise<void> } | undefined;
let page: Page;
let problems: string[];
let admin: Person;
let orgId = '';
let n = 0;
/** A browser, axe at two widths and the notify worker, on a machine other test files share. */
const TEST_MS = 180_000;
const unique = (base: string) => `${base}-${Date.now().toString(36)}-${(n++).toString(36)}`;

beforeAll(async () => {
  worker = await startQueueWorker('notify');
  w = await startWeb({ deployments: false });
  orgId = w.p.org.orgId;
  admin = await w.p.person('admin');
  ({ page, problems } = await newPage(await w.browser.newContext({ viewport: { width: 1440, height: 900 } })));
  // The bell reads again every minute: the test moves the page's clock instead of waiting.
  await page.clock.install();
  await page.goto(`${w.app}orgs/${orgId}/agents`);
  await signIn(page, w.p.owner);
}, TEST_MS);
afterAll(async () => {
  await w?.close();
  await worker?.stop();
});

/** A failed step shows what the page said (test/web/harness.ts). */
const shown = (steps: () => Promise<void>) => showingPage(() => page, steps);

/** axe at 1440 px and 375 px, nothing wider than the screen, no console error (test/web/harness.ts). */
const clean = () => checkPage(page, problems);

const h1 = (name: string | RegExp) => page.getByRole('heading', { level: 1, name });
const bell = (count: string) => page.getByRole('link', { name: `Notifications, ${count} unread` });
const notices = async () => (await w.p.get('/v1/me/notifications?limit=100')).body.notices as any[];

/** An issue assigned to the owner by the admin: `issue.assigned`, a notice for the owner. */
async function assignOwner(title: string) {
  const repo = unique('repo');
  expect((await w.p.post(`/v1/orgs/${orgId}/repos`, { name: repo }, { token: admin.token })).status).toBe(201);
  const made = await w.p.post(
    `/v1/orgs/${orgId}/repos/${repo}/issues`,
    { title, assignees: [w.p.owner.userId] },
    { token: admin.token },
  );
  expect(made.status).toBe(201);
  return until(async () => (await notices()).find((x) => x.title.includes(title)));
}

it(
  'the bell counts a new notice within a minute; marking it read clears the count',
  shown(async () => {
    await h1('Agents').waitFor();
    await bell('none').waitFor();
    const notice = await assignOwner('Bell test');
    expect(notice.read).toBe(false);
    // The bell reads again once a minute.
    await page.clock.fastForward(61_000);
    await bell('1').waitFor();
    await bell('1').click();
    await h1('Notifications').waitFor();
    const list = page.getByRole('list', { name: 'Notifications' });
    await list.getByText(notice.title).waitFor();
    await clean();
    await page.getByRole('button', { name: `Mark ${notice.title} as read` }).click();
    await bell('none').waitFor();
    expect((await notices()).find((x) => x.noticeId === notice.noticeId).read).toBe(true);
  }),
  TEST_MS,
);

it(
  'a notice that escalates is acknowledged in the app, as the API then says',
  shown(async () => {
    const protocol = await w.p.post(`/v1/orgs/${orgId}/notify/protocols`, {
      name: 'Escalate assignments',
      rules: [
        {
          events: ['issue.assigned'],
          steps: [
            { afterMinutes: 0, channels: ['inapp'] },
            { afterMinutes: 60, channels: ['inapp'] },
          ],
        },
      ],
    });
    expect(protocol.status).toBe(201);
    try {
      const notice = await assignOwner('Ack test');
      expect(notice.requireAck).toBe(true);
      await page.reload();
      await h1('Notifications').waitFor();
      await bell('1').waitFor();
      const ack = page.getByRole('button', { name: `Acknowledge ${notice.title}` });
      await ack.click();
      await bell('none').waitFor();
      await ack.waitFor({ state: 'detached' });
      const after = (await notices()).find((x) => x.noticeId === notice.noticeId);
      expect(after.ackedAt).toEqual(expect.any(Number));
      expect((await w.p.post(`/v1/me/notifications/${notice.noticeId}/ack`)).body.acked).toBe(false);
    } finally {
      await w.p.delete(`/v1/orgs/${orgId}/notify/protocols/${protocol.body.protocol.protocolId}`);
    }
  }),
  TEST_MS,
);

it(
  'a protocol made from a template, renamed and attached in the app is the API’s',
  shown(async () => {
    await page.getByRole('navigation', { name: 'Notifications' }).getByRole('link', { name: 'Protocols' }).click();
    await h1('Notification protocols').waitFor();
    await page.getByRole('combobox', { name: 'Template' }).selectOption({ label: 'Production on-call' });
    await page.getByRole('button', { name: 'Create from template' }).click();
    const card = page.getByRole('article', { name: 'Production on-call' });
    await card.waitFor();
    await clean();
    const made = (await w.p.get(`/v1/orgs/${orgId}/notify/protocols`)).body.protocols.find(
      (x: { name: string }) => x.name === 'Production on-call',
    );
    expect(made.rules[0].events).toContain('deployment.failed');

    await card.getByRole('button', { name: 'Edit Production on-call' }).click();
    const form = page.getByRole('form', { name: 'Edit Production on-call' });
    await form.getByRole('textbox', { name: 'Name' }).fill('Pager duty');
    await form.getByRole('button', { name: 'Save protocol' }).click();
    const renamed = page.getByRole('article', { name: 'Pager duty' });
    await renamed.waitFor();
    await renamed.getByRole('combobox', { name: 'Resource type' }).selectOption('org');
    await renamed.getByRole('button', { name: 'Attach' }).click();
    await renamed.getByRole('button', { name: /^Detach This organization/ }).waitFor();
    const saved = (await w.p.get(`/v1/orgs/${orgId}/notify/protocols/${made.protocolId}`)).body.protocol;
    expect(saved.name).toBe('Pager duty');
    expect(saved.version).toBeGreaterThan(made.version);
    expect(saved.attachments).toEqual([expect.objectContaining({ resourceType: 'org', resourceId: orgId })]);
    await clean();
  }),
  TEST_MS,
);

it(
  'a device is listed; a job queued in the app says why it waits; the host it lacks is asked for and approved',
  shown(async () => {
    const device = await loggedInDevice(w.p, w.p.owner, 'build laptop');
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Agents' }).click();
    await h1('Agents').waitFor();
    await page.reload();
    const card = page.getByRole('article', { name: 'build laptop' });
    await card.waitFor();
    expect(await card.textContent()).toContain('Allowlist: no hosts yet');

    await page.getByRole('textbox', { name: 'Label' }).fill('Fetch items');
    await page.getByRole('textbox', { name: /^Requests/ }).fill('https://api.example.com/items');
    await page.getByRole('button', { name: 'Queue job' }).click();
    await page.getByRole('link', { name: 'Open the job' }).click();
    await h1('Job Fetch items').waitFor();
    const why = page.getByRole('region', { name: 'Why it waits' });
    await why.getByText('no device may run it').waitFor();
    await why.getByText(/^build laptop \(offline\): hosts not on its allowlist: api\.example\.com$/).waitFor();
    await clean();
    const jobs = (await w.p.get(`/v1/orgs/${orgId}/agents`)).body.jobs as any[];
    const job = jobs.find((j) => j.label === 'Fetch items');
    expect(job.waiting).toEqual({
      reason: 'blocked',
      devices: [expect.objectContaining({ deviceId: device.deviceId })],
    });

    await why.getByRole('button', { name: 'Request access' }).click();
    await why.getByText(/Asked for api\.example\.com/).waitFor();
    await why.getByText(/^build laptop \(offline\): waiting for host approval: api\.example\.com$/).waitFor();

    await page.getByRole('link', { name: 'Agents', exact: true }).first().click();
    await h1('Agents').waitFor();
    await page.getByRole('button', { name: 'Approve api.example.com for build laptop' }).click();
    await page.getByText('No device is asking for a host.').waitFor();
    await clean();
    const after = (await w.p.get(`/v1/orgs/${orgId}/agents`)).body;
    expect(after.devices.find((d: any) => d.deviceId === device.deviceId).hosts).toEqual(['api.example.com']);
    expect(after.requests).toEqual([]);
    // Now a device may run it, but it never polled: the job waits for it to come online.
    expect(after.jobs.find((j: any) => j.jobId === job.jobId).waiting.reason).toBe('offline');
  }),
  TEST_MS,
);

it(
  'a device login approved in the app at /device gives the device its token',
  shown(async () => {
    const start = await w.p.post('/v1/agent/login', { name: 'ci runner', platform: 'linux-x64' }, { token: null });
    expect(start.status).toBe(200);
    const pending = await w.p.post('/v1/agent/login/token', { deviceCode: start.body.deviceCode }, { token: null });
    expect(pending.body.error).toBe('authorization_pending');

    await page.goto(`${w.app}device?code=${encodeURIComponent(start.body.userCode)}`);
    await h1('Approve a device').waitFor();
    expect(await page.getByRole('textbox', { name: 'Code shown on the device' }).inputValue()).toBe(
      start.body.userCode,
    );
    // What the code asks for, from the API: the kind is known, so no choice of kind is offered.
    const asked = page.getByRole('region', { name: 'What the code asks for' });
    await asked.getByText('An agent program asks to join an organization as your device').waitFor();
    await asked.getByText('“ci runner” on linux-x64, for http jobs').waitFor();
    expect(await page.getByRole('group', { name: 'What shows the code' }).count()).toBe(0);
    await clean();
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.getByText(/Approved: the device joins/).waitFor();
    await clean();

    await forgetLastPoll(start.body.deviceCode);
    const token = await w.p.post('/v1/agent/login/token', { deviceCode: start.body.deviceCode }, { token: null });
    expect(token.status).toBe(200);
    expect(token.body).toEqual({ token: expect.stringMatching(/^app_dev_/), deviceId: expect.any(String), orgId });
    const devices = (await w.p.get(`/v1/orgs/${orgId}/agents`)).body.devices as any[];
    expect(devices.find((d) => d.deviceId === token.body.deviceId)).toMatchObject({
      name: 'ci runner',
      userId: w.p.owner.userId,
    });
  }),
  TEST_MS,
);
