import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import * as ts from 'typescript';

/**
 * The folder rules of the design, held over the import graph (static imports, `export … from`,
 * `import()` and `require()` of string literals):
 * - a route group (`functions/<group>`) never imports another group;
 * - `shared/` never imports `functions/` or `lib/`;
 * - nothing in `functions/` or `shared/` imports `lib/local/`;
 * - `config.target` is read only in a port's index.ts;
 * - the ground floor (`shared/ground/`: errors, logging) imports nothing of the project, and the
 *   floors below HTTP (`shared/store/`, the workers) reach errors and logging there, never in `shared/http/`.
 */

const root = resolve(__dirname, '..');

function sources(dir: string): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(root, path)).isDirectory()) return sources(path);
    return /\.(ts|tsx|cts|mts)$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Every project-relative import of `file`, as a path from the repository root. */
function importsOf(file: string): string[] {
  const text = readFileSync(join(root, file), 'utf8');
  const info = ts.preProcessFile(text, true, true);
  return info.importedFiles
    .map((f) => f.fileName)
    .filter((name) => name.startsWith('.'))
    .map((name) => relative(root, resolve(root, dirname(file), name)));
}

const groupOf = (path: string) => /^functions\/([^/]+)\//.exec(path)?.[1];

function violations(files: string[], rule: (from: string, to: string) => string | undefined): string[] {
  return files.flatMap((from) =>
    importsOf(from).flatMap((to) => {
      const why = rule(from, to);
      return why ? [`${from} → ${to}: ${why}`] : [];
    }),
  );
}

const functions = sources('functions');
const shared = sources('shared');

test('the import graph is read (a rule over no edges would pass for nothing)', () => {
  expect(functions.length).toBeGreaterThan(20);
  expect(shared.length).toBeGreaterThan(20);
  expect(importsOf('functions/core/handler.ts')).toContain('shared/http/handler');
});

type Rule = (from: string, to: string) => string | undefined;

const rules: { name: string; files: string[]; rule: Rule; bad: [string, string] }[] = [
  {
    name: 'a route group never imports another group',
    files: functions,
    rule: (from, to) => (to.startsWith('functions/') && groupOf(to) !== groupOf(from) ? 'another group' : undefined),
    bad: ['functions/orgs/routes.ts', 'functions/projects/read'],
  },
  {
    name: 'shared/ never imports functions/ or lib/',
    files: shared,
    rule: (_from, to) => (/^(functions|lib)\//.test(to) ? 'shared code depends on a group or on wiring' : undefined),
    bad: ['shared/store/table.ts', 'lib/route-groups'],
  },
  {
    name: 'nothing in functions/ or shared/ imports lib/local/',
    files: [...functions, ...shared],
    rule: (_from, to) => (to.startsWith('lib/local') ? 'the local platform stays out of what AWS runs' : undefined),
    bad: ['functions/deployments/create.ts', 'lib/local/edge'],
  },
  {
    name: 'the ground floor stands on nothing of the project',
    files: shared.filter((f) => f.startsWith('shared/ground/')),
    rule: (from, to) => (!to.startsWith(dirname(from)) ? 'the ground floor imports an upper floor' : undefined),
    bad: ['shared/ground/errors.ts', 'shared/http/handler'],
  },
  {
    name: 'the store and the workers never import shared/http/',
    files: [
      ...shared.filter((f) => f.startsWith('shared/store/')),
      ...functions.filter((f) => groupOf(f) === 'workers'),
    ],
    rule: (_from, to) => (to.startsWith('shared/http/') ? 'errors and logging are on the ground floor' : undefined),
    bad: ['shared/store/table.ts', 'shared/http/errors'],
  },
  {
    name: 'the agent program stands alone (it runs on a device, against the API only)',
    files: sources('agent'),
    rule: (_from, to) => (!to.startsWith('agent/') ? 'the agent program imports platform code' : undefined),
    bad: ['agent/main.ts', 'shared/agents/jobs'],
  },
];

/** A target switch belongs in a port's index.ts (the one place that picks an adapter), nowhere else. */
const switchesTarget = (file: string, text: string) =>
  /\bconfig\.target\b/.test(text) && !/^shared\/[^/]+\/index\.ts$/.test(file) && file !== 'shared/config.ts';

describe('no config.target switch outside a port’s index.ts', () => {
  test('holds over functions/ and shared/', () => {
    const found = [...functions, ...shared].filter((f) => switchesTarget(f, readFileSync(join(root, f), 'utf8')));
    expect(found).toEqual([]);
  });
  test('catches a violation, and lets a port pick its adapter', () => {
    expect(switchesTarget('functions/workers/usage.ts', "config.target === 'aws'")).toBe(true);
    expect(switchesTarget('shared/storage/index.ts', "config.target === 'local'")).toBe(false);
  });
});

describe.each(rules)('$name', ({ files, rule, bad }) => {
  test('holds over the import graph', () => {
    expect(violations(files, rule)).toEqual([]);
  });
  test('catches a violation', () => {
    expect(rule(...bad)).toBeDefined();
  });
});
