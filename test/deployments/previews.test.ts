import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { handler as gitPushes } from '../../functions/workers/git-pushes';
import { buildsIdle } from '../../shared/ports/builds/local';
import { refChange } from '../../shared/ports/git/events';
import { Cli } from '../cli/helpers';
import type { TestPlatform } from '../helpers/platform';
import { type Receiver, startReceiver } from '../helpers/receiver';
import { gitCli } from '../repos/git-cli';
import { type Deployments, edgeFetch, waitFinal, withDeployments } from './helpers';

/**
 * Pull request previews on the local platform with the real git CLI: a pull request's head is
 * built as a preview served at one host per pull request (`<slug>-pr-<n>`), a new push updates
 * what that host serves, a push that changes nothing the project builds (outside its root
 * directory, or only ignored paths) is a skipped deployment that says why, closing or merging
 * retires the host (404 as unknown hosts answer), merging into the production branch deploys
 * production (and the pull request shows it), and a project with previews off builds none.
 * The author is told of a ready or failed preview in-app and webhooks get the events; a new head
 * or closing the pull request cancels a build still running.
 */
let p: TestPlatform;
let env: Deployments;
let home: string;
let receiver: Receiver;
/** The body of each webhook delivery of the preview events. */
const hooked = () => receiver.callsTo('/previews').map((c) => JSON.parse(c.body));
let n = 0;
const unique = (base: string) => `${base}-${Date.now().toString(36)}-${(n++).toString(36)}`;

withDeployments(
  (platform, deployments) => {
    p = platform;
    env = deployments;
    home = mkdtempSync(join(process.env.TEST_DATA_DIR as string, 'previews-home-'));
  },
  { queueWorkers: ['notify', 'webhooks'] },
);

beforeAll(async () => {
  receiver = await startReceiver();
  const hook = await p.post(`/v1/orgs/${p.org.orgId}/webhooks`, {
    url: `https://localhost:${receiver.port}/previews`,
    events: ['pull_request.preview_ready', 'pull_request.preview_failed'],
  });
  expect(hook.status).toBe(201);
});
afterAll(() => receiver?.close());

const git = gitCli(() => home).ok;
const org = () => `/v1/orgs/${p.org.orgId}`;

interface Site {
  name: string;
  repoId: string;
  projectId: string;
  slug: string;
  dir: string;
}

/** A repository linked to a new project (settings PATCHed), cloned, with `files` pushed to main. */
async function linkedSite(
  framework: 'static' | 'node',
  files: (dir: string) => void,
  settings: Record<string, unknown> = {},
): Promise<Site> {
  const name = unique('pv');
  const repo = await p.post(`${org()}/repos`, { name });
  expect(repo.status).toBe(201);
  const slug = unique('pv');
  const project = await p.post(`${org()}/projects`, {
    name: slug,
    slug,
    framework,
    repoId: repo.body.repo.resourceId,
  });
  expect(project.status).toBe(201);
  const projectId = project.body.project.projectId as string;
  if (Object.keys(settings).length > 0) {
    const patched = await p.patch(`${org()}/projects/${projectId}`, settings);
    expect(patched.status).toBe(200);
  }
  const key = await p.apiKey(['git:read', 'git:write']);
  const work = mkdtempSync(join(home, 'work-'));
  const cloneUrl = (repo.body.repo.cloneUrl as string).replace('://', `://git:${key}@`);
  await git(work, ['clone', '-q', cloneUrl, 'repo']);
  const dir = join(work, 'repo');
  files(dir);
  await commit(dir, 'main', 'First');
  return { name, repoId: repo.body.repo.resourceId, projectId, slug, dir };
}

/** Commits what changed on `branch` (made from main when new) and pushes it; answers the head. */
async function commit(dir: string, branch: string, message: string, change?: () => void): Promise<string> {
  const current = (await git(dir, ['branch', '--show-current'])).trim();
  if (current !== branch) {
    const exists = (await git(dir, ['branch', '--list', branch])).trim() !== '';
    await git(dir, exists ? ['checkout', '-q', branch] : ['checkout', '-q', '-b', branch]);
  }
  change?.();
  await git(dir, ['add', '-A']);
  await git(dir, ['commit', '-q', '--allow-empty', '-m', message]);
  await git(dir, ['push', '-q', 'origin', branch]);
  return (await git(dir, ['rev-parse', 'HEAD'])).trim();
}

async function deploymentsOf(projectId: string) {
  const res = await p.get(`${org()}/deployments?projectId=${projectId}`);
  expect(res.status).toBe(200);
  return res.body.deployments as {
    deploymentId: string;
    commitSha?: string;
    target: string;
    status: string;
    reason?: string;
    previousDeploymentId?: string;
    pullRequest?: { repoId: string; number: number };
    previewHost?: string;
  }[];
}

