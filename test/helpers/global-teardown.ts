import type { Config } from 'jest';
import { allRoutes, calledRoutes } from './routes';

/**
 * Stops the services, then, on a full run (no file or name filter), fails when a route of the
 * table was called by no test.
 */
export default async function globalTeardown(globalConfig: Config & { nonFlagArgs?: string[] }): Promise<void> {
  const services = (globalThis as Record<string, unknown>).__platformServices as
    | { stop: () => Promise<void> }
    | undefined;
  await services?.stop();
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
