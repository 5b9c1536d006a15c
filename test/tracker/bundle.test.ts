import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { bundleFile, bundleViolations, ROOT } from '../../scripts/build';

/**
 * The JQL parser goes into the tracker's function and no other: the tracker bundle holds it, and no
 * code outside the tracker's own folders imports anything of shared/domains/tracker that leads to
 * shared/domains/tracker/jql (records and messages may be shared; the parser may not).
 */
function sources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(ROOT, dir))) {
    const path = join(dir, name);
    if (statSync(join(ROOT, path)).isDirectory()) out.push(...sources(path));
    else if (name.endsWith('.ts')) out.push(path);
  }
  return out;
}

/** The project files a file imports statically (relative specifiers, `.ts` or `/index.ts`). */
function importsOf(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(/^(?:import|export)\s[^;]*?from\s+['"](\.[^'"]+)['"]/gms)) {
    const base = join(dirname(file), m[1] as string);
    const found = [`${base}.ts`, join(base, 'index.ts')].find((f) => existsSync(join(ROOT, f)));
    if (found) out.push(found);
  }
  return out;
}

it('no code outside the tracker reaches shared/domains/tracker/jql through what it imports', () => {
  const outside = [...sources('functions'), ...sources('shared'), ...sources('lib')].filter(
    (f) => !f.startsWith('functions/tracker/') && !f.startsWith('shared/domains/tracker/'),
  );
  expect(outside.length).toBeGreaterThan(100);
  const reaching: string[] = [];
  for (const file of outside) {
    const seen = new Set<string>();
    const todo = importsOf(file).filter((f) => f.startsWith('shared/domains/tracker/'));
    while (todo.length > 0) {
      const next = todo.pop() as string;
      if (seen.has(next)) continue;
      seen.add(next);
      todo.push(...importsOf(next).filter((f) => f.startsWith('shared/domains/tracker/')));
    }
    if ([...seen].some((f) => f.startsWith('shared/domains/tracker/jql/'))) reaching.push(file);
  }
  expect(reaching).toEqual([]);
  // The walk sees through a chain: the tracker's search module reaches the parser.
  expect(importsOf('shared/domains/tracker/search.ts')).toContain('shared/domains/tracker/jql/index.ts');
});

it('the tracker bundle holds the JQL parser, and no local code', async () => {
  const out = join(mkdtempSync(join(tmpdir(), 'tracker-bundle-')), 'index.mjs');
  const b = await bundleFile('tracker', 'functions/tracker/handler.ts', out);
  const inputs = Object.values(b.metafile.outputs).flatMap((o) => Object.keys(o.inputs));
  expect(inputs).toContain('shared/domains/tracker/jql/parser.ts');
  expect(bundleViolations(b.metafile, relative(ROOT, b.outfile).split('\\').join('/'))).toEqual([]);
}, 120_000);