/** Polls until `found` answers something (bounded). */
async function until<T>(what: string, found: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (let delay = 20; ; delay = Math.min(200, delay * 2)) {
    const value = await found();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`still waiting for ${what}`);
    await new Promise((r) => setTimeout(r, delay));
  }
}

const pullOf = async (site: Site, number: number) => {
  const res = await p.get(`${org()}/repos/${site.name}/pulls/${number}`);
  expect(res.status).toBe(200);
  return res.body.pull;
};

/** The pull request's preview once its build of `head` ended (ready or failed). */
async function previewOf(site: Site, number: number, head: string) {
  return until(`the preview of ${head}`, async () => {
    const preview = (await pullOf(site, number)).preview;
    return preview?.commit === head && ['ready', 'error'].includes(preview.state) ? preview : undefined;
  });
}

const hostOf = (url: string) => new URL(url).host;

async function openPull(site: Site, source: string, target = 'main'): Promise<number> {
  const res = await p.post(`${org()}/repos/${site.name}/pulls`, { title: `Preview ${source}`, source, target });
  expect(res.status).toBe(201);
  return res.body.pull.number;
}

const page = (dir: string, text: string) => () => writeFileSync(join(dir, 'index.html'), `<h1>${text}</h1>`);

describe('a static site: open, push, skip, merge', () => {
  let site: Site;
  let number: number;
  let url: string;

  beforeAll(async () => {
    site = await linkedSite(
      'static',
      (dir) => {
        cpSync(join(__dirname, '..', 'fixtures', 'static-site'), dir, { recursive: true });
        page(dir, 'production')();
      },
      { previews: { ignore: ['docs/**'] } },
    );
  });

  it('opening a pull request builds its head at the pull request host, and tells the author', async () => {
    const head = await commit(site.dir, 'feature', 'First change', page(site.dir, 'first'));
    number = await openPull(site, 'feature');
    const preview = await previewOf(site, number, head);
    expect(preview).toMatchObject({ state: 'ready', projectId: site.projectId, skipped: false });
    url = preview.url;
    expect(hostOf(url)).toBe(`${site.slug}-pr-${number}.localhost:${env.edge.port}`);
    const served = await edgeFetch(env.edge, hostOf(url), '/');
    expect(served.status).toBe(200);
    expect(served.text).toBe('<h1>first</h1>');
    const d = (await deploymentsOf(site.projectId)).find((x) => x.deploymentId === preview.deploymentId);
    expect(d).toMatchObject({
      target: 'preview',
      pullRequest: { repoId: site.repoId, number },
      previewHost: hostOf(url),
    });
    const notice = await until('the preview_ready notice', async () => {
      const res = await p.get('/v1/me/notifications');
      return (res.body.notices as { event: string; title: string; url?: string }[] | undefined)?.find(
        (x) => x.event === 'pull_request.preview_ready' && x.url === url,
      );
    });
    expect(notice.title).toBe(`The preview of pull request #${number} is ready`);
    const hook = await until('the preview_ready webhook', async () =>
      hooked().find((h) => h.type === 'pull_request.preview_ready' && h.data.attributes.commit === head),
    );
    expect(hook.data).toMatchObject({
      orgId: p.org.orgId,
      attributes: {
        projectId: site.projectId,
        deploymentId: preview.deploymentId,
        repoId: site.repoId,
        number: `${number}`,
      },
    });
    // The preview build is the pull request's `build` check on its head, linking its build log.
    const checks = await p.get(`/v1/orgs/${p.org.orgId}/repos/${site.name}/pulls/${number}/checks`);
    expect(checks.body.checks).toContainEqual(
      expect.objectContaining({
        name: 'build',
        commitId: head,
        state: 'success',
        summary: `Preview ready: ${url}`,
        detailsUrl: `/v1/orgs/${p.org.orgId}/deployments/${preview.deploymentId}/build-log`,
        createdByKind: 'system',
      }),
    );
    const cli = new Cli();
    expect((await cli.run(['login', '--url', p.baseUrl, '--token', p.owner.token])).code).toBe(0);
    const view = await cli.run(['pr', 'view', String(number), '--repo', site.name]);
    expect(view.stdout).toContain(`\npreview: ${url} [ready]\n`);
  });

  it('a second push changes what the same URL serves', async () => {
    const head = await commit(site.dir, 'feature', 'Second change', page(site.dir, 'second'));
    const preview = await previewOf(site, number, head);
    expect(preview).toMatchObject({ url, state: 'ready' });
    expect((await edgeFetch(env.edge, hostOf(url), '/')).text).toBe('<h1>second</h1>');
  });

  it('a push touching only ignored paths is skipped, says why, and the preview keeps serving', async () => {
    const before = (await pullOf(site, number)).preview.deploymentId;
    const head = await commit(site.dir, 'feature', 'Docs', () => {
      mkdirSync(join(site.dir, 'docs'), { recursive: true });
      writeFileSync(join(site.dir, 'docs', 'notes.md'), 'notes');
    });
    const preview = await previewOf(site, number, head);
    expect(preview).toMatchObject({ url, state: 'ready', skipped: true });
    const skipped = (await deploymentsOf(site.projectId)).find((d) => d.deploymentId === preview.deploymentId);
    expect(skipped).toMatchObject({ status: 'skipped', previousDeploymentId: before });
    expect(skipped?.reason).toMatch(
      /^No changes in the repository outside the ignored paths since [0-9a-f]{12}: nothing to build\.$/,
    );
    expect((await edgeFetch(env.edge, hostOf(url), '/')).text).toBe('<h1>second</h1>');
  });

  it('merging retires the preview host and deploys production, which the pull request shows', async () => {
    const merged = await p.post(`${org()}/repos/${site.name}/pulls/${number}/merge`, { strategy: 'three-way' });
    expect(merged.status).toBe(200);
    const mergeCommitId = merged.body.mergeCommitId as string;
    expect((await edgeFetch(env.edge, hostOf(url), '/')).status).toBe(404);
    const shown = await until(
      'the merged deployment',
      async () => (await pullOf(site, number)).deployment ?? undefined,
    );
    expect((await pullOf(site, number)).preview.state).toBe('retired');
    const done = await waitFinal(p, shown.deploymentId, 60_000);
    expect(done.deployment).toMatchObject({ status: 'ready', target: 'production', commitSha: mergeCommitId });
    const live = await edgeFetch(env.edge, `${site.slug}.localhost:${env.edge.port}`, '/');
    expect(live.text).toBe('<h1>second</h1>');
    // The preview deployments stay listed.
    const previews = (await deploymentsOf(site.projectId)).filter((d) => d.pullRequest?.number === number);
    expect(previews.length).toBeGreaterThanOrEqual(3);
  });
});

