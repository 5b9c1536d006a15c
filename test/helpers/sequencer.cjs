const Sequencer = require('@jest/test-sequencer').default;
const { relative } = require('node:path');
const { SLOW } = require('./lanes.cjs');

/**
 * Jest's order (files that failed last time first, then the longest by the durations jest kept
 * from earlier runs, else the largest), with the slow lane's files (test/helpers/lanes.cjs) ahead
 * of all others, in their listed order: on a fresh machine (CI) jest knows no durations, and a
 * long file started last runs on alone while the other worker has nothing left to do.
 */
class LanesSequencer extends Sequencer {
  sort(tests) {
    const sorted = super.sort(tests);
    const rank = (t) => {
      const i = SLOW.indexOf(relative(t.context.config.rootDir, t.path));
      return i === -1 ? SLOW.length : i;
    };
    return sorted
      .map((t, i) => ({ t, i }))
      .sort((a, b) => rank(a.t) - rank(b.t) || a.i - b.i)
      .map(({ t }) => t);
  }
}

module.exports = LanesSequencer;
