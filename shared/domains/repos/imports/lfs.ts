import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { describeError, log } from '../../../kernel/ground/log';
import { UnsafeUrlError } from '../../../kernel/net/guarded-fetch';
import { type FetchLike, streamingGuardedFetch } from '../../../kernel/net/streaming-fetch';
import { putFileAt } from '../../../ports/object-storage/put-file';
import { loopbackAllowed } from '../../connectors/records';
import {
  LFS_CONTENT_TYPE,
  type LfsObjectRequest,
  type LfsRepo,
  uploadBatch,
  VERIFY_HEADER,
  verifyObject,
  verifyTokenFits,
} from '../lfs/objects';
import type { TransferMeter } from './limits';
import { IMPORT_M } from './records';

/** What the LFS transfers tell the import's meter (./limits.ts): bytes read, and when a transfer runs. */
type Meter = Pick<TransferMeter, 'add' | 'arm' | 'disarm'>;

/**
 * The Git LFS objects of an import, fetched from the source by the platform itself (no git-lfs):
 * the source's Batch API (`download`, basic transfer) is asked for the objects the history points
 * at, and each object is read from the link the source answers THROUGH THE GUARDED NETWORK PATH
 * (public hosts on https only, loopback on `npm start`, the address checked at connect time, no
 * redirect): those links are the tenant's to write, so an internal or metadata address is refused
 * and fails the import. Each object is read to the job's disk, checked by size and SHA-256, then
 * stored as an LFS push stores it (uploadBatch: the plan's storage counted first, a presigned PUT
 * to a staging key, then verify, which hashes it there and moves it into place). Objects already
 * stored are not fetched again. Every byte read from the source counts against the import's limits
 * (`meter`: its size cap, its lowest speed while a request to the source runs). A source with no
 * LFS server (404 on the batch) and objects the source doesn't have (their 404) are left out: the
 * platform then reports their pointers as missing objects, as it does for any pointer.
 */
const CHUNK_OBJECTS = 100;
/** A chunk's bytes at most (one object may be more): its links, the source's and ours, last an hour. */
const CHUNK_BYTES = 2 * 1024 ** 3;
const LFS_JSON = 'application/vnd.git-lfs+json';

export class LfsImportFailed extends Error {}

interface SourceAction {
  href: string;
  header?: Record<string, string>;
}

interface SourceObject {
  oid: string;
  size: number;
  actions?: { download?: SourceAction };
  error?: { code: number; message?: string };
}

export interface LfsSource {
  /** The clone URL (no credentials). */
  url: URL;
  user: string;
  password: string;
}

/** The LFS endpoint git-lfs derives from a clone URL: `<url>/info/lfs`, with `.git` added when missing. */
export const lfsEndpointOf = (url: URL) => {
  const base = `${url.origin}${url.pathname}`.replace(/\/+$/, '');
  return `${base.endsWith('.git') ? base : `${base}.git`}/info/lfs`;
};

/** Pointers in chunks of at most CHUNK_OBJECTS objects and CHUNK_BYTES bytes. */
export function chunksOf(objects: LfsObjectRequest[]): LfsObjectRequest[][] {
  const out: LfsObjectRequest[][] = [];
  let chunk: LfsObjectRequest[] = [];
  let bytes = 0;
  for (const o of objects) {
    if (chunk.length > 0 && (chunk.length >= CHUNK_OBJECTS || bytes + o.size > CHUNK_BYTES)) {
      out.push(chunk);
      chunk = [];
      bytes = 0;
    }
    chunk.push(o);
    bytes += o.size;
  }
  if (chunk.length > 0) out.push(chunk);
  return out;
}

const basic = (s: LfsSource) =>
  s.user || s.password ? `Basic ${Buffer.from(`${s.user}:${s.password}`).toString('base64')}` : undefined;

/** The guarded fetch's refusal as the import's message; any other failure as `lfsFailed`. */
function failure(err: unknown, what: string): LfsImportFailed {
  if (err instanceof LfsImportFailed) return err;
  if (err instanceof UnsafeUrlError || (err as { cause?: unknown })?.cause instanceof UnsafeUrlError) {
    log.warn('repository import: an LFS link was refused', { what, error: describeError(err) });
    return new LfsImportFailed(IMPORT_M.lfsUnsafe);
  }
  log.warn('repository import: LFS fetch failed', { what, error: describeError(err) });
  return new LfsImportFailed(IMPORT_M.lfsFailed);
}

/** The source's download answers for `objects`; undefined when the source serves no LFS (404). */
async function askSource(
  fetcher: FetchLike,
  source: LfsSource,
  objects: LfsObjectRequest[],
  signal: AbortSignal,
  meter: Meter | undefined,
): Promise<SourceObject[] | undefined> {
  meter?.arm();
  try {
    return await askSourceMetered(fetcher, source, objects, signal, meter);
  } finally {
    meter?.disarm();
  }
}

