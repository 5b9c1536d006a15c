import type { Page } from 'playwright-core';
import { type DnsServer, startDnsServer } from '../../lib/local/dns';
import { createKey } from '../../shared/kernel/identity/keys';
import { checkPage, newPage, showingPage, signIn, startWeb, type WebWorld } from './harness';

/**
 * The web app's other pages in Chromium: a project's variables by target (sensitive values
 * masked), its domains with their DNS records and verify, its settings refused with the API's own
 * message where the person acted; members and invitations; API keys (the secret shown once); the
 * audit log paged with the API's cursor; a repository's protection, whose checks bound to a writer
 * keep it through an edit in the form; and a session lost mid-form (the API answers 401), which
 * returns to sign-in and, after it, to the same form with what was typed. Each page is checked with
 * axe-core at 1440 and 375 px (nothing wider than the screen) and for console errors.
 */
let w: WebWorld;
let dns: DnsServer;
let page: Page;
let problems: string[];
let projectId = '';
const tag = Date.now().toString(36);
const slug = `pages-${tag}`;

beforeAll(async () => {
  // Domain checks look records up on the local DNS server, as on `npm start`.
  dns = await startDnsServer({ port: 0 });
  process.env.DNS_SERVERS = `127.0.0.1:${dns.port}`;
  w = await startWeb();
  const made = await w.p.post(`/v1/orgs/${w.p.org.orgId}/projects`, { name: slug, slug, framework: 'static' });
  projectId = made.body.project.projectId;
  ({ page, problems } = await newPage(await w.browser.newContext({ viewport: { width: 1440, height: 900 } })));
  await page.goto(w.app);
  await signIn(page, w.p.owner);
}, 120_000);
afterAll(async () => {
  await w?.close();
  await dns?.close();
});

/** A failed step shows what the page said (test/web/harness.ts). */
const shown = (steps: () => Promise<void>) => showingPage(() => page, steps);

/** axe at 1440 px and 375 px, nothing wider than the screen, no console error (test/web/harness.ts). */
const clean = () => checkPage(page, problems);

/** A checkbox set by keyboard (Space), as every action can be. */
async function setChecked(box: ReturnType<Page['getByRole']>, on: boolean) {
  if ((await box.isChecked()) === on) return;
  await box.focus();
  await box.press('Space');
  expect(await box.isChecked()).toBe(on);
}

const h1 = (name: string | RegExp) => page.getByRole('heading', { level: 1, name });
const nav = (name: string) => page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name });
const projectTab = (name: string) => page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name });

async function openProject() {
  await nav('Projects').click();
  await page.getByRole('link', { name: slug }).click();
  await h1(slug).waitFor();
}

it(
  'environment variables by target: a sensitive value is never shown, a plain one is',
  shown(async () => {
    await openProject();
    await clean();
    await projectTab('Environment variables').click();
    await h1(`${slug}: environment variables`).waitFor();
    await page.getByRole('textbox', { name: 'Key' }).fill('API_TOKEN');
    await page.getByRole('textbox', { name: 'Value' }).fill('s3cr3t-value');
    await page.getByRole('button', { name: 'Add variable' }).click();
    const production = page.getByRole('region', { name: 'Production' });
    await production.getByText('API_TOKEN').waitFor();
    expect(await production.getByText('Sensitive').count()).toBe(1);
    expect(await page.content()).not.toContain('s3cr3t-value');

    await page.getByRole('textbox', { name: 'Key' }).fill('PUBLIC_URL');
    await page.getByRole('textbox', { name: 'Value' }).fill('https://example.com');
    await setChecked(page.getByRole('checkbox', { name: 'Production' }), false);
    await setChecked(page.getByRole('checkbox', { name: 'Preview' }), false);
    await setChecked(page.getByRole('checkbox', { name: 'Development' }), true);
    await setChecked(page.getByRole('checkbox', { name: /^Sensitive/ }), false);
    await page.getByRole('button', { name: 'Add variable' }).click();
    await page.getByRole('region', { name: 'Development' }).getByText('https://example.com').waitFor();
    expect(await page.getByRole('region', { name: 'Production' }).getByText('PUBLIC_URL').count()).toBe(0);

    // A name the platform keeps for itself: the API's message, beside the form.
    await page.getByRole('textbox', { name: 'Key' }).fill('PORT');
    await page.getByRole('textbox', { name: 'Value' }).fill('80');
    await page.getByRole('button', { name: 'Add variable' }).click();
    const refused = page.getByRole('region', { name: 'Add a variable' }).getByRole('alert');
    await refused.waitFor();
    const answer = await w.p.post(`/v1/orgs/${w.p.org.orgId}/projects/${projectId}/env`, {
      vars: [{ key: 'PORT', value: '80' }],
      targets: ['development'],
      sensitive: false,
    });
    expect(answer.status).toBe(400);
    expect(await refused.textContent()).toContain(answer.body.error);
    await clean();
  }),
  90_000,
);

