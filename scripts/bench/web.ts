import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import { ROOT } from '../build';
import type { BenchPlatform } from './platform';
import { median } from './stats';

/**
 * The platform's web app (web/, built into web/dist), as a person meets it:
 * - first-load JavaScript: the entry chunk and every chunk it imports statically (vite's manifest;
 *   without one, the page's module script and its modulepreload links), each gzipped at level 9,
 *   against the budget of 170 KB;
 * - Lighthouse 12 (performance and accessibility) on the projects page, a pull request's page, a
 *   board, an issue and a page's history,
 *   driving Debian's Chromium (`CHROMIUM_PATH`, default /usr/bin/chromium), mobile (Lighthouse's
 *   default: simulated slow 4G and a 4× slower CPU) and desktop, median of RUNS runs each. The
 *   browser signs in first at the identity provider (email and the code from the outbox), in the
 *   profile Lighthouse then uses, so each audited load finds the session and signs in silently
 *   (`prompt=none`), as a reload does; the storage is not reset between runs.
 * The app is served by the local gateway as `npm start` serves it (lib/local/web.ts); a project
 * and a pull request are made through the API. Without web/dist (or Chromium) it says why and
 * measures what it can.
 */
export const BUDGET_BYTES = 170 * 1024;
const RUNS = 3;

export interface FirstLoad {
  files: { file: string; bytes: number; gzip: number }[];
  bytes: number;
  gzip: number;
  css: number;
}

export interface LighthouseFigure {
  page: string;
  path: string;
  profile: 'mobile' | 'desktop';
  performance: number;
  accessibility: number;
  /** Largest contentful paint, total blocking time, ms (medians). */
  lcp: number;
  tbt: number;
}

export interface WebFigures {
  dist: string;
  firstLoad?: FirstLoad;
  lighthouse: LighthouseFigure[];
  skipped: string[];
}

/** The entry chunk and its static imports, from vite's manifest or, without it, from index.html. */
export function firstLoadJs(dist: string): FirstLoad {
  const manifestFile = join(dist, '.vite', 'manifest.json');
  const js = new Set<string>();
  const css = new Set<string>();
  if (existsSync(manifestFile)) {
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Record<
      string,
      { file: string; isEntry?: boolean; imports?: string[]; css?: string[] }
    >;
    const visit = (key: string) => {
      const chunk = manifest[key];
      if (!chunk || js.has(chunk.file)) return;
      js.add(chunk.file);
      for (const c of chunk.css ?? []) css.add(c);
      for (const i of chunk.imports ?? []) visit(i);
    };
    for (const [key, chunk] of Object.entries(manifest)) if (chunk.isEntry) visit(key);
  } else {
    const html = readFileSync(join(dist, 'index.html'), 'utf8');
    const base = /src="\/app\/([^"]+\.js)"|href="\/app\/([^"]+\.(?:js|css))"/g;
    for (const m of html.matchAll(base)) {
      const file = (m[1] ?? m[2]) as string;
      (file.endsWith('.css') ? css : js).add(file);
    }
  }
  const files = [...js].map((file) => {
    const raw = readFileSync(join(dist, file));
    return { file, bytes: raw.length, gzip: gzipSync(raw, { level: 9 }).length };
  });
  return {
    files,
    bytes: files.reduce((n, f) => n + f.bytes, 0),
    gzip: files.reduce((n, f) => n + f.gzip, 0),
    css: [...css].reduce((n, f) => n + gzipSync(readFileSync(join(dist, f)), { level: 9 }).length, 0),
  };
}

/** The newest sign-in code mailed to `email` in the outbox. */
function mailedCode(outbox: string, email: string): string | undefined {
  const mail = readdirSync(outbox)
    .filter((f) => f.endsWith('.eml'))
    .sort()
    .reverse()
    .map((f) => readFileSync(join(outbox, f), 'utf8'))
    .find((text) => text.includes(`To: ${email}`));
  return /^Subject: Your sign-in code: (\d{8})\r?$/m.exec(mail ?? '')?.[1];
}

