import { latestReady, setFields } from './records';
import type { DeploymentRecord, DeploymentTarget } from './schema';
import { headSource, sourceDigest } from './sources';

interface UploadedSource {
  key: string;
  size: number;
  /** envHash of the variables the new deployment would get. */
  envHash: string;
}

/**
 * The ready deployment an upload would only repeat: the target's newest ready deployment, when
 * its archive has the same content (SHA-256) and it was built with the same variables. Every
 * upload has its own key, so archives are compared by content: sizes first (from the records,
 * no read), then hashes, the older one's kept on its record once computed. Also answers
 * `sourceHash` of the new archive when it had to be computed, for the new record.
 */
export async function unchangedSince(
  orgId: string,
  projectId: string,
  target: DeploymentTarget,
  upload: UploadedSource,
): Promise<{ current?: DeploymentRecord; sourceHash?: string }> {
  const current = await latestReady(projectId, target);
  if (!current?.sourceArchive || current.orgId !== orgId || current.envHash !== upload.envHash) return {};
  if (current.sourceArchive === upload.key) return { current };
  const currentSize = current.sourceSize ?? (await headSource(current.sourceArchive))?.size;
  if (currentSize !== upload.size) return {};
  const [sourceHash, currentHash] = await Promise.all([
    sourceDigest(upload.key),
    current.sourceHash ?? sourceDigest(current.sourceArchive),
  ]);
  if (currentHash && !current.sourceHash) await setFields(orgId, current.deploymentId, { sourceHash: currentHash });
  return { current: sourceHash !== undefined && sourceHash === currentHash ? current : undefined, sourceHash };
}
