import { makeTar, type TarEntry } from '../fixtures/tar';
import type { TestPlatform } from '../helpers/platform';
import { type Deployments, deploy, edgeFetch, followBuildLog, newProject, waitFinal, withDeployments } from './helpers';

/**
 * A site of 60,000 files (a documentation site, say) builds: the archive is downloaded to a file,
 * then unpacked, and every file is served. Over the entry limit, the build says so in its own words.
 */
let p: TestPlatform;
let env: Deployments;

withDeployments((platform, deployments) => {
  p = platform;
  env = deployments;
});
afterAll(() => {
  delete process.env.BUILD_MAX_ENTRIES;
});

/** `files` small pages in folders of 1,000, and an index. */
function site(files: number): Buffer {
  const entries: TarEntry[] = [{ path: 'index.html', content: '<h1>docs</h1>' }];
  for (let i = 0; i < files; i++) {
    if (i % 1000 === 0) entries.push({ path: `p${i / 1000}/`, type: '5' });
    entries.push({ path: `p${Math.floor(i / 1000)}/${i}.html`, content: `page ${i}` });
  }
  return makeTar(entries);
}

it('an archive of 60,000 files builds and is served', async () => {
  const { projectId } = await newProject(p, 'static');
  const d = await deploy(p, projectId, site(60_000));
  const read = await waitFinal(p, d.deploymentId, 240_000);
  expect(read.deployment.error).toBeUndefined();
  expect(read.deployment.status).toBe('ready');
  const log = await followBuildLog(p, d.deploymentId);
  expect(log.lines.map((l) => l.m).join('\n')).toMatch(/Unpacked 60061 files and folders/);
  const page = await edgeFetch(env.edge, d.host, '/p59/59999.html');
  expect(page.status).toBe(200);
  expect(page.text).toBe('page 59999');
}, 300_000);

it('over the entry limit, the build fails with the limit’s own message', async () => {
  process.env.BUILD_MAX_ENTRIES = '5000';
  const { projectId } = await newProject(p, 'static');
  const d = await deploy(p, projectId, site(6000));
  const read = await waitFinal(p, d.deploymentId, 60_000);
  expect(read.deployment).toMatchObject({
    status: 'error',
    error: 'The archive has more than 5000 files and folders.',
  });
}, 120_000);
