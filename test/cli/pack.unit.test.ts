import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { list } from 'tar';
import { sourceMeta } from '../../cli/git';
import { listFolder, packFolder } from '../../cli/pack';

/** What `deploy` puts in the archive, and what it tells about the source: no platform needed. */

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'platform-cli-pack-'));
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  return root;
}

function git(cwd: string, ...args: string[]): string {
  const r = spawnSync('git', ['-c', 'user.email=cli@example.com', '-c', 'user.name=CLI test', ...args], {
    cwd,
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout.trim();
}

describe('the archive of a folder', () => {
  it("honours .gitignore files like git: the folder's, nested ones, and those above it in the work tree", () => {
    const root = tree({
      '.gitignore': 'dist/\n*.log\n',
      'app/.gitignore': '!keep.log\nsecret.txt\n',
      'app/index.html': 'hi',
      'app/debug.log': 'x',
      'app/keep.log': 'k',
      'app/secret.txt': 's',
      'app/dist/out.js': 'd',
      'app/nested/.gitignore': '*.txt\n',
      'app/nested/n.txt': 'n',
      'app/nested/page.html': 'p',
      'app/node_modules/x/a.js': 'y',
      'app/.env': 'S=1',
      'app/.env.production.local': 'S=2',
      'app/.env.example': 'S=',
    });
    mkdirSync(join(root, '.git'));
    symlinkSync('/etc/hostname', join(root, 'app', 'link'));
    expect(listFolder(join(root, 'app'))).toEqual({
      entries: [
        '.env.example',
        '.gitignore',
        'index.html',
        'keep.log',
        'nested/',
        'nested/.gitignore',
        'nested/page.html',
      ],
      files: 6,
      skipped: ['link'],
    });
    // Outside a work tree the folders above have no say; a folder that is a work tree keeps its .git out.
    const loose = tree({ '.gitignore': '*.html\n', 'site/index.html': 'hi', 'site/.git/HEAD': 'ref' });
    expect(listFolder(join(loose, 'site')).entries).toEqual(['index.html']);
  });

  it("leaves out the platform's own files (.platform.json of platform link) at any depth, whatever .gitignore says", () => {
    const root = tree({
      '.gitignore': '!.platform.json\n',
      '.platform.json': '{"orgId":"org_1","projectId":"prj_1"}',
      'index.html': 'hi',
      'docs/.platform.json': '{"orgId":"org_1"}',
      'docs/page.html': 'p',
    });
    expect(listFolder(root).entries).toEqual(['.gitignore', 'docs/', 'docs/page.html', 'index.html']);
  });

  it('is a gzipped tar of plain files and folders, parents first', async () => {
    const root = tree({ 'index.html': 'hi', 'assets/a.css': 'body{}', 'assets/img/logo.svg': '<svg/>' });
    const packed = await packFolder(root);
    expect(packed.archive.subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
    const entries: string[] = [];
    await new Promise<void>((resolve, reject) => {
      const parser = list({ onReadEntry: (e) => entries.push(`${e.type} ${e.path} ${e.size}`) });
      parser.on('end', resolve).on('error', reject);
      Readable.from(packed.archive).pipe(parser as unknown as NodeJS.WritableStream);
    });
    expect(entries).toEqual([
      'Directory assets/ 0',
      'File assets/a.css 6',
      'Directory assets/img/ 0',
      'File assets/img/logo.svg 6',
      'File index.html 2',
    ]);
  });

  it('refuses an empty folder, a missing one and what is not a folder; follows a link to a folder', async () => {
    const root = tree({ 'node_modules/x.js': '' });
    await expect(packFolder(root)).rejects.toThrow(
      `Nothing to deploy in ${root}: every file is ignored or it is empty.`,
    );
    await expect(packFolder(join(root, 'nope'))).rejects.toThrow(`${join(root, 'nope')} does not exist.`);
    const file = join(root, 'node_modules', 'x.js');
    await expect(packFolder(file)).rejects.toThrow(`${file} is not a folder.`);
    const site = tree({ 'index.html': 'hi' });
    const link = join(root, 'site-link');
    symlinkSync(site, link);
    expect((await packFolder(link)).entries).toEqual(['index.html']);
  });
});

describe('the source meta', () => {
  it('is branch, commit and dirty from the local git, and the machine', () => {
    const root = tree({ 'index.html': 'hi' });
    expect(sourceMeta(root)).toEqual({ machine: hostname().slice(0, 64) });
    git(root, 'init', '-q', '-b', 'feature/x');
    // A repository without a commit yet: the branch only.
    expect(sourceMeta(root)).toEqual({ machine: hostname().slice(0, 64), branch: 'feature/x', dirty: true });
    git(root, 'add', '.');
    git(root, 'commit', '-q', '-m', 'first');
    const commit = git(root, 'rev-parse', 'HEAD');
    expect(sourceMeta(root)).toEqual({ machine: hostname().slice(0, 64), branch: 'feature/x', commit, dirty: false });
    writeFileSync(join(root, 'index.html'), 'changed');
    expect(sourceMeta(root).dirty).toBe(true);
    git(root, 'checkout', '-q', '--detach');
    expect(sourceMeta(root).branch).toBeUndefined();
  });
});
