import { spawnSync } from 'node:child_process';
import { hostname } from 'node:os';

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
