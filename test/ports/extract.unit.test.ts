import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { ArchiveError, extractArchive } from '../../shared/ports/builds/extract';
import { makeTar, type TarEntry } from '../fixtures/tar';

/**
 * The extractor writes small files several at a time and streams large ones: every file lands
 * whole, in its folder, a path given twice keeps the archive's later entry, and a refusal after
 * files were written rejects only once they are closed.
 */
const fresh = () => join(mkdtempSync(join(tmpdir(), 'extract-')), 'out');
const source = (entries: TarEntry[]) => Readable.from([makeTar(entries)]);

it('writes small and large files whole, each folder made once, a repeated path as its later entry', async () => {
  const large = Buffer.alloc(300 * 1024, 'x');
  const entries: TarEntry[] = [{ path: 'big/', type: '5' }];
  for (let i = 0; i < 200; i++) entries.push({ path: `f${i % 4}/deep/${i}.txt`, content: `file ${i}` });
  entries.push({ path: 'big/site.bin', content: large });
  entries.push({ path: 'twice.txt', content: Buffer.alloc(100 * 1024, 'a') });
  entries.push({ path: 'twice.txt', content: 'second' });
  entries.push({ path: 'big/after.txt', content: 'after the large one', mode: 0o4755 });
  const dest = fresh();
  const result = await extractArchive(source(entries), dest);
  expect(result.entries).toBe(entries.length);
  for (let i = 0; i < 200; i++) {
    expect(readFileSync(join(dest, `f${i % 4}`, 'deep', `${i}.txt`), 'utf8')).toBe(`file ${i}`);
  }
  expect(readFileSync(join(dest, 'big', 'site.bin')).equals(large)).toBe(true);
  expect(readFileSync(join(dest, 'twice.txt'), 'utf8')).toBe('second');
  expect(readFileSync(join(dest, 'big', 'after.txt'), 'utf8')).toBe('after the large one');
  // Setuid never comes from an archive.
  expect(statSync(join(dest, 'big', 'after.txt')).mode & 0o7000).toBe(0);
  expect(readdirSync(dest).sort()).toEqual(['big', 'f0', 'f1', 'f2', 'f3', 'twice.txt']);
});

it('over the entry limit, refuses the archive once the files already started are written', async () => {
  const entries: TarEntry[] = [];
  for (let i = 0; i < 100; i++) entries.push({ path: `p/${i}.txt`, content: `page ${i}` });
  const dest = fresh();
  const refused = extractArchive(source(entries), dest, { maxEntries: 50, maxBytes: 1024 ** 3 });
  await expect(refused).rejects.toThrow(new ArchiveError('The archive has more than 50 files and folders.'));
  const written = readdirSync(join(dest, 'p'));
  expect(written.length).toBeLessThanOrEqual(50);
  for (const name of written) expect(readFileSync(join(dest, 'p', name), 'utf8')).toBe(`page ${name.split('.')[0]}`);
});
