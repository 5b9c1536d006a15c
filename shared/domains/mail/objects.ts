import { type BackendError, backendError, isBackendError } from '../../kernel/ground/backend-errors';
import { storage } from '../../ports/object-storage';
import { artifactsBucket } from '../deployments/sources';

/**
 * Mail bytes in the artifacts bucket (`mail/<mailboxId>/…`: raw messages, bodies, attachments,
 * uploads; `mail-inbound/…` locally for received messages before delivery). They travel by short
 * presigned links, as the other groups' files do: the API answers links, never bytes.
 */
const bucket = () => ({ name: artifactsBucket() });

/**
 * One call to a presigned link (no SDK, so no SDK retries), its answer read whole: a 5xx answer
 * (S3's SlowDown, InternalError, ServiceUnavailable), a connection that failed or an answer cut
 * part-way is tried again, three times at most; what still fails is the backend-error table's
 * answer (429 for SlowDown, else 502, with Retry-After), never a 500.
 */
async function presigned(link: () => Promise<string>, init?: RequestInit): Promise<{ status: number; body: Buffer }> {
  for (let attempt = 1; ; attempt++) {
    const answer = await fetch(await link(), init)
      .then(async (res) => ({ status: res.status, body: Buffer.from(await res.arrayBuffer()) }))
      .catch((err: Error) => err);
    if (!(answer instanceof Error) && answer.status < 500) return answer;
    if (attempt >= 3) throw backendError(s3ErrorOf(answer));
    await new Promise((r) => setTimeout(r, 50 * attempt + Math.random() * 50));
  }
}

/** What S3 said (its XML `Code`), or the connection that failed, as the SDK would name it. */
function s3ErrorOf(answer: { status: number; body: Buffer } | Error): BackendError {
  if (answer instanceof Error) return { name: 'NetworkingError', message: answer.message };
  const code = /<Code>([A-Za-z]+)<\/Code>/.exec(answer.body.toString('utf8'))?.[1];
  return { name: code ?? `HTTP${answer.status}`, $metadata: { httpStatusCode: answer.status } };
}

/** Writes an object (a 5xx or a failed connection is tried again: `presigned`). */
export async function putObject(key: string, body: Buffer | Uint8Array, contentType: string): Promise<void> {
  const link = () => storage.presignPut(bucket(), key, { contentType, size: body.length, expiresIn: 120 });
  const res = await presigned(link, { method: 'PUT', headers: { 'content-type': contentType }, body });
  if (res.status >= 300) throw new Error(`Writing a mail object failed (HTTP ${res.status}).`);
}

/** The object's bytes; undefined when it is gone (a 5xx or a failed connection is tried again). */
export async function getObject(key: string, bucketName = artifactsBucket()): Promise<Buffer | undefined> {
  const res = await presigned(() => storage.presignGet({ name: bucketName }, key, { expiresIn: 120 }));
  if (res.status === 404) return undefined;
  if (res.status >= 300) throw new Error(`Reading a mail object failed (HTTP ${res.status}).`);
  return res.body;
}

/** A presigned GET, valid 5 minutes by default; `filename` makes browsers save it under that name. */
export const linkTo = (key: string, filename?: string, expiresIn = 300) =>
  storage.presignGet(bucket(), key, { expiresIn, ...(filename ? { filename } : {}) });

/** A presigned PUT bound to type and size. */
export const uploadLink = (key: string, contentType: string, size: number, expiresIn: number) =>
  storage.presignPut(bucket(), key, { contentType, size, expiresIn });

/** The object's size; undefined when it is not there (any other failure is the backend's: 429 or 502). */
export async function objectSize(key: string): Promise<number | undefined> {
  try {
    return (await storage.headObject(bucket(), key)).size;
  } catch (err) {
    if (isBackendError(err) && (err.name === 'NotFound' || err.$metadata?.httpStatusCode === 404)) return undefined;
    throw err;
  }
}

export async function deleteObjects(keys: string[], bucketName = artifactsBucket()): Promise<void> {
  if (keys.length > 0) await storage.deleteKeys({ name: bucketName }, keys);
}
