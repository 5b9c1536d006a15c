import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { TestPlatform } from '../helpers/platform';
import { BIN, Cli, type CliResult, GIT_ENV } from './helpers';

/**
 * What a new user met with `platform` (round three), each through the real command line against
 * the local platform: the git credential helper when `platform` is the link `npm link` puts on the
 * PATH (a name without .cjs, running the bundle), `auth setup-git`, `repo create --source --push`,
 * `env set` that would take a variable from other targets, `link` and .gitignore, `--version`.
 */
let p: TestPlatform;
let cli: Cli;
const unique = (base: string) => `${base}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;

/** Git with the test's config folder (where the credential helper finds the profile). */
async function git(c: Cli, cwd: string, ...args: string[]): Promise<string> {
  const env = { ...process.env, ...c.env, ...GIT_ENV, GIT_TERMINAL_PROMPT: '0' } as NodeJS.ProcessEnv;
  const { stdout } = await promisify(execFile)('git', args, { cwd, encoding: 'utf8', env });
  return stdout.trim();
}

/**
 * A folder of the PATH with `platform` in it as `npm link` makes it: a link, named without .cjs,
 * to the package's cli/bin.cjs (which runs the bundle).
 */
const linkedBin = mkdtempSync(join(tmpdir(), 'platform-cli-linked-'));
symlinkSync(BIN, join(linkedBin, 'platform'));
const HELPER = `!"${process.execPath}" "${join(linkedBin, 'platform')}" auth git-credential --profile 'default'`;

/** `platform …` found on the PATH (the linked bundle), with the test's config and HOME. */
function linked(c: Cli, argv: string[], cwd = c.cwd): Promise<CliResult> {
  const env: Record<string, string> = {
    PATH: [linkedBin, dirname(process.execPath), process.env.PATH ?? ''].join(':'),
    ...GIT_ENV,
  };
  for (const [name, value] of Object.entries(c.env)) if (value !== undefined) env[name] = value;
  return new Promise((resolve, reject) => {
    const child = spawn('platform', argv, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString('utf8');
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString('utf8');
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}

beforeAll(async () => {
  p = await TestPlatform.start();
  cli = new Cli();
  Object.assign(cli.env, GIT_ENV);
  expect((await cli.run(['login', '--url', p.baseUrl, '--token', await p.apiKey()])).code).toBe(0);
});
afterAll(async () => {
  await p?.close();
});

describe('git from the linked bundle', () => {
  it('repo clone through `platform` on the PATH: the clone, a push and a fetch use the credential helper', async () => {
    const repo = unique('linked');
    expect((await linked(cli, ['repo', 'create', repo])).code).toBe(0);
    const root = mkdtempSync(join(tmpdir(), 'platform-cli-linked-clone-'));
    const cloned = await linked(cli, ['repo', 'clone', repo], root);
    expect(cloned).toMatchObject({ code: 0, stdout: `Cloned ${repo} into ${join(root, repo)}.\n` });
    const work = join(root, repo);
    // The helper is the script that ran, as it was started (the link on the PATH), after an empty
    // one (trimmed here) that keeps helpers of other config files out.
    expect(await git(cli, work, 'config', '--local', '--get-all', `credential.${new URL(p.baseUrl).origin}.helper`)).toBe(
      HELPER,
    );
    writeFileSync(join(work, 'README.md'), '# Linked\n');
    await git(cli, work, 'add', '.');
    await git(cli, work, 'commit', '-q', '-m', 'First');
    await git(cli, work, 'push', '-q', 'origin', 'HEAD:main');
    await git(cli, work, 'fetch', '-q', 'origin');
    expect(await git(cli, work, 'rev-parse', 'origin/main')).toBe(await git(cli, work, 'rev-parse', 'HEAD'));
  });

  it('auth setup-git writes the helper to the global git config: a plain git clone needs no token', async () => {
    const home = mkdtempSync(join(tmpdir(), 'platform-cli-home-'));
    const user = new Cli();
    Object.assign(user.env, GIT_ENV, { HOME: home, GIT_CONFIG_GLOBAL: join(home, 'gitconfig') });
    expect((await user.run(['login', '--url', p.baseUrl, '--token', await p.apiKey()])).code).toBe(0);
    const repo = unique('setup');
    expect((await user.run(['repo', 'create', repo, '--readme'])).code).toBe(0);

    const set = await linked(user, ['auth', 'setup-git']);
    const origin = new URL(p.baseUrl).origin;
    expect(set).toEqual({
      code: 0,
      stdout: `Git now asks platform for the password of ${origin} (credential.${origin}.helper).\n`,
      stderr: '',
    });
    const global = readFileSync(join(home, 'gitconfig'), 'utf8');
    expect(global).toContain(`[credential "${origin}"]`);
    expect(global).toContain('auth git-credential --profile');
    // Twice: the same two lines (an empty one, trimmed here, and ours), not four.
    expect((await linked(user, ['auth', 'setup-git'])).code).toBe(0);
    expect(await git(user, home, 'config', '--global', '--get-all', `credential.${origin}.helper`)).toBe(HELPER);

    const cloneUrl = (await p.get(`/v1/orgs/${p.org.orgId}/repos/${repo}`)).body.cloneUrl as string;
    await git(user, home, 'clone', '-q', cloneUrl, 'plain');
    expect(existsSync(join(home, 'plain', 'README.md'))).toBe(true);
  });

  it('repo create --source . --push: the repository, remote origin with the helper, the branch pushed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'platform-cli-source-'));
    await git(cli, dir, 'init', '-q', '-b', 'trunk');
    writeFileSync(join(dir, 'index.html'), '<h1>mine</h1>');
    await git(cli, dir, 'add', '.');
    await git(cli, dir, 'commit', '-q', '-m', 'Mine');
    const repo = unique('source');

    const res = await linked(cli, ['repo', 'create', repo, '--source', '.', '--push'], dir);
    expect(res.stderr).toBe('');
    const view = (await p.get(`/v1/orgs/${p.org.orgId}/repos/${repo}`)).body;
    expect(res).toEqual({
      code: 0,
      stdout:
        `Created repository ${repo}: ${view.cloneUrl}\n` +
        `Added remote origin (${view.cloneUrl}).\n` +
        'Pushed trunk to origin.\n',
      stderr: '',
    });
    // Its default branch is the one pushed; the local branch tracks it.
    expect(view).toMatchObject({ defaultBranch: 'trunk', branches: ['trunk'], empty: false });
    expect(await git(cli, dir, 'rev-parse', '--abbrev-ref', 'trunk@{upstream}')).toBe('origin/trunk');
    expect(await git(cli, dir, 'remote', 'get-url', 'origin')).toBe(view.cloneUrl);
    // Later pushes ask the helper too.
    writeFileSync(join(dir, 'about.html'), '<p>about</p>');
    await git(cli, dir, 'add', '.');
    await git(cli, dir, 'commit', '-q', '-m', 'About');
    await git(cli, dir, 'push', '-q');

    // Another remote name; a remote that exists already is refused before anything is made.
    const taken = await linked(cli, ['repo', 'create', unique('again'), '--source', dir, '--push'], dir);
    expect(taken.code).toBe(1);
    expect(taken.stderr).toMatch(/^Error: \S+ has a remote origin already \(.*\): name another with --remote NAME\.\n$/);
    const mirror = unique('mirror');
    const other = await linked(cli, ['repo', 'create', mirror, '--source', '.', '--remote', 'mirror', '--push'], dir);
    expect(other.code).toBe(0);
    expect(other.stdout).toContain('Pushed trunk to mirror.\n');
    expect((await p.get(`/v1/orgs/${p.org.orgId}/repos/${mirror}`)).body.branches).toEqual(['trunk']);

    const usage = await linked(cli, ['repo', 'create', unique('x'), '--push'], dir);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/^Error: --push and --remote go with --source FOLDER\./);
    const notGit = await linked(cli, ['repo', 'create', unique('x'), '--source', tmpdir()], dir);
    expect(notGit.code).toBe(1);
    expect(notGit.stderr).toMatch(/is not in a git repository/);
  });
});

describe('platform link', () => {
  it('adds .platform.json to .gitignore: created when missing, never twice', async () => {
    const fresh = new Cli(mkdtempSync(join(tmpdir(), 'platform-cli-link-')));
    Object.assign(fresh.env, cli.env);
    expect((await fresh.run(['link'])).code).toBe(0);
    expect(readFileSync(join(fresh.cwd, '.gitignore'), 'utf8')).toBe('.platform.json\n');
    expect((await fresh.run(['link'])).code).toBe(0);
    expect(readFileSync(join(fresh.cwd, '.gitignore'), 'utf8')).toBe('.platform.json\n');

    const kept = new Cli(mkdtempSync(join(tmpdir(), 'platform-cli-link-')));
    Object.assign(kept.env, cli.env);
    writeFileSync(join(kept.cwd, '.gitignore'), 'node_modules/\n.env');
    const res = await kept.run(['link']);
    expect(res.stdout).toContain('Added .platform.json to .gitignore.');
    expect(readFileSync(join(kept.cwd, '.gitignore'), 'utf8')).toBe('node_modules/\n.env\n.platform.json\n');
    // Listed already (as /.platform.json): left as it is.
    const listed = new Cli(mkdtempSync(join(tmpdir(), 'platform-cli-link-')));
    Object.assign(listed.env, cli.env);
    writeFileSync(join(listed.cwd, '.gitignore'), '/.platform.json\n');
    expect((await listed.run(['link'])).stdout).not.toContain('.gitignore');
    expect(readFileSync(join(listed.cwd, '.gitignore'), 'utf8')).toBe('/.platform.json\n');
  });
});

describe('--version', () => {
  it('prints the package version (-V too)', async () => {
    const { version } = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8'));
    expect(await cli.run(['--version'])).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
    expect(await linked(cli, ['-V'])).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  });
});
