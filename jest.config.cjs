/** Every suite runs on the embedded services: test/helpers/global-setup.ts starts them once per run. */
module.exports = {
  testEnvironment: 'node',
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
  testTimeout: 60_000,
  maxWorkers: 2,
};
