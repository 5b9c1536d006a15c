import { pipeline, Readable } from 'node:stream';
import { createGzip } from 'node:zlib';
import { Zip, ZipDeflate } from 'fflate';

/** A file of a commit's tree, as an archive holds it. */
export interface ArchiveEntry {
  /** Relative to the root, `/`-separated. */
  path: string;
  /** git's mode: `100644`, `100755` or `120000` (a link, whose target is `data`). */
  mode: string;
  data: Uint8Array;
}

/**
 * A zip or a tar.gz of `entries`, as `git archive` makes them (files at the root, modes kept,
 * links as links, every time the commit's), for adapters whose storage has no archive of its own
 * (CodeCommit). Written entry by entry as `entries` yields them.
 */
export function writeArchive(format: 'zip' | 'tar.gz', entries: AsyncIterable<ArchiveEntry>, mtime: Date): Readable {
  if (format === 'zip') return Readable.from(zipOf(entries, mtime));
  // A failure of `entries` ends the gzip stream with it (pipeline destroys both), never a short file.
  const gzip = createGzip();
  pipeline(Readable.from(tarOf(entries, mtime)), gzip, () => undefined);
  return gzip;
}

const LINK_MODE = '120000';
const unixMode = (mode: string) => (mode === LINK_MODE ? 0o777 : mode === '100755' ? 0o755 : 0o644);

async function* zipOf(entries: AsyncIterable<ArchiveEntry>, mtime: Date): AsyncGenerator<Uint8Array> {
  let out: Uint8Array[] = [];
  let failed: Error | null = null;
  const zip = new Zip((err, chunk) => {
    if (err) failed = err;
    else out.push(chunk);
  });
  const drain = function* () {
    if (failed) throw failed;
    yield* out;
    out = [];
  };
  for await (const entry of entries) {
    const file = new ZipDeflate(entry.path, { level: 6 });
    file.mtime = mtime;
    // Unix attributes in the high half (type and permissions), as git and zip(1) write them.
    file.os = 3;
    file.attrs = ((entry.mode === LINK_MODE ? 0o120000 : 0o100000) | unixMode(entry.mode)) << 16;
    zip.add(file);
    file.push(entry.data, true);
    yield* drain();
  }
  zip.end();
  yield* drain();
}

async function* tarOf(entries: AsyncIterable<ArchiveEntry>, mtime: Date): AsyncGenerator<Buffer> {
  const seconds = Math.floor(mtime.getTime() / 1000);
  for await (const entry of entries) yield Buffer.concat(tarEntry(entry, seconds));
  // Two empty blocks end the archive.
  yield Buffer.alloc(1024);
}

const BLOCK = 512;
const padding = (size: number) => Buffer.alloc((BLOCK - (size % BLOCK)) % BLOCK);

/** One entry: a pax header first when the path or the link's target does not fit ustar's fields. */
function tarEntry(entry: ArchiveEntry, mtime: number): Buffer[] {
  const link = entry.mode === LINK_MODE;
  const target = link ? Buffer.from(entry.data).toString('utf8') : '';
  const pax: string[] = [];
  if (Buffer.byteLength(entry.path) > 100) pax.push(paxRecord('path', entry.path));
  if (Buffer.byteLength(target) > 100) pax.push(paxRecord('linkpath', target));
  const parts: Buffer[] = [];
  if (pax.length > 0) {
    const body = Buffer.from(pax.join(''));
    parts.push(header({ name: 'pax_header', mode: 0o644, size: body.length, mtime, type: 'x', link: '' }));
    parts.push(body, padding(body.length));
  }
  const size = link ? 0 : entry.data.length;
  parts.push(
    header({ name: entry.path, mode: unixMode(entry.mode), size, mtime, type: link ? '2' : '0', link: target }),
  );
  if (!link) parts.push(Buffer.from(entry.data), padding(size));
  return parts;
}

/** `<length> <key>=<value>\n`, the length counting itself. */
function paxRecord(key: string, value: string): string {
  const rest = ` ${key}=${value}\n`;
  let length = Buffer.byteLength(rest) + 1;
  while (String(length).length + Buffer.byteLength(rest) !== length) length++;
  return `${length}${rest}`;
}

function header(h: { name: string; mode: number; size: number; mtime: number; type: string; link: string }): Buffer {
  const b = Buffer.alloc(BLOCK);
  const put = (value: string, at: number, width: number) => b.write(value.slice(0, width), at, width, 'utf8');
  const octal = (n: number, at: number, width: number) => put(`${n.toString(8).padStart(width - 1, '0')}\0`, at, width);
  put(truncateBytes(h.name, 100), 0, 100);
  octal(h.mode, 100, 8);
  octal(0, 108, 8);
  octal(0, 116, 8);
  octal(h.size, 124, 12);
  octal(h.mtime, 136, 12);
  b.fill(' ', 148, 156);
  put(h.type, 156, 1);
  put(truncateBytes(h.link, 100), 157, 100);
  put('ustar\u000000', 257, 8);
  put('root', 265, 32);
  put('root', 297, 32);
  let sum = 0;
  for (const byte of b) sum += byte;
  put(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 8);
  return b;
}

/** At most `max` bytes of `s`, whole characters only (the pax record holds the full value). */
function truncateBytes(s: string, max: number): string {
  let out = s;
  while (Buffer.byteLength(out) > max) out = out.slice(0, -1);
  return out;
}
