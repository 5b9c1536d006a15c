import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUILD_SCRIPT, buildspec } from '../../shared/ports/builds/buildspec';
import { makeTar, tarOfDir } from '../fixtures/tar';

/**
 * The build program of the CodeBuild buildspec, run here for real on the fixtures, with the few
 * outside commands it calls stood in for: `aws s3` on a folder, `runuser` and `chown` (no second
 * user here), `zip` (tar, the content is not what is checked). It must plan, install, cache and
 * package exactly as the local builds do.
 */
const FIXTURES = join(__dirname, '..', 'fixtures');
let root: string;
let fakeS3: string;
let shims: string;

const shim = (name: string, body: string) => {
  const file = join(shims, name);
  writeFileSync(file, `#!/bin/bash\n${body}\n`);
  chmodSync(file, 0o755);
};

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'buildspec-'));
  fakeS3 = join(root, 's3');
  shims = join(root, 'bin');
  mkdirSync(shims);
  writeFileSync(join(root, 'script.js'), BUILD_SCRIPT);
  shim(
    'aws',
    [
      // biome-ignore lint/suspicious/noTemplateCurlyInString: bash parameter expansion, not a template.
      'map() { if [[ "$1" == s3://* ]]; then echo "$FAKE_S3/${1#s3://}"; else echo "$1"; fi; }',
      'src=$(map "$3"); dst=$(map "$4")',
      'case "$2" in',
      '  cp) [ -f "$src" ] || { echo "NoSuchKey" >&2; exit 1; }; mkdir -p "$(dirname "$dst")"; cp "$src" "$dst";;',
      // sync honours `--exclude NAME` and `--exclude NAME/*` (relative to the folder synced).
      '  sync) mkdir -p "$dst"; cp -r "$src"/. "$dst"/; shift 4',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: bash parameter expansion, not a template.
      '    while [ $# -gt 0 ]; do if [ "$1" = --exclude ]; then rm -rf "$dst/${2%/\\*}"; shift; fi; shift; done;;',
      '  rm) rm -f "$src";;',
      'esac',
    ].join('\n'),
  );
  shim('runuser', 'shift 3; exec "$@"');
  shim('chown', 'exit 0');
  shim('zip', 'out="$3"; tar -czf "$out" .');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** One build of `archive` as CodeBuild would run it; the fake bucket is kept between builds. */
function build(archive: Buffer, vars: Record<string, string>) {
  const tmp = mkdtempSync(join(root, 'build-'));
  mkdirSync(join(tmp, 'src'));
  writeFileSync(join(tmp, 'source.tgz'), archive);
  spawnSync('tar', ['-xzf', join(tmp, 'source.tgz'), '-C', join(tmp, 'src')]);
  writeFileSync(join(tmp, 'env.json'), JSON.stringify({ GREETING_NAME: 'codebuild' }));
  const deploymentId = `dpl_${Math.random().toString(36).slice(2, 12)}0000000000000000`;
  const r = spawnSync(process.execPath, [join(root, 'script.js')], {
    env: {
      PATH: `${shims}:${process.env.PATH}`,
      HOME: tmp,
      FAKE_S3: fakeS3,
      PLATFORM_BUILD_TMP: tmp,
      ARTIFACTS_BUCKET: 'artifacts',
      DEPLOYMENT_ID: deploymentId,
      PROJECT_ID: 'prj_bench',
      DEPLOYMENT_TARGET: 'preview',
      ROOT_DIRECTORY: '.',
      ...vars,
    },
    encoding: 'utf8',
  });
  const artifacts = join(fakeS3, 'artifacts', 'artifacts', deploymentId);
  const manifestFile = join(artifacts, 'manifest.json');
  return {
    code: r.status,
    out: r.stdout,
    artifacts,
    manifest: existsSync(manifestFile) ? JSON.parse(readFileSync(manifestFile, 'utf8')) : undefined,
  };
}

it('is the program the buildspec runs', () => {
  expect(buildspec.phases.build.commands[0]).toContain(BUILD_SCRIPT.trim().slice(0, 40));
  expect(JSON.stringify(buildspec)).toContain('node /tmp/platform-build.js');
});

it('node: installs from the lock file (cache miss), packages the function; a second build restores the cache', () => {
  const archive = tarOfDir(join(FIXTURES, 'node-server'));
  const first = build(archive, { FRAMEWORK: 'node' });
  expect(first.code).toBe(0);
  expect(first.out).toContain('Running "npm ci --no-audit --no-fund"');
  expect(first.manifest).toMatchObject({
    kind: 'server',
    entry: 'server.js',
    metrics: { packageManager: 'npm', depsCache: 'miss', installDir: '.', installMs: expect.any(Number) },
  });
  expect(existsSync(join(first.artifacts, 'function.zip'))).toBe(true);
  expect(readdirSync(join(fakeS3, 'artifacts', 'cache', 'prj_bench'))).toHaveLength(1);

  const second = build(archive, { FRAMEWORK: 'node' });
  expect(second.code).toBe(0);
  expect(second.manifest.metrics).toMatchObject({ depsCache: 'hit', installMs: 0, restoreMs: expect.any(Number) });
  expect(second.out).toContain('Restored dependencies from the cache');
});

it('static: no install, the folder itself uploaded', () => {
  const out = build(tarOfDir(join(FIXTURES, 'static-site')), { FRAMEWORK: 'static' });
  expect(out.code).toBe(0);
  expect(out.manifest).toMatchObject({ kind: 'static', metrics: { depsCache: 'off' } });
  expect(readFileSync(join(out.artifacts, 'static', 'index.html'), 'utf8')).toContain('static fixture');
});

