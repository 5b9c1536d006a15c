import { readFile, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { localPaths } from '../deployments/paths';
import type { ArtifactsPort, BuildManifest } from './port';

const remove = (path: string) => rm(path, { recursive: true, force: true });

/** Artifacts in folders on this machine (shared/deployments/paths.ts). */
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
    functionCode: (deploymentId) => ({ dir: localPaths.stagedFunction(deploymentId) }),
    removeOutput: async (deploymentId) => {
      await remove(localPaths.static(deploymentId));
      await remove(localPaths.stagedFunction(deploymentId));
    },
    removeDeployment: (deploymentId) => remove(localPaths.deployment(deploymentId)),
    // The project's cache folder holds one folder per lock file (`deps/<key>/`): all of it goes.
    removeCache: (projectId) => remove(dirname(localPaths.depsCache(projectId))),
  };
}
