import { backendError, isBackendError } from '../../kernel/ground/backend-errors';
import { invalid, tooLarge } from '../../kernel/ground/errors';
import { decodeCursor, encodeCursor } from '../../kernel/store/cursor';
import { storage } from '../../ports/object-storage';
import type { Bucket } from './buckets';

export const FOLDER_PATH = 'Folder paths end with /.';
export const FOLDER_NAME = "Folder names can't contain /.";
export const FOLDER_DOWNLOAD = "Folders can't be downloaded.";
export const FILE_NAME = "File names can't end with /.";

/** Spec part A, "Limits": download links live five minutes, upload links 15, files up to 5 GB. */
export const DOWNLOAD_SECONDS = 5 * 60;
export const UPLOAD_SECONDS = 15 * 60;
export const MAX_FILE_BYTES = 5 * 1024 ** 3;
/** S3's limit on a key, in UTF-8 bytes. */
const MAX_KEY_BYTES = 1024;

/** A folder path is empty (the bucket's top) or ends with `/`. */
export function assertFolderPath(prefix: string): void {
  if (prefix !== '' && !prefix.endsWith('/')) throw invalid(FOLDER_PATH);
}

/** Errors about one file (`NoSuchKey`, `NotFound`) say `File not found.` */
async function onFile<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (err) {
    if (isBackendError(err)) throw backendError(err, true);
    throw err;
  }
}

export async function listObjects(
  orgId: string,
  bucket: Bucket,
  query: { prefix: string; cursor?: string; limit: number },
) {
  assertFolderPath(query.prefix);
  // The cursor is bound to the bucket and the folder: one from another list is refused.
  const scope = `${orgId}:${bucket.resource.resourceId}:${query.prefix}`;
  const token = decodeCursor<{ t: string }>(scope, query.cursor)?.t;
  const page = await storage().listFolder(bucket.ref, { prefix: query.prefix, limit: query.limit, token });
  return {
    prefix: query.prefix,
    folders: page.folders,
    files: page.files,
    cursor: encodeCursor(scope, page.nextToken ? { t: page.nextToken } : undefined),
  };
}

export async function objectInfo(bucket: Bucket, key: string) {
  return { object: await onFile(storage().headObject(bucket.ref, key)) };
}

export async function downloadLink(bucket: Bucket, key: string) {
  if (key.endsWith('/')) throw invalid(FOLDER_DOWNLOAD);
  // A link to nothing would fail in the browser; say so here instead.
  await onFile(storage().headObject(bucket.ref, key));
  const filename = key.slice(key.lastIndexOf('/') + 1);
  const url = await storage().presignGet(bucket.ref, key, { expiresIn: DOWNLOAD_SECONDS, filename });
  return { url, expiresIn: DOWNLOAD_SECONDS };
}

export interface UploadRequest {
  key: string;
  contentType: string;
  size: number;
}

/**
 * Presigned PUT links, one per file. The content type and the size are signed headers: S3
 * refuses an upload that sends another type or another length. The bytes go straight to S3.
 */
export async function uploadLinks(bucket: Bucket, files: UploadRequest[]) {
  for (const f of files) {
    if (f.key.endsWith('/')) throw invalid(FILE_NAME);
    if (f.size > MAX_FILE_BYTES) throw tooLarge(`${f.key} is larger than 5 GB.`);
  }
  const uploads = await Promise.all(
    files.map(async (f) => {
      // An upload without a declared type is stored as bytes, S3's own default.
      const contentType = f.contentType || 'application/octet-stream';
      const url = await storage().presignPut(bucket.ref, f.key, {
        contentType,
        size: f.size,
        expiresIn: UPLOAD_SECONDS,
      });
      return { key: f.key, url, contentType };
    }),
  );
  return { uploads, expiresIn: UPLOAD_SECONDS };
}

/** An empty folder: the object `<prefix><name>/`, as S3 consoles make it. */
export async function createFolder(bucket: Bucket, prefix: string, name: string) {
  assertFolderPath(prefix);
  if (name.includes('/')) throw invalid(FOLDER_NAME);
  const key = `${prefix}${name}/`;
  if (Buffer.byteLength(key) > MAX_KEY_BYTES) throw invalid('Folder paths are at most 1,024 bytes.');
  await storage().putFolder(bucket.ref, key);
  return { key };
}
