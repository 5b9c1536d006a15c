import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { localPaths } from '../../shared/kernel/tenancy/paths';
import { makeTar, type TarEntry } from '../fixtures/tar';
import { TestPlatform } from '../helpers/platform';
import { deploy, edgeFetch, followBuildLog, newProject, startDeployments, waitFinal } from './helpers';

/**
 * What the local builds do with what they are given: hostile archives end in `error` with a
 * clear message and nothing written outside the build folder; failing, slow and misconfigured
 * builds say why; a newer deployment supersedes a queued one.
 */
let p: TestPlatform;
let env: Awaited<ReturnType<typeof startDeployments>>;

beforeAll(async () => {
  p = await TestPlatform.start();
  env = await startDeployments();
  // Small limits for this file: the hostile archives stay small too.
  process.env.BUILD_MAX_ENTRIES = '50';
  process.env.BUILD_MAX_UNPACKED_BYTES = String(2 * 1024 * 1024);
});
afterAll(async () => {
  await env?.close();
  await p?.close();
});

const orgPath = () => `/v1/orgs/${p.org.orgId}`;
const site = (extra: TarEntry[] = []): Buffer => makeTar([{ path: 'index.html', content: '<h1>site</h1>' }, ...extra]);

async function deployAndWait(projectId: string, archive: Buffer) {
  const d = await deploy(p, projectId, archive);
  const read = await waitFinal(p, d.deploymentId);
  return { ...d, read };
}

