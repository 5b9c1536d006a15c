import { createWriteStream } from 'node:fs';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { Parser, type ReadEntry } from 'tar';
import { processEnv } from '../../kernel/ground/env';
import { isPlatformFile } from './platform-files';

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
export function extractLimits(env = processEnv()): ExtractLimits {
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
const MAX_DEPTH = 128;
/** A file up to this size is read whole from the archive, then written in one call. */
const SMALL_FILE = 64 * 1024;
/** Small files being written at once (their contents in memory: at most 2 MB together). */
const PARALLEL_WRITES = 32;

/** A path that stays inside the folder it is unpacked into, or the reason it does not. */
function pathProblem(path: string): string | undefined {
  if (path.includes('\0')) return 'a file name with a NUL character';
  if (path.startsWith('/') || path.startsWith('\\') || /^[a-zA-Z]:/.test(path)) return `an absolute path (${path})`;
  const parts = path.split(/[\\/]/);
  if (parts.includes('..')) return `a path outside its folder (${path})`;
  if (parts.length > MAX_DEPTH) return `a path more than ${MAX_DEPTH} folders deep (${path.slice(0, 80)}…)`;
  return undefined;
}

const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;

/**
 * Unpacks a gzipped tar stream into `dest` (created, and expected empty). tar only parses
 * (`strict`: every warning is an error; its decompression-ratio cap); the files are written here,
 * so nothing but plain files and folders is ever created. The whole archive is refused at the
 * first entry that is anything else (links, devices, pipes), that would land outside `dest`
 * (absolute, `..`), or that goes over the limits. The platform's own files (platform-files.ts)
 * are dropped. No link is ever written, `dest` starts empty,
 * and every path is checked to resolve inside it: nothing is written outside `dest`. On refusal
 * the promise rejects only once every file already being written is closed, so the caller can
 * remove `dest` for good.
 */
export async function extractArchive(
  source: Readable,
  dest: string,
  limits: ExtractLimits = extractLimits(),
): Promise<{ entries: number; bytes: number }> {
  const root = resolve(dest);
  await mkdir(root, { recursive: true });
  if ((await readdir(root)).length > 0) throw new Error(`${root} is not empty`);
  let entries = 0;
  let bytes = 0;
  const writes = new Set<Promise<unknown>>();
  const open = new Set<ReturnType<typeof createWriteStream>>();
  let failure: Error | undefined;

  return new Promise((resolvePromise, reject) => {
    let settled = false;
    const settle = async () => {
      if (settled) return;
      settled = true;
      // Wait for what was started, whatever happens to it.
      while (writes.size > 0) await Promise.allSettled([...writes]);
      if (failure) reject(failure);
      else if (entries === 0) reject(new ArchiveError('The source archive is empty.'));
      else resolvePromise({ entries, bytes });
    };
    const fail = (err: Error) => {
      if (failure) return;
      failure = err;
      source.unpipe(parser);
      source.destroy();
      parser.abort(err);
      // Files cut short by the refusal are closed now (their entry's data stops here).
      for (const out of open) out.destroy();
      void settle();
    };

    /** A write that failed: the entry's path and the system's code, never a path of this machine. */
    const writeFailed = (path: string) => (err: NodeJS.ErrnoException) =>
      fail(new ArchiveError(`The archive couldn't be unpacked at ${path} (${err.code ?? 'write error'}).`));

    const track = (job: Promise<unknown>, path: string) => {
      writes.add(job);
      job.then(
        () => writes.delete(job),
        (err: NodeJS.ErrnoException) => {
          writes.delete(job);
          writeFailed(path)(err);
        },
      );
    };

    // Each folder is made once: a site of tens of thousands of files has a few hundred.
    const folders = new Map<string, Promise<unknown>>();
    const folder = (path: string) => {
      let made = folders.get(path);
      if (!made) {
        made = mkdir(path, { recursive: true });
        folders.set(path, made);
      }
      return made;
    };
    // Two entries of one path are written in the archive's order (the later one stays).
    const last = new Map<string, Promise<unknown>>();
    const inOrder = (target: string, job: () => Promise<unknown>) => {
      const done = (last.get(target) ?? folder(dirname(target))).then(() => (failure ? undefined : job()));
      const settledJob = done.catch(() => undefined);
      last.set(target, settledJob);
      void settledJob.then(() => {
        if (last.get(target) === settledJob) last.delete(target);
      });
      return done;
    };

    // Setuid, setgid and sticky bits never come from an archive.
    const modeOf = (entry: ReadEntry) => (entry.mode ?? 0o644) & 0o755;

    /** A large file, streamed to disk (the parser waits for it). */
    const stream = (entry: ReadEntry, target: string) => {
      entry.pause();
      const job = inOrder(target, async () => {
        const out = createWriteStream(target, { mode: modeOf(entry) });
        open.add(out);
        try {
          entry.pipe(out);
          await finished(out);
        } finally {
          open.delete(out);
        }
      }).then(() => {
        // Refused meanwhile: the entry's data is let go so the parser can end.
        if (failure) entry.resume();
      });
      track(job, entry.path);
    };

    // Small files are written several at a time: an archive of many small files (a documentation
    // site) waits on the disk, not on each file's open, write and close in turn.
    let writing = 0;
    const waiting: (() => void)[] = [];
    const release = () => {
      writing--;
      waiting.shift()?.();
    };
    const small = (entry: ReadEntry, target: string) => {
      const chunks: Buffer[] = [];
      const read = () => {
        writing++;
        entry.on('data', (chunk: Buffer) => chunks.push(chunk));
        entry.on('end', () => {
          const job = inOrder(target, () => writeFile(target, Buffer.concat(chunks), { mode: modeOf(entry) }));
          job.then(release, release);
          track(job, entry.path);
        });
      };
      if (writing < PARALLEL_WRITES) return read();
      // The parser reads no further until this entry is read.
      entry.pause();
      waiting.push(() => {
        read();
        entry.resume();
      });
    };

    const parser = new Parser({
      strict: true,
      onReadEntry: (entry: ReadEntry) => {
        if (failure) return entry.resume();
        const path = entry.path;
        const type = String(entry.type);
        const problem = pathProblem(path);
        if (problem) {
          entry.resume();
          return fail(
            new ArchiveError(`The archive has ${problem}. Every entry must stay inside the archive's folder.`),
          );
        }
        if (type !== 'Directory' && !FILE_TYPES.has(type)) {
          entry.resume();
          const kind = KIND[type] ?? `an entry of type ${type}`;
          return fail(new ArchiveError(`The archive contains ${kind} (${path}). Only files and folders are allowed.`));
        }
        // The platform's own files (a CLI's `.platform.json`) are never part of a deployment.
        if (type !== 'Directory' && isPlatformFile(path)) return entry.resume();
        entries++;
        bytes += Number(entry.size) || 0;
        if (entries > limits.maxEntries) {
          entry.resume();
          return fail(new ArchiveError(`The archive has more than ${limits.maxEntries} files and folders.`));
        }
        if (bytes > limits.maxBytes) {
          entry.resume();
          return fail(new ArchiveError(`The archive unpacks to more than ${mb(limits.maxBytes)}.`));
        }
        const target = resolve(root, path);
        const rel = relative(root, target);
        if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) {
          // `./` itself, or anything the checks above missed: nothing to write.
          return entry.resume();
        }
        if (type === 'Directory') {
          entry.resume();
          track(folder(target), path);
          return;
        }
        if ((Number(entry.size) || 0) <= SMALL_FILE) small(entry, target);
        else stream(entry, target);
      },
    });
    parser.on('error', (err: Error & { code?: string; tarCode?: string }) => {
      if (failure) return;
      const code = err.tarCode ?? err.code;
      if (/decompression ratio/i.test(err.message)) {
        fail(
          new ArchiveError('The archive expands more than 1000 times when unpacked. Refused as a compression bomb.'),
        );
      } else if (code === 'TAR_BAD_ARCHIVE' || code === 'TAR_ABORT' || /zlib|gzip|Z_/i.test(`${code} ${err.message}`)) {
        fail(new ArchiveError("The source archive isn't a valid gzipped tar file."));
      } else fail(new ArchiveError(`The archive couldn't be unpacked: ${err.message}`));
    });
    parser.on('end', () => void settle());
    source.on('error', (err) => fail(new Error(`Reading the source archive failed: ${err.message}`)));
    source.pipe(parser);
  });
}
