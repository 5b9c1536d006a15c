import { artifactsBucket } from '../deployments/sources';
import { storage } from '../storage';
import type { ArtifactsPort } from './port';

/** Deletes every object under `prefix` of the artifacts bucket, a page of 1,000 at a time. */
async function removePrefix(prefix: string): Promise<void> {
  const bucket = { name: artifactsBucket() };
  for (let token: string | undefined, round = 0; round < 100; round++) {
    const page = await storage.listKeys(bucket, prefix, 1000, token);
    if (page.keys.length > 0)
      await storage.deleteKeys(
        bucket,
        page.keys.map((k) => k.key),
      );
    token = page.nextToken;
    if (!page.truncated || !token) break;
  }
}

/** Artifacts in S3: the build log is in CloudWatch Logs, so output and deployment are one prefix. */
export function awsArtifacts(): ArtifactsPort {
  return {
    removeOutput: (deploymentId) => removePrefix(`artifacts/${deploymentId}/`),
    removeDeployment: (deploymentId) => removePrefix(`artifacts/${deploymentId}/`),
    removeCache: (projectId) => removePrefix(`cache/${projectId}/`),
  };
}
