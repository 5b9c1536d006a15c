import { artifactsBucket } from '../../kernel/config';
import { isBackendError } from '../../kernel/ground/backend-errors';
import { storage } from '../../ports/object-storage';
import { presignedCall as presigned } from '../../ports/object-storage/presigned';

/**
 * Mail bytes in the artifacts bucket (`mail/<mailboxId>/…`: raw messages, bodies, attachments,
 * uploads; `mail-inbound/…` locally for received messages before delivery). They travel by short
 * presigned links, as the other groups' files do: the API answers links, never bytes.
 */
const bucket = () => ({ name: artifactsBucket() });

/** Writes an object (a 5xx or a failed connection is tried again: `presigned`). */
export async function putObject(key: string, body: Buffer | Uint8Array, contentType: string): Promise<void> {
  const link = () => storage().presignPut(bucket(), key, { contentType, size: body.length, expiresIn: 120 });
  const res = await presigned(link, { method: 'PUT', headers: { 'content-type': contentType }, body });
  if (res.status >= 300) throw new Error(`Writing a mail object failed (HTTP ${res.status}).`);
}

/** The object's bytes; undefined when it is gone (a 5xx or a failed connection is tried again). */
export async function getObject(key: string, bucketName = artifactsBucket()): Promise<Buffer | undefined> {
  const res = await presigned(() => storage().presignGet({ name: bucketName }, key, { expiresIn: 120 }));
  if (res.status === 404) return undefined;
  if (res.status >= 300) throw new Error(`Reading a mail object failed (HTTP ${res.status}).`);
  return res.body;
}

/** A presigned GET, valid 5 minutes by default; `filename` makes browsers save it under that name. */
export const linkTo = (key: string, filename?: string, expiresIn = 300) =>
  storage().presignGet(bucket(), key, { expiresIn, ...(filename ? { filename } : {}) });

/** A presigned PUT bound to type and size. */
export const uploadLink = (key: string, contentType: string, size: number, expiresIn: number) =>
  storage().presignPut(bucket(), key, { contentType, size, expiresIn });

/** The object's size; undefined when it is not there (any other failure is the backend's: 429 or 502). */
export async function objectSize(key: string): Promise<number | undefined> {
  try {
    return (await storage().headObject(bucket(), key)).size;
  } catch (err) {
    if (isBackendError(err) && (err.name === 'NotFound' || err.$metadata?.httpStatusCode === 404)) return undefined;
    throw err;
  }
}

export async function deleteObjects(keys: string[], bucketName = artifactsBucket()): Promise<void> {
  if (keys.length > 0) await storage().deleteKeys({ name: bucketName }, keys);
}
