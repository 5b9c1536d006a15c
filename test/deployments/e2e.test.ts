import { join } from 'node:path';
import { tarOfDir } from '../fixtures/tar';
import type { TestPlatform } from '../helpers/platform';
import {
  type Deployments,
  deploy,
  edgeFetch,
  followBuildLog,
  newProject,
  upload,
  waitFinal,
  withDeployments,
} from './helpers';

/**
 * The whole flow a person follows, for real: upload a folder through the presigned link, create
 * the deployment, follow its build log, open it at its host through the local edge, promote,
 * read the runtime logs of its server function; a second build of the same lock file restores
 * its dependencies from the cache.
 */
let p: TestPlatform;
let env: Deployments;
const staticArchive = tarOfDir(join(__dirname, '..', 'fixtures', 'static-site'));
const nodeArchive = tarOfDir(join(__dirname, '..', 'fixtures', 'node-server'));

withDeployments((platform, deployments) => {
  p = platform;
  env = deployments;
});

const orgPath = () => `/v1/orgs/${p.org.orgId}`;

describe('a static site', () => {
  let projectId: string;
  let slug: string;
  let first: { deploymentId: string; host: string; target: string };

  beforeAll(async () => {
    ({ projectId, slug } = await newProject(p, 'static'));
    first = await deploy(p, projectId, staticArchive, 'preview');
  });

  it('answers 201 at once with the deployment, its host and target', () => {
    expect(first.deploymentId).toMatch(/^dpl_/);
    expect(first.target).toBe('preview');
    expect(first.host).toMatch(new RegExp(`^${slug}-[0-9a-z]{12}\\.localhost:${env.edge.port}$`));
  });

  it('builds to ready, with the build log followed to done', async () => {
    const log = await followBuildLog(p, first.deploymentId);
    expect(log.last).toMatchObject({ status: 'ready', error: null, done: true, cursor: null });
    const text = log.lines.map((l) => l.m).join('\n');
    expect(text).toContain('Downloading the source archive.');
    expect(text).toMatch(/Unpacked 5 files and folders/);
    expect(text).toContain('Going live.');
    for (const line of log.lines) expect(typeof line.t).toBe('number');

    const read = await waitFinal(p, first.deploymentId);
    expect(read.deployment).toMatchObject({
      deploymentId: first.deploymentId,
      orgId: p.org.orgId,
      projectId,
      target: 'preview',
      status: 'ready',
      source: 'upload',
      host: first.host,
      buildId: expect.any(String),
    });
    expect(read.deployment.readyAt).toBeGreaterThanOrEqual(read.deployment.createdAt);
    expect(read.deployment.buildDurationMs).toBeGreaterThanOrEqual(0);
    expect(read.deployment.envHash).toMatch(/^[0-9a-f]{64}$/);
    // No build for a static site without a build command: nothing installed, nothing cached.
    expect(read.deployment.buildMetrics).toMatchObject({ depsCache: 'off', uploadMs: expect.any(Number) });
    expect(read.deployment.buildMetrics.installMs).toBeUndefined();
    expect(read.project).toMatchObject({ projectId, slug, framework: 'static', location: expect.any(String) });
    expect(read.function).toBeNull();
    expect(read.domains).toEqual([]);
    expect(read.productionHost).toBeUndefined();
  });

  it('is served at its host by the edge: files, folders, clean URLs, its 404 page', async () => {
    const index = await edgeFetch(env.edge, first.host, '/');
    expect(index.status).toBe(200);
    expect(index.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(index.text).toContain('Hello from the static fixture');
    const css = await edgeFetch(env.edge, first.host, '/assets/style.css');
    expect(css.status).toBe(200);
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    expect((await edgeFetch(env.edge, first.host, '/about')).text).toContain('About the static fixture');
    const missing = await edgeFetch(env.edge, first.host, '/nope');
    expect(missing.status).toBe(404);
    expect(missing.text).toContain('Fixture 404 page');
    // Nothing outside the output folder, however the path is spelled.
    expect((await edgeFetch(env.edge, first.host, '/../../build.log')).text).not.toContain('"m"');
    expect((await edgeFetch(env.edge, first.host, '/%2e%2e/build.log')).text).not.toContain('"m"');
  });

  it('answers 404 for an unknown host', async () => {
    const res = await edgeFetch(env.edge, `nothing-here.localhost:${env.edge.port}`);
    expect(res.status).toBe(404);
  });

  it('has no runtime logs: no server function', async () => {
    const logs = await p.get(`${orgPath()}/deployments/${first.deploymentId}/runtime-logs`);
    expect(logs.status).toBe(200);
    expect(logs.body).toEqual({ available: false, lines: [] });
    const tail = await p.get(`${orgPath()}/deployments/${first.deploymentId}/runtime-logs/tail`);
    expect(tail.status).toBe(200);
    expect(tail.body).toMatchObject({ available: false, lines: [], more: false, next: expect.any(Number) });
  });

  it('promotes to production without a rebuild; the production host serves it', async () => {
    const res = await p.post(`${orgPath()}/deployments/${first.deploymentId}/promote`);
    expect(res.status).toBe(200);
    expect(res.body.productionHost).toBe(`${slug}.localhost:${env.edge.port}`);
    expect(res.body.deployment).toMatchObject({ deploymentId: first.deploymentId, status: 'ready' });
    const prod = await edgeFetch(env.edge, res.body.productionHost, '/');
    expect(prod.status).toBe(200);
    expect(prod.text).toContain('Hello from the static fixture');
    const read = await p.get(`${orgPath()}/deployments/${first.deploymentId}`);
    expect(read.body.project.productionDeploymentId).toBe(first.deploymentId);
    expect(read.body.productionHost).toBe(res.body.productionHost);
    const again = await p.post(`${orgPath()}/deployments/${first.deploymentId}/promote`);
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ error: 'This is already the production deployment.' });
  });

  it('a production deployment goes live on the production host by itself', async () => {
    const second = await deploy(p, projectId, staticArchive, 'production');
    expect((await waitFinal(p, second.deploymentId)).deployment.status).toBe('ready');
    const read = await p.get(`${orgPath()}/deployments/${second.deploymentId}`);
    expect(read.body.project.productionDeploymentId).toBe(second.deploymentId);
    // Promote the first one back: production switches without a build.
    const back = await p.post(`${orgPath()}/deployments/${first.deploymentId}/promote`);
    expect(back.status).toBe(200);
    const list = await p.get(`${orgPath()}/deployments?projectId=${projectId}`);
    expect(list.body.deployments).toHaveLength(2);
  });

  it('deploying the same archive again with the same variables is skipped; force builds it', async () => {
    const uploadId = await upload(p, projectId, staticArchive);
    const create = (force: boolean) =>
      p.post(`${orgPath()}/projects/${projectId}/deployments`, {
        source: 'upload',
        uploadId,
        target: 'preview',
        force,
      });
    // Earlier tests deployed this content already (archives are compared by content): force.
    const firstOfArchive = await create(true);
    expect(firstOfArchive.status).toBe(201);
    expect((await waitFinal(p, firstOfArchive.body.deployment.deploymentId)).deployment.status).toBe('ready');

    const same = await create(false);
    expect(same.status).toBe(201);
    expect(same.body.existing).toBe(false);
    const skipped = await waitFinal(p, same.body.deployment.deploymentId);
    expect(skipped.deployment).toMatchObject({
      status: 'skipped',
      previousDeploymentId: firstOfArchive.body.deployment.deploymentId,
      reason: expect.stringContaining('Nothing changed'),
    });
    // Its host answers with the deployment it points at.
    expect((await edgeFetch(env.edge, same.body.deployment.host, '/')).text).toContain('static fixture');

    const forced = await create(true);
    expect(forced.status).toBe(201);
    expect((await waitFinal(p, forced.body.deployment.deploymentId)).deployment.status).toBe('ready');
  });
});

