import { createReadStream, existsSync, realpathSync, statSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { dirname, extname, isAbsolute, join, relative, resolve } from 'node:path';
import { localPaths } from '../../kernel/tenancy/paths';
import { contentTypeOf } from './content-types';
import type { ArtifactsPort, BuildManifest, StaticFile } from './port';

const remove = (path: string) => rm(path, { recursive: true, force: true });

/** True when `path`, links resolved, is inside `root` (links resolved too). */
function resolvesInside(root: string, path: string): boolean {
  try {
    const rel = relative(realpathSync(root), realpathSync(path));
    return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
  } catch {
    return false;
  }
}

/**
 * A file of the static output for a URL path: exact, folder index, `.html`; or undefined. A file
 * reached through a symbolic link that leaves the output is not there (publishing refuses links;
 * this holds for output written any other way).
 */
function staticFile(root: string, urlPath: string): string | undefined {
  let path: string;
  try {
    path = decodeURIComponent(urlPath);
  } catch {
    return undefined;
  }
  if (path.includes('\0')) return undefined;
  const full = resolve(root, `.${path}`);
  const rel = relative(root, full);
  if (rel.startsWith('..') || rel.includes(':')) return undefined;
  const candidates = [full, join(full, 'index.html')];
  if (!extname(full)) candidates.push(`${full}.html`);
  for (const c of candidates) {
    if (existsSync(c) && statSync(c).isFile() && resolvesInside(root, c)) return c;
  }
  return undefined;
}

function readStatic(deploymentId: string, urlPath: string): StaticFile | undefined {
  const root = localPaths.static(deploymentId);
  let file = staticFile(root, urlPath);
  let status: 200 | 404 = 200;
  if (!file) {
    const notFoundPage = join(root, '404.html');
    if (!existsSync(notFoundPage)) return undefined;
    file = notFoundPage;
    status = 404;
  }
  return { status, contentType: contentTypeOf(file), size: statSync(file).size, body: createReadStream(file) };
}

/** Artifacts in folders on this machine (shared/kernel/tenancy/paths.ts). */
export function localArtifacts(): ArtifactsPort {
  return {
    async readManifest(deploymentId) {
      try {
        return JSON.parse(await readFile(localPaths.manifest(deploymentId), 'utf8')) as BuildManifest;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw err;
      }
    },
    functionCode: async (deploymentId) => ({ dir: localPaths.stagedFunction(deploymentId) }),
    removeOutput: async (deploymentId) => {
      await remove(localPaths.static(deploymentId));
      await remove(localPaths.stagedFunction(deploymentId));
    },
    removeDeployment: (deploymentId) => remove(localPaths.deployment(deploymentId)),
    // The project's cache folder holds one folder per lock file (`deps/<key>/`): all of it goes.
    removeCache: (projectId) => remove(dirname(localPaths.depsCache(projectId))),
    readStatic: async (deploymentId, urlPath) => readStatic(deploymentId, urlPath),
  };
}
