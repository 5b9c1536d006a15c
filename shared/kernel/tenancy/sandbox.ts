import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmod, lchown, lstat, mkdir, readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { processEnv } from '../ground/env';
import { assertSafeId, dataDir, tenantRoot } from './paths';

/**
 * Tenant code on one machine: build steps and server functions. What it may reach is its own
 * folder, outside `DATA_DIR`, and nothing of the platform's:
 * - When the platform runs as root, tenant code runs as an unprivileged user of its own, one per
 *   project (uid and gid `200000 + hash(projectId) mod 1000000`), in a folder only that user can
 *   open; `DATA_DIR` (keys, credentials, other deployments' files and variables) is made private
 *   to root before any tenant code runs. Not as root, tenant code runs as the platform's user
 *   (it can then read what that user can: run the platform as root, or in a container, to isolate).
 * - Every tenant process is started through a leash: a small Node process that holds a pipe from
 *   the platform and kills its whole process group when the pipe closes, so a platform killed with
 *   kill -9 leaves no build or server behind. The environment travels on that pipe, never in
 *   argv; the process gets exactly the variables given (never the platform's own).
 */

const FIRST_UID = 200_000;
const UIDS = 1_000_000;

export interface TenantIds {
  uid: number;
  gid: number;
}

/** True when tenant code runs as its own user (the platform runs as root). */
export const isolating = () => typeof process.getuid === 'function' && process.getuid() === 0;

/** The user and group of a project's code, or undefined when the platform does not run as root. */
export function tenantIds(projectId: string): TenantIds | undefined {
  if (!isolating()) return undefined;
  const n = createHash('sha256').update(projectId).digest().readUInt32BE(0) % UIDS;
  return { uid: FIRST_UID + n, gid: FIRST_UID + n };
}

/**
 * A fresh folder for one deployment's build or function, owned by the project's user and closed
 * to everyone else (0700). Its parents can be crossed but not listed (0711): one tenant can't
 * find another's folders. `DATA_DIR` is made private (0700) first.
 */
export async function tenantDir(kind: 'builds' | 'functions', deploymentId: string, projectId: string) {
  const root = tenantRoot();
  const parent = join(root, kind);
  await mkdir(parent, { recursive: true, mode: 0o711 });
  if (isolating()) {
    await chmod(root, 0o711);
    await chmod(parent, 0o711);
    await mkdir(dataDir(), { recursive: true, mode: 0o700 });
    await chmod(dataDir(), 0o700);
  }
  const dir = join(parent, assertSafeId(deploymentId));
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await handOver(dir, projectId);
  return dir;
}

/** Gives a folder and everything in it to the project's user (no-op when not isolating). */
export async function handOver(path: string, projectId: string): Promise<void> {
  const ids = tenantIds(projectId);
  if (!ids) return;
  // lchown: a link is given over as a link, never the file it points to.
  const give = (p: string) => lchown(p, ids.uid, ids.gid);
  await give(path);
  if (!(await lstat(path)).isDirectory()) return;
  // Folder by folder, the entries of each given over several at a time (a site of tens of
  // thousands of files waits on the disk, not on each call in turn).
  const folders = [path];
  for (let folder = folders.pop(); folder !== undefined; folder = folders.pop()) {
    const entries = await readdir(folder, { withFileTypes: true });
    for (let i = 0; i < entries.length; i += HAND_OVER_BATCH) {
      await Promise.all(
        entries.slice(i, i + HAND_OVER_BATCH).map((entry) => {
          const p = join(folder as string, entry.name);
          if (entry.isDirectory()) folders.push(p);
          return give(p);
        }),
      );
    }
  }
}

const HAND_OVER_BATCH = 64;

/**
 * How this machine reaches the network (its proxies and the certificate authorities it trusts, as
 * paths to world-readable bundles): passed to tenant code as they are, so installs and apps reach
 * registries and APIs as the platform itself does. No secret is among them.
 */
const MACHINE_NETWORK = [
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'NO_PROXY',
  'http_proxy',
  'https_proxy',
  'no_proxy',
  'NODE_EXTRA_CA_CERTS',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
];

export function machineNetworkEnv(env: NodeJS.ProcessEnv = processEnv()): Record<string, string> {
  return Object.fromEntries(MACHINE_NETWORK.flatMap((name) => (env[name] ? [[name, env[name] as string]] : [])));
}

/** The first symbolic link under `dir` (a path relative to it), or undefined. */
export async function firstLink(dir: string): Promise<string | undefined> {
  const stack = [dir];
  while (stack.length > 0) {
    const current = stack.pop() as string;
    for (const entry of await readdir(current, { withFileTypes: true })) {
      const path = join(current, entry.name);
      if (entry.isSymbolicLink()) return relative(dir, path);
      if (entry.isDirectory()) stack.push(path);
    }
  }
  return undefined;
}

/**
 * The leash (run with `node -e`): reads `{ command, args, env }` as the first line of stdin,
 * starts the command in its own process group with that environment, ends as the command ends
 * (same code or signal), and kills the group when stdin closes (the platform is gone).
 */
const LEASH = `
const { spawn } = require('node:child_process');
let buffer = '';
let child;
const end = () => { try { process.kill(-process.pid, 'SIGKILL'); } catch { process.exit(137); } };
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  if (child) return;
  buffer += chunk;
  const nl = buffer.indexOf('\\n');
  if (nl < 0) return;
  const spec = JSON.parse(buffer.slice(0, nl));
  child = spawn(spec.command, spec.args, { env: spec.env, stdio: ['ignore', 'inherit', 'inherit'] });
  child.on('error', (err) => { process.stderr.write(err.message + '\\n'); process.exit(127); });
  child.on('exit', (code, signal) => {
    if (signal) { process.removeAllListeners('SIGTERM'); process.kill(process.pid, signal); }
    process.exit(code ?? 1);
  });
});
process.stdin.on('end', end);
process.stdin.on('close', end);
process.stdin.on('error', end);
`;

/**
 * Starts tenant code: `command` with `args`, in `cwd`, with exactly `env`, as the project's user
 * when isolating, in its own process group (kill `-pid` to stop it all), on a leash.
 */
export function spawnTenant(
  command: string,
  args: string[],
  options: { cwd: string; env: Record<string, string>; projectId: string },
): ChildProcess {
  const ids = tenantIds(options.projectId);
  const child = spawn(process.execPath, ['-e', LEASH], {
    cwd: options.cwd,
    env: { PATH: options.env.PATH ?? '/usr/local/bin:/usr/bin:/bin' },
    detached: true,
    stdio: ['pipe', 'pipe', 'pipe'],
    ...(ids ? { uid: ids.uid, gid: ids.gid } : {}),
  });
  child.stdin?.on('error', () => undefined);
  child.stdin?.write(`${JSON.stringify({ command, args, env: options.env })}\n`);
  // The pipe stays open for the child's whole life; it must not keep the platform's loop alive.
  (child.stdin as unknown as { unref?: () => void } | null)?.unref?.();
  return child;
}
