import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Framework } from '../schemas/project';
import { type ManagerTool, managerTool } from './package-managers';

/** The project settings a build reads (spec part A, "Project"). */
export interface BuildSettings {
  framework?: Framework;
  rootDirectory?: string;
  installCommand?: string;
  buildCommand?: string;
  outputDirectory?: string;
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

export interface BuildPlan {
  framework: Framework;
  packageManager?: PackageManager;
  /** yarn, pnpm or bun: the version installed with, from the npm registry (package-managers.ts). */
  tool?: ManagerTool;
  /** The lock file that keys the dependency cache (relative to the app folder). */
  lockFile?: string;
  /** Undefined: nothing to install (no package.json, or a static site without a build). */
  installCommand?: string;
  buildCommand?: string;
  /**
   * `static`: the folder served as is. `server`: the app folder runs as the server function,
   * started with `node <entry>` (relative to the app folder).
   */
  output: { kind: 'static'; directory: string } | { kind: 'server'; entry: string; staticDirectory?: string };
}

interface PackageJson {
  main?: string;
  packageManager?: string;
  scripts?: Record<string, string>;
}

function readPackageJson(appDir: string): PackageJson | undefined {
  const file = join(appDir, 'package.json');
  if (!existsSync(file)) return undefined;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as PackageJson;
  } catch {
    throw new PlanError("package.json isn't valid JSON.");
  }
}

export class PlanError extends Error {
  override name = 'PlanError';
}

/**
 * What a build of the app folder does, from the project's settings and the files present:
 * - `static`: no install and no build unless `buildCommand` is set; serves `outputDirectory`, else
 *   `public/` when present, else the folder itself.
 * - `node`: install when there is a package.json, `build` script when present; the folder runs as
 *   the server function: `node <main of package.json>`, else `server.js`, `index.js`, … .
 * - `nextjs`: install, `next build` (the `build` script), then `.next/standalone/server.js` when
 *   the app sets `output: 'standalone'`, else `next start`.
 * The package manager comes from the lock file (npm without one), its version from
 * `packageManager` in package.json when that names the same manager.
 */
export function planBuild(appDir: string, settings: BuildSettings): BuildPlan {
  const framework = settings.framework ?? 'nextjs';
  const pkg = readPackageJson(appDir);
  const lock = LOCK_FILES.find((l) => existsSync(join(appDir, l.file)));
  const packageManager: PackageManager | undefined = pkg ? (lock?.manager ?? 'npm') : undefined;
  const run = (script: string) => `${packageManager ?? 'npm'} run ${script}`;
  const tool = packageManager ? managerTool(appDir, packageManager, lock?.file, pkg?.packageManager) : undefined;
  // Yarn 2+ spells a frozen install `--immutable`.
  const berry = tool?.npmPackage === '@yarnpkg/cli-dist';
  const defaultInstall = berry ? 'yarn install --immutable' : (lock?.install ?? 'npm install --no-audit --no-fund');
  const custom = (s: string | undefined) => (s && s.trim() !== '' ? s.trim() : undefined);
  const buildCommand = custom(settings.buildCommand);
  const installCommand = custom(settings.installCommand);

  if (framework === 'static') {
    const install = buildCommand && (pkg || installCommand) ? (installCommand ?? defaultInstall) : undefined;
    const directory =
      custom(settings.outputDirectory) ?? (existsSync(join(appDir, 'public')) && !buildCommand ? 'public' : '.');
    return {
      framework,
      packageManager: install ? packageManager : undefined,
      tool: install ? tool : undefined,
      lockFile: install ? lock?.file : undefined,
      installCommand: install,
      buildCommand,
      output: { kind: 'static', directory },
    };
  }

  const install = pkg || installCommand ? (installCommand ?? defaultInstall) : undefined;
  if (framework === 'node') {
    const entry =
      pkg?.main ?? ['server.js', 'index.js', 'server.mjs', 'index.mjs'].find((f) => existsSync(join(appDir, f)));
    if (!entry) {
      throw new PlanError('No server entry found: set "main" in package.json, or add server.js or index.js.');
    }
    return {
      framework,
      packageManager,
      tool,
      lockFile: lock?.file,
      installCommand: install,
      buildCommand: buildCommand ?? (pkg?.scripts?.build ? run('build') : undefined),
      output: { kind: 'server', entry },
    };
  }

  // nextjs
  return {
    framework,
    packageManager,
    tool,
    lockFile: lock?.file,
    installCommand: install,
    buildCommand: buildCommand ?? (pkg?.scripts?.build ? run('build') : 'npx --no-install next build'),
    output: { kind: 'server', entry: '.next/standalone/server.js', staticDirectory: custom(settings.outputDirectory) },
  };
}

/** For `nextjs` without a standalone output: the server is `next start`. */
export const NEXT_START_ENTRY = 'node_modules/next/dist/bin/next';
