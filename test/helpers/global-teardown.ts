import type { Config } from 'jest';
import { killWith, leftWith, processesWith } from './processes';
import { allRoutes, calledRoutes } from './routes';

/**
 * Stops the services, then fails when a process the run started is still running (its engines, a
 * test's `npm start`, a worker's SQS endpoint…: whatever carries the run's marker), naming each
 * (and ends them); then, on a full run (no file or name filter), fails when a route of the table
 * was called by no test.
 */
export default async function globalTeardown(globalConfig: Config & { nonFlagArgs?: string[] }): Promise<void> {
  const services = (globalThis as Record<string, unknown>).__platformServices as
    | { stop: () => Promise<void> }
    | undefined;
  await services?.stop();
  const marker = process.env.PLATFORM_TEST_RUN;
  if (marker) {
    // Jest's own workers carry the marker too; they are ending (or gone) by now.
    const workers = processesWith(marker)
      .filter((p) => /jest-worker|processChild/.test(p.args))
      .map((p) => p.pid);
    const left = await leftWith(marker, 5000, workers);
    if (left.length > 0) {
      killWith(marker, workers);
      throw new Error(
        `Processes started by this run were still running after it (now ended):\n  ${left
          .map((p) => `${p.pid} ${p.args}`)
          .join('\n  ')}`,
      );
    }
  }
  const filtered = (globalConfig.nonFlagArgs?.length ?? 0) > 0 || Boolean(globalConfig.testNamePattern);
  if (filtered || process.env.SKIP_ROUTE_COVERAGE) return;
  const called = calledRoutes(process.env.TEST_DATA_DIR as string);
  const missing = allRoutes()
    .groups.flatMap((g) => g.routes)
    .map((r) => `${r.method} ${r.path}`)
    .filter((r) => !called.has(r));
  if (missing.length > 0) {
    throw new Error(`Route coverage: no test calls these routes:\n  ${missing.join('\n  ')}`);
  }
  process.stdout.write(`Route coverage: every route of the table was called by a test.\n`);
}
