import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { routeGroups } from '../lib/route-groups';
import { readBlock, renderSummary, SUMMARY_MARKERS } from '../scripts/bench/blocks';

/**
 * The README and docs/ hold together: every relative link (`[x](path)`, `[x](path#anchor)`,
 * `[x](#anchor)`) points at a file that exists and, with an anchor, at a heading of that file
 * (GitHub's slugs); the README stays short; every route group has its page; the README's bench
 * summary is the summary of the report in docs/benchmarks.md.
 */
const root = resolve(__dirname, '..');

/** README.md and every markdown file under docs/, as paths from the repository root. */
function documents(base: string): string[] {
  const under = (dir: string): string[] =>
    readdirSync(join(base, dir)).flatMap((name) => {
      const path = join(dir, name);
      if (statSync(join(base, path)).isDirectory()) return under(path);
      return name.endsWith('.md') ? [path] : [];
    });
  return ['README.md', ...(existsSync(join(base, 'docs')) ? under('docs') : [])];
}

/** The lines of a markdown text outside fenced code blocks (others blanked, so numbers stay right). */
function prose(text: string): string[] {
  let fence: string | undefined;
  return text.split('\n').map((line) => {
    const opener = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence) {
      if (opener?.startsWith(fence)) fence = undefined;
      return '';
    }
    if (opener) {
      fence = opener;
      return '';
    }
    return line;
  });
}

/** GitHub's anchor of a heading: lowercased, punctuation but `-` and `_` removed, each space a `-`. */
function slug(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M} _-]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors of a markdown file's headings; a repeated heading gets `-1`, `-2`, … as on GitHub. */
function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of prose(text)) {
    const heading = /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const base = slug(heading);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  for (const m of text.matchAll(/<a\s+(?:name|id)="([^"]+)"/g)) anchors.add(m[1] as string);
  return anchors;
}

interface Link {
  file: string;
  line: number;
  target: string;
}

/** Every relative link of a markdown file (inline code spans and code blocks are not links). */
function linksOf(base: string, file: string): Link[] {
  const lines = prose(readFileSync(join(base, file), 'utf8'));
  return lines.flatMap((text, i) =>
    [...text.replace(/`[^`]*`/g, '').matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)]
      .map((m) => m[1] as string)
      .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target))
      .map((target) => ({ file, line: i + 1, target })),
  );
}

/** What is wrong with the links of the documents under `base`: one line per broken link. */
function brokenLinks(base: string): string[] {
  const anchors = new Map<string, Set<string>>();
  const anchorsIn = (path: string) => {
    let found = anchors.get(path);
    if (!found) {
      found = anchorsOf(readFileSync(join(base, path), 'utf8'));
      anchors.set(path, found);
    }
    return found;
  };
  return documents(base).flatMap((file) =>
    linksOf(base, file).flatMap(({ line, target }) => {
      const where = `${file}:${line}: ${target}`;
      const [rawPath = '', anchor] = target.split('#', 2);
      const path = rawPath === '' ? file : relative(base, resolve(join(base, dirname(file)), decodeURI(rawPath)));
      if (path.startsWith('..') || !existsSync(join(base, path))) return [`${where}: no file ${path}`];
      if (anchor === undefined || anchor === '') return [];
      if (!path.endsWith('.md')) return [`${where}: an anchor into ${path}, which has no headings`];
      return anchorsIn(path).has(decodeURIComponent(anchor)) ? [] : [`${where}: no heading #${anchor} in ${path}`];
    }),
  );
}

test('every relative link of the README and docs/ points at a file and a heading that exist', () => {
  expect(documents(root).length).toBeGreaterThan(10);
  expect(brokenLinks(root)).toEqual([]);
});

test('the check reports a missing file, a missing heading and a missing code file', () => {
  const base = mkdtempSync(join(tmpdir(), 'docs-links-'));
  try {
    writeFileSync(
      join(base, 'README.md'),
      [
        '# Home',
        '',
        '[ok](#home) [ok](docs/a.md#the-page-a_b) [ok](docs/a.md#same-1) [ok](README.md)',
        '[gone](docs/missing.md) [bad anchor](docs/a.md#nope) [code](src/gone.ts) `[not a link](nowhere.md)`',
        '```',
        '[in a block](nowhere.md)',
        '```',
        '[web](https://example.com/x.md)',
      ].join('\n'),
    );
    mkdirSync(join(base, 'docs'));
    writeFileSync(join(base, 'docs', 'a.md'), '# The page: `a_b`!\n\n## Same\n\n## Same\n\n[up](../README.md#home)\n');
    expect(brokenLinks(base)).toEqual([
      'README.md:4: docs/missing.md: no file docs/missing.md',
      'README.md:4: docs/a.md#nope: no heading #nope in docs/a.md',
      'README.md:4: src/gone.ts: no file src/gone.ts',
    ]);
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
});

test("GitHub's slugs", () => {
  expect(slug('Map of the house')).toBe('map-of-the-house');
  expect(slug('`sam local`')).toBe('sam-local');
  expect(slug('The core group: health, the caller')).toBe('the-core-group-health-the-caller');
  expect(slug('Audit log (insights) & analytics')).toBe('audit-log-insights--analytics');
});

test('the README stays short: at most 200 lines', () => {
  const lines = readFileSync(join(root, 'README.md'), 'utf8').trimEnd().split('\n');
  expect(lines.length).toBeLessThanOrEqual(200);
  // It opens with the two commands a newcomer runs.
  expect(lines.slice(0, 6).join('\n')).toMatch(/```sh\nnpm ci && npm start .*\nnpm test /);
});

test('every route group of lib/route-groups.ts is linked from the routes page', () => {
  const routes = readFileSync(join(root, 'docs', 'routes', 'README.md'), 'utf8');
  const linked = new Set([...routes.matchAll(/^\| \[([a-z-]+)\]\([^)]+\) \|/gm)].map((m) => m[1]));
  expect(routeGroups.map((g) => g.name).filter((name) => !linked.has(name))).toEqual([]);
});

test("the README's bench summary is the summary of docs/benchmarks.md's report", () => {
  const report = readBlock(join(root, 'docs', 'benchmarks.md'));
  expect(readBlock(join(root, 'README.md'), SUMMARY_MARKERS)).toBe(renderSummary(report));
});
