import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

/**
 * The web app's first load stays small: the JavaScript a browser runs to show the projects page
 * (the start page), i.e. the entry chunk, the projects page's chunk and every chunk they import
 * statically, is at most 170 KB gzipped. The build is made here, into a folder of its own, and
 * read from Vite's manifest; routes are split (each page a chunk loaded by its route), and the
 * syntax highlighter is in none of the first-load chunks.
 */
interface Chunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}

const ROOT = join(__dirname, '..', '..');
const BUDGET = 170 * 1024;
let outDir: string;
let manifest: Record<string, Chunk>;

beforeAll(() => {
  outDir = mkdtempSync(join(tmpdir(), 'web-budget-'));
  execFileSync(
    process.execPath,
    [
      join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'),
      'build',
      '-c',
      join(ROOT, 'web', 'vite.config.mts'),
      '--outDir',
      outDir,
      '--emptyOutDir',
      '--logLevel',
      'error',
    ],
    // As `npm run build:web` builds it (jest sets NODE_ENV=test, which would bundle React's development build).
    { cwd: ROOT, env: { ...process.env, NODE_ENV: 'production' }, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  manifest = JSON.parse(readFileSync(join(outDir, '.vite', 'manifest.json'), 'utf8'));
}, 120_000);
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

/** The manifest keys of `keys` and all they import statically. */
function closure(keys: string[]): Set<string> {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    for (const next of manifest[key]?.imports ?? []) visit(next);
  };
  keys.forEach(visit);
  return seen;
}

const entryKey = () => Object.entries(manifest).find(([, c]) => c.isEntry)?.[0] as string;
const gzipped = (key: string) => gzipSync(readFileSync(join(outDir, manifest[key]?.file as string))).length;

it('the projects page loads at most 170 KB of gzipped JavaScript', () => {
  const first = closure([entryKey(), 'src/pages/projects.tsx']);
  const total = [...first].reduce((sum, key) => sum + gzipped(key), 0);
  expect(total).toBeGreaterThan(50 * 1024);
  expect(total).toBeLessThanOrEqual(BUDGET);
});

it('splits routes: every page is its own chunk, loaded by the entry on demand', () => {
  const entry = manifest[entryKey()] as Chunk;
  const pages = Object.keys(manifest).filter((k) => k.startsWith('src/pages/') && k !== 'src/pages/home.tsx');
  expect(pages.length).toBeGreaterThanOrEqual(20);
  for (const page of pages) expect(entry.dynamicImports).toContain(page);
  expect(closure([entryKey()]).has('src/pages/pull.tsx')).toBe(false);
});

it('keeps the highlighter out of the first load', () => {
  const first = [...closure([entryKey(), 'src/pages/projects.tsx'])];
  expect(first.filter((k) => /shiki|highlight/.test(k))).toEqual([]);
  expect(Object.keys(manifest).some((k) => k.includes('shiki'))).toBe(true);
});
