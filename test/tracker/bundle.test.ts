import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { bundleFile, bundleViolations, ROOT } from '../../scripts/build';

/**
 * The JQL parser goes into the tracker's function and no other: the tracker bundle holds it, and no
 * code outside the tracker's own folders imports anything of shared/tracker (so no other bundle
 * can reach it).
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

it('only the tracker’s own code imports shared/tracker', () => {
  const outside = [...sources('functions'), ...sources('shared'), ...sources('lib')].filter(
    (f) => !f.startsWith('functions/tracker/') && !f.startsWith('shared/tracker/'),
  );
  expect(outside.length).toBeGreaterThan(100);
  const importers = outside.filter((f) =>
    /from ['"][./]*(shared\/)?tracker\//.test(readFileSync(join(ROOT, f), 'utf8')),
  );
  expect(importers).toEqual([]);
});

it('the tracker bundle holds the JQL parser, and no local code', async () => {
  const out = join(mkdtempSync(join(tmpdir(), 'tracker-bundle-')), 'index.mjs');
  const b = await bundleFile('tracker', 'functions/tracker/handler.ts', out);
  const inputs = Object.values(b.metafile.outputs).flatMap((o) => Object.keys(o.inputs));
  expect(inputs).toContain('shared/tracker/jql/parser.ts');
  expect(bundleViolations(b.metafile, relative(ROOT, b.outfile).split('\\').join('/'))).toEqual([]);
}, 120_000);
