import fc from 'fast-check';

/**
 * Every property test runs the same cases on every run and machine (the standard: deterministic
 * tests): a fixed seed unless the test names its own. A failure prints its seed and path to
 * replay it; a new seed is a change of the test, made on purpose.
 */
fc.configureGlobal({ seed: 20261126 });
