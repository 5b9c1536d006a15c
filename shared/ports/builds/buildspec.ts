import { BUILT_SITE_DIRECTORIES, NO_BUILT_SITE, NOT_SERVED, noBuildStep, SERVER_FILES } from './detect';
import { LFS_POINTER, lfsFailed, lfsMissing, MAX_POINTER_BYTES } from './lfs';
import { PLATFORM_FILES } from './platform-files';

/**
 * The CodeBuild buildspec of the platform's build project (lib/aws/deployments.ts). It does on
 * AWS what shared/ports/builds/local.ts does on one machine, with the same rules (plan.ts):
 * 1. downloads the archive, refuses links, special files and paths leaving the folder, unpacks (a
 *    commit: CodeBuild's checkout, its Git LFS pointers replaced by their objects, `LFS_PREFIX`);
 * 2. plans: framework defaults, package manager from the lock file;
 * 3. restores `node_modules` from `cache/<projectId>/<key>.tgz` (key: lock file, install command,
 *    Node major) or installs and saves it; runs the build command;
 * 4. uploads the output: `artifacts/<deploymentId>/static/` or `function.zip` (the app with a
 *    `run.sh` for the Lambda Web Adapter), and `manifest.json` with the kind, entry and metrics,
 *    which the build-events worker reads when the build succeeds.
 * Install and build run as an unprivileged user, without the build's AWS credentials, with only
 * the project's variables: a tenant's build can't reach the platform's bucket. The build's own
 * credentials are scoped to this build before anything else runs: the project's role can only
 * assume the build-data role, with a session policy naming this build's prefixes
 * (`SESSION_POLICY`, shared/ports/builds/aws.ts), so even code that escaped the unprivileged user
 * reaches `sources/<projectId>/`, `builds/<deploymentId>/`, `artifacts/<deploymentId>/` and
 * `cache/<projectId>/` and nothing else. Uploads never follow links, and a link in static output
 * is refused, as on one machine.
 * The job arrives as environment variables (shared/ports/builds/aws.ts); failures print `Error: …`
 * as the last line, which the worker turns into the deployment's `error`.
 */

