import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';

/** What a deployment records about where its source came from (`meta` of the create route). */
interface SourceMeta {
  branch?: string;
  commit?: string;
  dirty?: boolean;
  machine?: string;
}

function git(cwd: string, args: string[]): string | undefined {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 10_000 });
  return r.status === 0 ? r.stdout.trim() : undefined;
}

/**
 * Branch, commit and whether the work tree has changes, from the local git when the folder is in
 * a work tree (no git, no repository, no commit yet: those fields are left out), and the machine's
 * name. Values are trimmed to the route's limits.
 */
export function sourceMeta(folder: string): SourceMeta {
  const meta: SourceMeta = { machine: hostname().slice(0, 64) || undefined };
  if (git(folder, ['rev-parse', '--is-inside-work-tree']) !== 'true') return meta;
  const branch = git(folder, ['symbolic-ref', '--short', '-q', 'HEAD']);
  if (branch) meta.branch = branch.slice(0, 255);
  const commit = git(folder, ['rev-parse', '--verify', '-q', 'HEAD']);
  if (commit && /^[0-9a-f]{40}$/.test(commit)) meta.commit = commit;
  const status = git(folder, ['status', '--porcelain']);
  if (status !== undefined) meta.dirty = status.length > 0;
  return meta;
}

/**
 * The program and script that run this command line, for what calls it back (git's credential
 * helper): the script it was started as (`io.self`: the bundle, `cli/bin.cjs`, or the link `npm
 * link` put on the PATH), else this checkout's `cli/bin.cjs` (found from the sources under tsx,
 * or from `dist/cli/` in the bundle).
 */
export function selfCommand(self: string[] | undefined): string[] {
  if (self && self.length > 0) return self;
  const candidates = [
    join(__dirname, 'bin.cjs'),
    join(__dirname, '..', 'bin.cjs'),
    join(__dirname, '..', '..', 'cli', 'bin.cjs'),
  ];
  return [process.execPath, candidates.find((file) => existsSync(file)) ?? (candidates[1] as string)];
}
