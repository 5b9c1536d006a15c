import type { ChildProcess } from 'node:child_process';

/**
 * Ties a service's child process to this one: killed when this process exits (an orphan would
 * keep its port, and later runs would silently talk to it), and `stop()` ends it gently
 * (SIGTERM, SIGKILL after 3 s). A child already ended by a signal (Ctrl-C reaches the whole
 * process group) counts as stopped.
 */
export function ownChild(child: ChildProcess): { kill: () => void; stop: () => Promise<void>; release: () => void } {
  const ended = () => child.exitCode !== null || child.signalCode !== null;
  const kill = () => {
    if (!ended()) child.kill('SIGKILL');
  };
  process.once('exit', kill);
  const release = () => process.removeListener('exit', kill);
  const stop = () =>
    new Promise<void>((resolve) => {
      release();
      if (ended()) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
      setTimeout(kill, 3000).unref();
    });
  return { kill, stop, release };
}
