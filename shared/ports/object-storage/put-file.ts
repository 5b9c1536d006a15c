import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';

/**
 * Sends a file on disk to a presigned PUT link (its bytes streamed, never held whole): archives
 * and imported LFS objects. Throws with `what` and the status when the store refuses it.
 */
export async function putFileAt(url: string, file: string, size: number, type: string, what: string): Promise<void> {
  const res = await fetch(url, {
    method: 'PUT',
    headers: { 'content-type': type, 'content-length': String(size) },
    body: Readable.toWeb(createReadStream(file)) as ReadableStream,
    duplex: 'half',
  } as RequestInit);
  if (!res.ok) throw new Error(`${what} failed (HTTP ${res.status}).`);
}
