import { readdirSync, readFileSync } from 'node:fs';

/**
 * The processes of this machine that carry `marker` (a data folder's path) in their environment
 * or command line, from /proc (Linux; elsewhere none are found): what a test run, a test or an
 * `npm start` started, whatever became of their parents. Zombies (ended, not yet reaped) and
 * this process are left out, and so are the processes in `except`.
 */
export function processesWith(marker: string, except: number[] = []): { pid: number; args: string }[] {
  let pids: number[];
  try {
    pids = readdirSync('/proc')
      .filter((d) => /^\d+$/.test(d))
      .map(Number);
  } catch {
    return [];
  }
  const found: { pid: number; args: string }[] = [];
  for (const pid of pids) {
    if (pid === process.pid || except.includes(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (/^[ZX]/.test(stat.slice(stat.lastIndexOf(')') + 2))) continue;
      const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
      if (args.includes(marker) || readFileSync(`/proc/${pid}/environ`, 'utf8').includes(marker))
        found.push({ pid, args: args.length > 160 ? `${args.slice(0, 160)}…` : args });
    } catch {
      // Ended meanwhile, or not ours to read.
    }
  }
  return found;
}

/** Waits up to `ms` for the processes with `marker` to end; answers those still running. */
export async function leftWith(marker: string, ms = 10_000, except: number[] = []) {
  const end = Date.now() + ms;
  for (;;) {
    const left = processesWith(marker, except);
    if (left.length === 0 || Date.now() > end) return left;
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Ends the processes with `marker` (SIGKILL): a test's leftovers, never another run's. */
export function killWith(marker: string, except: number[] = []): void {
  for (const { pid } of processesWith(marker, except)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
}
