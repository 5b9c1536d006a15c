import { createReadStream, createWriteStream, existsSync, mkdirSync, readFileSync, renameSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createBrotliDecompress } from 'node:zlib';

/**
 * The Chromium the browser tests drive: Debian's when it is installed (CI installs it), else the
 * one shipped inside the npm package @sparticuz/chromium (a dev dependency, so `npm ci` alone is
 * enough), unpacked once into node_modules/.cache. That build is for x64 Linux and needs the
 * system's NSS libraries (Debian's libnss3); elsewhere, install Debian's chromium.
 */
export const DEBIAN_CHROMIUM = '/usr/bin/chromium';

const PACKAGE = '@sparticuz/chromium';
const CACHE = resolve(__dirname, '..', '..', 'node_modules', '.cache', 'platform-chromium');

/** The package's folder (its exports hide package.json from require.resolve). */
function packageRoot(): string {
  for (let dir = dirname(require.resolve(PACKAGE)); dirname(dir) !== dir; dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (existsSync(file) && (JSON.parse(readFileSync(file, 'utf8')) as { name?: string }).name === PACKAGE) return dir;
  }
  throw new Error(`${PACKAGE} has no package.json above its entry point.`);
}

/** The package's brotli-compressed binary, unpacked once per version (written aside, then renamed: whole or absent). */
export async function packagedChromium(cache = CACHE): Promise<string> {
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(
      `No Chromium at ${DEBIAN_CHROMIUM}, and ${PACKAGE} ships one for x64 Linux only: apt-get install -y chromium`,
    );
  }
  const root = packageRoot();
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
  const bin = join(cache, version, 'chromium');
  if (existsSync(bin)) return bin;
  mkdirSync(dirname(bin), { recursive: true });
  const partial = `${bin}.${process.pid}.partial`;
  await pipeline(
    createReadStream(join(root, 'bin', 'chromium.br')),
    createBrotliDecompress(),
    createWriteStream(partial, { mode: 0o755 }),
  );
  renameSync(partial, bin);
  return bin;
}

/** Debian's Chromium when present, else the packaged one. */
export async function chromiumPath(debian = DEBIAN_CHROMIUM): Promise<string> {
  return existsSync(debian) ? debian : packagedChromium();
}