async function askSourceMetered(
  fetcher: FetchLike,
  source: LfsSource,
  objects: LfsObjectRequest[],
  signal: AbortSignal,
  meter: Meter | undefined,
): Promise<SourceObject[] | undefined> {
  const auth = basic(source);
  let res: Response;
  try {
    res = await fetcher(`${lfsEndpointOf(source.url)}/objects/batch`, {
      method: 'POST',
      headers: { Accept: LFS_JSON, 'Content-Type': LFS_JSON, ...(auth ? { Authorization: auth } : {}) },
      body: JSON.stringify({ operation: 'download', transfers: ['basic'], objects }),
      signal,
    });
  } catch (err) {
    throw failure(err, 'batch');
  }
  if (res.status === 404) {
    await res.body?.cancel();
    return undefined;
  }
  const text = await res.text().catch(() => '');
  meter?.add(Buffer.byteLength(text));
  const body = (() => {
    try {
      return JSON.parse(text) as { transfer?: string; objects?: SourceObject[] };
    } catch {
      return undefined;
    }
  })();
  if (res.status !== 200 || !Array.isArray(body?.objects) || (body.transfer && body.transfer !== 'basic')) {
    throw failure(new Error(`The source's LFS batch answered ${res.status}.`), 'batch');
  }
  return body.objects;
}

/** Reads one object from the source's link (guarded) into `file`, checking its size and SHA-256. */
async function download(
  fetcher: FetchLike,
  source: LfsSource,
  o: SourceObject,
  file: string,
  signal: AbortSignal,
  meter: Meter | undefined,
): Promise<void> {
  const action = o.actions?.download as SourceAction;
  const headers: Record<string, string> = { ...(action.header ?? {}) };
  // The source's credentials go to the source's own origin only, never to a host its answer names.
  const auth = basic(source);
  const sameOrigin = URL.canParse(action.href) && new URL(action.href).origin === source.url.origin;
  if (auth && sameOrigin && !Object.keys(headers).some((h) => h.toLowerCase() === 'authorization')) {
    headers.Authorization = auth;
  }
  const hash = createHash('sha256');
  meter?.arm();
  try {
    const res = await fetcher(action.href, { headers, signal });
    if (res.status !== 200 || !res.body) throw new Error(`The object's link answered ${res.status}.`);
    await pipeline(
      Readable.fromWeb(res.body as import('node:stream/web').ReadableStream),
      new Transform({
        transform(chunk: Buffer, _enc, done) {
          meter?.add(chunk.length);
          hash.update(chunk);
          done(null, chunk);
        },
      }),
      createWriteStream(file),
    );
  } catch (err) {
    throw failure(err, o.oid);
  } finally {
    meter?.disarm();
  }
  const size = (await stat(file)).size;
  if (size !== o.size || hash.digest('hex') !== o.oid) {
    throw failure(new Error(`The object ${o.oid} read ${size} bytes that don't match its oid and size.`), o.oid);
  }
}

/**
 * Brings `pointers` (distinct objects) from the source into the repository's LFS storage. `onObject`
 * runs after each object stored (progress; it throws to stop the import). Throws LfsImportFailed
 * with the import's message, or PlanExceeded past the plan's storage.
 */
export async function importLfsObjects(options: {
  repo: LfsRepo;
  source: LfsSource;
  pointers: LfsObjectRequest[];
  workDir: string;
  signal: AbortSignal;
  meter?: Meter;
  onObject: (bytes: number) => Promise<void>;
}): Promise<{ stored: number; missing: number }> {
  const { repo, source, workDir, signal, meter } = options;
  const loopback = loopbackAllowed();
  const fetcher = streamingGuardedFetch({ loopback });
  let stored = 0;
  let missing = 0;
  for (const chunk of chunksOf(options.pointers)) {
    // Ours first: the plan's storage counted, and the objects already stored left out.
    const ours = await uploadBatch(repo, chunk, { href: '' });
    const links = new Map(ours.flatMap((a) => (a.actions?.upload ? [[a.oid, a.actions]] : [])));
    const wanted = chunk.filter((o) => links.has(o.oid));
    if (wanted.length === 0) continue;
    const answers = await askSource(fetcher, source, wanted, signal, meter);
    if (!answers) {
      log.warn('repository import: the source serves no Git LFS; pointers stay without objects', {
        objects: options.pointers.length,
      });
      return { stored, missing: options.pointers.length - stored };
    }
    for (const o of wanted) {
      const answer = answers.find((a) => a.oid === o.oid && a.size === o.size);
      if (answer?.error?.code === 404 || answer?.error?.code === 410) {
        missing++;
        continue;
      }
      if (!answer?.actions?.download?.href) {
        throw failure(new Error(`The source answered no download for ${o.oid}: ${answer?.error?.code}.`), o.oid);
      }
      const file = join(workDir, `lfs-${o.oid}`);
      try {
        // An object's answer is read up to its size, no further: a source can't fill the job's disk.
        await download(streamingGuardedFetch({ loopback, maxBytes: o.size }), source, answer, file, signal, meter);
        const actions = links.get(o.oid) as NonNullable<(typeof ours)[number]['actions']>;
        await putFileAt(actions.upload?.href as string, file, o.size, LFS_CONTENT_TYPE, 'Storing an LFS object');
        // As git-lfs's verify: the stored bytes hashed and moved into place, only then served.
        const staged = verifyTokenFits(repo, actions.verify?.header?.[VERIFY_HEADER] ?? '', o);
        if ((await verifyObject(repo, o, staged)) !== 'ok') {
          throw failure(new Error(`The object ${o.oid} stored doesn't match its oid and size.`), o.oid);
        }
      } finally {
        await rm(file, { force: true });
      }
      stored++;
      await options.onObject(o.size);
    }
  }
  return { stored, missing };
}
