import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '../../client';
import { newId } from '../../shared/kernel/store/ids';
import { edgeFetch, startDeployments } from '../deployments/helpers';
import { TestPlatform } from '../helpers/platform';
import { putRecord } from '../helpers/records';
import { Cli } from './helpers';

/**
 * `deploy`, `logs` and `promote` end to end: the command line packs a fixture folder, uploads it
 * through the presigned link, creates the deployment and follows its build on the local
 * platform (gateway, builds, local S3, edge, all in this process), then the edge serves it.
 */
let p: TestPlatform;
let env: Awaited<ReturnType<typeof startDeployments>>;
let cli: Cli;
let site: string;

function git(cwd: string, ...args: string[]): string {
  const r = spawnSync('git', ['-c', 'user.email=cli@example.com', '-c', 'user.name=CLI test', ...args], {
    cwd,
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout.trim();
}

beforeAll(async () => {
  p = await TestPlatform.start();
  env = await startDeployments();
  cli = new Cli();
  const login = await cli.run(['login', '--url', p.baseUrl, '--token', await p.apiKey()]);
  expect(login.code).toBe(0);

  // The static fixture in a git work tree of its own, with what must stay out of the archive.
  const root = mkdtempSync(join(tmpdir(), 'platform-cli-site-'));
  site = join(root, 'cli-site');
  cpSync(join(__dirname, '..', 'fixtures', 'static-site'), site, { recursive: true });
  writeFileSync(join(site, '.gitignore'), 'drafts/\n*.secret\n');
  mkdirSync(join(site, 'drafts'));
  writeFileSync(join(site, 'drafts', 'next.html'), '<p>draft</p>');
  writeFileSync(join(site, 'keys.secret'), 'do not upload');
  writeFileSync(join(site, '.env'), 'TOKEN=do-not-upload');
  mkdirSync(join(site, 'node_modules', 'left-pad'), { recursive: true });
  writeFileSync(join(site, 'node_modules', 'left-pad', 'index.js'), '');
  symlinkSync('/etc/hostname', join(site, 'link.txt'));
  git(site, 'init', '-q', '-b', 'main');
  git(site, 'add', '.');
  git(site, 'commit', '-q', '-m', 'Site');
});
afterAll(async () => {
  await env?.close();
  await p?.close();
});

describe('deploy [folder]', () => {
  let deploymentId: string;
  let host: string;

  it('creates the project from the folder name, uploads, builds, follows the log and prints the host', async () => {
    const res = await cli.run(['deploy', site]);
    expect(res.code).toBe(0);
    const out = res.stdout.split('\n');
    expect(out[0]).toMatch(/^Created project cli-site \(prj_\w+\), framework static\.$/);
    // index.html, 404.html, about.html, assets/style.css and .gitignore: not drafts/, *.secret, .env, node_modules.
    expect(out[1]).toMatch(/^Packed 5 files \(\d+\.\d KB\) from \S+cli-site$/);
    const header = /^Deployment (dpl_\w+) of cli-site \(preview\): http:\/\/(\S+)$/.exec(out[2] as string);
    expect(header).not.toBeNull();
    deploymentId = header?.[1] as string;
    host = header?.[2] as string;
    expect(res.stdout).toContain('Downloading the source archive.');
    expect(res.stdout).toMatch(/Unpacked 6 files and folders/);
    expect(res.stdout).toContain('Going live.');
    // A static folder without a build step: the build log says so.
    expect(res.stdout).toContain(
      'No build step (no build command, no "build" script in package.json): the folder is served as it is.\n',
    );
    expect(out.at(-2)).toMatch(new RegExp(`^Ready in \\d+\\.\\d s: http://${host.replace(/\./g, '\\.')}$`));
    // Status changes go to stderr (not a terminal here: one line each), with the skipped symlink.
    expect(res.stderr).toContain('Left out link.txt: archives carry plain files and folders only.\n');
    // Which statuses are seen depends on when the polls fall (a fast build may be deploying at the
    // first): each one a line, the last ready.
    const statuses = res.stderr
      .split('\n')
      .filter((l) => l.startsWith('… '))
      .map((l) => l.slice(2));
    expect(statuses.at(-1)).toBe('ready');
    expect(statuses.filter((st) => !['queued', 'building', 'deploying', 'ready'].includes(st))).toEqual([]);
  });

  it('the deployment carries the branch and commit of the local git; the edge serves what was packed', async () => {
    const api = createClient({ baseUrl: p.baseUrl, token: p.owner.token });
    const read = (await api.getDeploymentsByDeploymentId({ orgId: p.org.orgId, deploymentId })) as {
      deployment: Record<string, unknown>;
    };
    expect(read.deployment).toMatchObject({
      status: 'ready',
      source: 'upload',
      target: 'preview',
      branch: 'main',
      commitSha: git(site, 'rev-parse', 'HEAD'),
    });
    expect((await edgeFetch(env.edge, host, '/')).text).toContain('Hello from the static fixture');
    for (const left of ['/drafts/next.html', '/keys.secret', '/.env', '/node_modules/left-pad/index.js']) {
      expect((await edgeFetch(env.edge, host, left)).text).toContain('Fixture 404 page');
    }
  });

  it('logs <deploymentId> prints the build log; --follow too, to the end', async () => {
    const res = await cli.run(['logs', deploymentId]);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('Going live.');
    const follow = await cli.run(['logs', deploymentId, '--follow']);
    expect(follow.stdout).toBe(res.stdout);
    expect(follow.stderr).toBe(`Deployment ${deploymentId}: ready.\n`);
    const runtime = await cli.run(['logs', deploymentId, '--runtime']);
    expect(runtime.stdout).toBe('This deployment has no server function: no runtime logs.\n');
  });

  it('deployments ls: whole tab-separated cells piped; on a terminal a fitted table, the status coloured', async () => {
    const piped = await cli.run(['deployments', 'ls', '--project', 'cli-site']);
    expect(piped.code).toBe(0);
    const [row] = piped.stdout.split('\n');
    expect(row?.split('\t').slice(0, 5)).toEqual([
      deploymentId,
      'ready',
      'preview',
      `http://${host}`,
      expect.stringMatching(/^\d+[smhd]$/),
    ]);
    const none = await cli.run([
      'deployments',
      'ls',
      '--project',
      'cli-site',
      '--target',
      'production',
      '--status',
      'error',
    ]);
    expect(none.stdout).toBe('No deployments yet. Deploy a folder: platform deploy\n');
    const bad = await cli.run(['deployments', 'ls', '--status', 'done']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^Error: Unknown status done: use queued, building/);

    const terminal = new Cli();
    Object.assign(terminal.env, cli.env);
    terminal.columns = 70;
    terminal.color = true;
    const table = await terminal.run(['deployments', 'ls']);
    const lines = table.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID\s+STATUS\s+TARGET\s+URL\s+AGE/);
    const mine = lines.find((l) => l.startsWith(deploymentId)) as string;
    expect(mine).toContain('\x1b[32mready');
    expect(mine).toContain(`http://${host}`);
    terminal.env.NO_COLOR = '1';
    expect((await terminal.run(['deployments', 'ls'])).stdout).not.toContain('\x1b[');
    delete terminal.env.NO_COLOR;
    expect((await terminal.run(['deployments', 'ls', '--no-color'])).stdout).not.toContain('\x1b[');
  });

  it('deployments inspect <id>: status, target, URL, project; an unknown one is the API message', async () => {
    const res = await cli.run(['deployments', 'inspect', deploymentId]);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(
      new RegExp(`^id {9}${deploymentId}\nstatus {5}ready\ntarget {5}preview\nurl {8}http://`),
    );
    expect(res.stdout).toMatch(/\nproject {4}cli-site \(prj_\w+\)\n/);
    const json = JSON.parse((await cli.run(['deployments', 'inspect', deploymentId, '--json'])).stdout);
    expect(json.deployment.deploymentId).toBe(deploymentId);
    expect(await cli.run(['deployments', 'inspect', 'dpl_nope'])).toEqual({
      code: 1,
      stdout: '',
      stderr: 'Error: Deployment not found\n',
    });
  });

  it('deployments cancel <id>: a deployment in progress is canceled; a finished one is the API message', async () => {
    const read = (await createClient({ baseUrl: p.baseUrl, token: p.owner.token }).getDeploymentsByDeploymentId({
      orgId: p.org.orgId,
      deploymentId,
    })) as { project: { projectId: string } };
    const { projectId } = read.project;
    // A queued deployment as the builds leave one waiting (written directly: nothing to wait for).
    const queued = newId('dpl_');
    await putRecord(p.org.orgId, `DPL#${queued}`, {
      deploymentId: queued,
      orgId: p.org.orgId,
      projectId,
      location: 'fra',
      target: 'preview',
      status: 'queued',
      createdAt: Date.now(),
      updatedAt: Date.now(),
      gsi1pk: `PRJ#${projectId}`,
      gsi1sk: `DPL#${queued}`,
      version: 1,
    });
    expect(await cli.run(['deployments', 'cancel', queued])).toEqual({
      code: 0,
      stdout: `Canceled ${queued} (preview).\n`,
      stderr: '',
    });
    const json = JSON.parse((await cli.run(['deployments', 'inspect', queued, '--json'])).stdout);
    expect(json.deployment.status).toBe('canceled');
    expect(await cli.run(['deployments', 'cancel', deploymentId])).toEqual({
      code: 1,
      stdout: '',
      stderr: 'Error: This deployment has already finished.\n',
    });
    const help = await cli.run(['deployments', 'cancel', '--help']);
    expect(help.stdout).toContain('Cancel a deployment still queued, building or deploying: its build stops.');
    expect(help.stdout).toContain('platform deployments cancel dpl_');
  });

  it("projects settings shows and changes a project's build settings; --no-… goes back to the default", async () => {
    const shown = await cli.run(['projects', 'settings', '--project', 'cli-site']);
    expect(shown.stdout).toMatch(
      /^Settings of cli-site:\n {2}framework {2}static\n {2}build {6}\(the framework default\)\n/,
    );
    const set = await cli.run([
      'projects',
      'settings',
      '--project',
      'cli-site',
      '--build-command',
      'npm run build',
      '--output-directory',
      'public',
      '--root-directory',
      'site',
      '--production-branch',
      'release',
    ]);
    expect(set.code).toBe(0);
    expect(set.stdout).toContain('Saved the settings of cli-site:\n');
    expect(set.stdout).toContain('  build      npm run build\n');
    expect(set.stdout).toContain('  output     public\n');
    expect(set.stdout).toContain('  root       site\n');
    expect(set.stdout).toContain('  production release\n');
    const reset = await cli.run([
      'projects',
      'settings',
      '--project',
      'cli-site',
      '--no-build-command',
      '--root-directory',
      '',
      '--production-branch',
      'main',
      '--output-directory',
      '.',
      '--json',
    ]);
    expect(reset.code).toBe(0);
    const project = JSON.parse(reset.stdout).project;
    expect(project.buildCommand).toBeUndefined();
    expect(project.productionBranch).toBe('main');
    const unknownRepo = await cli.run(['projects', 'settings', '--project', 'cli-site', '--repo', 'nope']);
    expect(unknownRepo.code).toBe(2);
    expect(unknownRepo.stderr).toMatch(/^Error: No repository nope in this organization/);
    const both = await cli.run(['projects', 'settings', '--repo', 'x', '--no-repo']);
    expect(both.code).toBe(2);
  });

  it('promote <deploymentId> makes it production and prints the production host', async () => {
    const res = await cli.run(['promote', deploymentId]);
    expect(res).toEqual({
      code: 0,
      stdout: `Promoted ${deploymentId} to production: http://cli-site.localhost:${env.edge.port}\n`,
      stderr: '',
    });
    expect((await edgeFetch(env.edge, `cli-site.localhost:${env.edge.port}`, '/')).status).toBe(200);
    const again = await cli.run(['promote', deploymentId]);
    expect(again).toEqual({ code: 1, stdout: '', stderr: 'Error: This is already the production deployment.\n' });
  });

  it('deploys to the existing project by --project (the same framework: unchanged); --prod goes to the production host', async () => {
    const same = await cli.run(['deploy', site, '--project', 'cli-site', '--framework', 'static']);
    expect(same.code).toBe(0);
    expect(same.stdout).not.toContain('Created project');
    expect(same.stdout).not.toContain('Changed the framework');
    expect(same.stderr).not.toContain('framework');
    expect(same.stdout).toMatch(/^Packed 5 files/);

    writeFileSync(join(site, 'index.html'), '<h1>Hello again</h1>');
    const prod = await cli.run(['deploy', site, '--prod']);
    expect(prod.code).toBe(0);
    expect(prod.stdout).toMatch(/Deployment dpl_\w+ of cli-site \(production\)/);
    expect(prod.stdout).toContain(`Production: http://cli-site.localhost:${env.edge.port}\n`);
    expect((await edgeFetch(env.edge, `cli-site.localhost:${env.edge.port}`, '/')).text).toContain('Hello again');
  });

  it('draws a progress indicator on a terminal and clears it before each log line', async () => {
    writeFileSync(join(site, 'about.html'), '<h1>About, changed</h1>');
    const res = await cli.run(['deploy', site], { tty: true });
    expect(res.code).toBe(0);
    const ESC = '\x1b';
    const frame = new RegExp(`\\r${ESC}\\[K[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] (queued|building|deploying|ready) \\d+\\.\\d s`);
    expect(res.stderr).toMatch(frame);
    expect(res.stderr.endsWith('\r\x1b[K')).toBe(true);
    expect(res.stdout).not.toContain('\x1b');
  });
});

describe('a site its build script makes (npm run build, no server)', () => {
  /** A folder whose `npm run build` writes dist/, with its package.json and lock file beside the source page. */
  function builtSite(name: string): string {
    const folder = join(mkdtempSync(join(tmpdir(), 'platform-cli-built-')), name);
    mkdirSync(folder);
    writeFileSync(join(folder, 'index.html'), '<p>the source page</p>');
    // As `npm init -y` writes it: `main` names an index.js that is not there.
    writeFileSync(
      join(folder, 'package.json'),
      JSON.stringify({ name, version: '1.0.0', main: 'index.js', scripts: { build: 'node build.js' } }),
    );
    writeFileSync(
      join(folder, 'package-lock.json'),
      JSON.stringify({ name, version: '1.0.0', lockfileVersion: 3, requires: true, packages: { '': { name } } }),
    );
    writeFileSync(
      join(folder, 'build.js'),
      "require('fs').mkdirSync('dist'); require('fs').writeFileSync('dist/index.html', '<p>built</p>');",
    );
    return folder;
  }

  it('is a new static project: built, its output served, never package.json nor the linked .platform.json', async () => {
    const folder = builtSite('built-site');
    const here = new Cli(folder);
    expect((await here.run(['login', '--url', p.baseUrl, '--token', await p.apiKey()])).code).toBe(0);
    expect((await here.run(['link', '--org', p.org.slug])).code).toBe(0);
    const res = await here.run(['deploy']);
    expect(res.code).toBe(0);
    const out = res.stdout.split('\n');
    expect(out[0]).toMatch(/^Created project built-site \(prj_\w+\), framework static\.$/);
    // index.html, package.json, package-lock.json, build.js and the .gitignore link made: not .platform.json.
    expect(out[1]).toMatch(/^Packed 5 files /);
    expect(res.stdout).toContain('Running "npm run build"\n');
    const host = /^Deployment dpl_\w+ of built-site \(preview\): http:\/\/(\S+)$/.exec(out[2] as string)?.[1] as string;
    expect((await edgeFetch(env.edge, host, '/')).text).toBe('<p>built</p>');
    for (const path of ['/package.json', '/.platform.json', '/build.js']) {
      expect((await edgeFetch(env.edge, host, path)).status).toBe(404);
    }
  });

  it('--framework changes the framework of an existing project (a node project that has no server becomes static)', async () => {
    const created = await cli.run(['projects', 'create', 'legacy-site', '--framework', 'node']);
    expect(created.code).toBe(0);
    const folder = builtSite('legacy-site');
    const res = await cli.run(['deploy', folder, '--framework', 'static']);
    expect(res.stderr).not.toContain('Error');
    expect(res.code).toBe(0);
    expect(res.stdout.split('\n')[0]).toBe('Changed the framework of legacy-site from node to static.');
    const host = /Deployment dpl_\w+ of legacy-site \(preview\): http:\/\/(\S+)/.exec(res.stdout)?.[1] as string;
    expect((await edgeFetch(env.edge, host, '/')).text).toBe('<p>built</p>');
    const api = createClient({ baseUrl: p.baseUrl, token: p.owner.token });
    const { projects } = (await api.getProjects({ orgId: p.org.orgId })) as {
      projects: { slug: string; framework: string }[];
    };
    expect(projects.find((x) => x.slug === 'legacy-site')?.framework).toBe('static');
  });
});

describe('a failing build', () => {
  it('exits non-zero with the reason, after the log', async () => {
    const folder = join(mkdtempSync(join(tmpdir(), 'platform-cli-fail-')), 'broken-site');
    mkdirSync(folder);
    writeFileSync(join(folder, 'index.html'), '<p>never served</p>');
    const created = await cli.run(['projects', 'create', 'broken-site', '--framework', 'static']);
    expect(created.code).toBe(0);
    const api = createClient({ baseUrl: p.baseUrl, token: p.owner.token });
    const { projects } = (await api.getProjects({ orgId: p.org.orgId })) as {
      projects: { projectId: string; slug: string }[];
    };
    const projectId = projects.find((x) => x.slug === 'broken-site')?.projectId as string;
    await api.patchProjectsByProjectId({
      orgId: p.org.orgId,
      projectId,
      body: { buildCommand: 'echo building; exit 3' },
    });
    const res = await cli.run(['deploy', folder]);
    expect(res.code).toBe(1);
    expect(res.stdout).toContain('building\n');
    expect(res.stderr).toMatch(/Deployment dpl_\w+ error: .+\n$/);
    expect(res.stderr).not.toMatch(/\bat \S+ \(/);
  });

  it('deploys a folder outside git (no branch, no commit); a missing folder is refused', async () => {
    const folder = join(mkdtempSync(join(tmpdir(), 'platform-cli-nogit-')), 'plain-site');
    mkdirSync(folder);
    writeFileSync(join(folder, 'index.html'), '<p>plain</p>');
    const res = await cli.run(['deploy', folder]);
    expect(res.code).toBe(0);
    const id = /Deployment (dpl_\w+)/.exec(res.stdout)?.[1] as string;
    const api = createClient({ baseUrl: p.baseUrl, token: p.owner.token });
    const read = (await api.getDeploymentsByDeploymentId({ orgId: p.org.orgId, deploymentId: id })) as {
      deployment: Record<string, unknown>;
    };
    expect(read.deployment.branch).toBeUndefined();
    expect(read.deployment.commitSha).toBeUndefined();
    const missing = await cli.run(['deploy', join(folder, 'nope'), '--project', 'plain-site']);
    expect(missing).toMatchObject({ code: 1, stderr: `Error: ${join(folder, 'nope')} does not exist.\n` });
  });

  it('checks the folder before it creates a project: missing, a file, empty, every file ignored', async () => {
    const root = mkdtempSync(join(tmpdir(), 'platform-cli-folders-'));
    writeFileSync(join(root, 'file-site'), 'not a folder');
    mkdirSync(join(root, 'empty-site'));
    mkdirSync(join(root, 'ignored-site', 'node_modules'), { recursive: true });
    writeFileSync(join(root, 'ignored-site', '.env'), 'A=1');
    writeFileSync(join(root, 'ignored-site', 'node_modules', 'x.js'), '');
    const cases = {
      'missing-site': 'does not exist.',
      'file-site': 'is not a folder.',
      'empty-site': ': every file is ignored or it is empty.',
      'ignored-site': ': every file is ignored or it is empty.',
    };
    for (const [name, message] of Object.entries(cases)) {
      const res = await cli.run(['deploy', join(root, name)]);
      expect({ name, code: res.code, stdout: res.stdout }).toEqual({ name, code: 1, stdout: '' });
      expect(res.stderr).toMatch(/^Error: .+\n$/);
      expect(res.stderr).toContain(message);
    }
    const api = createClient({ baseUrl: p.baseUrl, token: p.owner.token });
    const { projects } = (await api.getProjects({ orgId: p.org.orgId })) as { projects: { slug: string }[] };
    expect(projects.map((x) => x.slug).filter((slug) => slug in cases)).toEqual([]);
  });

  it('an unknown --framework is a usage mistake for an existing project too: nothing is deployed', async () => {
    const api = createClient({ baseUrl: p.baseUrl, token: p.owner.token });
    const count = async () =>
      ((await api.getDeployments({ orgId: p.org.orgId, limit: 100 })) as { deployments: unknown[] }).deployments.length;
    const before = await count();
    const res = await cli.run(['deploy', site, '--project', 'cli-site', '--framework', 'rails']);
    expect(res.code).toBe(2);
    expect(res.stdout).toBe('');
    expect(res.stderr).toMatch(
      /^Error: Unknown framework rails: use nextjs, static, node\.\n\nUsage: platform deploy /,
    );
    expect(await count()).toBe(before);
  });

  it('logs and promote of an unknown deployment print the API message', async () => {
    expect(await cli.run(['logs', 'dpl_nope'])).toEqual({
      code: 1,
      stdout: '',
      stderr: 'Error: Deployment not found\n',
    });
    expect((await cli.run(['promote', 'dpl_nope'])).stderr).toBe('Error: Deployment not found\n');
  });
});
