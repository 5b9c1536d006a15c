import { extname } from 'node:path';
import { artifactsBucket } from '../../kernel/config';
import { storage } from '../object-storage';
import { contentTypeOf } from './content-types';
import type { ArtifactsPort, BuildManifest, StaticFile } from './port';

/** Deletes every object under `prefix` of the artifacts bucket, a page of 1,000 at a time. */
async function removePrefix(prefix: string): Promise<void> {
  const bucket = { name: artifactsBucket() };
  for (let token: string | undefined, round = 0; round < 100; round++) {
    const page = await storage().listKeys(bucket, prefix, 1000, token);
    if (page.keys.length > 0)
      await storage().deleteKeys(
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
  const url = await storage().presignGet({ name: artifactsBucket() }, key, { expiresIn: 60 });
  const res = await fetch(url);
  if (res.status === 404) return undefined;
  if (!res.ok) throw new Error(`Reading the build's manifest failed (HTTP ${res.status}).`);
  return (await res.json()) as BuildManifest;
}

/**
 * A static file of `artifacts/<deploymentId>/static/`: the candidates of the path (exact, folder
 * index, `.html`), then `404.html`, each read through a short presigned link; the first found is
 * streamed. A path that leaves the output (`..`, NUL, a bad escape) is none.
 */
async function readStatic(deploymentId: string, urlPath: string): Promise<StaticFile | undefined> {
  let path: string;
  try {
    path = decodeURIComponent(urlPath);
  } catch {
    return undefined;
  }
  const parts = path.split('/').filter((p) => p !== '' && p !== '.');
  if (path.includes('\0') || parts.some((p) => p === '..' || p.includes('\\'))) return undefined;
  const base = parts.join('/');
  const candidates = base === '' ? ['index.html'] : [base, `${base}/index.html`];
  if (base !== '' && !extname(base)) candidates.push(`${base}.html`);
  const bucket = { name: artifactsBucket() };
  for (const [i, file] of [...candidates, '404.html'].entries()) {
    const url = await storage().presignGet(bucket, `artifacts/${deploymentId}/static/${file}`, { expiresIn: 60 });
    const res = await fetch(url);
    if (res.ok && res.body) {
      return {
        status: i === candidates.length ? 404 : 200,
        contentType: contentTypeOf(file),
        size: Number(res.headers.get('content-length') ?? 0),
        body: res.body,
      };
    }
    await res.body?.cancel();
    if (res.status !== 404 && res.status !== 403) throw new Error(`Reading a static file failed (HTTP ${res.status}).`);
  }
  return undefined;
}

/** Artifacts in S3: the build log is in CloudWatch Logs, so output and deployment are one prefix. */
export function awsArtifacts(): ArtifactsPort {
  return {
    readManifest,
    functionCode: async (deploymentId) => ({
      bucket: artifactsBucket(),
      key: `artifacts/${deploymentId}/function.zip`,
    }),
    removeOutput: (deploymentId) => removePrefix(`artifacts/${deploymentId}/`),
    removeDeployment: (deploymentId) => removePrefix(`artifacts/${deploymentId}/`),
    removeCache: (projectId) => removePrefix(`cache/${projectId}/`),
    readStatic,
  };
}