describe('a Node app in a root directory: skip outside it, close', () => {
  const server = (text: string) =>
    `require('node:http').createServer((q, s) => s.end(${JSON.stringify(text)})).listen(Number(process.env.PORT), process.env.HOSTNAME || '127.0.0.1');\n`;
  const app = (dir: string, text: string) => () => {
    mkdirSync(join(dir, 'app'), { recursive: true });
    writeFileSync(
      join(dir, 'app', 'package.json'),
      JSON.stringify({ name: 'app', version: '1.0.0', main: 'server.js' }),
    );
    writeFileSync(join(dir, 'app', 'server.js'), server(text));
  };
  let site: Site;

  beforeAll(async () => {
    site = await linkedSite('node', (dir) => app(dir, 'production')(), { rootDirectory: 'app' });
  });

  it('builds the branch, skips a push outside app/, and closing answers 404 at the host', async () => {
    const head = await commit(site.dir, 'api', 'API change', app(site.dir, 'from the branch'));
    const number = await openPull(site, 'api');
    const preview = await previewOf(site, number, head);
    expect(preview.state).toBe('ready');
    expect((await edgeFetch(env.edge, hostOf(preview.url), '/')).text).toBe('from the branch');

    const outside = await commit(site.dir, 'api', 'Readme', () => writeFileSync(join(site.dir, 'README.md'), 'hi'));
    const skipped = await previewOf(site, number, outside);
    expect(skipped).toMatchObject({ url: preview.url, skipped: true });
    const record = (await deploymentsOf(site.projectId)).find((d) => d.deploymentId === skipped.deploymentId);
    expect(record?.reason).toMatch(/^No changes in app\/ since [0-9a-f]{12}: nothing to build\.$/);
    expect((await edgeFetch(env.edge, hostOf(preview.url), '/')).text).toBe('from the branch');

    const closed = await p.post(`${org()}/repos/${site.name}/pulls/${number}/close`, {});
    expect(closed.status).toBe(200);
    expect((await edgeFetch(env.edge, hostOf(preview.url), '/')).status).toBe(404);
    expect((await pullOf(site, number)).preview.state).toBe('retired');
  });

  it('a failing build fails the build check, which blocks the merge when required; a fixed push unblocks it', async () => {
    const repo = `${org()}/repos/${site.name}`;
    expect((await p.put(`${repo}/protection`, { requiredChecks: ['build'] })).status).toBe(200);
    const manifest = (scripts?: Record<string, string>) =>
      writeFileSync(
        join(site.dir, 'app', 'package.json'),
        JSON.stringify({ name: 'app', version: '1.0.0', main: 'server.js', ...(scripts ? { scripts } : {}) }),
      );
    const broken = await commit(site.dir, 'broken', 'Breaks the build', () => {
      app(site.dir, 'fixed')();
      manifest({ build: 'exit 3' });
    });
    const number = await openPull(site, 'broken');
    expect((await previewOf(site, number, broken)).state).toBe('error');
    const checks = await p.get(`${repo}/pulls/${number}/checks`);
    const build = (checks.body.checks as { name: string; state: string; detailsUrl: string }[]).find(
      (c) => c.name === 'build',
    );
    expect(build).toMatchObject({ state: 'failure', detailsUrl: expect.stringMatching(/\/build-log$/) });
    // The author is told in-app, with the reason and the build log; webhooks get the event.
    const failed = (await pullOf(site, number)).preview.deploymentId;
    const logUrl = `/v1/orgs/${p.org.orgId}/deployments/${failed}/build-log`;
    const notice = await until('the preview_failed notice', async () => {
      const res = await p.get('/v1/me/notifications');
      return (res.body.notices as { event: string; title: string; url?: string; body?: string }[] | undefined)?.find(
        (x) => x.event === 'pull_request.preview_failed' && x.url === logUrl,
      );
    });
    expect(notice.title).toBe(`The preview of pull request #${number} failed`);
    expect(notice.body).toMatch(/exit code 3/);
    expect(notice.body).toContain(`Build log: ${logUrl}`);
    const hook = await until('the preview_failed webhook', async () =>
      hooked().find((h) => h.type === 'pull_request.preview_failed' && h.data.attributes.commit === broken),
    );
    expect(hook.data).toMatchObject({
      orgId: p.org.orgId,
      attributes: { projectId: site.projectId, deploymentId: failed, repoId: site.repoId, number: `${number}` },
    });
    expect(hooked().some((h) => h.type === 'pull_request.preview_ready' && h.data.attributes.commit === broken)).toBe(
      false,
    );
    const refused = await p.post(`${repo}/pulls/${number}/merge`, { strategy: 'squash' });
    expect(refused).toMatchObject({
      status: 409,
      body: { error: 'Required check "build" is failure; it must succeed to merge.' },
    });

    const fixed = await commit(site.dir, 'broken', 'Fixes the build', () => manifest());
    expect((await previewOf(site, number, fixed)).state).toBe('ready');
    expect((await p.post(`${repo}/pulls/${number}/merge`, { strategy: 'squash' })).status).toBe(200);
  });
});

