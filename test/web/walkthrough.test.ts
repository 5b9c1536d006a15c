import type { BrowserContext, Page } from 'playwright-core';
import type { Person } from '../helpers/platform';
import { until } from '../helpers/until';
import { axe, newPage, signIn, startWeb, type WebWorld } from './harness';

/**
 * The walkthrough of the web app in Debian's Chromium, as a new user does it with only a browser:
 * sign in (email, then the code mailed to the outbox), create a repository and its first file,
 * a project linked to it, deploy and watch the build log to ready, protect the branch, open a pull
 * request from a branch edited in the browser, see its preview and its checks, comment on a line,
 * approve as a second person, merge, and see production serve the merge. Every page is checked
 * with axe-core (no serious or critical violation) and for console errors; elements are found by
 * role and accessible name. Steps build on each other, in order.
 */
let w: WebWorld;
let context: BrowserContext;
let page: Page;
let problems: string[];
let reviewer: Person;
/** The second person's page, while they act. */
let other: Page | undefined;
const tag = Date.now().toString(36);
const repoName = `site-${tag}`;
const slug = `web-${tag}`;
let pullUrl = '';
let productionUrl = '';

beforeAll(async () => {
  w = await startWeb();
  reviewer = await w.p.person('developer');
  context = await w.browser.newContext({ viewport: { width: 1440, height: 900 } });
  ({ page, problems } = await newPage(context));
}, 120_000);
afterAll(async () => {
  await w?.close();
});

/** No serious or critical axe violation and no console error on the page as it is now. */
async function clean(p: Page = page, seen: string[] = problems) {
  expect(await axe(p)).toEqual([]);
  expect(seen).toEqual([]);
}

/** A step's failure shows where the page was and what it said (a failed wait alone doesn't). */
const shown =
  (steps: () => Promise<void>, p: () => Page = () => other ?? page) =>
  async () => {
    try {
      await steps();
    } catch (err) {
      const text = await p()
        .locator('body')
        .textContent()
        .catch(() => '');
      const where = `\n\nThe page at ${p().url()} said:\n${(text ?? '').slice(0, 3000)}`;
      (err as Error).message += where;
      (err as Error).stack = `${(err as Error).message}\n${(err as Error).stack ?? ''}`;
      throw err;
    }
  };

const h1 = (name: string | RegExp, p: Page = page) => p.getByRole('heading', { level: 1, name });
const nav = (name: string) => page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name });
const tab = (name: string) => page.getByRole('navigation', { name: 'Repository' }).getByRole('link', { name });

it(
  'signs in with the code mailed to the person and lands on the projects page',
  shown(async () => {
    await page.goto(w.app);
    await signIn(page, w.p.owner);
    await h1('Projects').waitFor();
    expect(await page.getByRole('combobox', { name: 'Organization' }).inputValue()).toBe(w.p.org.orgId);
    await clean();
  }),
  60_000,
);

it(
  'creates a repository and its first file; the file viewer colours it',
  shown(async () => {
    await nav('Repositories').click();
    await h1('Repositories').waitFor();
    await clean();
    await page.getByRole('textbox', { name: 'Repository name' }).fill(repoName);
    await page.getByRole('button', { name: 'Create repository' }).click();
    await h1(repoName).waitFor();
    await page.getByRole('link', { name: 'README.md' }).waitFor();
    await clean();

    await page.getByRole('link', { name: 'Add a file' }).click();
    await h1('Add a file').waitFor();
    await page.getByRole('textbox', { name: 'File path' }).fill('index.html');
    await page
      .getByRole('textbox', { name: 'Content' })
      .fill('<!doctype html>\n<title>Site</title>\n<h1>First version</h1>\n');
    await page.getByRole('textbox', { name: 'Commit message' }).fill('Add the home page');
    await clean();
    await page.getByRole('button', { name: 'Commit to main' }).click();
    const file = page.getByRole('region', { name: 'File index.html' });
    await file.getByText('First version').waitFor();
    // The highlighter is loaded now, for this file: its colours replace the plain text.
    await file.locator('code[data-highlighted="true"]').waitFor();
    await clean();
  }),
  60_000,
);

it(
  'creates a project linked to the repository, deploys it and follows the build log to ready',
  shown(async () => {
    await nav('Projects').click();
    await h1('Projects').waitFor();
    await page.getByRole('textbox', { name: 'Name' }).fill(slug);
    expect(await page.getByRole('textbox', { name: 'Slug' }).inputValue()).toBe(slug);
    await page.getByLabel('Repository').selectOption({ label: repoName });
    // By keyboard: Enter in a field submits the form.
    await page.getByRole('textbox', { name: 'Name' }).press('Enter');
    await h1(slug).waitFor();
    await clean();

    await page.getByRole('button', { name: 'Deploy', exact: true }).click();
    await h1(/^Deployment dpl_/).waitFor();
    const log = page.getByRole('log', { name: 'Build log' });
    await page.getByText(/^Build finished/).waitFor({ timeout: 90_000 });
    expect(await page.getByRole('status').filter({ hasText: 'Build finished' }).textContent()).toContain('ready');
    expect(await log.textContent()).toContain('Going live.');
    await page.getByText('Serving production').waitFor();
    const production = page.getByRole('link', { name: new RegExp(`^${slug}\\.localhost:`) });
    productionUrl = (await production.getAttribute('href')) as string;
    expect(productionUrl).toBe(`http://${slug}.localhost:${w.deployments?.edge.port}`);
    await clean();

    const site = await context.newPage();
    await site.goto(productionUrl);
    expect(await site.getByRole('heading', { level: 1 }).textContent()).toBe('First version');
    await site.close();
  }),
  120_000,
);

