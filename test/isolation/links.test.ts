import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { localPaths } from '../../shared/kernel/tenancy/paths';
import { type Deployments, deploy, edgeFetch, newProject, waitFinal, withDeployments } from '../deployments/helpers';
import { makeTar } from '../fixtures/tar';
import type { TestPlatform } from '../helpers/platform';

/**
 * Symbolic links never serve what they point to: a build whose output has a link is refused at
 * publishing, and the edge never follows a link out of a deployment's output, however it got there.
 */
let p: TestPlatform;
let env: Deployments;
const site = makeTar([{ path: 'index.html', content: '<h1>home</h1>' }]);

withDeployments((platform, deployments) => {
  p = platform;
  env = deployments;
});

it('publishing refuses a build output with a symbolic link', async () => {
  const { projectId } = await newProject(p, 'static', {
    buildCommand: `mkdir -p out && cp index.html out/ && ln -s ${JSON.stringify(env.dataDir)} out/dd`,
    outputDirectory: 'out',
  });
  const d = await deploy(p, projectId, site);
  const read = await waitFinal(p, d.deploymentId);
  expect(read.deployment.status).toBe('error');
  expect(read.deployment.error).toBe(
    'The output directory has a symbolic link (out/dd): links are not published. Copy the file instead.',
  );
  expect((await edgeFetch(env.edge, d.host, '/dd/')).status).not.toBe(200);
});

it('the edge serves no file through a link that leaves the output, and files through one that stays', async () => {
  const { projectId } = await newProject(p, 'static');
  const d = await deploy(p, projectId, site);
  expect((await waitFinal(p, d.deploymentId)).deployment.status).toBe('ready');
  const secret = join(env.dataDir, 'secret.txt');
  writeFileSync(secret, 'platform secret');
  const root = localPaths.static(d.deploymentId);
  symlinkSync(secret, join(root, 'leak.txt'));
  symlinkSync(env.dataDir, join(root, 'data'));
  mkdirSync(join(root, 'docs'));
  symlinkSync(join(root, 'index.html'), join(root, 'docs', 'home.html'));

  for (const path of ['/leak.txt', '/data/secret.txt']) {
    const res = await edgeFetch(env.edge, d.host, path);
    expect({ path, status: res.status, leaked: res.text.includes('platform secret') }).toEqual({
      path,
      status: 404,
      leaked: false,
    });
  }
  const inside = await edgeFetch(env.edge, d.host, '/docs/home.html');
  expect(inside.status).toBe(200);
  expect(inside.text).toContain('<h1>home</h1>');
});
