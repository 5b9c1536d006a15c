import { rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { localPaths } from '../deployments/paths';
import type { ArtifactsPort } from './port';

const remove = (path: string) => rm(path, { recursive: true, force: true });

/** Artifacts in folders on this machine (shared/deployments/paths.ts). */
export function localArtifacts(): ArtifactsPort {
  return {
    removeOutput: (deploymentId) => remove(localPaths.static(deploymentId)),
    removeDeployment: (deploymentId) => remove(localPaths.deployment(deploymentId)),
    // The project's cache folder holds one folder per lock file (`deps/<key>/`): all of it goes.
    removeCache: (projectId) => remove(dirname(localPaths.depsCache(projectId))),
  };
}
