import { createHash } from 'node:crypto';
import { artifactsBucket } from '../../kernel/config';
import { readEnv } from '../../kernel/ground/env';
import { storage } from '../../ports/object-storage';
import { headArtifact } from '../../ports/object-storage/artifacts';
import { presignedResponse, streamedBody } from '../../ports/object-storage/presigned';

/** Spec part A, "Limits": a source archive is a gzipped tar of at most 250 MB. */
export const MAX_ARCHIVE_BYTES = 262_144_000;
/** The upload link is valid 15 minutes. */
export const UPLOAD_LINK_SECONDS = 15 * 60;
export const ARCHIVE_CONTENT_TYPE = 'application/gzip';
export const UPLOAD_ID = /^up_[A-Za-z0-9_-]{16,64}$/;

const days = (v: string | undefined, d: number) => (v && Number(v) > 0 ? Number(v) : d);
/**
 * Source archives are kept this long (an S3 lifecycle rule on `sources/` on AWS): a deployment
 * whose archive is gone, or older than this, can't be redeployed ("This upload has expired").
 */
export const sourceRetentionDays = () => days(readEnv('SOURCE_RETENTION_DAYS'), 30);

/**
 * Where an upload lands: under its project, so an upload id is only ever found for the project
 * whose link wrote it (the id alone names nothing elsewhere).
 */
export const sourceKey = (projectId: string, uploadId: string) => `sources/${projectId}/${uploadId}.tar.gz`;

/** The archive's size and age, or undefined when nothing was uploaded there (or it expired). */
export const headSource = headArtifact;

/**
 * The archive's SHA-256 (hex), read through a short presigned GET (the API's own bucket, streamed:
 * never held whole), or undefined when it is gone. What tells an unchanged archive from another:
 * every upload has its own key, so equal keys never meet.
 */
export async function sourceDigest(key: string): Promise<string | undefined> {
  const res = await presignedResponse(() => storage().presignGet({ name: artifactsBucket() }, key, { expiresIn: 300 }));
  if (res.status === 404) return undefined;
  if (!res.ok || !res.body) throw new Error(`Reading the source archive answered ${res.status}.`);
  const hash = createHash('sha256');
  for await (const chunk of streamedBody(res)) hash.update(chunk);
  return hash.digest('hex');
}

/** A presigned PUT bound to the archive's content type and exact length. */
export function presignSourcePut(key: string, size: number): Promise<string> {
  return storage().presignPut({ name: artifactsBucket() }, key, {
    contentType: ARCHIVE_CONTENT_TYPE,
    size,
    expiresIn: UPLOAD_LINK_SECONDS,
  });
}
