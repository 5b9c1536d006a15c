import { artifactsBucket } from '../deployments/sources';
import { storage } from '../storage';
import type { ArtifactsPort, BuildManifest } from './port';

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

/** The build's `manifest.json`, read through a short presigned link (the storage port's one way in). */
async function readManifest(deploymentId: string): Promise<BuildManifest | undefined> {
  const key = `artifacts/${deploymentId}/manifest.json`;
  const url = await storage.presignGet({ name: artifactsBucket() }, key, { expiresIn: 60 });
  const res = await fetch(url);
  if (res.status === 404) return undefined;
  if (!res.ok) throw new Error(`Reading the build's manifest failed (HTTP ${res.status}).`);
  return (await res.json()) as BuildManifest;
}

/** Artifacts in S3: the build log is in CloudWatch Logs, so output and deployment are one prefix. */
export function awsArtifacts(): ArtifactsPort {
  return {
    readManifest,
    functionCode: (deploymentId) => ({ bucket: artifactsBucket(), key: `artifacts/${deploymentId}/function.zip` }),
    removeOutput: (deploymentId) => removePrefix(`artifacts/${deploymentId}/`),
    removeDeployment: (deploymentId) => removePrefix(`artifacts/${deploymentId}/`),
    removeCache: (projectId) => removePrefix(`cache/${projectId}/`),
  };
}
