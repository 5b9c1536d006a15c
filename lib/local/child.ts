import type { ChildProcess } from 'node:child_process';

/**
 * Ties an engine's child process to this one. The child is spawned `detached`: it leads a process
 * group of its own (what it starts, java under DynamoDB Local's launcher, is in it), which a
 * terminal's Ctrl-C does not reach, so only this process stops it, never behind the supervisor's
 * back. Its group is killed when the child ends (even by SIGKILL: nothing it started outlives it)
 * and when this process exits; `stop()` ends it gently (SIGTERM, SIGKILL after 3 s) and resolves
 * once it is gone. The child watches this process too (a pipe or `onParentGone`), for a SIGKILL
 * here that no exit hook sees.
 */
export function ownChild(child: ChildProcess): { kill: () => void; stop: () => Promise<void>; release: () => void } {
  const ended = () => child.exitCode !== null || child.signalCode !== null;
  const killGroup = () => {
    if (child.pid === undefined) return;
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // The group is empty: nothing left.
    }
  };
  const kill = () => {
    if (!ended()) child.kill('SIGKILL');
    killGroup();
  };
  process.once('exit', kill);
  const release = () => process.removeListener('exit', kill);
  child.once('exit', () => {
    killGroup();
    release();
  });
  const stop = () =>
    new Promise<void>((resolve) => {
      if (ended()) {
        killGroup();
        return resolve();
      }
      const timer = setTimeout(kill, 3000);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      child.kill('SIGTERM');
    });
  return { kill, stop, release };
}
