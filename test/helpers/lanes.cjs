/**
 * The test lanes (jest.config.cjs runs them all, as CI does):
 * - unit (`npm run test:unit`, jest.unit.config.cjs): the `*.unit.test.ts` suites, apart from the
 *   slow ones below: no engine, no browser, no CDK synthesis, no spawned linter; seconds.
 * - slow (`npm run test:slow`, jest.slow.config.cjs): the files below, which drive a browser, run
 *   package managers, move large archives, run the MCP conformance suite, synthesize CDK stacks or
 *   start a whole `npm start`. `npm test` runs them first (test/helpers/sequencer.cjs), since the
 *   longest files started last are what keeps a run going on one core while the other is idle.
 * test/helpers/lanes.unit.test.ts holds that every file named here exists.
 */
const SLOW = [
  // A browser (Chromium through Playwright): the web app's flows first, the longest.
  'test/web/walkthrough.test.ts',
  'test/web/pages.test.ts',
  'test/web/notify-agents.test.ts',
  'test/web/tracker-board.test.ts',
  'test/web/tracker-issues.test.ts',
  'test/web/calendar.test.ts',
  'test/web/mail.test.ts',
  'test/web/wiki.test.ts',
  'test/api/chromium.unit.test.ts',
  'test/api/docs.test.ts',
  'test/agents/program.test.ts',
  // Package managers, large archives, the MCP conformance suite.
  'test/deployments/package-managers.test.ts',
  'test/repos/imports.test.ts',
  'test/connectors/conformance.test.ts',
  // The OpenAPI document linted by redocly (a spawned CLI).
  'test/api/openapi-lint.unit.test.ts',
  // CDK synthesis (~5 to 12 s of CPU each).
  'test/infra/platform-stack.test.ts',
  'test/infra/build-credentials.test.ts',
  'test/infra/dead-letters.test.ts',
  'test/infra/function-roles.test.ts',
  'test/infra/mail.test.ts',
  'test/infra/serving.test.ts',
  'test/infra/timers.test.ts',
  'test/infra/workers.test.ts',
  'test/infra/bundles.test.ts',
  'test/insights/infra.test.ts',
  'test/local/workers.test.ts',
  'test/projects/stack.unit.test.ts',
  // A whole local platform (`npm start`) with its engines.
  'test/local/local-platform.test.ts',
];

/** The slow files as jest path patterns (anchored at the project root). */
const slowPatterns = (rootDir) => SLOW.map((f) => `${rootDir}/${f}`.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));

module.exports = { SLOW, slowPatterns };