it('static with a build script: runs it and uploads what it wrote, never package.json', () => {
  const out = build(
    makeTar([
      { path: 'index.html', content: 'source' },
      { path: 'package.json', content: JSON.stringify({ name: 's', scripts: { build: 'node build.js' } }) },
      {
        path: 'package-lock.json',
        content: JSON.stringify({ name: 's', lockfileVersion: 3, requires: true, packages: { '': { name: 's' } } }),
      },
      {
        path: 'build.js',
        content: "require('fs').mkdirSync('dist'); require('fs').writeFileSync('dist/index.html', 'built')",
      },
    ]),
    { FRAMEWORK: 'static' },
  );
  expect(out.code).toBe(0);
  expect(out.out).toContain('Running "npm run build"');
  expect(readdirSync(join(out.artifacts, 'static'))).toEqual(['index.html']);
  expect(readFileSync(join(out.artifacts, 'static', 'index.html'), 'utf8')).toBe('built');
});

it('static without a build step: says so, and the folder goes up without its package.json and lock file', () => {
  const out = build(
    makeTar([
      { path: 'index.html', content: 'x' },
      { path: 'package.json', content: '{"name":"s"}' },
      { path: 'package-lock.json', content: '{}' },
    ]),
    { FRAMEWORK: 'static' },
  );
  expect(out.code).toBe(0);
  expect(out.out).toContain(
    'No build step (no build command, no "build" script in package.json): the folder is served as it is.\n',
  );
  expect(readdirSync(join(out.artifacts, 'static'))).toEqual(['index.html']);
});

it("leaves the platform's own .platform.json out of the source, uploaded or checked out", () => {
  const unpack = buildspec.phases.pre_build.commands[0] as string;
  expect(unpack).toContain('--exclude=./.git --exclude=.platform.json -cf - .');
  expect(unpack).toContain(
    'tar -xzf /tmp/source.tgz -C /tmp/src --no-same-owner --no-same-permissions --exclude=.platform.json',
  );
});

it('a build command gets the variables; its failure is the last Error: line', () => {
  const ok = build(makeTar([{ path: 'index.html', content: 'x' }]), {
    FRAMEWORK: 'static',
    BUILD_COMMAND: 'mkdir -p dist && echo "$GREETING_NAME $PLATFORM_ENV" > dist/index.html',
    OUTPUT_DIRECTORY: 'dist',
  });
  expect(ok.code).toBe(0);
  expect(readFileSync(join(ok.artifacts, 'static', 'index.html'), 'utf8')).toBe('codebuild preview\n');
  const failed = build(makeTar([{ path: 'index.html', content: 'x' }]), {
    FRAMEWORK: 'static',
    BUILD_COMMAND: 'exit 4',
  });
  expect(failed.code).toBe(1);
  expect(failed.out.trim().split('\n').pop()).toBe('Error: The build step "exit 4" failed with exit code 4.');
  const noEntry = build(makeTar([{ path: 'index.html', content: 'x' }]), { FRAMEWORK: 'node' });
  expect(noEntry.out.trim().split('\n').pop()).toBe(
    'Error: No server entry found: set "main" in package.json, or add server.js or index.js.',
  );
  const outside = build(makeTar([{ path: 'index.html', content: 'x' }]), {
    FRAMEWORK: 'static',
    ROOT_DIRECTORY: '../..',
  });
  expect(outside.out.trim().split('\n').pop()).toBe('Error: The root directory "../.." isn\'t in the source.');
});

it('a link in the static output is refused, as on one machine; uploads never follow links', () => {
  const linked = build(makeTar([{ path: 'index.html', content: 'x' }]), {
    FRAMEWORK: 'static',
    BUILD_COMMAND: 'mkdir -p out && cp index.html out/ && ln -s /etc out/etc',
    OUTPUT_DIRECTORY: 'out',
  });
  expect(linked.code).toBe(1);
  expect(linked.out.trim().split('\n').pop()).toBe(
    'Error: The output directory has a symbolic link (out/etc): links are not published. Copy the file instead.',
  );
  expect(existsSync(join(linked.artifacts, 'static'))).toBe(false);
  const phaseCommands = Object.values(buildspec.phases).flatMap((phase) => phase.commands as string[]);
  const s3Commands = [
    ...BUILD_SCRIPT.matchAll(/\['s3', '(cp|sync)'[^\]]*\]/g),
    ...phaseCommands.flatMap((c) => [...c.matchAll(/aws s3 (cp|sync) .*/g)]),
  ];
  expect(s3Commands.length).toBeGreaterThanOrEqual(5);
  for (const [command] of s3Commands) expect(command).toContain('--no-follow-symlinks');
});

it("assumes the build-data role with this build's session policy before anything reads data", () => {
  const install = buildspec.phases.install.commands.join('\n');
  expect(install).toContain('aws sts assume-role --role-arn "$BUILD_DATA_ROLE_ARN"');
  expect(install).toContain('--policy "$SESSION_POLICY"');
  // Its session is tagged with its project and deployment: the role's own policy names only theirs.
  expect(install).toContain('--tags Key=projectId,Value="$PROJECT_ID" Key=deploymentId,Value="$DEPLOYMENT_ID"');
  expect(install).toContain('export AWS_ACCESS_KEY_ID AWS_SECRET_ACCESS_KEY AWS_SESSION_TOKEN');
  // The project's own role can't be fallen back on by anything the build runs later.
  expect(install).toContain('unset AWS_CONTAINER_CREDENTIALS_RELATIVE_URI AWS_CONTAINER_CREDENTIALS_FULL_URI');
  // Fails closed: no session token, no build.
  expect(install).toContain('[ -n "$AWS_SESSION_TOKEN" ] || { echo "Error: The build could not get its credentials.');
});
