import { storage } from '../../ports/object-storage';
import { artifactsBucket } from '../deployments/sources';

/**
 * Mail bytes in the artifacts bucket (`mail/<mailboxId>/…`: raw messages, bodies, attachments,
 * uploads; `mail-inbound/…` locally for received messages before delivery). They travel by short
 * presigned links, as the other groups' files do: the API answers links, never bytes.
 */
const bucket = () => ({ name: artifactsBucket() });

/** Writes an object; a 5xx answer (S3's SlowDown, InternalError) is tried again, three times at most. */
export async function putObject(key: string, body: Buffer | Uint8Array, contentType: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const url = await storage.presignPut(bucket(), key, { contentType, size: body.length, expiresIn: 120 });
    const res = await fetch(url, { method: 'PUT', headers: { 'content-type': contentType }, body });
    if (res.ok) return;
    if (res.status < 500 || attempt >= 3) throw new Error(`Writing a mail object failed (HTTP ${res.status}).`);
    await new Promise((r) => setTimeout(r, 50 * attempt));
  }
}

/** The object's bytes; undefined when it is gone. */
export async function getObject(key: string, bucketName = artifactsBucket()): Promise<Buffer | undefined> {
  const url = await storage.presignGet({ name: bucketName }, key, { expiresIn: 120 });
  const res = await fetch(url);
  if (res.status === 404) return undefined;
  if (!res.ok) throw new Error(`Reading a mail object failed (HTTP ${res.status}).`);
  return Buffer.from(await res.arrayBuffer());
}

/** A presigned GET, valid 5 minutes by default; `filename` makes browsers save it under that name. */
export const linkTo = (key: string, filename?: string, expiresIn = 300) =>
  storage.presignGet(bucket(), key, { expiresIn, ...(filename ? { filename } : {}) });

/** A presigned PUT bound to type and size. */
export const uploadLink = (key: string, contentType: string, size: number, expiresIn: number) =>
  storage.presignPut(bucket(), key, { contentType, size, expiresIn });

export const objectSize = async (key: string) => (await storage.headObject(bucket(), key).catch(() => undefined))?.size;

export async function deleteObjects(keys: string[], bucketName = artifactsBucket()): Promise<void> {
  if (keys.length > 0) await storage.deleteKeys({ name: bucketName }, keys);
}
