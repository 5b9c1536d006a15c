import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, existsSync, openSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { chromiumPath } from '../api/chromium';
import { type Deployments, startDeployments } from '../deployments/helpers';
import { mailedCode } from '../helpers/outbox';
import { type Person, TestPlatform } from '../helpers/platform';

export { mailedCode };

/**
 * What a browser test of the web app needs: a test platform (with the deployments' edge and event
 * workers, so builds run and hosts answer), the app built from web/, an address serving it, and
 * Debian's Chromium (test/api/chromium.ts).
 *
 * The platform serves the app as `npm start` does (lib/local/web.ts: `/app/`, its own
 * `/app/config.json` naming the identity provider's web client `platform-web`), and the browser
 * signs in at this run's identity provider, another origin, which takes the app's loopback
 * `/app/callback` on the test platform's port (RFC 8252 §7.3).
 */
export const ROOT = resolve(__dirname, '..', '..');
const WEB = join(ROOT, 'web');
export const DIST = join(WEB, 'dist');

function newest(dir: string): number {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return latest;
}

/** Whether web/dist holds a build newer than every source of the app. */
function fresh(): boolean {
  const built = join(DIST, 'index.html');
  const sources = Math.max(
    newest(join(WEB, 'src')),
    newest(join(ROOT, 'client')),
    statSync(join(WEB, 'index.html')).mtimeMs,
    statSync(join(WEB, 'vite.config.mts')).mtimeMs,
  );
  return existsSync(built) && statSync(built).mtimeMs > sources;
}

const pause = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/**
 * Builds web/ into web/dist unless the build there is fresh. Test files run in parallel: one
 * builds while the others wait on a lock file (one taken more than 2 minutes ago is left over).
 */
export function ensureBuilt(): void {
  if (fresh()) return;
  const lock = join(tmpdir(), `platform-web-build-${createHash('sha256').update(WEB).digest('hex').slice(0, 12)}.lock`);
  let fd: number | undefined;
  while (fd === undefined) {
    try {
      fd = openSync(lock, 'wx');
    } catch {
      if (existsSync(lock) && Date.now() - statSync(lock).mtimeMs > 120_000) rmSync(lock, { force: true });
      else pause(200);
    }
  }
  try {
    if (fresh()) return;
    execFileSync(
      process.execPath,
      [
        join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'),
        'build',
        '-c',
        join(WEB, 'vite.config.mts'),
        '--logLevel',
        'error',
      ],
      {
        cwd: ROOT,
        // Jest sets NODE_ENV=test, which would make Vite bundle React's development build.
        env: { ...process.env, NODE_ENV: 'production' },
        stdio: ['ignore', 'ignore', 'inherit'],
      },
    );
  } finally {
    closeSync(fd);
    rmSync(lock, { force: true });
  }
}

export interface WebWorld {
  p: TestPlatform;
  /** The deployments' edge and event workers; absent when started with `deployments: false`. */
  deployments?: Deployments;
  /** The app's address, ending in `/app/`. */
  app: string;
  browser: Browser;
  close: () => Promise<void>;
}

/**
 * `deployments: false` for the work apps, which build and serve nothing; `platform` adds to the test
 * platform's options (the app is always served).
 */
export async function startWeb(
  options: { deployments?: boolean; platform?: Parameters<typeof TestPlatform.start>[0] } = {},
): Promise<WebWorld> {
  ensureBuilt();
  const p = await TestPlatform.start({ ...options.platform, web: { dist: DIST } });
  const deployments = options.deployments === false ? undefined : await startDeployments();
  const browser = await chromium.launch({
    executablePath: await chromiumPath(),
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  return {
    p,
    deployments,
    app: `${p.baseUrl}/app/`,
    browser,
    close: async () => {
      await browser.close();
      await deployments?.close();
      await p.close();
    },
  };
}

/**
 * A page that records what would be a defect: errors thrown in the page and console errors,
 * except the browser's own line for an API answer of 4xx, which the app shows where the person
 * acted (the tests read it there).
 */
export async function newPage(context: BrowserContext): Promise<{ page: Page; problems: string[] }> {
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() !== 'error') return;
    const at = m.location().url;
    if (!page.url().includes('/app/')) return;
    if (/status of 4\d\d/.test(m.text()) && new URL(at, 'http://x').pathname.startsWith('/v1/')) return;
    problems.push(`console: ${m.text()} (${at})`);
  });
  return { page, problems };
}

/** axe-core on the page as it is: no serious or critical violation. */
export async function axe(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/**
 * Signs `person` in from wherever the page is: the app's sign-in button when it shows one, then
 * the identity provider's own page (its origin, not the app's) for the email and the mailed code,
 * back to the app through its `/app/callback`.
 */
export async function signIn(page: Page, person: Person): Promise<void> {
  const app = new URL(page.url()).origin;
  const email = page.getByRole('textbox', { name: 'Email' });
  const button = page.getByRole('button', { name: 'Sign in' });
  await email.or(button).first().waitFor();
  if (await button.isVisible()) {
    await button.click();
    // With the identity provider's session (this browser signed in before) it answers at once.
    const signedIn = page.getByRole('navigation', { name: 'Sections' });
    await email.or(signedIn).first().waitFor();
    if (await signedIn.isVisible()) return;
  }
  const idp = new URL(page.url());
  if (idp.origin !== new URL(process.env.AUTH_URL as string).origin || idp.pathname !== '/authorize') {
    throw new Error(`signing in at ${idp.origin}${idp.pathname}, not the identity provider's page`);
  }
  if (idp.searchParams.size) {
    const asked = Object.fromEntries(idp.searchParams);
    if (asked.client_id !== 'platform-web' || asked.redirect_uri !== `${app}/app/callback`) {
      throw new Error(`the app asked for ${asked.client_id} and ${asked.redirect_uri}`);
    }
  }
  await email.fill(person.email);
  await page.getByRole('button', { name: 'Continue' }).click();
  const code = page.getByRole('textbox', { name: 'Code' });
  await code.waitFor();
  await code.fill(mailedCode(person.email));
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(
    (url) => url.origin === app && url.pathname.startsWith('/app/') && !url.pathname.endsWith('/callback'),
  );
}

/** A test's steps that, when they fail, add what the page said (its URL and text) to the error. */
export const showingPage = (page: () => Page, steps: () => Promise<void>) => async () => {
  try {
    await steps();
  } catch (err) {
    const text = await page()
      .locator('body')
      .textContent()
      .catch(() => '');
    (err as Error).stack =
      `${(err as Error).message}\n\nThe page at ${page().url()} said:\n${text?.slice(0, 3000)}\n${(err as Error).stack ?? ''}`;
    throw err;
  }
};

/** axe at 1440 px and at 375 px, where nothing may be wider than the screen; no console error. */
export async function checkPage(page: Page, problems: string[]): Promise<void> {
  expect(await axe(page)).toEqual([]);
  await page.setViewportSize({ width: 375, height: 800 });
  expect(await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  expect(await axe(page)).toEqual([]);
  await page.setViewportSize({ width: 1440, height: 900 });
  expect(problems).toEqual([]);
}