describe('hostile archives', () => {
  let projectId: string;
  beforeAll(async () => {
    ({ projectId } = await newProject(p, 'static'));
  });

  const outside = join(tmpdir(), `platform-escape-${randomBytes(6).toString('hex')}`);
  const cases: [string, () => Buffer, RegExp][] = [
    [
      'a ../ path',
      () => site([{ path: '../escape.txt', content: 'x' }]),
      /a path outside its folder \(\.\.\/escape\.txt\)/,
    ],
    ['an absolute path', () => site([{ path: outside, content: 'x' }]), /an absolute path/],
    [
      'a symbolic link, then a file through it',
      () =>
        site([
          { path: 'link', type: '2', linkpath: tmpdir() },
          { path: 'link/escape.txt', content: 'x' },
        ]),
      /contains a symbolic link \(link\)\. Only files and folders are allowed\./,
    ],
    ['a hard link', () => site([{ path: 'passwd', type: '1', linkpath: '/etc/passwd' }]), /contains a hard link/],
    ['a device file', () => site([{ path: 'dev', type: '3' }]), /contains a device file/],
    ['a named pipe', () => site([{ path: 'fifo', type: '6' }]), /contains a named pipe/],
    [
      'too many entries',
      () => makeTar(Array.from({ length: 60 }, (_, i) => ({ path: `f${i}.txt`, content: 'x' }))),
      /more than 50 files and folders/,
    ],
    [
      'too many bytes once unpacked',
      () => site([{ path: 'big.bin', content: randomBytes(3 * 1024 * 1024) }]),
      /unpacks to more than 2 MB/,
    ],
    [
      'a compression bomb',
      () => site([{ path: 'zeros.bin', content: Buffer.alloc(64 * 1024 * 1024) }]),
      /unpacks to more than 2 MB|expands more than 1000 times/,
    ],
    ['not a gzipped tar', () => Buffer.from('this is not an archive at all'), /isn't a valid gzipped tar file/],
  ];

  it.each(cases)('%s: the deployment ends in error, nothing is written outside', async (_name, archive, message) => {
    const d = await deployAndWait(projectId, archive());
    expect(d.read.deployment.status).toBe('error');
    expect(d.read.deployment.error).toMatch(message);
    const log = await followBuildLog(p, d.deploymentId);
    expect(log.last).toMatchObject({ done: true, status: 'error', error: d.read.deployment.error });
    expect(log.lines.map((l) => l.m)).toContain(`Error: ${d.read.deployment.error}`);
    // Nothing escaped: not next to the build folder, not at the absolute path, not through the link.
    const work = localPaths.work(d.deploymentId);
    expect(existsSync(join(work, '..', 'escape.txt'))).toBe(false);
    expect(existsSync(join(work, 'escape.txt'))).toBe(false);
    expect(existsSync(outside)).toBe(false);
    expect(existsSync(join(tmpdir(), 'escape.txt'))).toBe(false);
    // The unpacked source is gone, and nothing is served.
    expect(existsSync(work)).toBe(false);
    expect((await edgeFetch(env.edge, d.host, '/')).status).toBe(502);
  });

  it('a good archive still builds under the same limits', async () => {
    const d = await deployAndWait(
      projectId,
      site([
        { path: 'a/', type: '5' },
        { path: 'a/b.txt', content: 'b' },
      ]),
    );
    expect(d.read.deployment.status).toBe('ready');
    expect((await edgeFetch(env.edge, d.host, '/a/b.txt')).text).toBe('b');
  });
});

describe('build failures say why', () => {
  it('a failing build command: its output and exit code', async () => {
    const { projectId } = await newProject(p, 'static', {
      buildCommand: `node -e "console.log('compiling the site'); process.exit(3)"`,
    });
    const d = await deployAndWait(projectId, site());
    expect(d.read.deployment.status).toBe('error');
    expect(d.read.deployment.error).toMatch(/^The build step ".*" failed with exit code 3\.$/);
    const logs = await p.get(`${orgPath()}/deployments/${d.deploymentId}/logs`);
    expect(logs.body.lines.map((l: { m: string }) => l.m)).toContain('compiling the site');
    expect(d.read.deployment.buildMetrics.buildMs).toBeUndefined();
  });

  it('a build over its time limit is killed', async () => {
    const { projectId } = await newProject(p, 'static', { buildCommand: 'node -e "setInterval(() => {}, 1000)"' });
    process.env.BUILD_TIMEOUT_MS = '2000';
    try {
      const d = await deployAndWait(projectId, site());
      expect(d.read.deployment).toMatchObject({ status: 'error', error: 'The build exceeded its time limit of 2 s.' });
    } finally {
      delete process.env.BUILD_TIMEOUT_MS;
    }
  });

  it('a build command that writes the output directory', async () => {
    const { projectId } = await newProject(p, 'static', {
      buildCommand: `node -e "require('fs').mkdirSync('dist'); require('fs').writeFileSync('dist/index.html', 'built')"`,
      outputDirectory: 'dist',
    });
    const d = await deployAndWait(projectId, site());
    expect(d.read.deployment.status).toBe('ready');
    expect(d.read.deployment.buildMetrics.buildMs).toEqual(expect.any(Number));
    expect((await edgeFetch(env.edge, d.host, '/')).text).toBe('built');
  });

  it('a missing output directory', async () => {
    const { projectId } = await newProject(p, 'static', { outputDirectory: 'dist' });
    const d = await deployAndWait(projectId, site());
    expect(d.read.deployment.error).toBe('The output directory "dist" wasn\'t found after the build.');
  });

  it('the root directory: built from there, or an error when it is not in the archive', async () => {
    const { projectId } = await newProject(p, 'static', { rootDirectory: 'web' });
    const archive = makeTar([
      { path: 'web/', type: '5' },
      { path: 'web/index.html', content: 'from web' },
      { path: 'other.html', content: 'no' },
    ]);
    const d = await deployAndWait(projectId, archive);
    expect(d.read.deployment.status).toBe('ready');
    expect((await edgeFetch(env.edge, d.host, '/')).text).toBe('from web');
    expect((await edgeFetch(env.edge, d.host, '/other.html')).status).toBe(404);
    const missing = await deployAndWait(projectId, site());
    expect(missing.read.deployment.error).toBe('The root directory "web" isn\'t in the source.');
  });

  it('a node project without a server entry', async () => {
    const { projectId } = await newProject(p, 'node');
    const d = await deployAndWait(projectId, site());
    expect(d.read.deployment.error).toBe(
      'No server entry found: set "main" in package.json, or add server.js or index.js.',
    );
  });

  it('a server that exits at start: 502 at the edge, the reason in its runtime logs', async () => {
    const { projectId } = await newProject(p, 'node');
    const d = await deployAndWait(
      projectId,
      makeTar([{ path: 'server.js', content: "console.error('missing DATABASE_URL'); process.exit(1);" }]),
    );
    expect(d.read.deployment.status).toBe('ready');
    const res = await edgeFetch(env.edge, d.host, '/');
    expect(res.status).toBe(502);
    const logs = await p.get(`${orgPath()}/deployments/${d.deploymentId}/runtime-logs`);
    const messages = logs.body.lines.map((l: { level: string; message: string }) => `${l.level}: ${l.message}`);
    expect(messages).toContain('error: missing DATABASE_URL');
    expect(messages.some((m: string) => m.startsWith('platform: The server function exited'))).toBe(true);
  });
});

describe('static sites', () => {
  const lock = (name: string) =>
    JSON.stringify({
      name,
      version: '1.0.0',
      lockfileVersion: 3,
      requires: true,
      packages: { '': { name, version: '1.0.0' } },
    });

  it('a build script runs (npm run build) and what it wrote is served, never the source or its package.json', async () => {
    const { projectId } = await newProject(p, 'static');
    const archive = makeTar([
      { path: 'index.html', content: 'the source page' },
      {
        path: 'package.json',
        content: JSON.stringify({ name: 'built-site', version: '1.0.0', scripts: { build: 'node build.js' } }),
      },
      { path: 'package-lock.json', content: lock('built-site') },
      {
        path: 'build.js',
        content:
          "require('fs').mkdirSync('dist'); require('fs').writeFileSync('dist/index.html', 'built by the script');",
      },
    ]);
    const d = await deployAndWait(projectId, archive);
    expect(d.read.deployment.status).toBe('ready');
    const log = (await followBuildLog(p, d.deploymentId)).lines.map((l) => l.m);
    expect(log).toContain('Running "npm run build"');
    expect((await edgeFetch(env.edge, d.host, '/')).text).toBe('built by the script');
    for (const path of ['/package.json', '/package-lock.json', '/build.js']) {
      expect((await edgeFetch(env.edge, d.host, path)).status).toBe(404);
    }
  });

  it('without a build step the log says so, and the folder is served without its package.json', async () => {
    const { projectId } = await newProject(p, 'static');
    const archive = site([
      { path: 'package.json', content: JSON.stringify({ name: 'plain', devDependencies: { prettier: '3' } }) },
      { path: 'package-lock.json', content: lock('plain') },
    ]);
    const d = await deployAndWait(projectId, archive);
    expect(d.read.deployment.status).toBe('ready');
    const log = (await followBuildLog(p, d.deploymentId)).lines.map((l) => l.m);
    expect(log).toContain(
      'No build step (no build command, no "build" script in package.json): the folder is served as it is.',
    );
    expect(log.some((l) => l.startsWith('Running'))).toBe(false);
    expect((await edgeFetch(env.edge, d.host, '/')).text).toBe('<h1>site</h1>');
    expect((await edgeFetch(env.edge, d.host, '/package.json')).status).toBe(404);
    expect((await edgeFetch(env.edge, d.host, '/package-lock.json')).status).toBe(404);
  });

  it('a build that writes none of dist, build, out or public: the folder is served without package.json, and the log says so', async () => {
    const { projectId } = await newProject(p, 'static', { buildCommand: 'echo nothing written' });
    const d = await deployAndWait(projectId, site([{ path: 'package.json', content: '{"name":"x"}' }]));
    expect(d.read.deployment.status).toBe('ready');
    const log = (await followBuildLog(p, d.deploymentId)).lines.map((l) => l.m);
    expect(log).toContain(
      "The build wrote none of dist, build, out, public: the folder is served (without package.json, lock files, node_modules). Set the project's output directory to choose.",
    );
    expect((await edgeFetch(env.edge, d.host, '/')).text).toBe('<h1>site</h1>');
    expect((await edgeFetch(env.edge, d.host, '/package.json')).status).toBe(404);
  });

  it("the platform's own .platform.json in an upload, at any depth, is neither built nor served", async () => {
    const { projectId } = await newProject(p, 'static');
    const ids = JSON.stringify({ orgId: p.org.orgId, projectId });
    const d = await deployAndWait(
      projectId,
      site([
        { path: '.platform.json', content: ids },
        { path: 'docs/', type: '5' },
        { path: 'docs/.platform.json', content: ids },
        { path: 'docs/page.html', content: 'docs' },
      ]),
    );
    expect(d.read.deployment.status).toBe('ready');
    expect((await edgeFetch(env.edge, d.host, '/docs/page.html')).text).toBe('docs');
    for (const path of ['/.platform.json', '/docs/.platform.json']) {
      const res = await edgeFetch(env.edge, d.host, path);
      expect(res.status).toBe(404);
      expect(res.text).not.toContain(p.org.orgId);
    }
  });
});

describe('queued deployments are superseded', () => {
  it('a newer deployment of the same project, branch and target cancels a queued one', async () => {
    // The first build waits on a gate this test opens: the next ones queue behind it.
    const waiting: ServerResponse[] = [];
    let open = false;
    const gate = createServer((_req, res) => {
      if (open) res.end('go');
      else waiting.push(res);
    });
    await new Promise<void>((r) => gate.listen(0, '127.0.0.1', () => r()));
    const gateUrl = `http://127.0.0.1:${(gate.address() as AddressInfo).port}/`;
    try {
      const { projectId } = await newProject(p, 'static', { buildCommand: 'node gate.js' });
      await p.post(`${orgPath()}/projects/${projectId}/env`, {
        vars: [{ key: 'GATE_URL', value: gateUrl }],
        targets: ['preview', 'production'],
        sensitive: false,
      });
      const archive = site([{ path: 'gate.js', content: 'fetch(process.env.GATE_URL).then((r) => r.text());' }]);
      const first = await deploy(p, projectId, archive, 'preview', { branch: 'main' });
      // Bounded wait until the first build holds the project's build slot.
      for (let i = 0; waiting.length === 0; i++) {
        if (i > 400) throw new Error('the first build never reached the gate');
        await new Promise((r) => setTimeout(r, 25));
      }
      const queued = await deploy(p, projectId, archive, 'preview', { branch: 'main' });
      const otherBranch = await deploy(p, projectId, archive, 'preview', { branch: 'feature' });
      const otherTarget = await deploy(p, projectId, archive, 'production', { branch: 'main' });
      expect((await p.get(`${orgPath()}/deployments/${queued.deploymentId}`)).body.deployment.status).toBe('queued');
      const newer = await deploy(p, projectId, archive, 'preview', { branch: 'main' });

      const canceled = (await p.get(`${orgPath()}/deployments/${queued.deploymentId}`)).body.deployment;
      expect(canceled).toMatchObject({ status: 'canceled', reason: `Superseded by ${newer.deploymentId}.` });
      for (const d of [otherBranch, otherTarget, newer]) {
        expect((await p.get(`${orgPath()}/deployments/${d.deploymentId}`)).body.deployment.status).toBe('queued');
      }
      expect((await edgeFetch(env.edge, queued.host, '/')).status).toBe(410);
      expect((await edgeFetch(env.edge, first.host, '/')).status).toBe(503);

      open = true;
      for (const res of waiting.splice(0)) res.end('go');
      for (const d of [first, otherBranch, otherTarget, newer]) {
        expect((await waitFinal(p, d.deploymentId)).deployment.status).toBe('ready');
      }
      const log = await followBuildLog(p, queued.deploymentId);
      expect(log.last).toMatchObject({ done: true, status: 'canceled' });
      const listed = await p.get(`${orgPath()}/deployments?projectId=${projectId}&status=canceled`);
      expect(listed.body.deployments.map((d: { deploymentId: string }) => d.deploymentId)).toEqual([
        queued.deploymentId,
      ]);
    } finally {
      open = true;
      for (const res of waiting.splice(0)) res.end('go');
      gate.closeAllConnections();
      gate.close();
    }
  });
});