it(
  'a lost session returns to sign-in, and after it the form has what was typed',
  shown(async () => {
    await page.getByRole('textbox', { name: 'Key' }).fill('DRAFTED');
    await page.getByRole('textbox', { name: 'Value' }).fill('kept-across');
    // The session is revoked: from now on the API answers this browser 401.
    await page.route('**/v1/**', (route) =>
      route.continue({ headers: { ...route.request().headers(), authorization: 'Bearer revoked' } }),
    );
    await page.getByRole('button', { name: 'Add variable' }).click();
    await h1('Sign in to the platform').waitFor();
    await page.getByRole('status').filter({ hasText: 'Your session ended.' }).waitFor();
    expect(problems).toEqual([]);
    await page.unroute('**/v1/**');
    await signIn(page, w.p.owner);
    await h1(`${slug}: environment variables`).waitFor();
    expect(await page.getByRole('textbox', { name: 'Key' }).inputValue()).toBe('DRAFTED');
    expect(await page.getByRole('textbox', { name: 'Value' }).inputValue()).toBe('kept-across');
    await page.getByRole('button', { name: 'Add variable' }).click();
    await page.getByRole('region', { name: 'Production' }).getByText('DRAFTED').waitFor();
    // Sent, the draft is gone.
    expect(await page.getByRole('textbox', { name: 'Key' }).inputValue()).toBe('');
  }),
  90_000,
);

it(
  'domains: the DNS records to create, and verify says what is missing',
  shown(async () => {
    await projectTab('Domains').click();
    await h1(`${slug}: domains`).waitFor();
    const hostname = `www.${tag}.example.test`;
    await page.getByRole('textbox', { name: 'Hostname' }).fill(hostname);
    await page.getByRole('button', { name: 'Add domain' }).click();
    const item = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: hostname }) });
    await item.getByText(`_platform-verify.${hostname}`).waitFor();
    await item.getByRole('button', { name: `Verify ${hostname}` }).click();
    await item.getByText(`the TXT record _platform-verify.${hostname}`).waitFor();
    expect(await item.getByText('pending').count()).toBe(1);
    await clean();
  }),
  60_000,
);

it(
  'settings: saved; a bad slug is refused with the API message beside the form',
  shown(async () => {
    await projectTab('Settings').click();
    await h1(`${slug}: settings`).waitFor();
    await page.getByRole('textbox', { name: 'Slug' }).fill('Not a slug!');
    await page.getByRole('button', { name: 'Save settings' }).click();
    const refused = page.getByRole('alert');
    await refused.waitFor();
    expect(await refused.textContent()).toMatch(/^Invalid request/);
    await page.getByRole('textbox', { name: 'Slug' }).fill(slug);
    await page.getByRole('textbox', { name: 'Build command' }).fill('echo built');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    const read = await w.p.get(`/v1/orgs/${w.p.org.orgId}/projects/${projectId}`);
    expect(read.body.project.buildCommand).toBe('echo built');
    await clean();
  }),
  60_000,
);

it(
  'members and invitations: invite, the same again refused with the API message',
  shown(async () => {
    await nav('Members').click();
    await h1('Members').waitFor();
    await page.getByText(w.p.owner.email).first().waitFor();
    const email = `invited-${tag}@example.com`;
    await page.getByRole('textbox', { name: 'Email' }).fill(email);
    await page.getByRole('combobox', { name: 'Role', exact: true }).selectOption('viewer');
    await page.getByRole('button', { name: 'Invite', exact: true }).click();
    await page.getByRole('button', { name: `Revoke the invitation of ${email}` }).waitFor();
    await page.getByRole('textbox', { name: 'Email' }).fill(email);
    await page.getByRole('button', { name: 'Invite', exact: true }).click();
    expect(await page.getByRole('alert').textContent()).toBe('This email already has a pending invite.');
    await clean();
  }),
  60_000,
);