describe('a node server', () => {
  let projectId: string;
  let first: { deploymentId: string; host: string; target: string };

  beforeAll(async () => {
    ({ projectId } = await newProject(p, 'node'));
    await p.post(`${orgPath()}/projects/${projectId}/env`, {
      vars: [{ key: 'GREETING_NAME', value: 'edge' }],
      targets: ['preview', 'production'],
      sensitive: true,
    });
    first = await deploy(p, projectId, nodeArchive, 'preview');
  });

  it('installs with npm from its lock file and goes ready with a server function', async () => {
    const read = await waitFinal(p, first.deploymentId);
    expect(read.deployment.status).toBe('ready');
    expect(read.deployment.buildMetrics).toMatchObject({
      packageManager: 'npm',
      depsCache: 'miss',
      installDir: '.',
      installMs: expect.any(Number),
      saveMs: expect.any(Number),
    });
    expect(read.function).toEqual({
      region: expect.any(String),
      name: expect.stringContaining(first.deploymentId),
      memoryMb: 1024,
      timeoutSeconds: 30,
      architecture: 'arm64',
      runtime: 'nodejs22.x',
    });
    const logs = await p.get(`${orgPath()}/deployments/${first.deploymentId}/logs`);
    expect(logs.status).toBe(200);
    const text = logs.body.lines.map((l: { m: string }) => l.m).join('\n');
    expect(text).toContain('Running "npm ci --no-audit --no-fund"');
    expect(text).toContain('No cached dependencies for this package-lock.json.');
  });

  it('is proxied by the edge to its server function, with its variables and a request id', async () => {
    const res = await edgeFetch(env.edge, first.host, '/hello');
    expect(res.status).toBe(200);
    const body = JSON.parse(res.text);
    expect(body).toEqual({ message: 'Hello, edge!', path: '/hello', target: 'preview', requestId: expect.any(String) });
    expect(res.headers['x-request-id']).toBe(body.requestId);
    expect((await edgeFetch(env.edge, first.host, '/fail')).status).toBe(500);
    expect((await edgeFetch(env.edge, first.host, '/warn')).status).toBe(200);
  });

  it('keeps its stdout and stderr as runtime logs with levels and request ids, newest first', async () => {
    const res = await p.get(`${orgPath()}/deployments/${first.deploymentId}/runtime-logs`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      available: true,
      limited: false,
      from: expect.any(Number),
      to: expect.any(Number),
    });
    const lines = res.body.lines as { t: number; level: string; message: string; requestId?: string }[];
    const ts = lines.map((l) => l.t);
    expect([...ts].sort((a, b) => b - a)).toEqual(ts);
    const error = lines.find((l) => l.message === 'fixture error: asked to fail');
    expect(error).toMatchObject({ level: 'error', requestId: expect.any(String) });
    expect(lines.find((l) => l.message.includes('fixture warning'))).toMatchObject({ level: 'warn' });
    expect(lines.find((l) => l.message === 'handling GET /hello')).toMatchObject({ level: 'info' });
    expect(lines.find((l) => l.message.startsWith('GET /hello 200'))).toMatchObject({ level: 'platform' });
    expect(lines.some((l) => l.level === 'platform' && l.message.startsWith('Cold start'))).toBe(true);

    const filtered = await p.get(`${orgPath()}/deployments/${first.deploymentId}/runtime-logs?q=FIXTURE%20ERROR`);
    expect(filtered.body.lines.map((l: { message: string }) => l.message)).toEqual(['fixture error: asked to fail']);
  });

  it('tails runtime logs oldest first with ids, from `since`', async () => {
    const since = Date.now() - 60_000;
    const tail = await p.get(`${orgPath()}/deployments/${first.deploymentId}/runtime-logs/tail?since=${since}`);
    expect(tail.status).toBe(200);
    expect(tail.body).toMatchObject({ available: true, more: false, next: expect.any(Number) });
    const lines = tail.body.lines as { t: number; id: string }[];
    expect(lines.length).toBeGreaterThan(3);
    expect(new Set(lines.map((l) => l.id)).size).toBe(lines.length);
    const ts = lines.map((l) => l.t);
    expect([...ts].sort((a, b) => a - b)).toEqual(ts);
    // Reading on from `next` gives only what came later.
    await edgeFetch(env.edge, first.host, '/later');
    const more = await p.get(
      `${orgPath()}/deployments/${first.deploymentId}/runtime-logs/tail?since=${tail.body.next}`,
    );
    const seen = new Set(lines.map((l) => l.id));
    const fresh = (more.body.lines as { id: string; message: string }[]).filter((l) => !seen.has(l.id));
    expect(fresh.map((l) => l.message)).toContain('handling GET /later');
    const filtered = await p.get(
      `${orgPath()}/deployments/${first.deploymentId}/runtime-logs/tail?since=${since}&q=later`,
    );
    expect(filtered.body.lines.every((l: { message: string }) => l.message.toLowerCase().includes('later'))).toBe(true);
  });

  it('a second build of the same lock file restores dependencies from the cache, measurably faster', async () => {
    const second = await deploy(p, projectId, nodeArchive, 'production');
    const read = await waitFinal(p, second.deploymentId);
    expect(read.deployment.status).toBe('ready');
    const firstMetrics = (await p.get(`${orgPath()}/deployments/${first.deploymentId}`)).body.deployment.buildMetrics;
    const m = read.deployment.buildMetrics;
    expect(m).toMatchObject({ depsCache: 'hit', installMs: 0, restoreMs: expect.any(Number) });
    expect(m.restoreMs + m.installMs).toBeLessThan(firstMetrics.installMs);
    // Production now: the project's production host serves it.
    const res = await edgeFetch(
      env.edge,
      read.project.slug ? `${read.project.slug}.localhost:${env.edge.port}` : '',
      '/',
    );
    expect(JSON.parse(res.text)).toMatchObject({ message: 'Hello, edge!', target: 'production' });
  });

  it('redeploys the same archive as a new deployment of the same target', async () => {
    const res = await p.post(`${orgPath()}/deployments/${first.deploymentId}/redeploy`);
    expect(res.status).toBe(201);
    expect(res.body.deployment).toEqual({
      deploymentId: expect.any(String),
      host: expect.any(String),
      target: 'preview',
    });
    const read = await waitFinal(p, res.body.deployment.deploymentId);
    expect(read.deployment).toMatchObject({
      status: 'ready',
      previousDeploymentId: first.deploymentId,
      reason: `Redeploy of ${first.deploymentId}.`,
    });
    expect(JSON.parse((await edgeFetch(env.edge, res.body.deployment.host, '/')).text).message).toBe('Hello, edge!');
  });
});
