import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { lstat, open, readdir, rename, rm } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { storage } from '../object-storage';
import { presignedResponse, streamedBody } from '../object-storage/presigned';

/**
 * Git LFS in a build of a commit: the commit's tree holds pointer files (the spec's three lines:
 * version, `oid sha256:…`, size), which the build replaces by their objects, read from the
 * platform's LFS store (`<lfsPrefix><oid>` of the artifacts bucket: verified objects only), before
 * anything of the source is planned or run. A pointer whose object isn't stored fails the build
 * naming the file. The same rule runs on AWS in the build script (shared/ports/builds/buildspec.ts),
 * with the pattern below.
 */
export const LFS_POINTER =
  /^version https:\/\/git-lfs\.github\.com\/spec\/v1\noid sha256:([0-9a-f]{64})\nsize (\d+)\n(?:[a-z0-9.-]+ [^\n]*\n)*$/;
/** A pointer file is small (the spec keeps it under 1 KB): larger files are never read. */
export const MAX_POINTER_BYTES = 1024;

/** The object a pointer file names, if `content` is one. */
export function parseLfsPointer(content: Buffer): { oid: string; size: number } | undefined {
  if (content.length > MAX_POINTER_BYTES) return undefined;
  const m = LFS_POINTER.exec(content.toString('utf8'));
  return m ? { oid: m[1] as string, size: Number(m[2]) } : undefined;
}

export const lfsMissing = (path: string) =>
  `${path} is a Git LFS pointer whose object was never uploaded. Push it with git lfs push --all origin, then deploy again.`;
export const lfsFailed = (path: string, why: string) =>
  `Fetching the Git LFS object of ${path} failed (${why}). Redeploy to try again.`;

export class LfsSourceError extends Error {
  override name = 'LfsSourceError';
}

/** Regular files of at most MAX_POINTER_BYTES under `dir` (links are never followed). */
async function* smallFiles(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* smallFiles(path);
    else if (entry.isFile() && (await lstat(path)).size <= MAX_POINTER_BYTES) yield path;
  }
}

async function readSmall(path: string): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const buf = Buffer.alloc(MAX_POINTER_BYTES + 1);
    const { bytesRead } = await handle.read(buf, 0, buf.length, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/**
 * Replaces every LFS pointer file under `dir` by its object (streamed to disk, its size and SHA-256
 * checked, the file's mode kept); answers how many and how many bytes. Throws LfsSourceError naming
 * the file whose object is missing or could not be read.
 */
export async function replaceLfsPointers(
  dir: string,
  lfs: { bucket: string; prefix: string },
): Promise<{ objects: number; bytes: number }> {
  let objects = 0;
  let bytes = 0;
  for await (const file of smallFiles(dir)) {
    const pointer = parseLfsPointer(await readSmall(file));
    if (!pointer) continue;
    const path = relative(dir, file);
    const res = await presignedResponse(() =>
      storage().presignGet({ name: lfs.bucket }, `${lfs.prefix}${pointer.oid}`, { expiresIn: 300 }),
    ).catch((err: Error) => {
      throw new LfsSourceError(lfsFailed(path, err.message));
    });
    if (res.status === 404) throw new LfsSourceError(lfsMissing(path));
    if (!res.ok || !res.body) throw new LfsSourceError(lfsFailed(path, `HTTP ${res.status}`));
    const part = `${file}.lfs-part`;
    const hash = createHash('sha256');
    let size = 0;
    try {
      await pipeline(
        streamedBody(res),
        new Transform({
          transform(chunk: Buffer, _enc, done) {
            size += chunk.length;
            hash.update(chunk);
            done(null, chunk);
          },
        }),
        createWriteStream(part, { mode: (await lstat(file)).mode & 0o777 }),
      );
    } catch (err) {
      await rm(part, { force: true });
      throw new LfsSourceError(lfsFailed(path, (err as Error).message));
    }
    if (size !== pointer.size || hash.digest('hex') !== pointer.oid) {
      await rm(part, { force: true });
      throw new LfsSourceError(lfsFailed(path, "the object doesn't match its pointer"));
    }
    await rename(part, file);
    objects++;
    bytes += size;
  }
  return { objects, bytes };
}
