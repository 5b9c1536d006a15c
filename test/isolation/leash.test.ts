import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * kill -9 of the platform leaves no tenant process behind: a stand-in platform starts a build step
 * (two sleeps in a shell) through the real step runner, is killed with SIGKILL (no exit hook runs),
 * and the step's processes end by themselves (their leash sees the platform's pipe close).
 */

/** Pids whose command line is `sleep <seconds>`. */
function sleepers(seconds: string): number[] {
  return readdirSync('/proc')
    .filter((n) => /^\d+$/.test(n))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim() === `sleep ${seconds}`;
      } catch {
        return false;
      }
    })
    .map(Number);
}

async function until(check: () => boolean, attempts: number): Promise<boolean> {
  for (let i = 0; i < attempts; i++) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return check();
}

it('a build step ends when the platform is killed with SIGKILL', async () => {
  // A duration no other process has: the test finds the step's processes by it.
  const seconds = `${600 + Math.floor(Math.random() * 1000)}.${process.pid}`;
  const platform = spawn(
    process.execPath,
    [require.resolve('tsx/cli'), join(__dirname, '..', 'fixtures', 'leash', 'platform.ts'), seconds],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const pid = await new Promise<number>((resolve, reject) => {
    platform.stdout?.on('data', (chunk: Buffer) => {
      const m = /started (\d+)/.exec(chunk.toString());
      if (m) resolve(Number(m[1]));
    });
    platform.once('exit', () => reject(new Error('the stand-in platform exited before starting its step')));
  });
  expect(await until(() => sleepers(seconds).length === 2, 100)).toBe(true);

  process.kill(pid, 'SIGKILL');
  const gone = await until(() => sleepers(seconds).length === 0, 100);
  const left = sleepers(seconds);
  for (const p of left) process.kill(p, 'SIGKILL');
  expect(gone).toBe(true);
  expect(left).toEqual([]);
}, 30_000);
