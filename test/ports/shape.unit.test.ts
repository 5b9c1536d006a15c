import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import * as ts from 'typescript';

/**
 * One shape per port (docs/architecture.md, "Rules of the house"), held over the file tree: every
 * `shared/ports/<name>/` has `port.ts` (the interface, in our own types: no `@aws-sdk` import),
 * `aws.ts` and `local.ts` (each adapter a factory, `aws<Name>()` / `local<Name>()`, answering the
 * interface), and `index.ts`, whose one accessor is made by `definePort` from the two factories:
 * the AWS one by a literal `import('./aws')`, the local one by the computed path that keeps it out
 * of the Lambda bundles. Each rule is shown catching a port that breaks it.
 */
const root = join(__dirname, '..', '..');
const portsDir = join(root, 'shared', 'ports');

/** A port's files by name (`port.ts` → its text); absent files are absent. */
type PortFiles = Record<string, string>;

const REQUIRED = ['port.ts', 'index.ts', 'aws.ts', 'local.ts'];

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** What is wrong with a port's shape; [] when nothing. */
function shapeProblems(files: PortFiles): string[] {
  const problems = REQUIRED.filter((f) => files[f] === undefined).map((f) => `has no ${f}`);
  const port = files['port.ts'];
  if (port !== undefined) {
    const sdk = ts
      .preProcessFile(port, true, true)
      .importedFiles.map((f) => f.fileName)
      .filter((f) => f.startsWith('@aws-sdk/'));
    if (sdk.length > 0) problems.push(`port.ts imports ${sdk.join(', ')}`);
  }
  const index = files['index.ts'];
  if (index === undefined) return problems;
  const accessors = [...index.matchAll(/export const (\w+) = definePort<(\w+)>\(\{/g)];
  const [accessor] = accessors;
  if (accessors.length !== 1 || !accessor) {
    problems.push(`index.ts makes ${accessors.length} accessors with definePort (one expected)`);
    return problems;
  }
  const [, name = '', portType = ''] = accessor;
  const Name = name.charAt(0).toUpperCase() + name.slice(1);
  if (/\blazyPort\b|\bnew Proxy\b|export (async )?function \w+\(\): (Promise<)?\w+Port\b/.test(index)) {
    problems.push('index.ts reaches its adapter another way than definePort');
  }
  const aws = new RegExp(`aws: \\(\\) => import\\('\\./aws'\\)\\.then\\(\\(m\\) => m\\.aws${Name}\\(\\)\\)`);
  if (!aws.test(index)) problems.push(`index.ts does not load aws${Name}() from ./aws`);
  const local = new RegExp(
    `local: \\(\\) =>\\s*\\(import\\(LOCAL_ADAPTER\\) as Promise<typeof import\\('\\./local'\\)>\\)\\.then\\(\\(m\\) => m\\.local${Name}\\(\\)\\)`,
  );
  if (!local.test(index) || !/const LOCAL_ADAPTER = '\.\/local';/.test(index)) {
    problems.push(`index.ts does not load local${Name}() from the computed path LOCAL_ADAPTER`);
  }
  if (/(?<!typeof )import\(\s*'\.\/local'\s*\)|from '\.\/local'/.test(index)) {
    problems.push('index.ts names ./local literally (the local adapter would be bundled)');
  }
  for (const [file, factory] of [
    ['aws.ts', `aws${Name}`],
    ['local.ts', `local${Name}`],
  ] as const) {
    const text = files[file];
    if (text === undefined) continue;
    const made = new RegExp(
      `export (function ${escapeRe(factory)}\\(|const ${escapeRe(factory)} = (async )?\\([^)]*\\): ${escapeRe(portType)} =>)`,
    );
    if (!made.test(text)) problems.push(`${file} exports no factory ${factory}(): ${portType}`);
    if (/export (abstract )?class \w+ implements/.test(text)) problems.push(`${file} exports an adapter class`);
  }
  return problems;
}

const ports = readdirSync(portsDir).filter((d) => statSync(join(portsDir, d)).isDirectory());

const filesOf = (dir: string): PortFiles =>
  Object.fromEntries(
    REQUIRED.filter((f) => existsSync(join(portsDir, dir, f))).map((f) => [
      f,
      readFileSync(join(portsDir, dir, f), 'utf8'),
    ]),
  );

test('the ports are read (a rule over no port would pass for nothing)', () => {
  expect(ports.length).toBeGreaterThanOrEqual(16);
  expect(ports).toEqual(expect.arrayContaining(['object-storage', 'secrets', 'git', 'dns', 'queue']));
});

test.each(ports)('%s has the one shape', (dir) => {
  expect(shapeProblems(filesOf(dir))).toEqual([]);
});

/** A port in the one shape, for the examples below to break. */
const good: PortFiles = {
  'port.ts':
    "import type { Thing } from '../../domains/x/schema';\nexport interface BellPort { ring(): Promise<void> }",
  'index.ts': [
    "import { definePort } from '../adapter';",
    "const LOCAL_ADAPTER = './local';",
    'export const bell = definePort<BellPort>({',
    "  aws: () => import('./aws').then((m) => m.awsBell()),",
    "  local: () => (import(LOCAL_ADAPTER) as Promise<typeof import('./local')>).then((m) => m.localBell()),",
    '});',
  ].join('\n'),
  'aws.ts': 'export function awsBell(): BellPort {\n  return { ring: async () => {} };\n}',
  'local.ts': 'export const localBell = (): BellPort => ({ ring: async () => {} });',
};

test('the example port passes', () => {
  expect(shapeProblems(good)).toEqual([]);
});

test.each([
  ['a missing port.ts', { 'port.ts': undefined }, 'has no port.ts'],
  ['a missing local adapter', { 'local.ts': undefined }, 'has no local.ts'],
  [
    'an SDK type in the interface',
    { 'port.ts': "import type { LifecycleRule } from '@aws-sdk/client-s3';\nexport interface BellPort {}" },
    'port.ts imports @aws-sdk/client-s3',
  ],
  [
    'a constant proxy',
    { 'index.ts': "export const bell: BellPort = lazyPort(() => import('./aws').then((m) => m.awsBell));" },
    'index.ts makes 0 accessors with definePort (one expected)',
  ],
  [
    'an async accessor beside definePort',
    { 'index.ts': `${good['index.ts']}\nexport function chime(): Promise<ChimePort> { return import('./chime'); }` },
    'index.ts reaches its adapter another way than definePort',
  ],
  [
    'a local adapter named literally',
    { 'index.ts': (good['index.ts'] as string).replace('import(LOCAL_ADAPTER) as', "import('./local') as") },
    'index.ts names ./local literally (the local adapter would be bundled)',
  ],
  [
    'an adapter as a constant object',
    { 'aws.ts': 'export const awsBell: BellPort = { ring: async () => {} };' },
    'aws.ts exports no factory awsBell(): BellPort',
  ],
  [
    'an adapter class',
    { 'local.ts': `${good['local.ts']}\nexport class LocalBell implements BellPort { async ring() {} }` },
    'local.ts exports an adapter class',
  ],
])('catches %s', (_what, change, problem) => {
  const files = { ...good, ...change } as Record<string, string | undefined>;
  for (const [f, text] of Object.entries(files)) if (text === undefined) delete files[f];
  expect(shapeProblems(files as PortFiles)).toContain(problem);
});