/** The Node program the build runs (plain JavaScript: it runs before anything is installed). */
export const BUILD_SCRIPT = String.raw`
const fs = require('fs'), path = require('path'), cp = require('child_process'), crypto = require('crypto');
const E = process.env, TMP = E.PLATFORM_BUILD_TMP || '/tmp', SRC = TMP + '/src', B = E.ARTIFACTS_BUCKET, ID = E.DEPLOYMENT_ID;
const metrics = { depsCache: 'off' };
const fail = (m) => { console.log('Error: ' + m); fs.writeFileSync(TMP + '/error.txt', m); process.exit(1); };
const aws = (args) => cp.execFileSync('aws', args, { stdio: ['ignore', 'inherit', 'inherit'] });
const inside = (root, rel) => { const f = path.resolve(root, rel); return f === root || f.startsWith(root + path.sep) ? f : null; };
const vars = JSON.parse(fs.readFileSync(TMP + '/env.json', 'utf8'));
if (E.LFS_PREFIX) {
  // A commit's Git LFS pointers become their files, read from the platform's LFS store (shared/ports/builds/lfs.ts).
  const pointer = new RegExp(${JSON.stringify(LFS_POINTER.source)}), found = [];
  const scan = (dir) => { for (const e of fs.readdirSync(dir, { withFileTypes: true })) { const f = path.join(dir, e.name); if (e.isDirectory()) scan(f); else if (e.isFile() && fs.statSync(f).size <= ${MAX_POINTER_BYTES}) { const m = pointer.exec(fs.readFileSync(f, 'utf8')); if (m) found.push([f, m[1], Number(m[2])]); } } };
  scan(SRC);
  let bytes = 0;
  for (const [f, oid, size] of found) {
    const rel = path.relative(SRC, f), part = TMP + '/lfs-object';
    const r = cp.spawnSync('aws', ['s3', 'cp', 's3://' + B + '/' + E.LFS_PREFIX + oid, part, '--only-show-errors', '--no-follow-symlinks'], { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
    // S3 answers 403 for a key that isn't there to a session that can't list it: the same missing object.
    if (r.status !== 0) fail(/\((403|404)\)|Not Found|NoSuchKey|Forbidden|AccessDenied/.test(r.stderr || '') ? ${JSON.stringify(lfsMissing('@'))}.replace('@', () => rel) : ${JSON.stringify(lfsFailed('@', 'the read failed'))}.replace('@', () => rel));
    const h = crypto.createHash('sha256'), fd = fs.openSync(part, 'r'), chunk = Buffer.alloc(1 << 20);
    for (let n; (n = fs.readSync(fd, chunk, 0, chunk.length, null)) > 0; ) h.update(chunk.subarray(0, n));
    fs.closeSync(fd);
    if (fs.statSync(part).size !== size || h.digest('hex') !== oid) fail(${JSON.stringify(lfsFailed('@', "the object doesn't match its pointer"))}.replace('@', () => rel));
    const mode = fs.statSync(f).mode & 0o777;
    fs.renameSync(part, f); fs.chmodSync(f, mode);
    bytes += size;
  }
  if (found.length) console.log('Fetched ' + found.length + ' Git LFS files (' + Math.ceil(bytes / 1024) + ' KB).');
}
const app = inside(SRC, E.ROOT_DIRECTORY || '.');
if (!app || !fs.existsSync(app)) fail('The root directory "' + E.ROOT_DIRECTORY + '" isn\'t in the source.');
const pkgFile = path.join(app, 'package.json');
let pkg;
try { pkg = fs.existsSync(pkgFile) ? JSON.parse(fs.readFileSync(pkgFile, 'utf8')) : undefined; } catch { fail('package.json isn\'t valid JSON.'); }
const locks = [['package-lock.json', 'npm', 'npm ci --no-audit --no-fund'], ['npm-shrinkwrap.json', 'npm', 'npm ci --no-audit --no-fund'],
  ['pnpm-lock.yaml', 'pnpm', 'pnpm install --frozen-lockfile'], ['yarn.lock', 'yarn', 'yarn install --frozen-lockfile'],
  ['bun.lock', 'bun', 'bun install --frozen-lockfile'], ['bun.lockb', 'bun', 'bun install --frozen-lockfile']];
const lock = locks.find((l) => fs.existsSync(path.join(app, l[0])));
const pm = pkg ? (lock ? lock[1] : 'npm') : undefined;
const custom = (s) => (s && s.trim() ? s.trim() : undefined);
const framework = E.FRAMEWORK || 'nextjs';
let install = custom(E.INSTALL_COMMAND) || (lock ? lock[2] : 'npm install --no-audit --no-fund');
const buildScript = pkg && pkg.scripts && pkg.scripts.build ? (pm || 'npm') + ' run build' : undefined;
let build = custom(E.BUILD_COMMAND);
let output;
if (framework === 'static') {
  build = build || buildScript;
  if (!(build && (pkg || custom(E.INSTALL_COMMAND)))) install = undefined;
  const dir = custom(E.OUTPUT_DIRECTORY) || (build ? undefined : fs.existsSync(path.join(app, 'public')) ? 'public' : '.');
  output = { kind: 'static', directory: dir };
  if (!build) console.log(${JSON.stringify(noBuildStep('@'))}.replace('@/', dir === '.' ? 'the folder' : dir + '/'));
} else {
  if (!pkg && !custom(E.INSTALL_COMMAND)) install = undefined;
  if (framework === 'node') {
    const start = /^node\s+([^\s;&|]+)\s*$/.exec((pkg && pkg.scripts && pkg.scripts.start) || '');
    const entry = (pkg && pkg.main) || (start && start[1]) || ${JSON.stringify(SERVER_FILES)}.find((f) => fs.existsSync(path.join(app, f)));
    if (!entry) fail('No server entry found: set "main" in package.json, or add server.js or index.js.' + (buildScript ? ' A site that "' + buildScript + '" makes is static: set the project\'s framework to static.' : ''));
    build = build || buildScript;
    output = { kind: 'server', entry };
  } else {
    build = build || buildScript || 'npx --no-install next build';
    output = { kind: 'server', entry: '.next/standalone/server.js' };
  }
}
metrics.packageManager = install ? pm : undefined;
if (install) metrics.installDir = E.ROOT_DIRECTORY || '.';
cp.execSync('chown -R builder ' + JSON.stringify(SRC));
const stepEnv = { PATH: E.PATH, HOME: '/home/builder', LANG: 'C.UTF-8', TZ: 'UTC', CI: '1', ...vars, PLATFORM_ENV: E.DEPLOYMENT_TARGET, PLATFORM_DEPLOYMENT_ID: ID };
const step = (name, command) => {
  console.log('Running "' + command + '"');
  const t = Date.now();
  const r = cp.spawnSync('runuser', ['-u', 'builder', '--', 'sh', '-c', command], { cwd: app, env: stepEnv, stdio: 'inherit' });
  if (r.status !== 0) fail('The ' + name + ' step "' + command + '" failed with ' + (r.signal || 'exit code ' + r.status) + '.');
  return Date.now() - t;
};
if (install) {
  if (lock) {
    const key = crypto.createHash('sha256').update(fs.readFileSync(path.join(app, lock[0]))).update('\0' + install + '\0' + process.versions.node.split('.')[0]).digest('hex').slice(0, 32);
    const object = 's3://' + B + '/cache/' + E.PROJECT_ID + '/' + key + '.tgz';
    const t = Date.now();
    const hit = cp.spawnSync('aws', ['s3', 'cp', object, TMP + '/deps.tgz', '--only-show-errors', '--no-follow-symlinks'], { stdio: 'ignore' }).status === 0;
    if (hit) {
      cp.execFileSync('tar', ['-xzf', TMP + '/deps.tgz', '-C', app, '--no-same-owner']);
      cp.execSync('chown -R builder ' + JSON.stringify(app));
      metrics.restoreMs = Date.now() - t; metrics.depsCache = 'hit'; metrics.installMs = 0;
      console.log('Restored dependencies from the cache (' + lock[0] + ' unchanged) in ' + metrics.restoreMs + ' ms; install skipped.');
    } else {
      metrics.depsCache = 'miss';
      console.log('No cached dependencies for this ' + lock[0] + '.');
      metrics.installMs = step('install', install);
      if (fs.existsSync(path.join(app, 'node_modules'))) {
        const s = Date.now();
        cp.execFileSync('tar', ['-czf', TMP + '/deps.tgz', '-C', app, 'node_modules']);
        aws(['s3', 'cp', TMP + '/deps.tgz', object, '--only-show-errors', '--no-follow-symlinks']);
        metrics.saveMs = Date.now() - s;
      }
    }
  } else {
    console.log('No lock file: the dependency cache is off.');
    metrics.installMs = step('install', install);
  }
}
if (build) metrics.buildMs = step('build', build);
const u = Date.now();
const prefix = 's3://' + B + '/artifacts/' + ID + '/';
if (output.kind === 'static') {
  let dir = output.directory || ${JSON.stringify(BUILT_SITE_DIRECTORIES)}.find((d) => fs.existsSync(path.join(app, d)) && fs.statSync(path.join(app, d)).isDirectory());
  if (!dir) { console.log(${JSON.stringify(NO_BUILT_SITE)}); dir = '.'; }
  const out = inside(app, dir);
  if (!out || !fs.existsSync(out)) fail('The output directory "' + dir + '" wasn\'t found after the build.');
  const links = [];
  const walk = (dir) => { for (const e of fs.readdirSync(dir, { withFileTypes: true })) { const f = path.join(dir, e.name); if (e.isSymbolicLink()) links.push(path.relative(out, f)); else if (e.isDirectory()) walk(f); } };
  walk(out);
  if (links.length) fail('The output directory has a symbolic link (' + path.join(dir, links[0]) + '): links are not published. Copy the file instead.');
  // The folder itself: its package.json, lock files and dependencies are the source's, not the site's.
  const excluded = out === app ? ${JSON.stringify(NOT_SERVED)}.flatMap((f) => ['--exclude', f, '--exclude', f + '/*']) : [];
  aws(['s3', 'sync', out, prefix + 'static/', '--only-show-errors', '--no-follow-symlinks', '--exclude', 'node_modules/*', ...excluded]);
} else {
  let entry = output.entry;
  if (framework === 'nextjs' && !fs.existsSync(path.join(app, entry))) {
    if (!fs.existsSync(path.join(app, 'node_modules/next/dist/bin/next'))) fail('Next.js was not found in node_modules: add "next" to the dependencies.');
    entry = '.platform-next-start.cjs';
    fs.writeFileSync(path.join(app, entry), "process.argv.push('start', '-p', process.env.PORT);\nrequire('./node_modules/next/dist/bin/next');\n");
  }
  if (!fs.existsSync(path.join(app, entry))) fail('The server entry "' + entry + '" wasn\'t found after the build.');
  fs.writeFileSync(path.join(app, 'run.sh'), '#!/bin/bash\nexec node "$PLATFORM_ENTRY"\n', { mode: 0o755 });
  cp.execFileSync('zip', ['-qr', '-y', TMP + '/function.zip', '.'], { cwd: app });
  aws(['s3', 'cp', TMP + '/function.zip', prefix + 'function.zip', '--only-show-errors', '--no-follow-symlinks']);
  output.entry = entry;
}
metrics.uploadMs = Date.now() - u;
fs.writeFileSync(TMP + '/manifest.json', JSON.stringify({ kind: output.kind, entry: output.entry, metrics }));
aws(['s3', 'cp', TMP + '/manifest.json', prefix + 'manifest.json', '--only-show-errors', '--no-follow-symlinks']);
console.log('Build completed. Going live.');
`;