describe('a build still running is cancelled by a new head and by closing', () => {
  it("the older head's build stops (check cancelled), then closing stops the newer one", async () => {
    // Preview builds wait on a gate this test opens only for the branch's own first build.
    const waiting: ServerResponse[] = [];
    let open = true;
    const gate = createServer((_req, res) => {
      if (open) res.end('go');
      else waiting.push(res);
    });
    await new Promise<void>((r) => gate.listen(0, '127.0.0.1', () => r()));
    try {
      const site = await linkedSite(
        'static',
        (dir) => {
          page(dir, 'production')();
          writeFileSync(
            join(dir, 'gate.js'),
            'if (process.env.GATE_URL) fetch(process.env.GATE_URL).then((r) => r.text());\n',
          );
        },
        { buildCommand: 'node gate.js' },
      );
      const gateUrl = `http://127.0.0.1:${(gate.address() as AddressInfo).port}/`;
      const vars = await p.post(`${org()}/projects/${site.projectId}/env`, {
        vars: [{ key: 'GATE_URL', value: gateUrl }],
        targets: ['preview'],
        sensitive: false,
      });
      expect(vars.status).toBe(200);
      // The push of a branch with no pull request yet deploys the branch; it passes the open gate.
      const first = await commit(site.dir, 'slow', 'Slow one', page(site.dir, 'slow one'));
      await until('the branch deployment', async () =>
        (await deploymentsOf(site.projectId)).find(
          (d) => d.commitSha === first && !d.pullRequest && d.status === 'ready',
        ),
      );
      open = false;
      const number = await openPull(site, 'slow');
      const reached = async (count: number) =>
        until(`build ${count} at the gate`, async () => (waiting.length >= count ? true : undefined));
      await reached(1);
      const older = (await pullOf(site, number)).preview;
      expect(older).toMatchObject({ commit: first, state: 'building' });

      const second = await commit(site.dir, 'slow', 'Slow two', page(site.dir, 'slow two'));
      const superseded = await until('the older build canceled', async () =>
        (await deploymentsOf(site.projectId)).find(
          (d) => d.deploymentId === older.deploymentId && d.status === 'canceled',
        ),
      );
      const newer = (await pullOf(site, number)).preview;
      expect(newer.commit).toBe(second);
      expect(superseded.reason).toBe(`Superseded by ${newer.deploymentId}.`);
      const checkOf = async (sha: string) =>
        (
          (await p.get(`${org()}/repos/${site.name}/commits/${sha}/checks`)).body.checks as {
            name: string;
            state: string;
          }[]
        ).find((c) => c.name === 'build');
      expect(await checkOf(first)).toMatchObject({
        state: 'cancelled',
        detailsUrl: expect.stringMatching(/build-log$/),
      });
      // The older build's step was killed; the newer one runs and reaches the gate.
      await reached(2);
      await until('the newer check in progress', async () =>
        (await checkOf(second))?.state === 'in_progress' ? true : undefined,
      );

      const closed = await p.post(`${org()}/repos/${site.name}/pulls/${number}/close`, {});
      expect(closed.status).toBe(200);
      const stopped = (await deploymentsOf(site.projectId)).find((d) => d.deploymentId === newer.deploymentId);
      expect(stopped).toMatchObject({ status: 'canceled', reason: `Pull request #${number} was closed.` });
      expect(await checkOf(second)).toMatchObject({ state: 'cancelled' });
      expect((await pullOf(site, number)).preview).toMatchObject({
        state: 'retired',
        deploymentId: newer.deploymentId,
      });
      // Both builds are gone though the gate never answered them.
      await buildsIdle();
      expect(waiting.length).toBe(2);
      expect((await waitFinal(p, newer.deploymentId)).deployment.status).toBe('canceled');
    } finally {
      for (const res of waiting.splice(0)) res.end('go');
      gate.closeAllConnections();
      gate.close();
    }
  });
});

