import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buffer, text } from 'node:stream/consumers';
import { unzipSync } from 'fflate';
import { x as extract } from 'tar';
import { type ArchiveEntry, writeArchive } from '../../shared/ports/git/archive-writer';

/**
 * The archives written where the storage makes none (CodeCommit): a tar.gz that tar extracts with
 * modes, links, long and non-ASCII paths and the commit's time; a zip that unzips to the same files,
 * with Unix modes in its central directory, as `git archive` writes them.
 */
const deep = `${'nested/'.repeat(16)}deep.txt`;
const entries: ArchiveEntry[] = [
  { path: 'README.md', mode: '100644', data: Buffer.from('# Hello\n') },
  { path: 'bin/run.sh', mode: '100755', data: Buffer.from('#!/bin/sh\necho hi\n') },
  { path: 'docs/ünïcode.md', mode: '100644', data: Buffer.from('ü\n') },
  { path: deep, mode: '100644', data: Buffer.alloc(3000, 'x') },
  { path: 'latest', mode: '120000', data: Buffer.from('README.md') },
];
const mtime = new Date('2026-03-04T05:06:07Z');
async function* each(list: ArchiveEntry[]) {
  yield* list;
}

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'archive-writer-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

test('tar.gz: tar extracts every file with its mode, the link as a link, long and non-ASCII paths whole', async () => {
  const file = join(dir, 'a.tar.gz');
  writeFileSync(file, await buffer(writeArchive('tar.gz', each(entries), mtime)));
  const out = join(dir, 'out');
  mkdirSync(out);
  await extract({ file, cwd: out });
  expect(readFileSync(join(out, 'README.md'), 'utf8')).toBe('# Hello\n');
  expect(statSync(join(out, 'bin/run.sh')).mode & 0o777).toBe(0o755);
  expect(statSync(join(out, 'README.md')).mode & 0o111).toBe(0);
  expect(readFileSync(join(out, 'docs/ünïcode.md'), 'utf8')).toBe('ü\n');
  expect(readFileSync(join(out, deep)).length).toBe(3000);
  expect(lstatSync(join(out, 'latest')).isSymbolicLink()).toBe(true);
  expect(readlinkSync(join(out, 'latest'))).toBe('README.md');
  expect(statSync(join(out, 'README.md')).mtime.toISOString()).toBe(mtime.toISOString());
});

test('zip: the same files, Unix modes in the central directory, links as links', async () => {
  const zip = await buffer(writeArchive('zip', each(entries), mtime));
  const files = unzipSync(new Uint8Array(zip));
  expect(Object.keys(files).sort()).toEqual(['README.md', 'bin/run.sh', 'docs/ünïcode.md', deep, 'latest'].sort());
  expect(Buffer.from(files['bin/run.sh'] as Uint8Array).toString()).toBe('#!/bin/sh\necho hi\n');
  expect(Buffer.from(files.latest as Uint8Array).toString()).toBe('README.md');
  expect(modesOf(zip)).toMatchObject({ 'README.md': 0o100644, 'bin/run.sh': 0o100755, latest: 0o120777 });
});

test('an entry that fails ends the archive with its error, never a short archive', async () => {
  async function* failing() {
    yield entries[0] as ArchiveEntry;
    throw new Error('blob unreachable');
  }
  await expect(text(writeArchive('tar.gz', failing(), mtime))).rejects.toThrow('blob unreachable');
  await expect(text(writeArchive('zip', failing(), mtime))).rejects.toThrow('blob unreachable');
});

/** Each file's Unix mode, from the zip's central directory (external attributes, high half). */
function modesOf(zip: Buffer): Record<string, number> {
  const modes: Record<string, number> = {};
  for (let at = zip.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02])); at >= 0; ) {
    const nameLength = zip.readUInt16LE(at + 28);
    const extra = zip.readUInt16LE(at + 30);
    const comment = zip.readUInt16LE(at + 32);
    const name = zip.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    modes[name] = zip.readUInt32LE(at + 38) >>> 16;
    const next = at + 46 + nameLength + extra + comment;
    at = zip.readUInt32LE(next) === 0x02014b50 ? next : -1;
  }
  return modes;
}
