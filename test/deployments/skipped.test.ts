import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { Cli } from '../cli/helpers';
import { makeTar } from '../fixtures/tar';
import type { TestPlatform } from '../helpers/platform';
import { type Deployments, deploy, edgeFetch, newProject, waitFinal, withDeployments } from './helpers';

/**
 * Deploying an unchanged folder is `skipped`: every upload has its own upload id (and key), so
 * "unchanged" is the archive's content, compared with the one the target's ready deployment was
 * built from, with the same variables. Through the API and through the command line.
 */
let p: TestPlatform;
let env: Deployments;

withDeployments((platform, deployments) => {
  p = platform;
  env = deployments;
});

const orgPath = () => `/v1/orgs/${p.org.orgId}`;
/** A one-page site, gzipped without compression: its size depends on its length only. */
const site = (text: string) =>
  gzipSync(gunzipSync(makeTar([{ path: 'index.html', content: `<h1>${text}</h1>` }])), { level: 0 });

async function deployed(projectId: string, archive: Buffer, target: 'preview' | 'production' = 'preview', extra = {}) {
  const d = await deploy(p, projectId, archive, target, extra);
  return { ...d, read: await waitFinal(p, d.deploymentId) };
}

describe('an unchanged archive, uploaded again, is skipped', () => {
  let projectId: string;
  let first: Awaited<ReturnType<typeof deployed>>;
  const archive = site('version one');

  beforeAll(async () => {
    ({ projectId } = await newProject(p, 'static'));
    first = await deployed(projectId, archive);
  });

  it('the same bytes under a new upload: skipped, pointing at the ready deployment, its host serving it', async () => {
    expect(first.read.deployment.status).toBe('ready');
    const again = await deployed(projectId, Buffer.from(archive));
    expect(again.read.deployment).toMatchObject({
      status: 'skipped',
      previousDeploymentId: first.deploymentId,
      reason: `Nothing changed since ${first.deploymentId}: same archive, same variables.`,
    });
    expect(again.read.deployment.sourceArchive).not.toBe(first.read.deployment.sourceArchive);
    expect((await edgeFetch(env.edge, again.host, '/')).text).toContain('version one');
  });

  it('another archive of the same size builds; uploaded again, it is skipped in turn', async () => {
    const changed = site('version two');
    expect(changed.length).toBe(archive.length);
    const built = await deployed(projectId, changed);
    expect(built.read.deployment.status).toBe('ready');
    expect((await edgeFetch(env.edge, built.host, '/')).text).toContain('version two');
    const again = await deployed(projectId, Buffer.from(changed));
    expect(again.read.deployment).toMatchObject({ status: 'skipped', previousDeploymentId: built.deploymentId });
  });

  it('changed variables build; force builds; another target builds', async () => {
    const latest = site('version three');
    const built = await deployed(projectId, latest);
    expect(built.read.deployment.status).toBe('ready');
    const put = await p.put(`${orgPath()}/projects/${projectId}/env/THEME`, { value: 'dark', targets: ['preview'] });
    expect(put.status).toBe(200);
    const withVars = await deployed(projectId, latest);
    expect(withVars.read.deployment.status).toBe('ready');
    const forced = await deployed(projectId, latest, 'preview', { force: true });
    expect(forced.read.deployment.status).toBe('ready');
    const production = await deployed(projectId, latest, 'production');
    expect(production.read.deployment.status).toBe('ready');
    // And now each target's own ready deployment is what an unchanged upload repeats.
    const skipped = await deployed(projectId, latest, 'production');
    expect(skipped.read.deployment).toMatchObject({
      status: 'skipped',
      previousDeploymentId: production.deploymentId,
    });
  });
});

describe('the command line: deploying an unchanged folder', () => {
  it('the second deploy of the same folder is skipped; meta says dirty and the machine', async () => {
    const root = mkdtempSync(join(tmpdir(), 'platform-skip-'));
    const folder = join(root, 'skip-site');
    cpSync(join(__dirname, '..', 'fixtures', 'static-site'), folder, { recursive: true });
    const git = (...args: string[]) =>
      spawnSync('git', ['-c', 'user.email=cli@example.com', '-c', 'user.name=CLI test', ...args], { cwd: folder });
    git('init', '-q', '-b', 'main');
    git('add', '.');
    git('commit', '-q', '-m', 'Site');
    writeFileSync(join(folder, 'about.html'), '<p>changed, not committed</p>');

    const cli = new Cli();
    expect((await cli.run(['login', '--url', p.baseUrl, '--token', await p.apiKey()])).code).toBe(0);
    const first = await cli.run(['deploy', folder]);
    expect(first.code).toBe(0);
    const firstId = /Deployment (dpl_\w+) of skip-site/.exec(first.stdout)?.[1] as string;
    const second = await cli.run(['deploy', folder]);
    expect(second.code).toBe(0);
    expect(second.stdout).toContain(`Nothing changed since ${firstId}: skipped.`);

    const secondId = /Deployment (dpl_\w+) of skip-site/.exec(second.stdout)?.[1] as string;
    const read = await p.get(`${orgPath()}/deployments/${secondId}`);
    expect(read.body.deployment).toMatchObject({
      status: 'skipped',
      previousDeploymentId: firstId,
      branch: 'main',
      meta: { branch: 'main', dirty: true, machine: hostname().slice(0, 64) },
    });
  });
});
