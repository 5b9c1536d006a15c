import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUILD_SCRIPT } from '../../shared/ports/builds/buildspec';

/**
 * The Git LFS step of the CodeBuild build program (a commit's build on AWS), run for real with
 * `aws s3 cp` stood in for by a folder: each pointer of the checkout becomes its object from
 * `LFS_PREFIX` of the artifacts bucket before the build, its mode kept; a pointer whose object
 * isn't there (S3's 404, or the 403 a session that can't list gets) fails naming the file.
 */
let root: string;
let shims: string;
const PREFIX = 'repo-lfs/org_test/res_test/';
const pointer = (oid: string, size: number) =>
  `version https://git-lfs.github.com/spec/v1\noid sha256:${oid}\nsize ${size}\n`;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'lfs-buildspec-'));
  shims = join(root, 'bin');
  mkdirSync(shims);
  writeFileSync(join(root, 'script.js'), BUILD_SCRIPT);
  const shim = (name: string, body: string) => {
    writeFileSync(join(shims, name), `#!/bin/bash\n${body}\n`);
    chmodSync(join(shims, name), 0o755);
  };
  shim(
    'aws',
    [
      // biome-ignore lint/suspicious/noTemplateCurlyInString: bash parameter expansion, not a template.
      'map() { if [[ "$1" == s3://* ]]; then echo "$FAKE_S3/${1#s3://}"; else echo "$1"; fi; }',
      'src=$(map "$3"); dst=$(map "$4")',
      'case "$2" in',
      '  cp) [ -f "$src" ] || { echo "fatal error: An error occurred ($MISSING) when calling the HeadObject operation: Forbidden" >&2; exit 1; }; mkdir -p "$(dirname "$dst")"; cp "$src" "$dst";;',
      '  sync) mkdir -p "$dst"; cp -r "$src"/. "$dst"/;;',
      'esac',
    ].join('\n'),
  );
  shim('runuser', 'shift 3; exec "$@"');
  shim('chown', 'exit 0');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A static build of `files` (a commit's checkout) with `objects` in the LFS store. */
function build(files: Record<string, string>, objects: Buffer[], missing = '404') {
  const tmp = mkdtempSync(join(root, 'build-'));
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(tmp, 'src', path, '..'), { recursive: true });
    writeFileSync(join(tmp, 'src', path), content, { mode: path.endsWith('.sh') ? 0o755 : 0o644 });
  }
  const s3 = join(tmp, 's3');
  for (const o of objects) {
    mkdirSync(join(s3, 'artifacts', PREFIX), { recursive: true });
    writeFileSync(join(s3, 'artifacts', PREFIX, createHash('sha256').update(o).digest('hex')), o);
  }
  writeFileSync(join(tmp, 'env.json'), '{}');
  const r = spawnSync(process.execPath, [join(root, 'script.js')], {
    env: {
      PATH: `${shims}:${process.env.PATH}`,
      HOME: tmp,
      FAKE_S3: s3,
      MISSING: missing,
      PLATFORM_BUILD_TMP: tmp,
      ARTIFACTS_BUCKET: 'artifacts',
      DEPLOYMENT_ID: 'dpl_lfs',
      PROJECT_ID: 'prj_lfs',
      DEPLOYMENT_TARGET: 'preview',
      ROOT_DIRECTORY: '.',
      FRAMEWORK: 'static',
      SOURCE_KIND: 'git',
      LFS_PREFIX: PREFIX,
    },
    encoding: 'utf8',
  });
  return {
    code: r.status,
    out: r.stdout,
    src: join(tmp, 'src'),
    site: join(s3, 'artifacts', 'artifacts', 'dpl_lfs', 'static'),
  };
}

it('replaces each LFS pointer of the checkout by its object before the build', () => {
  const image = Buffer.from(`an image ${'x'.repeat(3000)}`);
  const tool = Buffer.from('#!/bin/sh\necho tool\n');
  const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
  const out = build(
    {
      'index.html': '<h1>site</h1>',
      'assets/image.bin': pointer(sha(image), image.length),
      'bin/tool.sh': pointer(sha(tool), tool.length),
    },
    [image, tool],
  );
  expect(out.code).toBe(0);
  expect(out.out).toContain('Fetched 2 Git LFS files');
  expect(readFileSync(join(out.site, 'assets', 'image.bin'))).toEqual(image);
  expect(readFileSync(join(out.src, 'bin', 'tool.sh'))).toEqual(tool);
  expect(statSync(join(out.src, 'bin', 'tool.sh')).mode & 0o777).toBe(0o755);
});

it.each(['404', '403'])('a pointer whose object is missing (S3 %s) fails the build naming the file', (status) => {
  const out = build({ 'index.html': 'x', 'media/lost.bin': pointer('c'.repeat(64), 12) }, [], status);
  expect(out.code).toBe(1);
  expect(out.out.trim().split('\n').pop()).toBe(
    'Error: media/lost.bin is a Git LFS pointer whose object was never uploaded. Push it with git lfs push --all origin, then deploy again.',
  );
});