describe('previews off', () => {
  it('a pull request and pushes to its branch build no preview', async () => {
    const site = await linkedSite('static', (dir) => page(dir, 'production')(), {
      previews: { enabled: false },
    });
    const head = await commit(site.dir, 'off', 'Change', page(site.dir, 'off'));
    const number = await openPull(site, 'off');
    // The push's event, handled again here to its end (events come at least once).
    await gitPushes(refChange(site.repoId, 'refs/heads/off', null, head));
    expect((await pullOf(site, number)).preview).toBeNull();
    expect((await deploymentsOf(site.projectId)).filter((d) => d.target === 'preview')).toEqual([]);
  });
});

describe('preview settings', () => {
  let projectId: string;
  beforeAll(async () => {
    const slug = unique('pvs');
    const res = await p.post(`${org()}/projects`, { name: slug, slug, framework: 'static' });
    projectId = res.body.project.projectId;
  });

  it('are answered with the project; a change of one field keeps the other', async () => {
    let res = await p.patch(`${org()}/projects/${projectId}`, { previews: { ignore: ['docs/**', '**/*.md'] } });
    expect(res.status).toBe(200);
    expect(res.body.project.previews).toEqual({ enabled: true, ignore: ['docs/**', '**/*.md'] });
    res = await p.patch(`${org()}/projects/${projectId}`, { previews: { enabled: false } });
    expect(res.body.project.previews).toEqual({ enabled: false, ignore: ['docs/**', '**/*.md'] });
    expect((await p.get(`${org()}/projects/${projectId}`)).body.project.previews).toEqual({
      enabled: false,
      ignore: ['docs/**', '**/*.md'],
    });
  });

  it.each([
    [
      { ignore: Array.from({ length: 51 }, (_, i) => `d${i}/**`) },
      'previews.ignore',
      'Use at most 50 ignore patterns.',
    ],
    [
      { ignore: [''] },
      'previews.ignore.0',
      'Each ignore pattern is 1 to 256 characters on one line, relative to the repository root.',
    ],
    [
      { ignore: ['/abs/**'] },
      'previews.ignore.0',
      'Each ignore pattern is 1 to 256 characters on one line, relative to the repository root.',
    ],
    [
      { ignore: ['a\nb'] },
      'previews.ignore.0',
      'Each ignore pattern is 1 to 256 characters on one line, relative to the repository root.',
    ],
  ])('refuses %j with 400 naming %s', async (previews, path, message) => {
    const res = await p.patch(`${org()}/projects/${projectId}`, { previews });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('Invalid request');
    expect(res.body.issues).toEqual([{ path, message }]);
  });
});
