import { spawn } from 'node:child_process';

/**
 * Runs `node <args>` in a fresh process and resolves with the JSON it prints last on stdout (a line
 * of its own: what ran before it, an analytics log line, may precede it); killed
 * after `timeoutMs`. `what` names the measurement in the error, with the end of its stderr.
 */
export function jsonFromChild<T>(
  args: string[],
  options: { env: NodeJS.ProcessEnv; cwd?: string; timeoutMs: number; what: string },
): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: options.cwd,
      env: options.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString();
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      try {
        if (code !== 0) throw new Error(`exit ${code}`);
        resolve(JSON.parse(out.trim().split('\n').pop() ?? '') as T);
      } catch (e) {
        reject(new Error(`${options.what} failed (${(e as Error).message}): ${err.slice(-2000)}`));
      }
    });
  });
}
