import type { ChildProcess } from 'node:child_process';

/** An engine of the local platform run as a child process (DynamoDB Local, the S3 server). */
export interface Engine {
  process: ChildProcess;
  stop: () => Promise<void>;
}

export interface Supervised<E extends Engine> {
  /** The engine running now (a new one after each restart). */
  current(): E;
  /** How many times it was started again. */
  restarts(): number;
  /** No restart from now on (the platform is stopping); the engine runs until `stop`. */
  hold(): void;
  /** Stops it for good (no restart), a restart under way included. */
  stop(): Promise<void>;
}

/** At most this many restarts within RESTART_WINDOW_MS; more means something is wrong for good. */
const MAX_RESTARTS = 5;
const RESTART_WINDOW_MS = 60_000;

/**
 * Watches an engine as a process manager would: when it dies unexpectedly, its leftovers are
 * cleaned (`stop`), it is started again (`start`, on the same port and data folder, so the API's
 * endpoints stay the same and what it had written is there), and a line says so. Requests meanwhile
 * meet a refused connection, which the SDK retries. Past MAX_RESTARTS in a minute, `giveUp` is
 * called (the local platform stops, saying why).
 */
export function supervise<E extends Engine>(
  name: string,
  first: E,
  start: () => Promise<E>,
  options: { say: (line: string) => void; giveUp: (reason: string) => void; maxRestarts?: number },
): Supervised<E> {
  const limit = options.maxRestarts ?? MAX_RESTARTS;
  let engine = first;
  let stopping = false;
  let count = 0;
  let restarting: Promise<void> = Promise.resolve();
  const recent: number[] = [];

  const watch = (e: E) => {
    e.process.once('exit', (code, signal) => {
      if (stopping || e !== engine) return;
      restarting = restart(`${signal ?? `exit ${code}`}`);
    });
  };

  const restart = async (why: string) => {
    const now = Date.now();
    while (recent.length > 0 && now - (recent[0] as number) > RESTART_WINDOW_MS) recent.shift();
    if (recent.length >= limit) {
      options.giveUp(`${name} stopped ${limit + 1} times within a minute (last: ${why})`);
      return;
    }
    recent.push(now);
    options.say(`${name} stopped unexpectedly (${why}); starting it again.`);
    await engine.stop().catch(() => undefined);
    for (let attempt = 0; !stopping; attempt++) {
      try {
        engine = await start();
        // Stopped meanwhile: `stop` ends this one (it waits for this restart).
        if (stopping) return;
        count++;
        options.say(`${name} is running again (${Date.now() - now} ms).`);
        watch(engine);
        return;
      } catch (err) {
        if (attempt >= 2) {
          options.giveUp(`${name} could not be started again: ${(err as Error).message}`);
          return;
        }
        await new Promise((r) => setTimeout(r, 500 * (attempt + 1)));
      }
    }
  };

  watch(engine);
  return {
    current: () => engine,
    restarts: () => count,
    hold: () => {
      stopping = true;
    },
    stop: async () => {
      stopping = true;
      await restarting;
      await engine.stop();
    },
  };
}
