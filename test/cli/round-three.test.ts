import { type ChildProcess, execFile, spawn } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { edgeFetch, startDeployments } from '../deployments/helpers';
import { TestPlatform } from '../helpers/platform';
import { until } from '../helpers/until';
import { BIN, Cli, type CliResult, GIT_ENV } from './helpers';

/**
 * What a new user met with `platform` (round three), each through the real command line against
 * the local platform: the git credential helper when `platform` is the link `npm link` puts on the
 * PATH (a name without .cjs, running the bundle), `auth setup-git`, `repo create --source --push`,
 * `env set` that would take a variable from other targets, `link` and .gitignore, `--version`.
 */
let p: TestPlatform;
let env: Awaited<ReturnType<typeof startDeployments>>;
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

/**
 * `platform …` found on the PATH (the linked bundle), with the test's config and HOME; `started`
 * is given the child (to interrupt it).
 */
function linked(
  c: Cli,
  argv: string[],
  cwd = c.cwd,
  options: { env?: Record<string, string>; started?: (child: ChildProcess) => void; program?: string[] } = {},
): Promise<CliResult> {
  const [program, ...first] = options.program ?? ['platform'];
  const vars: Record<string, string> = {
    PATH: [linkedBin, dirname(process.execPath), process.env.PATH ?? ''].join(':'),
    ...GIT_ENV,
  };
  for (const [name, value] of Object.entries(c.env)) if (value !== undefined) vars[name] = value;
  Object.assign(vars, options.env);
  return new Promise((resolve, reject) => {
    const child = spawn(program as string, [...first, ...argv], { cwd, env: vars, stdio: ['ignore', 'pipe', 'pipe'] });
    options.started?.(child);
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
  env = await startDeployments();
  cli = new Cli();
  Object.assign(cli.env, GIT_ENV);
  expect((await cli.run(['login', '--url', p.baseUrl, '--token', await p.apiKey()])).code).toBe(0);
});
afterAll(async () => {
  await env?.close();
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
    expect(
      await git(cli, work, 'config', '--local', '--get-all', `credential.${new URL(p.baseUrl).origin}.helper`),
    ).toBe(HELPER);
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
    expect(taken.stderr).toMatch(
      /^Error: \S+ has a remote origin already \(.*\): name another with --remote NAME\.\n$/,
    );
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

/** The static fixture in a folder of its own, named `name` (the project's slug when deployed). */
function site(name: string): string {
  const folder = join(mkdtempSync(join(tmpdir(), 'platform-cli-r3-')), name);
  cpSync(join(__dirname, '..', 'fixtures', 'static-site'), folder, { recursive: true });
  return folder;
}

/** The bundle `cli/bin.cjs` runs (made again by it when stale: every test here has run it first). */
const BUNDLE = join(__dirname, '..', '..', 'dist', 'cli', 'platform.cjs');

const deploymentOf = (res: CliResult) => /^Deployment (dpl_\w+) of /m.exec(res.stdout)?.[1] as string;

describe('env set for fewer targets', () => {
  it('says which targets would lose the variable and needs --force', async () => {
    const slug = unique('envs').slice(0, 40);
    expect((await cli.run(['projects', 'create', slug])).code).toBe(0);
    expect(
      (await cli.run(['env', 'set', 'API_URL', 'https://api.example.com', '--project', slug, '--plain'])).code,
    ).toBe(0);

    const refused = await cli.run([
      'env',
      'set',
      'API_URL',
      'https://staging.example.com',
      '--project',
      slug,
      '--target',
      'preview',
      '--plain',
    ]);
    expect(refused).toEqual({
      code: 1,
      stdout: '',
      stderr:
        `Error: API_URL is set for production, preview, development in ${slug}, one value for all of them: ` +
        'setting it for preview removes it from production, development. Add --force to do so, or use a separate ' +
        'key (API_URL_PREVIEW).\n',
    });
    const kept = await cli.run(['env', 'ls', '--project', slug]);
    expect(kept.stdout).toBe('API_URL\tproduction,preview,development\thttps://api.example.com\n');

    // More targets, or the same ones: nothing is lost, no question.
    expect((await cli.run(['env', 'set', 'API_URL', 'v2', '--project', slug, '--plain'])).code).toBe(0);
    const forced = await cli.run([
      'env',
      'set',
      'API_URL',
      'https://staging.example.com',
      '--project',
      slug,
      '--target',
      'preview',
      '--plain',
      '--force',
    ]);
    expect(forced).toEqual({
      code: 0,
      stdout: `Set API_URL (plain) for preview in ${slug}. Removed it from production, development.\n`,
      stderr: '',
    });
    expect((await cli.run(['env', 'ls', '--project', slug])).stdout).toBe(
      'API_URL\tpreview\thttps://staging.example.com\n',
    );
  });
});

describe('promote, rollback, deployments ls', () => {
  it("a preview built with variables other than production's is promoted only with --force", async () => {
    const slug = unique('promo').slice(0, 40);
    const folder = site(slug);
    expect((await cli.run(['projects', 'create', slug, '--framework', 'static'])).code).toBe(0);
    expect(
      (
        await cli.run([
          'env',
          'set',
          'API_URL',
          'https://staging.example.com',
          '--project',
          slug,
          '--target',
          'preview',
          '--plain',
        ])
      ).code,
    ).toBe(0);
    const deployed = await cli.run(['deploy', folder]);
    expect(deployed.code).toBe(0);
    const id = deploymentOf(deployed);

    const refused = await cli.run(['promote', id]);
    expect(refused).toEqual({
      code: 1,
      stdout: '',
      stderr:
        "Error: This preview was built with variables that differ from production's. Deploy to production instead, " +
        "or promote it with force.\nBuild it with production's variables: platform deploy --prod. Or promote it as " +
        `it is: platform promote ${id} --force\n`,
    });
    // The API's answer, documented: a 409 unless {"force": true}; force must be a boolean.
    const api = await p.post(`/v1/orgs/${p.org.orgId}/deployments/${id}/promote`, {});
    expect(api.status).toBe(409);
    const bad = await p.post(`/v1/orgs/${p.org.orgId}/deployments/${id}/promote`, { force: 'yes' });
    expect(bad.status).toBe(400);

    const forced = await cli.run(['promote', id, '--force']);
    expect(forced).toEqual({
      code: 0,
      stdout: `Promoted ${id} to production: http://${slug}.localhost:${env.edge.port}\n`,
      stderr: '',
    });
  });

  it('rollback promotes the previous production deployment; deployments ls marks what production serves', async () => {
    const slug = unique('roll').slice(0, 40);
    const folder = site(slug);
    const first = await cli.run(['deploy', folder, '--prod']);
    expect(first.code).toBe(0);
    const none = await cli.run(['rollback', '--project', slug]);
    expect(none).toEqual({
      code: 1,
      stdout: '',
      stderr: `Error: ${slug} has no earlier ready production deployment to roll back to.\n`,
    });
    writeFileSync(join(folder, 'index.html'), '<h1>second</h1>');
    const second = await cli.run(['deploy', folder, '--prod']);
    expect(second.code).toBe(0);
    const [one, two] = [deploymentOf(first), deploymentOf(second)];
    const production = `${slug}.localhost:${env.edge.port}`;
    expect((await edgeFetch(env.edge, production, '/')).text).toBe('<h1>second</h1>');

    const live = async () =>
      Object.fromEntries(
        (await cli.run(['deployments', 'ls', '--project', slug])).stdout
          .trim()
          .split('\n')
          .map((row) => row.split('\t'))
          .map((cells) => [cells[0], cells[5] ?? '']),
      );
    expect(await live()).toEqual({ [one]: '', [two]: 'production' });

    const back = await cli.run(['rollback', '--project', slug]);
    expect(back).toEqual({
      code: 0,
      stdout: `Rolled back to ${one} (from ${two}): production serves it at http://${production}\n`,
      stderr: '',
    });
    expect((await edgeFetch(env.edge, production, '/')).text).toContain('Hello from the static fixture');
    expect(await live()).toEqual({ [one]: 'production', [two]: '' });
    // By id: forward again.
    expect((await cli.run(['rollback', two])).code).toBe(0);
    expect(await live()).toEqual({ [one]: '', [two]: 'production' });

    cli.columns = 120;
    try {
      const table = (await cli.run(['deployments', 'ls', '--project', slug])).stdout.split('\n');
      expect(table[0]).toMatch(/^ID\s+STATUS\s+TARGET\s+URL\s+AGE\s+LIVE\s+COMMIT/);
      expect(table.find((l) => l.startsWith(two))).toMatch(/\sproduction\s/);
    } finally {
      cli.columns = undefined;
    }
  });
});

describe('URLs the local platform serves', () => {
  it("a pull request's preview is an http:// address on the local edge (pr view)", async () => {
    const repo = unique('pv');
    const created = JSON.parse((await cli.run(['repo', 'create', repo, '--json'])).stdout);
    const slug = unique('pv').slice(0, 30);
    const project = await p.post(`/v1/orgs/${p.org.orgId}/projects`, {
      name: slug,
      slug,
      framework: 'static',
      repoId: created.repo.resourceId,
    });
    expect(project.status).toBe(201);
    const root = mkdtempSync(join(tmpdir(), 'platform-cli-pv-'));
    expect((await linked(cli, ['repo', 'clone', repo], root)).code).toBe(0);
    const work = join(root, repo);
    cpSync(join(__dirname, '..', 'fixtures', 'static-site'), work, { recursive: true });
    await git(cli, work, 'add', '.');
    await git(cli, work, 'commit', '-q', '-m', 'Site');
    await git(cli, work, 'push', '-q', 'origin', 'HEAD:main');
    await git(cli, work, 'switch', '-q', '-c', 'feature');
    writeFileSync(join(work, 'index.html'), '<h1>feature</h1>');
    await git(cli, work, 'commit', '-q', '-am', 'Feature');
    const inWork = new Cli(work);
    Object.assign(inWork.env, cli.env);
    expect((await inWork.run(['pr', 'create', '--body', 'A preview.'])).code).toBe(0);
    const preview = await until(
      async () => {
        const pull = (await p.get(`/v1/orgs/${p.org.orgId}/repos/${repo}/pulls/1`)).body.pull;
        return pull.preview?.state === 'ready' ? (pull.preview as { url: string }) : undefined;
      },
      120_000,
      200,
    );
    const host = `${slug}-pr-1.localhost:${env.edge.port}`;
    expect(preview.url).toBe(`http://${host}`);
    expect((await edgeFetch(env.edge, host, '/')).text).toBe('<h1>feature</h1>');
    expect((await inWork.run(['pr', 'view', '1'])).stdout).toContain(`\npreview: http://${host} [ready]\n`);
  });
});

describe('login --local outside the platform folder', () => {
  it('finds the data folder of the platform checkout the bundle came from', async () => {
    // A platform checkout elsewhere: its package.json, its bundle, the local.json `npm start` wrote.
    const checkout = mkdtempSync(join(tmpdir(), 'platform-cli-checkout-'));
    mkdirSync(join(checkout, 'dist', 'cli'), { recursive: true });
    cpSync(BUNDLE, join(checkout, 'dist', 'cli', 'platform.cjs'));
    cpSync(join(__dirname, '..', '..', 'package.json'), join(checkout, 'package.json'));
    symlinkSync(join(__dirname, '..', '..', 'node_modules'), join(checkout, 'node_modules'));
    mkdirSync(join(checkout, '.data'));
    const key = await p.apiKey();
    writeFileSync(
      join(checkout, '.data', 'local.json'),
      JSON.stringify({ baseUrl: p.baseUrl, apiKey: key, orgs: { customer: { orgId: p.org.orgId } } }),
    );
    const user = new Cli();
    const program = [process.execPath, join(checkout, 'dist', 'cli', 'platform.cjs')];
    const res = await linked(user, ['login', '--local'], user.cwd, { program });
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(new RegExp(`^Logged in to ${p.baseUrl} as API key key_\\w+, organization `));
    // DATA_DIR, when set, is the one place looked in.
    const elsewhere = await linked(user, ['login', '--local'], user.cwd, { program, env: { DATA_DIR: 'nothing' } });
    expect(elsewhere.code).toBe(1);
    expect(elsewhere.stderr).toBe(
      `Error: No local platform found (${join(user.cwd, 'nothing', 'local.json')}): start it with npm start, or set DATA_DIR to the data folder it uses.\n`,
    );
  });
});

/** A proxy in front of the platform counting the polls of build logs and of agent jobs. */
async function countingProxy(target: string) {
  const counts = { buildLog: 0, job: 0 };
  const server = createServer((req, res) => {
    const path = req.url ?? '/';
    if (/\/build-log(\?|$)/.test(path)) counts.buildLog++;
    if (/\/agents\/jobs\/[^/?]+(\?|$)/.test(path)) counts.job++;
    // No kept-alive connection to the platform: it would hold its server open at the end.
    const upstream = request(
      new URL(path, target),
      { method: req.method, headers: req.headers, agent: false },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    counts,
    close: () =>
      new Promise((resolve) => {
        server.close(resolve);
        server.closeAllConnections();
      }),
  };
}

describe('no MaxListenersExceededWarning in long polls', () => {
  let proxy: Awaited<ReturnType<typeof countingProxy>>;
  let user: Cli;
  beforeAll(async () => {
    proxy = await countingProxy(p.baseUrl);
    user = new Cli();
    expect((await user.run(['login', '--url', proxy.url, '--token', await p.apiKey()])).code).toBe(0);
  });
  afterAll(() => proxy?.close());

  it('deploy: a build that waits for the test, its log polled 20 times and more', async () => {
    const folder = join(mkdtempSync(join(tmpdir(), 'platform-cli-wait-')), 'waits');
    mkdirSync(folder);
    // Where the build looks for the go-ahead: open to the build's own user (builds run as one when
    // the platform runs as root).
    const signals = mkdtempSync(join(tmpdir(), 'platform-cli-go-'));
    chmodSync(signals, 0o755);
    const go = join(signals, 'go');
    writeFileSync(
      join(folder, 'package.json'),
      JSON.stringify({ name: 'waits', version: '1.0.0', scripts: { build: 'node wait.js' } }),
    );
    writeFileSync(
      join(folder, 'package-lock.json'),
      JSON.stringify({
        name: 'waits',
        version: '1.0.0',
        lockfileVersion: 3,
        requires: true,
        packages: { '': { name: 'waits' } },
      }),
    );
    writeFileSync(
      join(folder, 'wait.js'),
      `const fs = require('fs');
const t = setInterval(() => {
  if (!fs.existsSync(${JSON.stringify(go)})) return;
  clearInterval(t);
  fs.mkdirSync('dist');
  fs.writeFileSync('dist/index.html', '<p>waited</p>');
}, 20);`,
    );
    const running = linked(user, ['deploy', folder, '--framework', 'static'], user.cwd, {
      env: { PLATFORM_POLL_MS: '1' },
    });
    await until(() => proxy.counts.buildLog >= 20, 120_000, 20);
    writeFileSync(go, '');
    const res = await running;
    expect(res.stdout).toMatch(/\nReady in [\d.]+ s: http:\/\//);
    expect(res.code).toBe(0);
    expect(res.stderr).not.toContain('MaxListenersExceededWarning');
    expect(res.stderr).not.toContain('memory leak');
  });

  it('agent job watch: a job no device runs, polled 20 times and more, then Ctrl-C', async () => {
    const job = await p.post(`/v1/orgs/${p.org.orgId}/agents/jobs`, {
      type: 'http.batch',
      input: { requests: [{ method: 'GET', url: 'https://api.example.com/v1/items' }] },
    });
    expect(job.status).toBe(201);
    const jobId = job.body.jobId as string;
    let child: ChildProcess | undefined;
    const running = linked(user, ['agent', 'job', 'watch', jobId], user.cwd, {
      env: { PLATFORM_POLL_MS: '1' },
      started: (c) => {
        child = c;
      },
    });
    await until(() => proxy.counts.job >= 20, 60_000, 20);
    child?.kill('SIGINT');
    const res = await running;
    expect(res.stderr).toMatch(new RegExp(`^${jobId}: queued`));
    expect(res.stderr).not.toContain('MaxListenersExceededWarning');
    expect(res.stderr).not.toContain('memory leak');
  });
});
