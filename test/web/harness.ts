import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, existsSync, openSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, request, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, normalize, resolve } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { chromiumPath } from '../api/chromium';
import { type Deployments, startDeployments } from '../deployments/helpers';
import { type Person, TestPlatform } from '../helpers/platform';

/**
 * What a browser test of the web app needs: a test platform (with the deployments' edge and event
 * workers, so builds run and hosts answer), the app built from web/, an address serving it, and
 * Debian's Chromium (test/api/chromium.ts).
 *
 * Serving: when the platform serves the app itself (`GET /app/config.json` answers), the test uses
 * the platform's own address. Otherwise this harness serves web/dist at `/app/` on an address of
 * its own, proxies the API to the platform and the identity provider's endpoints to it (so the
 * page, the API and sign-in share one origin), and writes `/app/config.json` for the identity
 * provider's own client (`platform`, redirected to a loopback `/device/callback`, which this
 * server also answers with the app).
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

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
};

function proxy(req: IncomingMessage, res: ServerResponse, target: string, rewrite?: (body: string) => string): void {
  const url = new URL(req.url ?? '/', target);
  const headers = { ...req.headers, host: url.host };
  if (rewrite) delete headers['accept-encoding'];
  const out = request(url, { method: req.method, headers }, (answer) => {
    if (!rewrite) {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
      return;
    }
    const chunks: Buffer[] = [];
    answer.on('data', (c: Buffer) => chunks.push(c));
    answer.on('end', () => {
      const body = rewrite(Buffer.concat(chunks).toString('utf8'));
      const { 'content-length': _, ...rest } = answer.headers;
      res.writeHead(answer.statusCode ?? 502, rest);
      res.end(body);
    });
  });
  out.on('error', () => {
    res.writeHead(502);
    res.end();
  });
  req.pipe(out);
}

/** web/dist at /app/, the API and the identity provider behind one origin (see above). */
async function serveApp(apiUrl: string, authUrl: string): Promise<{ server: Server; origin: string }> {
  let origin = '';
  const index = () => readFileSync(join(DIST, 'index.html'));
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] as string;
    if (path === '/app/config.json') {
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      res.end(
        JSON.stringify({ apiUrl: '', authUrl: origin, clientId: 'platform', redirectUri: `${origin}/device/callback` }),
      );
      return;
    }
    if (path === '/device/callback' || path === '/app' || path.startsWith('/app/')) {
      const file = normalize(join(DIST, decodeURIComponent(path.replace(/^\/app\/?/, ''))));
      const asset = file.startsWith(DIST) && existsSync(file) && statSync(file).isFile();
      res.writeHead(asset || !extname(path) ? 200 : 404, {
        'content-type': asset ? (TYPES[extname(file)] ?? 'application/octet-stream') : 'text/html; charset=utf-8',
      });
      res.end(asset ? readFileSync(file) : extname(path) ? '' : index());
      return;
    }
    if (['/authorize', '/token', '/userinfo', '/.well-known/jwks.json'].includes(path)) return proxy(req, res, authUrl);
    if (path === '/.well-known/openid-configuration') {
      return proxy(req, res, authUrl, (body) => body.split(authUrl).join(origin));
    }
    proxy(req, res, apiUrl);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { server, origin };
}

export interface WebWorld {
  p: TestPlatform;
  deployments: Deployments;
  /** The app's address, ending in `/app/`. */
  app: string;
  browser: Browser;
  close: () => Promise<void>;
}

export async function startWeb(): Promise<WebWorld> {
  ensureBuilt();
  const p = await TestPlatform.start();
  const deployments = await startDeployments();
  const own = await fetch(`${p.baseUrl}/app/config.json`).catch(() => undefined);
  const served = own?.ok ? undefined : await serveApp(p.baseUrl, process.env.AUTH_URL as string);
  const origin = served?.origin ?? p.baseUrl;
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
    app: `${origin}/app/`,
    browser,
    close: async () => {
      await browser.close();
      served?.server.closeAllConnections();
      served?.server.close();
      await deployments.close();
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
    if (!page.url().includes('/app/') && !page.url().includes('/device/callback')) return;
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

/** The sign-in code the identity provider mailed to `email`: the newest message to it in the outbox. */
export function mailedCode(email: string): string {
  const dir = process.env.OUTBOX_DIR as string;
  const mail = readdirSync(dir)
    .filter((f) => f.endsWith('.eml'))
    .sort()
    .reverse()
    .map((f) => readFileSync(join(dir, f), 'utf8'))
    .find((text) => new RegExp(`^To: ${email.replace(/[.+]/g, '\\$&')}\\r?$`, 'm').test(text));
  const code = /^Subject: Your sign-in code: (\d{8})\r?$/m.exec(mail ?? '')?.[1];
  if (!code) throw new Error(`no sign-in code mailed to ${email}`);
  return code;
}

/**
 * Signs `person` in from wherever the page is: the app's sign-in button when it shows one, then
 * the identity provider's email and mailed code, back to the app.
 */
export async function signIn(page: Page, person: Person): Promise<void> {
  const email = page.getByRole('textbox', { name: 'Email' });
  const button = page.getByRole('button', { name: 'Sign in' });
  await email.or(button).first().waitFor();
  if (await button.isVisible()) await button.click();
  await email.fill(person.email);
  await page.getByRole('button', { name: 'Continue' }).click();
  const code = page.getByRole('textbox', { name: 'Code' });
  await code.waitFor();
  await code.fill(mailedCode(person.email));
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/app\//);
}
