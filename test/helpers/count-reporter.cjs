/**
 * A run of a whole lane (no file or name filter, no shard) fails when it ran fewer tests than
 * `min`: a lane change or a merge must not drop tests without anyone noticing. Raise `min`
 * (jest*.config.cjs) when tests are added; lower it only with the reason in the commit.
 */
class CountReporter {
  constructor(globalConfig, options) {
    this.globalConfig = globalConfig;
    this.min = options.min;
    this.lane = options.lane;
    this.error = undefined;
  }

  onRunComplete(_contexts, results) {
    const g = this.globalConfig;
    const filtered =
      (g.nonFlagArgs?.length ?? 0) > 0 ||
      Boolean(g.testNamePattern) ||
      g.testPathPatterns?.isSet?.() === true ||
      Boolean(g.onlyChanged || g.onlyFailures || g.findRelatedTests || g.shard || g.bail);
    if (filtered) return;
    const ran = results.numTotalTests;
    if (ran < this.min) {
      this.error = new Error(`Test count: the ${this.lane} lane ran ${ran} tests, fewer than its ${this.min}.`);
      process.stderr.write(`\n${this.error.message}\n`);
      return;
    }
    process.stderr.write(`Test count: ${ran} tests in the ${this.lane} lane (at least ${this.min}).\n`);
  }

  /** Jest fails the run when a reporter has an error to give. */
  getLastError() {
    return this.error;
  }
}

module.exports = CountReporter;