export async function benchWeb(
  platform: BenchPlatform,
  say: (line: string) => void = () => undefined,
  options: { runs?: number; dist?: string } = {},
): Promise<WebFigures> {
  const { defaultWebDist, webRoutes } = await import('../../lib/local/web');
  const { WEB_CLIENT_ID } = await import('../../lib/web-app-policy');
  const dist = options.dist ?? defaultWebDist();
  const figures: WebFigures = { dist: relative(ROOT, dist) || dist, lighthouse: [], skipped: [] };
  if (!existsSync(join(dist, 'index.html'))) {
    figures.skipped.push(`${figures.dist} is missing: nothing measured (npm run build:web builds the app)`);
    return figures;
  }
  figures.firstLoad = firstLoadJs(dist);
  const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(chromium)) {
    figures.skipped.push(`no Chromium at ${chromium} (CHROMIUM_PATH): Lighthouse not run`);
    return figures;
  }

  const dir = mkdtempSync(join(tmpdir(), 'platform-bench-web-'));
  const outbox = join(dir, 'outbox');
  mkdirSync(outbox);
  const saved = {
    OUTBOX_DIR: process.env.OUTBOX_DIR,
    MAIL_FROM: process.env.MAIL_FROM,
    WEB_APP_URL: process.env.WEB_APP_URL,
    DATA_DIR: process.env.DATA_DIR,
  };
  // The sign-in code goes by mail to an outbox of this run's, as on `npm start`.
  process.env.OUTBOX_DIR = outbox;
  process.env.MAIL_FROM ??= 'notifications@localhost';
  process.env.DATA_DIR ??= join(dir, 'data');
  const { createGateway, listen } = await import('../../lib/local/gateway');
  let base = '';
  const gateway = createGateway({
    extra: webRoutes({
      dist,
      config: () => ({
        apiUrl: '',
        authUrl: process.env.AUTH_URL as string,
        clientId: WEB_CLIENT_ID,
        redirectUri: `${base}/app/callback`,
      }),
    }),
  });
  // The identity provider's host (127.0.0.1): its session cookie is then same-site with the app.
  base = `http://127.0.0.1:${await listen(gateway, 0)}`;
  process.env.WEB_APP_URL = base;
  const { chromium: playwright } = await import('playwright-core');
  let context: Awaited<ReturnType<typeof playwright.launchPersistentContext>> | undefined;
  try {
    const api = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${base}/v1/orgs/${platform.orgId}${path}`, {
        method,
        headers: { authorization: `Bearer ${platform.jwt}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`);
      return JSON.parse(text) as any;
    };
    say('web app: a project and a pull request through the API');
    const suffix = randomBytes(3).toString('hex');
    await api('POST', '/projects', { name: `Web bench ${suffix}`, slug: `web-bench-${suffix}`, framework: 'static' });
    const repo = `web-bench-${suffix}`;
    await api('POST', '/repos', { name: repo, readme: true });
    const branches = (await api('GET', `/repos/${repo}/branches`)) as { branches: { name: string; commit: string }[] };
    await api('POST', `/repos/${repo}/contents`, {
      branch: 'main',
      parentCommitId: branches.branches.find((b) => b.name === 'main')?.commit,
      newBranch: 'feature',
      message: 'A change to review',
      changes: [
        {
          action: 'put',
          path: 'src/page.ts',
          content: Buffer.from('export const title = "Bench";\n').toString('base64'),
        },
      ],
    });
    const pull = (
      await api('POST', `/repos/${repo}/pulls`, { title: 'A change to review', source: 'feature', target: 'main' })
    ).pull as { number: number };
    say('web app: a board with issues and a page with two versions through the API');
    // A page's content is kept in the artifacts bucket (run alone, no other section made one).
    if (!process.env.ARTIFACTS_BUCKET) {
      process.env.ARTIFACTS_BUCKET = `bench-web-${suffix}`;
      const { storage } = await import('../../shared/ports/object-storage');
      await storage().createBucket(process.env.ARTIFACTS_BUCKET);
    }
    const key = `WB${suffix
      .slice(0, 3)
      .toUpperCase()
      .replace(/[^A-Z]/g, 'X')}`;
    const space = (await api('POST', '/issues/spaces', { key, name: 'Web bench', template: 'scrum' })).space as {
      config: { boardId: string };
    };
    for (const summary of ['Plan the launch', 'Write the copy', 'Fix the header', 'Review the budget', 'Ship it'])
      await api('POST', '/issues', { space: key, summary });
    const made = (await api('POST', '/pages', { title: 'Handbook', content: '# Welcome\n\nRead this first.' }))
      .page as {
      pageId: string;
      contentVersion: number;
    };
    await api('PUT', `/pages/${made.pageId}/content`, {
      content: '# Welcome\n\nRead this first, then the rest.',
      baseVersion: made.contentVersion,
    });
    const org = `/app/orgs/${platform.orgId}`;
    const pages = [
      { page: 'projects', path: `${org}/projects` },
      { page: 'pull request', path: `${org}/repos/${repo}/pulls/${pull.number}` },
      { page: 'board', path: `${org}/tracker/boards/${space.config.boardId}` },
      { page: 'issue', path: `${org}/tracker/issues/${key}-1` },
      { page: 'page history', path: `${org}/pages/${made.pageId}/history` },
    ];

    say('web app: signing in at the identity provider in the browser Lighthouse uses');
    const port = await (await import('../../shared/kernel/net/free-port')).freePort();
    context = await playwright.launchPersistentContext(join(dir, 'profile'), {
      executablePath: chromium,
      headless: true,
      args: [`--remote-debugging-port=${port}`, '--no-sandbox', '--disable-dev-shm-usage'],
    });
    const page = context.pages()[0] ?? (await context.newPage());
    const verifier = randomBytes(32).toString('base64url');
    const authorize = new URL(`${process.env.AUTH_URL}/authorize`);
    authorize.search = new URLSearchParams({
      client_id: WEB_CLIENT_ID,
      response_type: 'code',
      redirect_uri: `${base}/app/callback`,
      scope: 'openid email profile',
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
      state: 'bench',
    }).toString();
    await page.goto(authorize.toString());
    await page.fill('input[name=email]', platform.ownerEmail);
    await page.click('button');
    await page.waitForSelector('input[name=sign_in_code]');
    const code = mailedCode(outbox, platform.ownerEmail);
    if (!code) throw new Error('no sign-in code in the outbox');
    await page.fill('input[name=sign_in_code]', code);
    // Then back at the app's callback (whose code this page, not the app, asked for): the session is set.
    await page.click('button', { noWaitAfter: true });
    const deadline = Date.now() + 30_000;
    const hasSession = async () =>
      (await (context as NonNullable<typeof context>).cookies(process.env.AUTH_URL)).some(
        (c) => c.name === 'platform_idp_session',
      );
    while (!(await hasSession())) {
      if (Date.now() > deadline) throw new Error('no session at the identity provider after signing in');
      await new Promise((r) => setTimeout(r, 200));
    }
    await page.close();

    const lighthouse = (await import('lighthouse')).default;
    const desktop = (await import('lighthouse/core/config/desktop-config.js')).default;
    const runs = options.runs ?? RUNS;
    for (const target of pages) {
      for (const profile of ['mobile', 'desktop'] as const) {
        const scores: { performance: number; accessibility: number; lcp: number; tbt: number }[] = [];
        for (let i = 0; i < runs; i++) {
          say(`web app: Lighthouse ${profile} on the ${target.page} page, run ${i + 1} of ${runs}`);
          const result = await lighthouse(
            `${base}${target.path}`,
            {
              port,
              output: 'json',
              logLevel: 'error',
              onlyCategories: ['performance', 'accessibility'],
              // The identity provider's session cookie must stay: the app signs in with it.
              disableStorageReset: true,
            },
            profile === 'desktop' ? desktop : undefined,
          );
          const lhr = result?.lhr;
          if (!lhr) throw new Error(`Lighthouse gave no result for ${target.path}`);
          if (lhr.runtimeError) throw new Error(`Lighthouse on ${target.path}: ${lhr.runtimeError.message}`);
          // Signed in: the page read the API with a token (a signed-out page makes no such call).
          const requests = (
            lhr.audits['network-requests']?.details as { items?: { url: string; statusCode: number }[] }
          )?.items;
          const read = requests?.some(
            (r) => r.url.startsWith(`${base}/v1/orgs/${platform.orgId}/`) && r.statusCode === 200,
          );
          if (!lhr.finalDisplayedUrl.startsWith(`${base}${target.path}`) || !read) {
            throw new Error(
              `Lighthouse on ${target.path} ended at ${lhr.finalDisplayedUrl} without the API read: not signed in`,
            );
          }
          scores.push({
            performance: Math.round((lhr.categories.performance?.score ?? 0) * 100),
            accessibility: Math.round((lhr.categories.accessibility?.score ?? 0) * 100),
            lcp: lhr.audits['largest-contentful-paint']?.numericValue ?? 0,
            tbt: lhr.audits['total-blocking-time']?.numericValue ?? 0,
          });
        }
        figures.lighthouse.push({
          page: target.page,
          path: target.path
            .replace(platform.orgId, '<org>')
            .replace(repo, '<repo>')
            .replace(space.config.boardId, '<board>')
            .replace(made.pageId, '<page>')
            .replace(`${key}-`, '<KEY>-'),
          profile,
          performance: median(scores.map((s) => s.performance)),
          accessibility: median(scores.map((s) => s.accessibility)),
          lcp: median(scores.map((s) => s.lcp)),
          tbt: median(scores.map((s) => s.tbt)),
        });
      }
    }
    return figures;
  } finally {
    await context?.close().catch(() => undefined);
    gateway.closeAllConnections();
    gateway.close();
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    rmSync(dir, { recursive: true, force: true });
  }
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

export function renderWeb(f: WebFigures): string {
  const out: string[] = [];
  if (f.firstLoad) {
    const within = f.firstLoad.gzip <= BUDGET_BYTES;
    out.push(
      `First-load JavaScript of \`${f.dist}\` (the entry chunk and its static imports, gzip -9): **${kb(f.firstLoad.gzip)}** ` +
        `(${kb(f.firstLoad.bytes)} raw, ${f.firstLoad.files.length} file(s)), budget ${kb(BUDGET_BYTES)}: ${within ? 'within' : '**over**'}; ` +
        `CSS ${kb(f.firstLoad.css)} gzipped.`,
    );
  }
  if (f.lighthouse.length > 0) {
    out.push(
      '',
      `Lighthouse 12 on Chromium, signed in (median of ${RUNS} runs; goals: performance ≥ 90, accessibility ≥ 95):`,
      '',
      '| page | profile | performance | accessibility | LCP | TBT |',
      '|---|---|---:|---:|---:|---:|',
      ...f.lighthouse.map(
        (l) =>
          `| ${l.page} (\`${l.path}\`) | ${l.profile} | ${l.performance} | ${l.accessibility} | ${Math.round(l.lcp)} ms | ${Math.round(l.tbt)} ms |`,
      ),
    );
  }
  for (const s of f.skipped) out.push('', `Not measured: ${s}.`);
  return `${out.join('\n').trim()}\n`;
}

if (require.main === module) {
  // `npx tsx scripts/bench/web.ts`: this figure alone, on a bench platform of its own.
  void import('./platform').then(({ runAlone }) =>
    runAlone(async (platform) =>
      renderWeb(await benchWeb(platform, (line) => process.stderr.write(`bench: ${line}\n`))),
    ),
  );
}
