import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import peggy from 'peggy';
import * as ts from 'typescript';
import { generate, grammarPath, parserPath, stamp } from '../../scripts/jql-parser';
import { parseJql } from '../../shared/domains/tracker/jql';

const root = resolve(__dirname, '..', '..');

describe('the generated JQL parser', () => {
  const grammar = readFileSync(grammarPath, 'utf8');
  const checkedIn = readFileSync(parserPath, 'utf8');

  test('is built from the current grammar by the pinned peggy (else: npx tsx scripts/jql-parser.ts)', () => {
    expect(checkedIn.split('\n', 1)[0]).toBe(stamp(grammar));
  });

  test('the stamp changes with the grammar, so a stale file is caught', () => {
    expect(stamp(`${grammar}\n// edited`)).not.toBe(stamp(grammar));
  });

  test('equals what the build step writes today', () => {
    expect(generate(grammar)).toBe(checkedIn);
  });

  test('parses as peggy’s own in-memory parser does', () => {
    const live = peggy.generate(grammar);
    for (const q of [
      'project = WEB AND status in (Done, "To Do") ORDER BY rank',
      'NOT a ~ "b*" OR c WAS d BEFORE -1d',
    ]) {
      expect(parseJql(q)).toEqual(live.parse(q));
    }
  });

  test('needs no peggy at run time, and no regular expression reads the query', () => {
    expect(checkedIn).not.toMatch(/from ['"]peggy['"]|require\(['"]peggy['"]\)/);
    const code = grammar
      .split('\n')
      .filter((line) => !line.trim().startsWith('//'))
      .join('\n');
    for (const text of [
      code,
      ...['parse.ts', 'dates.ts'].map((f) => readFileSync(join(dirname(parserPath), f), 'utf8')),
    ]) {
      expect(text).not.toMatch(/RegExp|\.(test|exec|match|matchAll|replace|split)\(\//);
    }
  });
});

/** Project-relative imports of a source file. */
function importsOf(file: string): string[] {
  const info = ts.preProcessFile(readFileSync(join(root, file), 'utf8'), true, true);
  return info.importedFiles
    .map((f) => f.fileName)
    .filter((name) => name.startsWith('.'))
    .map((name) => relative(root, resolve(root, dirname(file), name)));
}

function sources(dir: string): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(root, path)).isDirectory()) return sources(path);
    return /\.ts$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

test('only the tracker imports the JQL library (the parser stays out of every other bundle)', () => {
  const files = [...sources('functions'), ...sources('shared'), ...sources('lib'), ...sources('bin')];
  const importers = files.filter((f) => importsOf(f).some((to) => to.startsWith('shared/domains/tracker/jql')));
  const outside = importers.filter(
    (f) => !f.startsWith('shared/domains/tracker/') && !f.startsWith('functions/tracker/'),
  );
  expect(outside).toEqual([]);
  // The rule sees the library's own imports, so it would see a stray one.
  expect(
    importsOf('shared/domains/tracker/jql/index.ts').some((to) => to.startsWith('shared/domains/tracker/jql/')),
  ).toBe(true);
});
