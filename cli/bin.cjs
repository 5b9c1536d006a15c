#!/usr/bin/env node
// The package's `platform` command: the bundled command line (dist/cli/platform.cjs, made by
// `npm ci`, or here when it is missing or older than a source), started with V8's code cache
// kept beside it. No TypeScript is compiled at run time.
const fs = require('node:fs');
const vm = require('node:vm');
const Module = require('node:module');
const { buildCli, isStale, BUNDLE } = require('./build.cjs');

if (isStale()) {
  try {
    buildCli();
  } catch (err) {
    process.stderr.write(`platform: could not bundle the command line (${err.message}); run npm ci.\n`);
    process.exit(1);
  }
}

const cacheFile = `${BUNDLE}.v8cache`;
let cachedData;
try {
  cachedData = fs.readFileSync(cacheFile);
} catch {}
// The bundle has no import(): a script compiled here could not load one.
const script = new vm.Script(Module.wrap(fs.readFileSync(BUNDLE, 'utf8')), { filename: BUNDLE, cachedData });
const m = new Module(BUNDLE, module);
m.filename = BUNDLE;
m.paths = Module._nodeModulePaths(require('node:path').dirname(BUNDLE));
script
  .runInThisContext()
  .call(m.exports, m.exports, (id) => m.require(id), m, BUNDLE, require('node:path').dirname(BUNDLE));
if (!cachedData || script.cachedDataRejected) {
  process.once('exit', () => {
    try {
      fs.writeFileSync(`${cacheFile}.${process.pid}`, script.createCachedData());
      fs.renameSync(`${cacheFile}.${process.pid}`, cacheFile);
    } catch {}
  });
}