it(
  'API keys: the secret is shown once; the key is listed and deleted',
  shown(async () => {
    await nav('API keys').click();
    await h1('API keys').waitFor();
    await page.getByRole('textbox', { name: 'Name' }).fill('ci');
    await setChecked(page.getByRole('checkbox', { name: 'projects:read' }), true);
    await page.getByRole('button', { name: 'Create key' }).click();
    const secret = page.getByRole('status').filter({ hasText: 'shown this once' });
    expect(await secret.locator('code').textContent()).toMatch(/^app_api_/);
    const keys = page.getByRole('list', { name: 'Keys' });
    await keys.getByText('projects:read').waitFor();
    await clean();
    await keys.getByRole('button', { name: 'Delete the key ci' }).click();
    await keys.getByText('projects:read').waitFor({ state: 'detached' });
  }),
  60_000,
);

it(
  "the audit log pages with the API's cursor and filters by action",
  shown(async () => {
    // More writes than one page holds (50).
    for (let i = 0; i < 51; i++) {
      await w.p.put(`/v1/orgs/${w.p.org.orgId}/projects/${projectId}/env/K${i}`, {
        value: 'v',
        targets: ['development'],
        sensitive: false,
      });
    }
    await nav('Audit log').click();
    await h1('Audit log').waitFor();
    const entries = page.getByRole('list', { name: 'Audit entries' }).getByRole('listitem');
    await entries.nth(49).waitFor();
    expect(await entries.count()).toBe(50);
    await page.getByRole('button', { name: 'Show more entries' }).click();
    await entries.nth(50).waitFor();
    expect(await entries.count()).toBeGreaterThan(50);
    await clean();
    await page.getByRole('textbox', { name: 'Action' }).fill('keys.');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page
      .getByRole('list', { name: 'Audit entries' })
      .getByText(/^keys\.create/)
      .waitFor();
    for (const text of await entries.allTextContents()) expect(text).toMatch(/^keys\./);
  }),
  90_000,
);

it(
  'protection: a required check bound to a writer shows it and keeps it when the form saves',
  shown(async () => {
    const repo = `guarded-${tag}`;
    const orgId = w.p.org.orgId;
    expect((await w.p.post(`/v1/orgs/${orgId}/repos`, { name: repo, readme: true })).status).toBe(201);
    const { key } = await createKey({ orgId, kind: 'api', scopes: ['git:write'], name: 'ci' });
    const bound = [
      { name: 'build', source: 'platform' },
      { name: 'lint', source: { apiKey: key.keyId } },
    ];
    const put = await w.p.put(`/v1/orgs/${orgId}/repos/${repo}/protection`, {
      requiredApprovals: 0,
      requiredChecks: [...bound, 'docs'],
    });
    expect(put.status).toBe(200);

    await page.goto(`${w.app}orgs/${orgId}/repos/${repo}/settings`);
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
    const checks = page.getByRole('textbox', { name: 'Required checks (one name a line)' });
    expect(await checks.inputValue()).toBe('build\nlint\ndocs');
    const sources = page.getByRole('list', { name: 'Checks bound to a writer' }).getByRole('listitem');
    expect(await sources.allTextContents()).toEqual(['build from the platform', `lint from API key ${key.keyId}`]);
    await clean();

    // An edit: another approval, a new name, one bare name gone; the bound ones stay bound.
    await page.getByRole('spinbutton', { name: 'Required approvals' }).fill('1');
    await checks.fill('build\nlint\ne2e');
    await page.getByRole('button', { name: 'Save protection' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    const saved = await w.p.get(`/v1/orgs/${orgId}/repos/${repo}/protection`);
    expect(saved.body).toMatchObject({ requiredApprovals: 1, requiredChecks: [...bound, 'e2e'] });
    // A bound name taken out of the form is no longer shown as bound.
    await checks.fill('e2e');
    expect(await sources.allTextContents()).toEqual([]);
    await clean();
  }),
  60_000,
);

it(
  'the deployments page lists none yet, with its filters',
  shown(async () => {
    await nav('Deployments').click();
    await h1('Deployments').waitFor();
    await page.getByText('No deployments yet.').waitFor();
    await page.getByRole('combobox', { name: 'Status' }).selectOption('ready');
    await page.getByText('No deployments yet.').waitFor();
    await clean();
  }),
  60_000,
);
