import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, mkdir, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { localPaths } from '../../kernel/tenancy/paths';

/** Dependency folders kept per project: the newest lock files win. */
const KEEP = 3;

/**
 * The key of a dependency cache entry: the lock file's bytes, the install command and the Node
 * major version (native modules differ between majors). Same key, same `node_modules`.
 */
export async function depsCacheKey(appDir: string, lockFile: string, installCommand: string): Promise<string> {
  const hash = createHash('sha256');
  hash.update(await readFile(join(appDir, lockFile)));
  hash.update(`\0${installCommand}\0${process.versions.node.split('.')[0]}`);
  return hash.digest('hex').slice(0, 32);
}

/**
 * Restores `node_modules` of `key` into the app folder. True on a hit. Symbolic links are copied
 * as they are (a `file:` dependency links into the app's own folder, relative).
 */
export async function restoreDeps(projectId: string, key: string, appDir: string): Promise<boolean> {
  const entry = join(localPaths.depsCache(projectId), key, 'node_modules');
  if (!existsSync(entry)) return false;
  await rm(join(appDir, 'node_modules'), { recursive: true, force: true });
  await cp(entry, join(appDir, 'node_modules'), { recursive: true, verbatimSymlinks: true });
  return true;
}

/** Saves the app's `node_modules` under `key` (atomically: a half-copied entry is never a hit). */
export async function saveDeps(projectId: string, key: string, appDir: string): Promise<void> {
  const source = join(appDir, 'node_modules');
  if (!existsSync(source)) return;
  const root = localPaths.depsCache(projectId);
  const partial = join(root, `${key}.partial-${process.pid}-${Date.now()}`);
  await mkdir(partial, { recursive: true });
  await cp(source, join(partial, 'node_modules'), { recursive: true, verbatimSymlinks: true });
  await rm(join(root, key), { recursive: true, force: true });
  await rename(partial, join(root, key));
  await prune(root);
}

async function prune(root: string): Promise<void> {
  const names = (await readdir(root)).filter((n) => !n.includes('.partial-'));
  const dated = await Promise.all(names.map(async (n) => ({ n, t: (await stat(join(root, n))).mtimeMs })));
  dated.sort((a, b) => b.t - a.t);
  for (const old of dated.slice(KEEP)) await rm(join(root, old.n), { recursive: true, force: true });
}

/** Removes a project's caches (project deleted). */
export async function dropDepsCache(projectId: string): Promise<void> {
  await rm(join(localPaths.depsCache(projectId), '..'), { recursive: true, force: true });
}
