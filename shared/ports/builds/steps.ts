import type { ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { spawnTenant } from '../../kernel/tenancy/sandbox';

export interface StepResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  canceled: boolean;
  ms: number;
}

const running = new Set<ChildProcess>();
let exitHook = false;

/** Kills a step's whole process group (`npm` starts its own children). */
function killGroup(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    child.kill('SIGKILL');
  }
}

/**
 * Runs one build step (`/bin/sh -c command`) as tenant code (shared/kernel/tenancy/sandbox.ts: the
 * project's own user, its own process group, on a leash), with exactly the environment given
 * (never the platform's own), streaming every output line to `onLine`. At `timeoutMs`, or when
 * `signal` aborts, the whole group is killed. Steps never outlive the platform process: they are
 * killed when it exits, and end by themselves when it is killed.
 */
export function runStep(options: {
  command: string;
  cwd: string;
  projectId: string;
  env: Record<string, string>;
  timeoutMs: number;
  onLine: (line: string, stream: 'stdout' | 'stderr') => void;
  signal?: AbortSignal;
}): Promise<StepResult> {
  if (!exitHook) {
    exitHook = true;
    process.once('exit', () => {
      for (const child of running) killGroup(child);
    });
  }
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawnTenant('/bin/sh', ['-c', options.command], {
      cwd: options.cwd,
      env: options.env,
      projectId: options.projectId,
    });
    running.add(child);
    let timedOut = false;
    let canceled = false;
    const timer = setTimeout(
      () => {
        timedOut = true;
        killGroup(child);
      },
      Math.max(1, options.timeoutMs),
    );
    const onAbort = () => {
      canceled = true;
      killGroup(child);
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });
    for (const stream of ['stdout', 'stderr'] as const) {
      const source = child[stream];
      if (source)
        createInterface({ input: source, crlfDelay: Number.POSITIVE_INFINITY }).on('line', (l) =>
          options.onLine(l, stream),
        );
    }
    let settled = false;
    const done = (code: number | null, signal: NodeJS.Signals | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      running.delete(child);
      // Grandchildren that kept the pipes open go with the group.
      killGroup(child);
      resolve({ code, signal, timedOut, canceled, ms: Date.now() - started });
    };
    child.on('error', (err) => {
      options.onLine(`Couldn't start the step: ${err.message}`, 'stderr');
      done(127, null);
    });
    child.on('close', done);
  });
}
