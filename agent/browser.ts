import { existsSync } from 'node:fs';
import { allowed, type Outcome, type Policy } from './runners';

interface BrowserBatch {
  pages: { url: string; waitFor?: string; screenshot?: boolean; text?: boolean }[];
}

/** Where a browser may be: `AGENT_CHROMIUM`, else the usual system paths. */
export function findChromium(env = process.env): string | undefined {
  const candidates = [env.AGENT_CHROMIUM, '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];
  return candidates.find((c): c is string => typeof c === 'string' && c !== '' && existsSync(c));
}

const PAGE_TIMEOUT_MS = 30_000;
const TEXT_CHARS = 200_000;

/**
 * `browser.batch`: each page in a headless Chromium (playwright-core), in a fresh context with no
 * storage shared between jobs. Every request the page makes, redirects and subresources included,
 * goes through the device's allowlist: a host outside it is aborted and reported, as `http.batch`
 * does. Per page: the final URL, the status, the title, and on request the text and a PNG
 * screenshot (base64).
 */
export async function runBrowserBatch(
  input: BrowserBatch,
  policy: Policy,
  signal: AbortSignal,
  executablePath: string | null = findChromium() ?? null,
): Promise<Outcome> {
  if (!executablePath) {
    return { status: 'failed', error: 'No browser on this device.', results: null, refusedHosts: [] };
  }
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
  });
  const refused = new Set<string>();
  const pages: unknown[] = [];
  try {
    for (const spec of input.pages) {
      if (signal.aborted) break;
      const context = await browser.newContext({ serviceWorkers: 'block' });
      const blocked = new Set<string>();
      await context.route('**/*', (route) => {
        const host = new URL(route.request().url()).hostname;
        if (allowed(policy, host)) return route.continue();
        blocked.add(host);
        refused.add(host);
        return route.abort('blockedbyclient');
      });
      const page = await context.newPage();
      try {
        const response = await page.goto(spec.url, { timeout: PAGE_TIMEOUT_MS, waitUntil: 'load' });
        if (spec.waitFor) await page.waitForSelector(spec.waitFor, { timeout: PAGE_TIMEOUT_MS });
        pages.push({
          url: spec.url,
          finalUrl: page.url(),
          status: response?.status() ?? null,
          title: await page.title(),
          // biome-ignore lint/performance/useDomNodeTextContent: the text as the page shows it (Playwright's innerText), not its source text
          ...(spec.text ? { text: (await page.innerText('body')).slice(0, TEXT_CHARS) } : {}),
          ...(spec.screenshot ? { screenshot: (await page.screenshot({ type: 'png' })).toString('base64') } : {}),
          ...(blocked.size > 0 ? { blockedHosts: [...blocked] } : {}),
        });
      } catch (err) {
        const host = new URL(spec.url).hostname;
        const why = blocked.has(host)
          ? `${host} is not in this device's allowlist.`
          : (err as Error).message.split('\n')[0];
        pages.push({ url: spec.url, error: why, ...(blocked.size > 0 ? { blockedHosts: [...blocked] } : {}) });
      } finally {
        await context.close();
      }
    }
  } finally {
    await browser.close();
  }
  const failed = pages.filter((x) => (x as { error?: string }).error);
  return {
    status: failed.length === 0 && !signal.aborted ? 'done' : 'failed',
    ...(failed.length > 0 ? { error: `${failed.length} of ${input.pages.length} pages failed.` } : {}),
    results: { pages },
    refusedHosts: [...refused],
  };
}
