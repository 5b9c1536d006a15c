/**
 * `npm test`: every suite, as CI runs it, on the embedded services (test/helpers/global-setup.ts
 * starts them once per run). The lanes (test/helpers/lanes.cjs): jest.unit.config.cjs runs the
 * fast `*.unit.test.ts` suites alone, jest.slow.config.cjs the slow ones; this runs them all.
 */
module.exports = {
  // TEST_CPU_LOG=<file>: each file's wall and CPU time as a JSON line (test/helpers/cpu-environment.cjs).
  testEnvironment: process.env.TEST_CPU_LOG ? '<rootDir>/test/helpers/cpu-environment.cjs' : 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.(t|j)sx?$': ['@swc/jest', { jsc: { target: 'es2022' } }] },
  // jose, fractional-indexing and temporal-polyfill ship ES modules only: let the transform turn them into CommonJS for jest.
  transformIgnorePatterns: [
    '/node_modules/(?!(jose|@middy|fractional-indexing|openid-client|oauth4webapi|temporal-polyfill|temporal-utils)/)',
  ],
  globalSetup: '<rootDir>/test/helpers/global-setup.ts',
  // fast-check with a fixed seed in every test file (test/helpers/deterministic.ts).
  setupFiles: ['<rootDir>/test/helpers/deterministic.ts'],
  globalTeardown: '<rootDir>/test/helpers/global-teardown.ts',
  // The slow lane's files first (they are the longest), then jest's own order.
  testSequencer: '<rootDir>/test/helpers/sequencer.cjs',
  // A whole run fails when it ran fewer tests than this (test/helpers/count-reporter.cjs).
  reporters: ['default', ['<rootDir>/test/helpers/count-reporter.cjs', { lane: 'whole', min: 6367 }]],
  testTimeout: 60_000,
  maxWorkers: 2,
};
