import { mkdir, readdir } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { Unpack } from 'tar';

/** Why an archive was refused: the message is the deployment's `error`, as is. */
export class ArchiveError extends Error {
  override name = 'ArchiveError';
}

export interface ExtractLimits {
  /** Files and folders together. */
  maxEntries: number;
  /** Sum of the files' sizes once unpacked. */
  maxBytes: number;
}

/** Generous for any site or server, small enough that one archive can't fill the disk. */
export function extractLimits(env = process.env): ExtractLimits {
  const num = (v: string | undefined, d: number) => (v && Number(v) > 0 ? Number(v) : d);
  return {
    maxEntries: num(env.BUILD_MAX_ENTRIES, 100_000),
    maxBytes: num(env.BUILD_MAX_UNPACKED_BYTES, 2 * 1024 ** 3),
  };
}

const FILE_TYPES = new Set(['File', 'OldFile', 'ContiguousFile']);
const KIND: Record<string, string> = {
  SymbolicLink: 'a symbolic link',
  Link: 'a hard link',
  CharacterDevice: 'a device file',
  BlockDevice: 'a device file',
  FIFO: 'a named pipe',
};

/** A path that stays inside the folder it is unpacked into, or the reason it does not. */
function pathProblem(path: string): string | undefined {
  if (path.includes('\0')) return 'a file name with a NUL character';
  if (path.startsWith('/') || path.startsWith('\\') || /^[a-zA-Z]:/.test(path)) return `an absolute path (${path})`;
  if (path.split(/[\\/]/).includes('..')) return `a path outside its folder (${path})`;
  return undefined;
}

const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;

/**
 * Unpacks a gzipped tar stream into `dest` (created, and expected empty), refusing the whole
 * archive at the first entry that is not a plain file or folder, that would land outside `dest`
 * (absolute or `..`), or that goes over the limits. tar itself runs with `strict` (every warning
 * is an error), its own checks against escaping through links, and a decompression-ratio cap.
 * Nothing is ever written outside `dest`; on refusal the caller removes `dest`.
 */
export async function extractArchive(
  source: Readable,
  dest: string,
  limits: ExtractLimits = extractLimits(),
): Promise<{ entries: number; bytes: number }> {
  await mkdir(dest, { recursive: true });
  if ((await readdir(dest)).length > 0) throw new Error(`${dest} is not empty`);
  let entries = 0;
  let bytes = 0;
  return new Promise((resolve, reject) => {
    let failed = false;
    const fail = (err: Error) => {
      if (failed) return;
      failed = true;
      source.unpipe(unpack);
      source.destroy();
      unpack.abort(err);
      reject(err);
    };
    const unpack = new Unpack({
      cwd: dest,
      strict: true,
      preserveOwner: false,
      // Modes from the archive, minus group/other write; never setuid.
      umask: 0o022,
      maxDepth: 128,
      filter: (path, entry) => {
        if (failed) return false;
        const type = 'type' in entry ? String(entry.type) : 'File';
        const problem = pathProblem(path);
        if (problem) {
          fail(new ArchiveError(`The archive has ${problem}. Every entry must stay inside the archive's folder.`));
          return false;
        }
        if (type !== 'Directory' && !FILE_TYPES.has(type)) {
          const kind = KIND[type] ?? `an entry of type ${type}`;
          fail(new ArchiveError(`The archive contains ${kind} (${path}). Only files and folders are allowed.`));
          return false;
        }
        entries++;
        bytes += 'size' in entry ? Number(entry.size) || 0 : 0;
        if (entries > limits.maxEntries) {
          fail(new ArchiveError(`The archive has more than ${limits.maxEntries} files and folders.`));
          return false;
        }
        if (bytes > limits.maxBytes) {
          fail(new ArchiveError(`The archive unpacks to more than ${mb(limits.maxBytes)}.`));
          return false;
        }
        return true;
      },
    });
    unpack.on('error', (err: Error & { code?: string; tarCode?: string }) => {
      if (failed) return;
      const code = err.tarCode ?? err.code;
      if (/decompression ratio/i.test(err.message)) {
        fail(
          new ArchiveError('The archive expands more than 1000 times when unpacked. Refused as a compression bomb.'),
        );
      } else if (code === 'TAR_BAD_ARCHIVE' || code === 'TAR_ABORT' || /zlib|gzip|Z_/i.test(`${code} ${err.message}`)) {
        fail(new ArchiveError("The source archive isn't a valid gzipped tar file."));
      } else fail(new ArchiveError(`The archive couldn't be unpacked: ${err.message}`));
    });
    unpack.on('close', () => {
      if (failed) return;
      if (entries === 0) return fail(new ArchiveError('The source archive is empty.'));
      resolve({ entries, bytes });
    });
    source.on('error', (err) => fail(new Error(`Reading the source archive failed: ${err.message}`)));
    source.pipe(unpack);
  });
}
