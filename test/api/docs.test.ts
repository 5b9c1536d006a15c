import { type Browser, chromium, type Page } from 'playwright-core';
import { docsRoutes } from '../../lib/local/docs';
import { routeGroups } from '../../lib/route-groups';
import { TestPlatform } from '../helpers/platform';
import { chromiumPath } from './chromium';

/**
 * The reference page at GET /docs, in headless Chromium: it loads from this origin only (no CDN),
 * lists the route groups, and shows a route's request schema. Chromium is Debian's package when
 * installed, else the one in the npm package @sparticuz/chromium (./chromium.ts); the test fails
 * (never skips) without either.
 */

let p: TestPlatform;
let browser: Browser;
let page: Page;
const requests: string[] = [];
const problems: string[] = [];

beforeAll(async () => {
  const executablePath = await chromiumPath();
  p = await TestPlatform.start({ extra: docsRoutes() });
  browser = await chromium.launch({
    executablePath,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  page = await browser.newPage();
  page.on('request', (r) => requests.push(r.url()));
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
});
afterAll(async () => {
  await browser?.close();
  await p?.close();
});

describe('GET /docs', () => {
  it('is a page with a strict CSP that loads the renderer from this platform', async () => {
    const res = await p.get('/docs', { token: null });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(res.text).toContain('<script src="/docs/assets/swagger-ui-bundle.js"></script>');
    expect(res.text).not.toMatch(/https?:\/\//);
    const bundle = await p.get('/docs/assets/swagger-ui-bundle.js', { token: null });
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect((await p.get('/docs/assets/index.html', { token: null })).status).toBe(404);
  });

  it('renders in Chromium and lists every route group', async () => {
    await page.goto(`${p.baseUrl}/docs`);
    // The renderer fills the page in turns: wait for the last group's section.
    const last = routeGroups[routeGroups.length - 1]?.name as string;
    await page.locator(`.opblock-tag[data-tag="${last}"]`).waitFor({ timeout: 30_000 });
    const tags = await page.locator('.opblock-tag').evaluateAll((els) => els.map((e) => e.getAttribute('data-tag')));
    expect(tags).toEqual(routeGroups.map((g) => g.name));
    expect(await page.locator('.info .title').textContent()).toContain('Platform API');
    // Groups start folded; one opens with its routes.
    await page.locator('.opblock-tag[data-tag="projects"]').click();
    await page.locator('#operations-projects-postProjects').waitFor();
    expect(await page.locator('.opblock-summary-path').count()).toBeGreaterThan(1);
  });

  it("shows one route's schema: POST /v1/orgs/{orgId}/projects and its request body", async () => {
    const op = page.locator('#operations-projects-postProjects');
    await op.locator('.opblock-summary-control').click();
    await op.locator('.opblock-body').waitFor();
    expect(await op.locator('.opblock-description-wrapper').first().textContent()).toContain('Scope projects:write');
    const body = op.locator('.opblock-section-request-body');
    await body.getByRole('tab', { name: 'Schema' }).click();
    const model = body.locator('.model-box');
    await model.waitFor();
    // biome-ignore lint/performance/useDomNodeTextContent: the rendered lines, one per field, as a person reads them
    const text = await model.innerText();
    for (const field of ['name', 'slug', 'repoId', 'framework', 'rootDirectory', 'location']) {
      expect(text).toMatch(new RegExp(`^${field}`, 'm'));
    }
    // The constraints of the zod schema, as the renderer reads them from the document.
    expect(text).toContain('[1, 64] characters');
    expect(text).toContain('^[a-z0-9][a-z0-9-]{0,38}[a-z0-9]$');
    const responses = await op.locator('.responses-table').first().textContent();
    expect(responses).toContain('A project with this slug exists.');
  });

  it('fetched nothing but this platform, without errors', () => {
    expect(requests.length).toBeGreaterThan(3);
    expect(requests.filter((u) => !u.startsWith(`${p.baseUrl}/`))).toEqual([]);
    expect(requests).toContain(`${p.baseUrl}/openapi.json`);
    expect(problems).toEqual([]);
  });
});