/** The platform's own files dropped from the source at any depth (GNU tar's exclude patterns are unanchored). */
const EXCLUDE_PLATFORM_FILES = PLATFORM_FILES.map((f) => `--exclude=${f}`).join(' ');

/** Lines of `tar -tv` that are not plain files or folders (links, devices, pipes). */
const REFUSE_SPECIAL =
  "if tar -tvzf /tmp/source.tgz | grep -qvE '^[-d]'; then " +
  'echo "Error: The archive contains a link or a special file. Only files and folders are allowed."; exit 1; fi';
const REFUSE_ESCAPE =
  "if tar -tzf /tmp/source.tgz | grep -qE '(^/|(^|/)[.][.](/|$))'; then " +
  'echo "Error: The archive has a path outside its folder. Every entry must stay inside the archive\'s folder."; exit 1; fi';

/**
 * This build's credentials: the build-data role, narrowed by the session policy to this build's
 * prefixes. Every later command (the same shell) uses them; the project's own role is not used
 * again. No credentials, no build.
 */
/**
 * The tags of a build's data session: the build-data role's own policy names only the prefixes of
 * the project and deployment they say (lib/aws/deployments.ts), whatever the session policy.
 */
export const BUILD_TAGS = { project: 'projectId', deployment: 'deploymentId' } as const;

