import { artifactsBucket } from '../../kernel/config';
import { invalid } from '../../kernel/ground/errors';
import { newId } from '../../kernel/store/ids';
import { storage } from '../../ports/object-storage';
import { presignedResponse, streamedBody } from '../../ports/object-storage/presigned';

/**
 * Files for a web commit, uploaded beforehand with presigned PUTs (their bytes never pass through
 * the API, nor its 6 MB request limit, nor base64): `repo-uploads/<repoId>/<uploadId>` of the
 * platform's artifacts bucket, referenced by `uploadId` in the commit's changes and removed once
 * committed (the bucket's lifecycle removes forgotten ones).
 */
export const UPLOAD_LINK_SECONDS = 15 * 60;
const CONTENT_TYPE = 'application/octet-stream';

const keyOf = (repoId: string, uploadId: string) => `repo-uploads/${repoId}/${uploadId}`;

export async function createUploads(repoId: string, files: { path: string; size: number }[]) {
  const bucket = { name: artifactsBucket() };
  return Promise.all(
    files.map(async (f) => {
      const uploadId = newId('rup_');
      const url = await storage().presignPut(bucket, keyOf(repoId, uploadId), {
        contentType: CONTENT_TYPE,
        size: f.size,
        expiresIn: UPLOAD_LINK_SECONDS,
      });
      return {
        path: f.path,
        uploadId,
        url,
        headers: { 'content-type': CONTENT_TYPE, 'content-length': String(f.size) },
        expiresIn: UPLOAD_LINK_SECONDS,
      };
    }),
  );
}

/** An uploaded file's bytes (400 when it was never uploaded), read through a short link. */
export async function readUpload(repoId: string, path: string, uploadId: string, maxBytes: number): Promise<Buffer> {
  if (!/^rup_[0-9a-z]{10,64}$/.test(uploadId))
    throw invalid(`${path}: ${uploadId} is not an upload of this repository.`);
  const bucket = { name: artifactsBucket() };
  const res = await presignedResponse(() => storage().presignGet(bucket, keyOf(repoId, uploadId), { expiresIn: 60 }));
  if (res.status === 404) throw invalid(`${path}: the upload ${uploadId} wasn't found. Upload the file first.`);
  if (!res.ok) throw new Error(`Reading an upload failed (HTTP ${res.status}).`);
  const length = Number(res.headers.get('content-length') ?? '0');
  if (length > maxBytes) return Buffer.alloc(maxBytes + 1);
  const chunks: Uint8Array[] = [];
  for await (const chunk of streamedBody(res)) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** Removes committed uploads; a missing one is fine. */
export async function removeUploads(repoId: string, uploadIds: string[]): Promise<void> {
  if (uploadIds.length === 0) return;
  await storage().deleteKeys(
    { name: artifactsBucket() },
    uploadIds.map((id) => keyOf(repoId, id)),
  );
}