it(
  'protects main, edits a branch in the browser, opens a pull request: its preview and checks come live',
  shown(async () => {
    await nav('Repositories').click();
    await page.getByRole('link', { name: repoName }).click();
    await tab('Settings').click();
    await h1('Settings').waitFor();
    await page.getByRole('spinbutton', { name: 'Required approvals' }).fill('1');
    await page.getByRole('textbox', { name: 'Required checks (one name a line)' }).fill('build');
    await page.getByRole('button', { name: 'Save protection' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    await clean();

    await tab('Branches').click();
    await h1('Branches').waitFor();
    await page.getByRole('textbox', { name: 'Branch name' }).fill('feature');
    await page.getByRole('button', { name: 'Create branch' }).click();
    await page.getByRole('link', { name: 'feature', exact: true }).click();
    await h1(repoName).waitFor();
    expect(await page.getByLabel('Branch').inputValue()).toBe('feature');
    await page.getByRole('link', { name: 'index.html' }).click();
    await page.getByRole('link', { name: 'Edit index.html' }).click();
    await h1('Edit index.html').waitFor();
    const content = page.getByRole('textbox', { name: 'Content' });
    expect(await content.inputValue()).toContain('First version');
    await content.fill('<!doctype html>\n<title>Site</title>\n<h1>Second version</h1>\n');
    await page.getByRole('textbox', { name: 'Commit message' }).fill('Say second');
    await page.getByRole('button', { name: 'Commit to feature' }).click();
    await page.getByRole('region', { name: 'File index.html' }).getByText('Second version').waitFor();

    await tab('Pull requests').click();
    await page.getByRole('link', { name: 'New pull request' }).click();
    await h1('New pull request').waitFor();
    expect(await page.getByLabel('From').inputValue()).toBe('feature');
    await page.getByRole('status').filter({ hasText: '1 commit ahead' }).waitFor();
    await page.getByRole('textbox', { name: 'Title' }).fill('Second version');
    await clean();
    await page.getByRole('button', { name: 'Create pull request' }).click();
    await h1(/^Second version #\d+$/).waitFor();
    pullUrl = page.url();

    // The preview builds and the build check reports: the page follows them without a reload.
    const preview = page.getByRole('link', { name: /^Open the preview: / });
    await preview.waitFor({ timeout: 90_000 });
    const checks = page.getByRole('list', { name: 'Check runs' });
    await checks.getByText('build').waitFor();
    await page
      .getByRole('status')
      .filter({ hasText: /^Checks: success/ })
      .waitFor({ timeout: 30_000 });
    const previewUrl = (await preview.getAttribute('href')) as string;
    expect(previewUrl).toMatch(new RegExp(`^http://${slug}-pr-\\d+\\.localhost:${w.deployments?.edge.port}$`));

    // The author can't approve their own pull request, and merging without approval says why.
    expect(await page.getByRole('button', { name: 'Approve' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Merge pull request' }).click();
    const refused = page.getByRole('region', { name: 'Merge' }).getByRole('alert');
    expect(await refused.textContent()).toBe('This pull request needs more approvals before it can be merged.');

    // A comment on a line of the diff.
    await page.getByRole('button', { name: 'Comment on line 3 of index.html', exact: true }).click();
    await page.getByRole('textbox', { name: 'Comment on line 3' }).fill('Louder?');
    await page.getByRole('button', { name: 'Add comment' }).click();
    await page.getByRole('region', { name: 'Changes to index.html' }).getByText('Louder?').waitFor();
    await clean();

    // At 375 px the page holds: nothing wider than the screen, still no violation.
    await page.setViewportSize({ width: 375, height: 800 });
    expect(await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      375,
    );
    await clean();
    await page.setViewportSize({ width: 1440, height: 900 });

    const site = await context.newPage();
    await site.goto(previewUrl);
    expect(await site.getByRole('heading', { level: 1 }).textContent()).toBe('Second version');
    await site.close();
  }),
  180_000,
);

it(
  'a second person approves (by keyboard); the author merges; production serves the merge',
  shown(async () => {
    const second = await w.browser.newContext({ viewport: { width: 1440, height: 900 } });
    const { page: theirs, problems: theirProblems } = await newPage(second);
    other = theirs;
    await theirs.goto(pullUrl);
    await signIn(theirs, reviewer);
    await h1(/^Second version #\d+$/, theirs).waitFor();
    const approve = theirs.getByRole('button', { name: 'Approve' });
    await approve.focus();
    await theirs.keyboard.press('Enter');
    await theirs
      .getByRole('status')
      .filter({ hasText: /^Approved: 1 of 1 required approval/ })
      .waitFor();
    await clean(theirs, theirProblems);
    await second.close();
    other = undefined;

    await page
      .getByRole('status')
      .filter({ hasText: /^Approved: 1 of 1/ })
      .waitFor({ timeout: 30_000 });
    await page.getByLabel('Strategy').selectOption({ label: 'Squash and merge' });
    await page.getByRole('button', { name: 'Merge pull request' }).click();
    await page.getByText(/^Merged as [0-9a-f]{12}/).waitFor();
    await clean();

    const site = await context.newPage();
    const served = await until(
      async () => {
        await site.goto(productionUrl);
        const text = await site.getByRole('heading', { level: 1 }).textContent();
        return text === 'Second version' ? text : undefined;
      },
      120_000,
      1000,
    );
    expect(served).toBe('Second version');
    await site.close();
  }),
  240_000,
);
