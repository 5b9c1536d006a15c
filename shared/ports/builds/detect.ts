import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Framework } from '../../domains/projects/schema';

/**
 * What a folder's files say about its build, read by the builds (plan.ts, the buildspec's program)
 * and by the CLI's guess of a new project's framework. No platform state, no process.
 */

/** What a build and the CLI read of package.json. */
export interface PackageJson {
  main?: string;
  packageManager?: string;
  scripts?: Record<string, string>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

export type PackageManager = 'npm' | 'yarn' | 'pnpm' | 'bun';

/** Lock files, in the order they are looked for: the first one present names the package manager. */
export const LOCK_FILES: { file: string; manager: PackageManager; install: string }[] = [
  { file: 'package-lock.json', manager: 'npm', install: 'npm ci --no-audit --no-fund' },
  { file: 'npm-shrinkwrap.json', manager: 'npm', install: 'npm ci --no-audit --no-fund' },
  { file: 'pnpm-lock.yaml', manager: 'pnpm', install: 'pnpm install --frozen-lockfile' },
  { file: 'yarn.lock', manager: 'yarn', install: 'yarn install --frozen-lockfile' },
  { file: 'bun.lock', manager: 'bun', install: 'bun install --frozen-lockfile' },
  { file: 'bun.lockb', manager: 'bun', install: 'bun install --frozen-lockfile' },
];

/** The files a `node` app may start from when package.json names none, in this order. */
export const SERVER_FILES = ['server.js', 'index.js', 'server.mjs', 'index.mjs'];

/** Where a static site's build writes its files, looked for in this order when `outputDirectory` is unset. */
export const BUILT_SITE_DIRECTORIES = ['dist', 'build', 'out', 'public'];

/** The file `start` runs when it is `node <file>` (as `npm start` would run it). */
const startEntry = (pkg: PackageJson | undefined) => /^node\s+([^\s;&|]+)\s*$/.exec(pkg?.scripts?.start ?? '')?.[1];

/**
 * The server a `node` app starts from: `main` of package.json, else the file its `start` script
 * runs with node (`node dist/server.js`), else the first of SERVER_FILES present. As a guess
 * before any build (`guess`), `main` counts only when the file is there: `npm init` writes
 * `main: index.js` into every package.json.
 */
export function serverEntryOf(appDir: string, pkg: PackageJson | undefined, guess = false): string | undefined {
  const there = (f: string) => existsSync(join(appDir, f));
  const main = pkg?.main && (!guess || there(pkg.main)) ? pkg.main : undefined;
  return main ?? startEntry(pkg) ?? SERVER_FILES.find(there);
}

/**
 * The framework of a folder, as `platform deploy` guesses it for a new project: `nextjs` when
 * package.json depends on next; `node` when it has a server to start (serverEntryOf); else
 * `static`: a site its `build` script makes (built, its output served), or the folder as it is.
 */
export function detectFramework(appDir: string): Framework {
  const file = join(appDir, 'package.json');
  if (!existsSync(file)) return 'static';
  let pkg: PackageJson;
  try {
    pkg = JSON.parse(readFileSync(file, 'utf8')) as PackageJson;
  } catch {
    // An unreadable package.json is the build's to report.
    return 'node';
  }
  if (pkg.dependencies?.next || pkg.devDependencies?.next) return 'nextjs';
  return serverEntryOf(appDir, pkg, true) ? 'node' : 'static';
}

/** What a static project serving its folder itself never serves: the source's manifest, lock files, dependencies. */
export const NOT_SERVED = ['package.json', ...LOCK_FILES.map((l) => l.file), 'node_modules'];

/** The build log's word for a static project that builds nothing (the buildspec's program too). */
export const noBuildStep = (directory: string | undefined) =>
  `No build step (no build command, no "build" script in package.json): ${directory && directory !== '.' ? `${directory}/` : 'the folder'} is served as it is.`;

/** A static build that wrote none of BUILT_SITE_DIRECTORIES: the folder itself is served (without NOT_SERVED). */
export const NO_BUILT_SITE = `The build wrote none of ${BUILT_SITE_DIRECTORIES.join(', ')}: the folder is served (without package.json, lock files, node_modules). Set the project's output directory to choose.`;
