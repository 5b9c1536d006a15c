import { makeTar } from '../fixtures/tar';
import type { TestPlatform } from '../helpers/platform';
import { type Deployments, deploy, edgeFetch, followBuildLog, newProject, waitFinal, withDeployments } from './helpers';

/**
 * A project's linked database and bucket reach its deployments: `DATABASE_TABLE`,
 * `DATABASE_REGION`, `BUCKET_NAME` and `BUCKET_REGION` in the build's environment (its build
 * command prints them) and in the server function's (the app answers them), read when the
 * deployment is launched, so unlinking takes effect at the next deployment.
 */
let p: TestPlatform;
let env: Deployments;

withDeployments((platform, deployments) => {
  p = platform;
  env = deployments;
});

const orgPath = () => `/v1/orgs/${p.org.orgId}`;
const NAMES = ['DATABASE_TABLE', 'DATABASE_REGION', 'BUCKET_NAME', 'BUCKET_REGION'];
const print = `for (const n of ${JSON.stringify(NAMES)}) console.log(n + '=' + (process.env[n] ?? '(unset)'));`;
const app = makeTar([
  { path: 'print-env.js', content: print },
  {
    path: 'server.js',
    content: `
const names = ${JSON.stringify(NAMES)};
require('node:http')
  .createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(Object.fromEntries(names.map((n) => [n, process.env[n] ?? null]))));
  })
  .listen(process.env.PORT, '127.0.0.1');
`,
  },
]);

async function deployed(projectId: string) {
  const d = await deploy(p, projectId, app, 'preview');
  const read = await waitFinal(p, d.deploymentId);
  expect(read.deployment.status).toBe('ready');
  const log = (await followBuildLog(p, d.deploymentId)).lines.map((l) => l.m);
  const served = JSON.parse((await edgeFetch(env.edge, d.host, '/')).text) as Record<string, string | null>;
  return { read, log, served };
}

describe('linked resources reach the deployments of their project', () => {
  let projectId: string;
  let database: { resourceId: string; physicalName: string; region: string };
  let bucket: { resourceId: string; physicalName: string; region: string };

  beforeAll(async () => {
    ({ projectId } = await newProject(p, 'node', { buildCommand: 'node print-env.js' }));
    // A project variable of the same name gives way to the link.
    await p.put(`${orgPath()}/projects/${projectId}/env/DATABASE_TABLE`, {
      value: 'set-by-hand',
      targets: ['preview'],
      sensitive: false,
    });
    const name = `l${Date.now().toString(36)}`;
    const db = await p.post(`${orgPath()}/resources`, { type: 'database', name: `${name}-db`, projectId });
    const bk = await p.post(`${orgPath()}/resources`, { type: 'bucket', name: `${name}-files`, projectId });
    expect([db.status, bk.status]).toEqual([201, 201]);
    database = db.body.resource;
    bucket = bk.body.resource;
  });

  it('at build time and at run time', async () => {
    const { log, served } = await deployed(projectId);
    const expected = {
      DATABASE_TABLE: database.physicalName,
      DATABASE_REGION: database.region,
      BUCKET_NAME: bucket.physicalName,
      BUCKET_REGION: bucket.region,
    };
    for (const [name, value] of Object.entries(expected)) expect(log).toContain(`${name}=${value}`);
    expect(served).toEqual(expected);
  });

  it('unlinked, the next deployment has neither (and is not skipped: its variables changed)', async () => {
    for (const [type, r] of [
      ['database', database],
      ['bucket', bucket],
    ] as const) {
      const res = await p.patch(`${orgPath()}/resources/${type}/${r.resourceId}`, { projectId: null });
      expect(res.status).toBe(200);
    }
    const { log, served } = await deployed(projectId);
    expect(log).toContain('DATABASE_TABLE=set-by-hand');
    expect(log).toContain('BUCKET_NAME=(unset)');
    expect(served).toEqual({
      DATABASE_TABLE: 'set-by-hand',
      DATABASE_REGION: null,
      BUCKET_NAME: null,
      BUCKET_REGION: null,
    });
  });
});
