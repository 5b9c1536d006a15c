// The command line as one script: cli/main.ts and what it imports, bundled by esbuild into
// dist/cli/platform.cjs, with the list of this repository's files it was made from (to tell when
// it is stale). Made by `npm ci` (prepare), and again by bin.cjs when a source is newer.
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.join(__dirname, '..');
const OUT_DIR = path.join(ROOT, 'dist', 'cli');
const BUNDLE = path.join(OUT_DIR, 'platform.cjs');
const INPUTS = path.join(OUT_DIR, 'inputs.json');

/** Builds the bundle into `outDir`; each file is written beside and renamed into place (builds may run at once). */
function buildCli(outDir = OUT_DIR) {
  const { buildSync } = require('esbuild');
  fs.mkdirSync(outDir, { recursive: true });
  const own = path.join(outDir, `platform-${process.pid}.cjs`);
  const result = buildSync({
    entryPoints: [path.join(ROOT, 'cli', 'main.ts')],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    outfile: own,
    metafile: true,
    logLevel: 'error',
  });
  const inputs = Object.keys(result.metafile.inputs)
    .filter((file) => !file.includes('node_modules/'))
    .map((file) => path.relative(ROOT, path.resolve(process.cwd(), file)));
  const bundle = path.join(outDir, 'platform.cjs');
  fs.renameSync(own, bundle);
  fs.writeFileSync(`${path.join(outDir, 'inputs.json')}.${process.pid}`, JSON.stringify(inputs));
  fs.renameSync(`${path.join(outDir, 'inputs.json')}.${process.pid}`, path.join(outDir, 'inputs.json'));
  // The code cache of the previous bundle no longer fits.
  fs.rmSync(`${bundle}.v8cache`, { force: true });
  return bundle;
}

/** The bundle is missing, or one of its sources (or package-lock.json) changed after it was made. */
function isStale() {
  let made;
  let inputs;
  try {
    made = fs.statSync(BUNDLE).mtimeMs;
    inputs = JSON.parse(fs.readFileSync(INPUTS, 'utf8'));
  } catch {
    return true;
  }
  for (const file of [...inputs, 'package-lock.json']) {
    try {
      if (fs.statSync(path.join(ROOT, file)).mtimeMs > made) return true;
    } catch {
      return true;
    }
  }
  return false;
}

module.exports = { buildCli, isStale, BUNDLE, OUT_DIR };

if (require.main === module) {
  // npm ci (prepare): an install without the dev dependencies has no esbuild, and no use for this.
  try {
    require.resolve('esbuild');
  } catch {
    process.exit(0);
  }
  buildCli();
}
