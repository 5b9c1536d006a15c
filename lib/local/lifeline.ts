import { readFileSync } from 'node:fs';

/**
 * A parent-death check for the local platform's own processes (`npm start`'s, the S3 server):
 * calls `gone` once when the process that started this one ends, even by SIGKILL, which no handler
 * sees. Started by npm on Linux, each launcher between this process and npm (`sh -c`, the tsx
 * CLI) is watched too: a SIGKILL of npm alone leaves them running, with this process as their child.
 * Polls once a second (a few reads of /proc); the timer never keeps the process alive.
 */
export function onParentGone(gone: () => void, everyMs = 1000): () => void {
  const parent = process.ppid;
  const chain = launchChain();
  const timer = setInterval(() => {
    if (process.ppid === parent && chain.every(alive)) return;
    clearInterval(timer);
    gone();
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}

/** `pid`'s parent and state from /proc (Linux), or undefined. */
function stat(pid: number): { ppid: number; state: string } | undefined {
  try {
    // `pid (comm) state ppid …`: comm may hold spaces and parentheses, so read after the last ')'.
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const [state, ppid] = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(ppid), state: state as string };
  } catch {
    return undefined;
  }
}

const alive = (pid: number) => {
  const s = stat(pid);
  return s !== undefined && s.state !== 'Z' && s.state !== 'X';
};

/** The ancestors up to npm when npm started this process (`npm_lifecycle_event`), on Linux. */
function launchChain(): number[] {
  if (process.platform !== 'linux' || !process.env.npm_lifecycle_event) return [];
  const chain: number[] = [];
  for (let pid = process.ppid; pid > 1 && chain.length < 5; ) {
    chain.push(pid);
    let cmdline = '';
    try {
      cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    } catch {
      return [];
    }
    // `npm start` (npm names its process so) or `node …/npm-cli.js start`.
    if (cmdline.split(/[\0 ]/, 2).some((arg) => /(^|\/)npm(-cli\.js)?$/.test(arg))) return chain;
    const up = stat(pid)?.ppid;
    if (up === undefined) return [];
    pid = up;
  }
  // No npm above: the parent alone is watched.
  return [];
}
