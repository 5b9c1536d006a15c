import { existsSync, lstatSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { create } from 'tar';
import { PLATFORM_FILES } from '../shared/ports/builds/platform-files';

/**
 * A folder as the gzipped tar the deployments routes take: plain files and folders only (the
 * build refuses an archive with links), without what `.gitignore` files exclude — the folder's
 * own, nested ones, and those of the folders above it up to the root of its git work tree — and
 * never `.git`, `node_modules` (the build installs from the lock file), `.env` files (what
 * `env pull` writes: variables reach builds from the platform, not from the archive) or the files
 * the platform's tools write (`.platform.json` of `platform link`, whatever a `.gitignore` says).
 */

const ALWAYS_IGNORED = ['.git', 'node_modules', '.env', '.env.local', '.env.*.local'];

/** The platform's limit for one source archive. */
const MAX_ARCHIVE_BYTES = 262_144_000;

interface Rules {
  /** The folder the rules belong to (absolute). */
  base: string;
  rules: Ignore;
}

function rulesOf(dir: string): Rules | undefined {
  const file = join(dir, '.gitignore');
  if (!existsSync(file)) return undefined;
  return { base: dir, rules: ignore().add(readFileSync(file, 'utf8')) };
}

/** The work tree's root above `dir` (a folder holding `.git`), or undefined outside git. */
function workTreeOf(dir: string): string | undefined {
  for (let d = dir; ; d = dirname(d)) {
    if (existsSync(join(d, '.git'))) return d;
    if (dirname(d) === d) return undefined;
  }
}

/** Git's precedence: the deepest file that has a say decides, and a later rule wins within a file. */
function ignored(stack: Rules[], full: string, isDir: boolean): boolean {
  let result = false;
  for (const { base, rules } of stack) {
    const rel = relative(base, full).split(sep).join('/');
    const t = rules.test(isDir ? `${rel}/` : rel);
    if (t.ignored) result = true;
    else if (t.unignored) result = false;
  }
  return result;
}

interface Listing {
  /** Paths relative to the folder, `/`-separated, folders ending in `/`, parents before children. */
  entries: string[];
  files: number;
  /** Symbolic links and other special files left out, relative to the folder. */
  skipped: string[];
}

export function listFolder(folder: string): Listing {
  const root = resolve(folder);
  if (!existsSync(root)) throw new PackError(`${folder} does not exist.`);
  // The folder itself may be a link to one; what is inside is read without following links.
  if (!statSync(root).isDirectory()) throw new PackError(`${folder} is not a folder.`);
  const stack: Rules[] = [{ base: root, rules: ignore().add(ALWAYS_IGNORED) }];
  const top = workTreeOf(root);
  if (top) {
    const above: Rules[] = [];
    for (let d = dirname(root); top !== root && d.startsWith(top); d = dirname(d)) {
      const r = rulesOf(d);
      if (r) above.unshift(r);
      if (d === top) break;
    }
    stack.push(...above);
  }
  const out: Listing = { entries: [], files: 0, skipped: [] };
  const walk = (dir: string, rules: Rules[]) => {
    const own = rulesOf(dir);
    const here = own ? [...rules, own] : rules;
    for (const name of readdirSync(dir).sort()) {
      const full = join(dir, name);
      const rel = relative(root, full).split(sep).join('/');
      const stat = lstatSync(full);
      if (stat.isDirectory()) {
        if (ignored(here, full, true)) continue;
        out.entries.push(`${rel}/`);
        walk(full, here);
      } else if (stat.isFile()) {
        if (PLATFORM_FILES.includes(name) || ignored(here, full, false)) continue;
        out.entries.push(rel);
        out.files++;
      } else if (!ignored(here, full, false)) out.skipped.push(rel);
    }
  };
  walk(root, stack);
  return out;
}

export class PackError extends Error {
  override name = 'PackError';
}

/** The folder's archive (gzipped tar, in memory: at most 250 MB) and what went into it. */
export async function packFolder(folder: string): Promise<Listing & { archive: Buffer }> {
  const listing = listFolder(folder);
  if (listing.files === 0) throw new PackError(`Nothing to deploy in ${folder}: every file is ignored or it is empty.`);
  const chunks: Buffer[] = [];
  let size = 0;
  const stream = create({ gzip: true, cwd: resolve(folder), portable: true, noDirRecurse: true }, listing.entries);
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_ARCHIVE_BYTES) throw new PackError('The archive is larger than 250 MB.');
    chunks.push(chunk);
  }
  return { ...listing, archive: Buffer.concat(chunks) };
}
