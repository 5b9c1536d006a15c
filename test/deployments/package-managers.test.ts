import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { localPaths } from '../../shared/kernel/tenancy/paths';
import { DEFAULT_VERSIONS } from '../../shared/ports/builds/package-managers';
import { tarOfDir } from '../fixtures/tar';
import type { TestPlatform } from '../helpers/platform';
import { type Deployments, deploy, edgeFetch, followBuildLog, newProject, waitFinal, withDeployments } from './helpers';

/**
 * Projects locked with yarn (1 and 4), pnpm or bun build on one machine: the package manager comes
 * from the npm registry at the version `packageManager` names, else the default for the lock file;
 * the build log names the manager and version actually used; the dependency cache follows the lock
 * file actually used. The fixtures' lock files were written by the managers themselves.
 */
let p: TestPlatform;
let env: Deployments;

withDeployments((platform, deployments) => {
  p = platform;
  env = deployments;
});

const cases = [
  {
    fixture: 'pm-pnpm',
    lock: 'pnpm-lock.yaml',
    manager: 'pnpm 10.34.8',
    from: 'packageManager in package.json',
    install: 'pnpm install --frozen-lockfile',
  },
  {
    fixture: 'pm-yarn',
    lock: 'yarn.lock',
    manager: `yarn ${DEFAULT_VERSIONS.yarn}`,
    from: 'the default',
    install: 'yarn install --frozen-lockfile',
  },
  {
    fixture: 'pm-yarn-berry',
    lock: 'yarn.lock',
    manager: 'yarn 4.18.1',
    from: 'packageManager in package.json',
    install: 'yarn install --immutable',
  },
  {
    fixture: 'pm-bun',
    lock: 'bun.lockb',
    manager: `bun ${DEFAULT_VERSIONS.bun}`,
    from: 'the default',
    install: 'bun install --frozen-lockfile',
  },
];

describe.each(cases)('$fixture', ({ fixture, lock, manager, from, install }) => {
  const archive = tarOfDir(join(__dirname, '..', 'fixtures', fixture));
  let projectId: string;

  it('builds with the manager its lock file names, at the version it should, and serves', async () => {
    ({ projectId } = await newProject(p, 'node'));
    const d = await deploy(p, projectId, archive);
    const read = await waitFinal(p, d.deploymentId, 180_000);
    const text = (await followBuildLog(p, d.deploymentId)).lines.map((l) => l.m).join('\n');
    if (read.deployment.status !== 'ready') console.log(text);
    expect({ status: read.deployment.status, error: read.deployment.error }).toEqual({
      status: 'ready',
      error: undefined,
    });
    expect(text).toContain(`Framework node, package manager ${manager} (${lock}).`);
    expect(text).toContain(`Using ${manager} (${from}) from the npm registry.`);
    expect(text).toContain(`Running "${install}"`);
    expect(text).toContain(`No cached dependencies for this ${lock}.`);
    const res = await edgeFetch(env.edge, d.host, '/');
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text)).toMatchObject({ isNumber: true });
  }, 240_000);

  it('restores its dependencies from the cache of that lock file on the next build', async () => {
    const d = await deploy(p, projectId, archive, 'preview', { force: true });
    expect((await waitFinal(p, d.deploymentId, 120_000)).deployment.buildMetrics).toMatchObject({
      depsCache: 'hit',
      installMs: 0,
    });
    const text = (await followBuildLog(p, d.deploymentId)).lines.map((l) => l.m).join('\n');
    expect(text).toContain(`Restored dependencies from the cache (${lock} unchanged)`);
    expect(readdirSync(localPaths.depsCache(projectId))).toHaveLength(1);
  }, 240_000);
});
