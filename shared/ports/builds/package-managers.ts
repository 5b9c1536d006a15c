import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { processEnv } from '../../kernel/ground/env';
import { tenantRoot } from '../../kernel/tenancy/paths';
import type { PackageManager } from './detect';

/**
 * The package manager a build installs with, obtained from the npm registry (the only registry
 * this platform's machines are sure to reach), at the version `packageManager` in package.json
 * names, else the default for the lock file. npm is Node's own.
 */
export interface ManagerTool {
  manager: Exclude<PackageManager, 'npm'>;
  version: string;
  /** The npm package that ships it. */
  npmPackage: string;
  /** Where the version came from, for the build log. */
  source: 'packageManager' | 'default';
  /** What the manager needs to install into `node_modules` from the npm registry, non-interactively. */
  env: Record<string, string>;
}

/** Versions used when package.json names none (known to read the lock files they are chosen for). */
export const DEFAULT_VERSIONS = { pnpm: '10.34.9', yarn: '1.22.22', 'yarn-berry': '4.18.1', bun: '1.4.5' } as const;

const BERRY_ENV = {
  YARN_NODE_LINKER: 'node-modules',
  YARN_ENABLE_TELEMETRY: '0',
  YARN_ENABLE_GLOBAL_CACHE: '0',
  YARN_ENABLE_PROGRESS_BARS: '0',
};

/** `yarn@4.1.0+sha512.…` → version `4.1.0`; another manager's field, or none, → undefined. */
function pinned(field: string | undefined, manager: string): string | undefined {
  const m = /^([a-z]+)@(\d+\.\d+\.\d+[^+\s]*)/.exec(field ?? '');
  return m && m[1] === manager ? m[2] : undefined;
}

/** The tool for a yarn, pnpm or bun project (undefined for npm). */
export function managerTool(
  appDir: string,
  manager: PackageManager,
  lockFile: string | undefined,
  packageManagerField: string | undefined,
): ManagerTool | undefined {
  if (manager === 'npm') return undefined;
  const given = pinned(packageManagerField, manager);
  const source = given ? 'packageManager' : 'default';
  if (manager === 'yarn') {
    // Yarn 2+ (berry) writes `__metadata` into yarn.lock; yarn 1 never does.
    const lock = lockFile ? readFileSync(join(appDir, lockFile), 'utf8') : '';
    const berry = given ? Number(given.split('.')[0]) >= 2 : /^__metadata:/m.test(lock);
    const version = given ?? (berry ? DEFAULT_VERSIONS['yarn-berry'] : DEFAULT_VERSIONS.yarn);
    return berry
      ? { manager, version, npmPackage: '@yarnpkg/cli-dist', source, env: BERRY_ENV }
      : { manager, version, npmPackage: 'yarn', source, env: {} };
  }
  // pnpm would otherwise fetch the version packageManager names itself, or refuse another manager's.
  const env: Record<string, string> =
    manager === 'pnpm'
      ? { npm_config_manage_package_manager_versions: 'false', npm_config_package_manager_strict: 'false' }
      : {};
  return { manager, version: given ?? DEFAULT_VERSIONS[manager], npmPackage: manager, source, env };
}

const run = promisify(execFile);
const installing = new Map<string, Promise<string>>();

/**
 * The folder with the tool's commands, installed once per version under the tenant root's
 * `tools/` (readable by every build, writable by none of them: a build can't change another's
 * package manager). A half-installed version is never used: it is installed aside, then renamed.
 */
export function toolBin(tool: ManagerTool): Promise<string> {
  const name = `${tool.npmPackage.replace(/[@/]/g, '_')}@${tool.version}`;
  const root = join(tenantRoot(), 'tools');
  const dir = join(root, name);
  const bin = join(dir, 'node_modules', '.bin');
  if (existsSync(bin)) return Promise.resolve(bin);
  let job = installing.get(name);
  if (!job) {
    job = (async () => {
      await mkdir(root, { recursive: true, mode: 0o755 });
      await chmod(root, 0o755);
      const aside = await mkdtemp(join(root, `.${name}-`));
      try {
        await run(
          'npm',
          ['install', '--prefix', aside, '--no-audit', '--no-fund', '--no-save', `${tool.npmPackage}@${tool.version}`],
          { timeout: 5 * 60_000, env: { ...processEnv(), npm_config_update_notifier: 'false' } },
        );
        await chmod(aside, 0o755);
        await rename(aside, dir).catch(async (err: NodeJS.ErrnoException) => {
          // Another platform process installed it meanwhile: theirs is as good.
          if (!existsSync(bin)) throw err;
          await rm(aside, { recursive: true, force: true });
        });
        return bin;
      } catch (err) {
        await rm(aside, { recursive: true, force: true });
        throw new Error(
          `Couldn't get ${tool.manager} ${tool.version} from the npm registry (${(err as Error).message.split('\n')[0]}).`,
        );
      } finally {
        installing.delete(name);
      }
    })();
    installing.set(name, job);
  }
  return job;
}
