import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Framework } from '../../domains/projects/schema';
import { BUILT_SITE_DIRECTORIES, LOCK_FILES, type PackageJson, type PackageManager, serverEntryOf } from './detect';
import { type ManagerTool, managerTool } from './package-managers';

/** The project settings a build reads (spec part A, "Project"). */
export interface BuildSettings {
  framework?: Framework;
  rootDirectory?: string;
  installCommand?: string;
  buildCommand?: string;
  outputDirectory?: string;
}

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
   * `static`: the folder served as is (undefined: the first of BUILT_SITE_DIRECTORIES the build
   * wrote, builtSiteDirectory). `server`: the app folder runs as the server function, started
   * with `node <entry>` (relative to the app folder).
   */
  output: { kind: 'static'; directory?: string } | { kind: 'server'; entry: string; staticDirectory?: string };
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
 * - `static`: `buildCommand`, else the `build` script of package.json (installing first), else no
 *   build at all; serves `outputDirectory`, else what the build wrote (dist/, build/, out/ or
 *   public/), else without a build `public/` when present, else the folder itself (never its
 *   package.json, lock file or node_modules: NOT_SERVED).
 * - `node`: install when there is a package.json, `build` script when present; the folder runs as
 *   the server function: `node <main of package.json>`, else the file `start` runs with node,
 *   else `server.js`, `index.js`, … .
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
  const installCommand = custom(settings.installCommand);
  const buildScript = pkg?.scripts?.build ? run('build') : undefined;

  if (framework === 'static') {
    const buildCommand = custom(settings.buildCommand) ?? buildScript;
    const install = buildCommand && (pkg || installCommand) ? (installCommand ?? defaultInstall) : undefined;
    const unbuilt = existsSync(join(appDir, 'public')) ? 'public' : '.';
    return {
      framework,
      packageManager: install ? packageManager : undefined,
      tool: install ? tool : undefined,
      lockFile: install ? lock?.file : undefined,
      installCommand: install,
      buildCommand,
      output: { kind: 'static', directory: custom(settings.outputDirectory) ?? (buildCommand ? undefined : unbuilt) },
    };
  }

  const buildCommand = custom(settings.buildCommand);
  const install = pkg || installCommand ? (installCommand ?? defaultInstall) : undefined;
  if (framework === 'node') {
    const entry = serverEntryOf(appDir, pkg);
    if (!entry) {
      // A site its build script makes has no server: it is a static project.
      const site = buildScript
        ? ` A site that "${buildScript}" makes is static: set the project's framework to static.`
        : '';
      throw new PlanError(`No server entry found: set "main" in package.json, or add server.js or index.js.${site}`);
    }
    return {
      framework,
      packageManager,
      tool,
      lockFile: lock?.file,
      installCommand: install,
      buildCommand: buildCommand ?? buildScript,
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
    buildCommand: buildCommand ?? buildScript ?? 'npx --no-install next build',
    output: { kind: 'server', entry: '.next/standalone/server.js', staticDirectory: custom(settings.outputDirectory) },
  };
}

/** The folder a static build wrote (the first of BUILT_SITE_DIRECTORIES there), when its project names none. */
export const builtSiteDirectory = (appDir: string): string | undefined =>
  BUILT_SITE_DIRECTORIES.find((d) => existsSync(join(appDir, d)) && statSync(join(appDir, d)).isDirectory());

/** For `nextjs` without a standalone output: the server is `next start`. */
export const NEXT_START_ENTRY = 'node_modules/next/dist/bin/next';
