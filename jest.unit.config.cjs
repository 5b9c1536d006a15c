/**
 * The fast lane (`npm run test:unit`): the suites named `*.unit.test.ts`, which need no engine,
 * apart from the slow lane's (test/helpers/lanes.cjs: a browser, a spawned linter, a CDK
 * synthesis). No DynamoDB Local, no S3 server, no identity provider: test/helpers/unit-setup.ts
 * only sets the environment the code reads at import. `npm test` (jest.config.cjs) runs these and
 * all the others.
 */
const base = require('./jest.config.cjs');
const { slowPatterns } = require('./test/helpers/lanes.cjs');

module.exports = {
  ...base,
  testMatch: ['**/*.unit.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', ...slowPatterns('<rootDir>')],
  globalSetup: '<rootDir>/test/helpers/unit-setup.ts',
  globalTeardown: undefined,
  reporters: ['default', ['<rootDir>/test/helpers/count-reporter.cjs', { lane: 'unit', min: 732 }]],
};
