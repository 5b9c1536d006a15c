/**
 * The fast lane (`npm run test:unit`): the suites named `*.unit.test.ts`, which need no engine.
 * No DynamoDB Local, no S3 server, no identity provider: test/helpers/unit-setup.ts only sets the
 * environment the code reads at import. `npm test` (jest.config.cjs) runs these and all the others.
 */
const base = require('./jest.config.cjs');

module.exports = {
  ...base,
  testMatch: ['**/*.unit.test.ts'],
  globalSetup: '<rootDir>/test/helpers/unit-setup.ts',
  globalTeardown: undefined,
};
