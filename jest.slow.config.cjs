/**
 * The slow lane (`npm run test:slow`): the files test/helpers/lanes.cjs names (a browser, package
 * managers, large archives, the MCP conformance suite, CDK synthesis, a whole `npm start`), on the
 * embedded services as in `npm test`, which runs them too (first).
 */
const base = require('./jest.config.cjs');
const { SLOW } = require('./test/helpers/lanes.cjs');

module.exports = {
  ...base,
  testMatch: SLOW.map((file) => `<rootDir>/${file}`),
  reporters: ['default', ['<rootDir>/test/helpers/count-reporter.cjs', { lane: 'slow', min: 0 }]],
};
