// The platform's web app (web/), built by vite into web/dist, which `npm start` serves at /app/
// and the CDK stack deploys. Run by `npm ci` (prepare) and `npm run build:web`. Without
// web/vite.config.mts there is no app to build: it says so and succeeds, so an install never fails
// for that. A failed build fails (the app is part of the platform).
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.join(__dirname, '..');
const CONFIG = path.join('web', 'vite.config.mts');

function buildWeb() {
  if (!fs.existsSync(path.join(ROOT, CONFIG))) {
    process.stdout.write(`web app: ${CONFIG} is missing, nothing to build (skipped).\n`);
    return 0;
  }
  const vite = path.join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js');
  if (!fs.existsSync(vite)) {
    process.stderr.write('web app: vite is not installed; run npm ci first.\n');
    return 1;
  }
  const run = spawnSync(process.execPath, [vite, 'build', '-c', CONFIG, '--logLevel', 'warn'], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (run.status !== 0) process.stderr.write('web app: the build failed (see above).\n');
  else process.stdout.write('web app: built into web/dist (served at /app/ by npm start).\n');
  return run.status ?? 1;
}

if (require.main === module) process.exit(buildWeb());

module.exports = { buildWeb };
