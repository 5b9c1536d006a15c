import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { detectFramework } from '../../shared/ports/builds/detect';
import { type BuildSettings, planBuild } from '../../shared/ports/builds/plan';

/** Framework defaults and the package manager from the lock file (shared/ports/builds/plan.ts). */
function app(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'plan-'));
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), content);
  }
  return dir;
}
const pkg = (extra: Record<string, unknown> = {}) => JSON.stringify({ name: 'a', version: '1.0.0', ...extra });
const plan = (files: Record<string, string>, settings: BuildSettings) => planBuild(app(files), settings);

it.each([
  ['package-lock.json', 'npm', 'npm ci --no-audit --no-fund'],
  ['npm-shrinkwrap.json', 'npm', 'npm ci --no-audit --no-fund'],
  ['pnpm-lock.yaml', 'pnpm', 'pnpm install --frozen-lockfile'],
  ['yarn.lock', 'yarn', 'yarn install --frozen-lockfile'],
  ['bun.lock', 'bun', 'bun install --frozen-lockfile'],
])('the package manager comes from the lock file: %s', (lock, manager, install) => {
  const p = plan({ 'package.json': pkg(), [lock]: '', 'server.js': '' }, { framework: 'node' });
  expect(p).toMatchObject({ packageManager: manager, lockFile: lock, installCommand: install });
});

it('no lock file: npm install, no cache key', () => {
  const p = plan({ 'package.json': pkg(), 'index.js': '' }, { framework: 'node' });
  expect(p).toMatchObject({
    packageManager: 'npm',
    lockFile: undefined,
    installCommand: 'npm install --no-audit --no-fund',
  });
  expect(p.output).toEqual({ kind: 'server', entry: 'index.js' });
});

it('static with a build script: installs, runs it, serves what it wrote (found after the build)', () => {
  const p = plan(
    { 'package.json': pkg({ scripts: { build: 'vite build' } }), 'package-lock.json': '{}', 'index.html': '' },
    { framework: 'static' },
  );
  expect(p).toMatchObject({
    installCommand: 'npm ci --no-audit --no-fund',
    buildCommand: 'npm run build',
    output: { kind: 'static', directory: undefined },
  });
  expect(
    plan({ 'package.json': pkg({ scripts: { build: 'x' } }) }, { framework: 'static', outputDirectory: 'site' }),
  ).toMatchObject({ buildCommand: 'npm run build', output: { kind: 'static', directory: 'site' } });
});

it('node without a server but with a build script: the error says the site is static', () => {
  expect(() => plan({ 'package.json': pkg({ scripts: { build: 'vite build' } }) }, { framework: 'node' })).toThrow(
    'No server entry found: set "main" in package.json, or add server.js or index.js. A site that "npm run build" makes is static: set the project\'s framework to static.',
  );
  expect(
    plan({ 'package.json': pkg({ scripts: { start: 'node dist/app.js', build: 'tsc' } }) }, { framework: 'node' })
      .output,
  ).toEqual({ kind: 'server', entry: 'dist/app.js' });
});

it.each([
  ['no package.json', 'static', { 'index.html': '' }],
  [
    "a build script and no server (npm init's main: index.js absent)",
    'static',
    { 'package.json': pkg({ main: 'index.js', scripts: { build: 'vite build' } }) },
  ],
  [
    'a package.json of tools only',
    'static',
    { 'package.json': pkg({ devDependencies: { prettier: '3' } }), 'index.html': '' },
  ],
  [
    'next among the dependencies',
    'nextjs',
    { 'package.json': pkg({ dependencies: { next: '15' }, scripts: { build: 'next build' } }) },
  ],
  ['server.js', 'node', { 'package.json': pkg({ scripts: { build: 'tsc' } }), 'server.js': '' }],
  ['main present', 'node', { 'package.json': pkg({ main: 'app.js' }), 'app.js': '' }],
  [
    'a start script that runs node',
    'node',
    { 'package.json': pkg({ scripts: { build: 'tsc', start: 'node dist/server.js' } }) },
  ],
])("a new project's framework from the folder: %s → %s", (_what, framework, files) => {
  expect(detectFramework(app(files))).toBe(framework);
});

it('static: nothing to install or build without a build command or script; public/ when present', () => {
  expect(plan({ 'index.html': '' }, { framework: 'static' })).toEqual({
    framework: 'static',
    packageManager: undefined,
    lockFile: undefined,
    installCommand: undefined,
    buildCommand: undefined,
    output: { kind: 'static', directory: '.' },
  });
  expect(plan({ 'public/index.html': '', 'package.json': pkg() }, { framework: 'static' }).output).toEqual({
    kind: 'static',
    directory: 'public',
  });
  const built = plan(
    { 'package.json': pkg(), 'package-lock.json': '{}' },
    { framework: 'static', buildCommand: 'npm run build', outputDirectory: 'dist' },
  );
  expect(built).toMatchObject({
    installCommand: 'npm ci --no-audit --no-fund',
    buildCommand: 'npm run build',
    output: { kind: 'static', directory: 'dist' },
  });
});

it('node: main of package.json, the build script, custom commands win', () => {
  const p = plan(
    { 'package.json': pkg({ main: 'dist/app.js', scripts: { build: 'tsc' } }), 'yarn.lock': '' },
    { framework: 'node' },
  );
  expect(p).toMatchObject({ buildCommand: 'yarn run build', output: { kind: 'server', entry: 'dist/app.js' } });
  const custom = plan(
    { 'package.json': pkg({ scripts: { build: 'tsc' } }), 'server.js': '' },
    { framework: 'node', installCommand: 'npm i', buildCommand: 'make' },
  );
  expect(custom).toMatchObject({ installCommand: 'npm i', buildCommand: 'make' });
});

it('nextjs (the default framework): next build, the standalone server', () => {
  const p = plan({ 'package.json': pkg({ scripts: { build: 'next build' } }), 'package-lock.json': '{}' }, {});
  expect(p).toMatchObject({
    framework: 'nextjs',
    buildCommand: 'npm run build',
    output: { kind: 'server', entry: '.next/standalone/server.js' },
  });
  expect(plan({ 'package.json': pkg() }, { framework: 'nextjs' }).buildCommand).toBe('npx --no-install next build');
});

it('a package.json that is not JSON is said plainly', () => {
  expect(() => plan({ 'package.json': '{ nope' }, { framework: 'node' })).toThrow("package.json isn't valid JSON.");
});