const ASSUME_BUILD_ROLE =
  'read -r AWS_ACCESS_KEY_ID AWS_SECRET_ACCESS_KEY AWS_SESSION_TOKEN <<< "$(aws sts assume-role ' +
  '--role-arn "$BUILD_DATA_ROLE_ARN" --role-session-name "$DEPLOYMENT_ID" --policy "$SESSION_POLICY" ' +
  `--tags Key=${BUILD_TAGS.project},Value="$PROJECT_ID" Key=${BUILD_TAGS.deployment},Value="$DEPLOYMENT_ID" ` +
  "--query 'Credentials.[AccessKeyId,SecretAccessKey,SessionToken]' --output text)\" && " +
  '[ -n "$AWS_SESSION_TOKEN" ] || { echo "Error: The build could not get its credentials. Redeploy to try again."; exit 1; }';

export const buildspec = {
  version: '0.2',
  env: { shell: 'bash' },
  phases: {
    install: {
      'runtime-versions': { nodejs: '22' },
      commands: [
        'id builder >/dev/null 2>&1 || useradd -m builder',
        ASSUME_BUILD_ROLE,
        'export AWS_ACCESS_KEY_ID AWS_SECRET_ACCESS_KEY AWS_SESSION_TOKEN',
        // Nothing later in this shell falls back to the project's role when the scoped credentials
        // are missing or expire: the container credentials' address is forgotten.
        'unset AWS_CONTAINER_CREDENTIALS_RELATIVE_URI AWS_CONTAINER_CREDENTIALS_FULL_URI AWS_CONTAINER_AUTHORIZATION_TOKEN',
      ],
    },
    pre_build: {
      commands: [
        // A commit (SOURCE_KIND=git): CodeBuild checked the repository out at the commit; its work
        // tree, without .git, is the source. Else the uploaded archive, checked before it is unpacked.
        `if [ "$SOURCE_KIND" = git ]; then echo "Using the commit $SOURCE_VERSION."; mkdir -p /tmp/src && tar -C "$CODEBUILD_SRC_DIR" --exclude=./.git ${EXCLUDE_PLATFORM_FILES} -cf - . | tar -C /tmp/src -xf - --no-same-owner --no-same-permissions; else ` +
          [
            'echo "Downloading the source archive."',
            'aws s3 cp "s3://$ARTIFACTS_BUCKET/$SOURCE_KEY" /tmp/source.tgz --only-show-errors --no-follow-symlinks',
            'gzip -t /tmp/source.tgz || { echo "Error: The source archive isn\'t a valid gzipped tar file."; exit 1; }',
            REFUSE_SPECIAL,
            REFUSE_ESCAPE,
            `mkdir -p /tmp/src && tar -xzf /tmp/source.tgz -C /tmp/src --no-same-owner --no-same-permissions ${EXCLUDE_PLATFORM_FILES}`,
          ].join('; ') +
          '; fi',
        'aws s3 cp "s3://$ARTIFACTS_BUCKET/$ENV_KEY" /tmp/env.json --only-show-errors --no-follow-symlinks',
        'aws s3 rm "s3://$ARTIFACTS_BUCKET/$ENV_KEY" --only-show-errors',
      ],
    },
    build: {
      commands: [
        `cat > /tmp/platform-build.js <<'PLATFORM_BUILD'\n${BUILD_SCRIPT}\nPLATFORM_BUILD`,
        'node /tmp/platform-build.js',
      ],
    },
  },
};
